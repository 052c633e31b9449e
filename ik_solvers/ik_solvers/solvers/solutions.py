# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Several distinct verified solutions of one pose, ordered by a preference.

:func:`solve_many` runs :func:`ik_solvers.solve` from the seed first (so ``max_solutions=1``
with the ``nearest`` preference is today's answer), then from further starts until it holds
``max_solutions`` distinct solutions, the stopping rule says no more exist, or the deadline
comes. The further starts are, first, the branch flips of every solution found
(:mod:`.branch_flips`: the elbow, wrist and shoulder flips derived from the chain's structure,
exact on an arm like the UR), then single half turns of each joint, then random configurations
from a generator with a fixed seed. A flip that lands within ``distinct_threshold`` of a known
solution (an elbow flipped back) is that solution and is not searched, and a solution found
from a flip is not flipped by that flip again (it would lead straight back). Near a singularity
two branches lie closer than a flip's usual reach (an elbow at 0.01 rad flips to -0.01): a
full pose's solutions are taken to the exact roots they lie near (a few Newton steps), so that
such twins are told apart.

**Stopping rule** (``closure_starts``, default 8): the set of solutions found is closed under
the flips once every flip of every one of them was tried; then ``closure_starts`` further
starts in a row that find nothing new end the search. A pose with fewer solutions than asked
so costs a few searches instead of the whole deadline.

**Distinct**: two solutions are the same when every joint differs by at most
``distinct_threshold`` (default :data:`DISTINCT_THRESHOLD`, 0.01 rad or m), with continuous
joints and joints whose range spans a whole turn or more compared modulo a turn (their
solutions are put on the turn nearest the seed). 0.01 rad is a hundred times the joint spread
of one branch at the default tolerances (1e-5 m, 1e-5 rad) and far below the gap between two
branches of a generic pose, which is of the order of a radian.

On a redundant chain (more joints than constrained pose rows) each solution then climbs the
preference along its self-motion (:mod:`.null_space`), measured again by forward kinematics;
solutions that meet there count once. Every returned solution meets the tolerances by forward
kinematics, lies within the limits, and is collision-free when a collision model is given.
"""

import dataclasses
from dataclasses import dataclass
import math
import time
from collections import deque
from typing import Any, Deque, Iterator, List, Optional, Tuple

import numpy as np

from ..exceptions import InvalidSolverOptionError
from ..preferences import make_preference
from ._core.root_refinement import refine_root
from .branch_flips import branch_flips, flip_kinds, half_turns
from .ranking import at_bound, climbed, goal_fields, moved
from .request import from_keywords, Goal, SearchOptions
from .result import IKResult
from .solve import nearest_turn, solve
from .warm_up import is_warm, warm_up

__all__ = ['DISTINCT_THRESHOLD', 'Solutions', 'distinct', 'joint_distance', 'solve_many',
           'turn_joints']

#: Two solutions closer than this on every joint (rad or m) are the same solution.
DISTINCT_THRESHOLD = 0.01
# Seed of the generator of the random starts: the same call gives the same answers whenever
# the deadline allows the same starts.
_RANDOM_SEED = 20260531
_TURN = 2.0 * math.pi
# Starts per further search: one, so that a start that leads to a known branch costs one
# descent, not a restart series.
_FURTHER_ATTEMPTS = 1
# Newton steps from a full pose's solution to its root: from within the tolerances, a step
# or two reach float precision where the Jacobian is well conditioned, four near a singularity.
_ROOT_STEPS = 4


@dataclass(frozen=True)
class Solutions:
    """
    The distinct solutions of one pose, best first by the preference.

    :ivar results: one :class:`IKResult` per solution (each a success), best first.
    :ivar scores: the preference's score of each (higher is better).
    :ivar preference: the preference's name.
    :ivar first: the result of the search from the seed (a failure when ``results`` is
        empty: its status says why).
    :ivar searches: searches run (the one from the seed counts).
    :ivar elapsed: wall-clock time of the whole call, s.
    """

    results: Tuple[IKResult, ...]
    scores: Tuple[float, ...]
    preference: str
    first: IKResult
    searches: int
    elapsed: float

    @property
    def success(self) -> bool:
        """Return whether at least one solution was found."""
        return bool(self.results)

    @property
    def configurations(self) -> List[np.ndarray]:
        """Return the solutions' configurations, best first, rad or m."""
        return [result.q for result in self.results]


def turn_joints(chain) -> np.ndarray:
    """Return a mask of the joints compared modulo a turn: continuous or spanning >= a turn."""
    span = np.asarray(chain.upper, dtype=float) - np.asarray(chain.lower, dtype=float)
    revolute = ~np.asarray(chain.is_prismatic, dtype=bool)
    return revolute & (np.asarray(chain.is_continuous, dtype=bool) | (span >= _TURN - 1e-9))


def joint_distance(a: np.ndarray, b: np.ndarray, modulo: np.ndarray) -> float:
    """Return the largest joint difference of ``a`` and ``b``, ``modulo`` joints modulo a turn."""
    difference = np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))
    wrapped = np.mod(difference, _TURN)
    difference = np.where(modulo, np.minimum(wrapped, _TURN - wrapped), difference)
    return float(np.max(difference)) if difference.size else 0.0


def distinct(q: np.ndarray, known: List[np.ndarray], modulo: np.ndarray,
             threshold: float = DISTINCT_THRESHOLD) -> bool:
    """Return whether ``q`` differs from every one of ``known`` by more than ``threshold``."""
    return all(joint_distance(q, other, modulo) > threshold for other in known)


def _checked_count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidSolverOptionError('%s must be an integer >= 1, got %r' % (name, value))
    return int(value)


def solve_many(chain, target: np.ndarray, *, max_solutions: int = 8,
               preference: str = 'nearest', rest_posture: Optional[np.ndarray] = None,
               weights: Optional[np.ndarray] = None, seed: Optional[np.ndarray] = None,
               timeout: float = 0.005, distinct_threshold: float = DISTINCT_THRESHOLD,
               null_space: bool = True, null_space_steps: int = 30,
               collision=None, first: Optional[IKResult] = None,
               closure_starts: Optional[int] = 8, goal: Optional[Goal] = None,
               options: Optional[SearchOptions] = None, **solve_options: Any) -> Solutions:
    """
    Find up to ``max_solutions`` distinct solutions of ``target``, best first by ``preference``.

    :param chain: a :class:`ik_solvers.Chain`.
    :param target: (4, 4) tip pose in the base frame, m.
    :param max_solutions: stop at this many distinct solutions (>= 1).
    :param preference: a name of :data:`ik_solvers.preferences.PREFERENCES`: ``'nearest'``
        (to the seed, the default), ``'rest_posture'``, ``'limit_margin'``,
        ``'manipulability'``, ``'clearance'`` (needs ``collision``).
    :param rest_posture: (N,) the rest configuration of ``'rest_posture'`` (default: the
        middle of the limits), rad or m; ``weights`` (N,) its joint weights (default 1).
    :param seed: the first start, (N,) rad or m (None: the middle of the limits).
    :param timeout: deadline of the whole call, s; the search from the seed has all of it.
    :param distinct_threshold: rad or m, see the module's description.
    :param null_space: on a redundant chain, climb the preference along the self-motion.
    :param null_space_steps: cap on null-space steps per solution.
    :param collision: a collision model (``check``, ``with_padding``): every solution is
        collision-free; ``'clearance'`` measures against it.
    :param closure_starts: the stopping rule: once every flip of every solution found has
        been tried (the set of solutions is closed under the flips) and this many further
        starts (half turns, then random configurations) in a row found nothing new, stop
        (see docs/solutions.md for its trade-off); None searches until ``max_solutions`` or
        the deadline.
    :param first: a successful result of :func:`ik_solvers.solve` for this target from
        ``seed`` with these options, already at hand (the ik_node's): it replaces the first
        search.
    :param solve_options: further options of :func:`ik_solvers.solve` (solver, tolerances,
        orientation mode, ...). With ``orientation_mode='axis'`` or per-axis bounds no
        null-space step is made (its error measure is the full pose or the position).
    :param goal: the whole goal of every search, as :func:`ik_solvers.solve` takes it.
    :param options: the whole search options of every search (their timeout and starts are
        this call's); then no search keyword may be given in ``solve_options``.
    :returns: :class:`Solutions`.
    :raises InvalidSolverOptionError: ``max_solutions``, ``distinct_threshold`` or
        ``closure_starts`` is out of range, an unknown preference, a bad rest posture; and
        what :func:`ik_solvers.solve` raises.
    """
    solver = (options.solver if options is not None
              else solve_options.get('solver', 'jacobian_transpose'))
    if isinstance(solver, str) and not is_warm(solver):  # no compilation inside the deadline
        warm_up((solver,))
    started = time.perf_counter()
    count = _checked_count(max_solutions, 'max_solutions')
    if not (isinstance(distinct_threshold, (int, float)) and 0.0 < distinct_threshold < math.inf):
        raise InvalidSolverOptionError('distinct_threshold must be a finite positive number, '
                                       'got %r' % (distinct_threshold,))
    if closure_starts is not None and (isinstance(closure_starts, bool) or not isinstance(
            closure_starts, (int, np.integer)) or closure_starts < 0):
        raise InvalidSolverOptionError('closure_starts must be None or an integer >= 0, got %r'
                                       % (closure_starts,))
    lower, upper = np.asarray(chain.lower), np.asarray(chain.upper)
    reference = chain.clip(seed) if seed is not None else chain.mid_configuration()
    ranking = make_preference(preference, chain, seed=reference, rest_posture=rest_posture,
                              weights=weights, collision=collision)
    deadline = started + float(timeout)
    searches = 0

    # One typed request for every search; each search only changes its deadline and starts.
    request_goal, request_options = from_keywords(solve_options, goal=goal, options=options)

    # The further searches' options, made once (a replace checks every field again).
    further = dataclasses.replace(request_options, max_attempts=_FURTHER_ATTEMPTS)

    # A full pose's solutions are taken to the exact roots they lie near (see _on_root).
    exact = (request_goal.mode == 'full' and request_goal.position_bounds is None
             and request_goal.rotation_bounds is None)
    # Fresh writeable arrays: the types the compiled steps were warmed up for.
    low, high = np.array(lower, dtype=float), np.array(upper, dtype=float)

    def search(start: Optional[np.ndarray], seconds: float, options: SearchOptions) -> IKResult:
        result = solve(chain, target, start, goal=request_goal, options=options,
                       timeout=seconds, collision=collision)
        return _on_root(chain, target, result, low, high, collision) if exact else result

    if first is None or not first.success:
        first = search(seed, timeout, request_options)
        searches = 1
    elif exact:
        first = _on_root(chain, target, first, low, high, collision)
    found: List[IKResult] = []
    modulo = turn_joints(chain)
    if first.success:
        found.append(first)
    # The preference's own starts come first: they lead to its best-scored branches.
    queue: Deque[np.ndarray] = deque(np.clip(start, lower, upper) for start in ranking.starts())
    # The flip (index of :func:`branch_flips`) that made each start in the queue (None: not a
    # flip); a solution found from a flip needs not that flip again: it leads straight back.
    made_by: Deque[Optional[int]] = deque(None for _ in queue)
    kinds = flip_kinds(chain)
    owed, tried = len(queue), 0
    # The structured flips of every solution found come before any single half turn: they
    # land on a new branch far more often.
    # The solutions whose flips are not made yet: made when the queue runs empty, so that a
    # pose whose branches are all found early costs no flips it will not search.
    unflipped: Deque[Tuple[np.ndarray, Optional[int]]] = deque(
        (result.q, None) for result in found)
    known = np.array([result.q for result in found]).reshape(len(found), chain.num_joints)
    later = _later_starts(chain, found, lower, upper)
    # Searches since the branch set was last closed under the flips (the queue of flips ran
    # empty) without a new solution: the closure rule's count.
    fruitless = 0
    # Solutions found that reach the preference's upper bound on their best turn: once
    # max_solutions do, no further solution can enter the answer.
    unbeaten = sum(_unbeatable(ranking, result.q) for result in found)
    # The preference's starts are always tried (then the best max_solutions kept), so that
    # max_solutions=1 too gets the best-scored branch, unless nothing can beat what is found.
    while found and (len(found) < count or tried < owed) and unbeaten < count:
        if not queue and unflipped and tried >= owed:
            q, skip = unflipped.popleft()
            flips = branch_flips(chain, q, lower, upper, skip=skip)
            queue.extend(flips)
            made_by.extend([kind for kind in range(kinds) if kind != skip][:len(flips)])
            continue
        if closure_starts is not None and not queue and tried >= owed \
                and fruitless >= closure_starts:
            break
        remaining = deadline - time.perf_counter()
        if remaining <= 0.0:
            break
        if queue:
            start, origin = queue.popleft(), made_by.popleft()
            # A flip of a flip is often a solution already known (an elbow flipped back):
            # no search for it.
            if tried >= owed and not _is_new(start, known, modulo, distinct_threshold):
                continue
            closing = False
        else:
            start, origin = next(later), None
            closing = tried >= owed
        result = search(start, remaining, further)
        searches += 1
        tried += 1
        fruitless += closing
        if not result.success:
            continue
        q = nearest_turn(result.q, reference, chain)
        if _is_new(q, known, modulo, distinct_threshold):
            found.append(moved(result, q))
            unbeaten += _unbeatable(ranking, q)
            known = np.vstack((known, q))
            fruitless = 0
            unflipped.append((q, origin))
    found = climbed(chain, target, found, ranking,
                    lambda q, others: distinct(q, others, modulo, distinct_threshold),
                    deadline=deadline, enabled=null_space and ranking.has_gradient,
                    steps=null_space_steps, collision=collision,
                    fields=goal_fields(goal, solve_options))
    scores = [ranking.score(result.q) for result in found]
    order = sorted(range(len(found)), key=lambda index: -scores[index])[:count]
    return Solutions(results=tuple(found[index] for index in order),
                     scores=tuple(scores[index] for index in order),
                     preference=ranking.name, first=first, searches=searches,
                     elapsed=time.perf_counter() - started)


def _on_root(chain, target: np.ndarray, result: IKResult, lower: np.ndarray,
             upper: np.ndarray, collision) -> IKResult:
    """
    Take a solution of a full pose to the exact root it lies near.

    The search stops at the tolerances; near a singularity that leaves a solution milliradians
    from its branch's root, with another branch as close, so that two branches look alike or
    one looks like none. A few Newton steps (:data:`_ROOT_STEPS`, each kept only when it
    lowers the error, within the limits) put it on the root; the result keeps the solution
    as found when they do not lower both errors or, with a collision model, collide.
    """
    if not result.success:  # the target is then known to be a valid pose
        return result
    q = result.q.copy()
    errors = refine_root(chain.arrays, np.array(target, dtype=float), q, lower, upper,
                         _ROOT_STEPS)
    if (errors[0] > result.position_error or errors[1] > result.orientation_error
            or (collision is not None and collision.check(q, stop_at_first=True).colliding)):
        return result
    return moved(result, q, float(errors[0]), float(errors[1]))


def _is_new(q: np.ndarray, known: np.ndarray, modulo: np.ndarray, threshold: float) -> bool:
    """Return :func:`distinct` of ``q`` from the rows of ``known`` (K, N), in one pass."""
    difference = np.abs(known - q)
    wrapped = np.mod(difference, _TURN)
    difference = np.where(modulo, np.minimum(wrapped, _TURN - wrapped), difference)
    return not bool((difference.max(axis=1, initial=0.0) <= threshold).any())


def _unbeatable(ranking, q: np.ndarray) -> bool:
    """Return whether ``q`` on its best turn reaches the preference's upper bound."""
    if not math.isfinite(ranking.upper_bound()):
        return False  # no bound: nothing to score before the search
    return at_bound(ranking, ranking.score(ranking.best_turn(q)))


def _later_starts(chain, found: List[IKResult], lower: np.ndarray,
                  upper: np.ndarray) -> Iterator[np.ndarray]:
    """Yield each solution's half turns (made when first needed), then random starts."""
    index = 0
    while index < len(found):
        yield from half_turns(found[index].q, lower, upper)
        index += 1
    rng = np.random.default_rng(_RANDOM_SEED)
    while True:
        yield chain.random_configuration(rng)
