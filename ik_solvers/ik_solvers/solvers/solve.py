# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The one entry point: validate, run the compiled search of the named heuristic, report.

Everything numeric happens in one compiled call (see :mod:`.search`): the heuristic's
iterations from the seed and from restarts, the hand-over to the finisher, the deadline and the
final measurement of the returned configuration by forward kinematics. Restarts come from a
generator with a fixed seed, and the first configuration that meets the tolerances is returned
at once: the output then depends only on the inputs, never on the machine's speed, whenever a
solution is found before the deadline. The defaults were chosen by measurement; the figures are
in docs/DECISIONS.md.
"""

import time
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple

import numpy as np

from ..exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from .inputs import STATUS_INVALID_SEED, STATUS_INVALID_TARGET
from .registry import solver_class
from .search_entry import search_entry
from .search_options import (check_counts, checked_orientation_weight,
                             heuristic_and_options, search_settings)
from .closest_orientation import closest_orientation
from .collision_avoidance import avoid_collisions, CollisionCheck
from .goal_options import goal_options, GoalOptions, is_positive_number
from .input_arrays import search_seed, search_target, target_problem
from .layout import (
    DEADLINE,
    MODE_NONE,
    ORIENTATION_MODE,
    REPORT_ATTEMPTS,
    REPORT_FINAL_COST,
    REPORT_FINISHER_ITERATIONS,
    REPORT_HANDOFF_COST,
    REPORT_HEURISTIC_ITERATIONS,
    REPORT_MET,
    REPORT_ORIENTATION_ERROR,
    REPORT_POSITION_ERROR,
    REPORT_SIZE,
    REPORT_START_COST,
    REPORT_STATUS,
    STATUS_SUCCESS as STATUS_CODE_SUCCESS,
)
from .result import (
    IKResult,
    STATUS_CLOSEST_ORIENTATION,
    STATUS_IN_COLLISION,
    STATUS_NO_SOLUTION,
    STATUS_SUCCESS,
    STATUS_TIMED_OUT,
)
from .search import nearest_turn as _nearest_turn_kernel
from .warm_up import is_warm, warm_up

__all__ = ['nearest_turn', 'solve']

# With the orientation fallback on, the search has this share of the timeout; the fallback
# the rest.
_SEARCH_SHARE_WITH_FALLBACK = 0.7
_STATUS_NAMES = (STATUS_SUCCESS, STATUS_NO_SOLUTION, STATUS_TIMED_OUT)
# What solve() derives from its options, by the options (and the chain): checking and deriving
# cost several microseconds a call, a look-up a fraction of one.
_CALLS: Dict[tuple, '_Call'] = {}
_CALLS_CAPACITY = 256


def solve(chain, target: np.ndarray, *, seed: Optional[np.ndarray] = None,
          solver: str = 'jacobian_transpose', orientation_mode: str = 'full',
          tip_axis: Any = (0.0, 0.0, 1.0), position_only: bool = False,
          position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
          position_bounds: Any = None, rotation_bounds: Any = None,
          orientation_fallback: bool = False, timeout: float = 0.005,
          polish: Optional[bool] = None, polish_iterations: int = 20,
          max_attempts: Optional[int] = None, collision: Optional[CollisionCheck] = None,
          **solver_options: Any) -> IKResult:
    """
    Find joint positions that bring the chain's tip to ``target``.

    Each start runs the heuristic until it meets the tolerances, stalls, or (with the
    finisher on) slows down (one iteration leaves more than the solver's ``handoff_ratio`` of
    the cost it started from) or comes within the solver's hand-over errors; then, with
    ``polish`` on, a few damped least-squares steps finish (see
    :mod:`ik_solvers.solvers.finisher`). A seed already within 5 % of the chain's length hands
    over after two steps. The first start is ``seed``; later ones are drawn by a generator with
    a fixed seed. The heuristic runs first in every start; its trust region keeps a seed close
    to a solution near that solution. The best configuration wins, each revolute joint on the
    turn nearest the seed, and its errors are measured by forward kinematics.

    :param chain: a :class:`ik_solvers.Chain`.
    :param target: (4, 4) pose of the tip in the chain's base frame (m).
    :param seed: start configuration, (N,), rad or m; values outside the limits are clamped.
        None starts from the middle of the limits.
    :param solver: one of :data:`ik_solvers.SOLVERS`.
    :param orientation_mode: what of the target's orientation counts: ``'full'`` (all of
        it), ``'axis'`` (the tip axis ``tip_axis`` must point along the same axis of the target
        frame; the spin about it is free) or ``'none'`` (position only).
    :param tip_axis: the aimed axis in ``'axis'`` mode, 3 numbers in the tip frame (normalised;
        default the tip's z axis).
    :param position_only: an alias of ``orientation_mode='none'``.
    :param position_tolerance: largest accepted position error (its norm), m.
    :param orientation_tolerance: largest accepted orientation error, rad: the rotation angle
        in ``'full'`` mode, the angle between the tip axis and the target direction in
        ``'axis'`` mode.
    :param position_bounds: optional largest position error per axis of the base frame, 3
        values, m (``math.inf`` leaves an axis free); when given they replace
        ``position_tolerance``.
    :param rotation_bounds: optional largest orientation error per axis of the target frame (the
        rotation vector's components), 3 values, rad (``math.inf`` free); ``'full'`` mode only;
        when given they replace ``orientation_tolerance``.
    :param orientation_fallback: ``'full'`` mode only: when no configuration meets the pose,
        return the one that meets the position with the orientation as close as the arm gets
        (for arms with fewer than six joints). Such a result has ``status``
        ``'closest_orientation'`` and is never a success. The search then has 70 % of the
        timeout, the fallback the rest.
    :param timeout: hard deadline, s, from the call.
    :param polish: run the finisher after the heuristic in every start; None takes the
        solver's ``polish_by_default`` (on for all four). Off, the heuristic alone must reach
        the tolerances.
    :param polish_iterations: cap on finisher steps per start.
    :param max_attempts: cap on the number of starts (None: until the deadline).
    :param collision: an exact collision check (e.g. ``ik_solvers.collision.CollisionModel``
        of this chain); every success is checked, and a colliding one is rejected and the
        search reseeded from random configurations until the deadline. None checks nothing.
    :param solver_options: options of the chosen solver (see its ``option_schema()``), plus
        ``orientation_weight`` (m per rad) to override how orientation errors weigh against
        position errors.

    :returns: An :class:`IKResult`; ``q`` is within the limits even when ``success`` is false.
        ``status`` is ``'no_solution'`` when the target is beyond the chain's reach, when the
        best error stopped improving over the later half of the starts, or when
        ``max_attempts`` ran out; ``'timed_out'`` when the deadline came while it improved;
        ``'in_collision'`` when every solution found collided (``collision_pair`` names the
        pair).

    :raises InvalidTargetError: ``target`` is not a finite 4x4 rigid transform, a tolerance is
        not a finite positive number, or the goal options (mode, axis, bounds, fallback) are
        invalid or contradict each other.
    :raises InvalidSeedError: ``seed`` has the wrong length or non-finite values.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: an option is unknown or out of range, ``timeout`` is not
        a finite positive number, or ``collision`` has no ``check`` method.
    """
    if not is_warm(solver):  # never let a compilation eat the deadline
        warm_up((solver,))
    start_time = time.perf_counter()
    arrays = chain.arrays
    call = None
    if not solver_options:
        # Equal values of other types (True and 1, 20 and 20.0) are checked differently.
        key = (solver, orientation_mode, tip_axis, position_only, position_tolerance,
               orientation_tolerance, position_bounds, rotation_bounds, orientation_fallback,
               polish, polish_iterations, max_attempts, id(arrays), type(position_only),
               type(position_tolerance), type(orientation_tolerance), type(orientation_fallback),
               type(polish), type(polish_iterations), type(max_attempts))
        try:
            call = _CALLS.get(key)
        except TypeError:  # an option is not hashable (a list, an array): checked every time
            key = None
        if call is not None and call.arrays is not arrays:
            call = None
    if call is None:
        call = _checked_call(chain, solver, dict(
            orientation_mode=orientation_mode, tip_axis=tip_axis, position_only=position_only,
            position_tolerance=position_tolerance, orientation_tolerance=orientation_tolerance,
            position_bounds=position_bounds, rotation_bounds=rotation_bounds,
            orientation_fallback=orientation_fallback), polish, polish_iterations, max_attempts,
            solver_options)
        if not solver_options and key is not None:
            if len(_CALLS) >= _CALLS_CAPACITY:
                _CALLS.clear()
            _CALLS[key] = call
    if not is_positive_number(timeout):
        raise InvalidSolverOptionError('timeout must be a finite positive number of seconds, '
                                       'got %r' % (timeout,))
    if collision is not None and not callable(getattr(collision, 'check', None)):
        raise InvalidSolverOptionError('collision must offer check(q, stop_at_first), got %s'
                                       % type(collision).__name__)
    implementation, goal, options = call.implementation, call.goal, call.options
    pose = search_target(target)
    q = search_seed(seed, chain)
    # The search overwrites q; the reseeds and the fallback need the seed itself.
    start = q.copy() if collision is not None or goal.orientation_fallback else q

    budget = float(timeout)
    if goal.orientation_fallback:
        budget *= _SEARCH_SHARE_WITH_FALLBACK
    settings = call.settings.copy()
    settings[DEADLINE] = start_time + budget
    report = np.empty(REPORT_SIZE)
    call.search(arrays, pose, settings, options, q, report)
    values = report.tolist()  # Python floats: cheaper to read than numpy scalars
    status = values[REPORT_STATUS]
    attempts = int(values[REPORT_ATTEMPTS])
    iterations = int(values[REPORT_HEURISTIC_ITERATIONS] + values[REPORT_FINISHER_ITERATIONS])
    position_error = values[REPORT_POSITION_ERROR]
    orientation_error = values[REPORT_ORIENTATION_ERROR]
    costs = (values[REPORT_START_COST], values[REPORT_HANDOFF_COST], values[REPORT_FINAL_COST])
    if status == STATUS_INVALID_TARGET:
        raise InvalidTargetError(target_problem(pose))
    if status == STATUS_INVALID_SEED:
        raise InvalidSeedError('seed has non-finite values')
    status_name = _STATUS_NAMES[int(status)]
    success = values[REPORT_MET] != 0.0
    if not success and status_name == STATUS_SUCCESS:  # lost to rounding on the nearest turn
        status_name = STATUS_NO_SOLUTION
    finding = None
    if collision is not None:
        q, finding, reseeds, more = avoid_collisions(implementation, chain, pose, settings,
                                                     options, q, report, collision, start)
        attempts += reseeds
        iterations += more
        if reseeds:
            position_error = report[REPORT_POSITION_ERROR]
            orientation_error = report[REPORT_ORIENTATION_ERROR]
        if finding.colliding and success:
            success, status_name = False, STATUS_IN_COLLISION
    if not success and goal.orientation_fallback:
        settings[DEADLINE] = start_time + float(timeout)
        fallback = _closest_orientation(implementation, chain, pose, settings, options, q,
                                        start)
        if fallback is not None:
            q, position_error, orientation_error = fallback
            status_name = STATUS_CLOSEST_ORIENTATION
            if collision is not None:
                finding = collision.check(q, stop_at_first=True)
    return IKResult(q=q, success=success, position_error=float(position_error),
                    orientation_error=float(orientation_error),
                    iterations=iterations,
                    elapsed=time.perf_counter() - start_time, status=status_name,
                    solver=implementation.name, attempts=attempts,
                    polished=call.finisher, collision_checked=finding is not None,
                    collision_pair=_first_pair(finding),
                    unchecked_links=tuple(finding.unchecked_links) if finding else (),
                    costs=costs)


class _Call(NamedTuple):
    """Everything a solve() derives from its options, checked: the same for equal options."""

    arrays: Any
    implementation: type
    search: Callable
    options: np.ndarray
    settings: np.ndarray
    goal: GoalOptions
    finisher: bool


def _checked_call(chain, solver: Any, goal_keywords: Dict[str, Any], polish: Any,
                  polish_iterations: Any, max_attempts: Any,
                  solver_options: Dict[str, Any]) -> _Call:
    """Check solve()'s options and derive what its search needs (raises as solve() says)."""
    implementation = solver_class(solver)
    goal = goal_options(**goal_keywords)
    check_counts(polish_iterations, max_attempts)
    solver_options = dict(solver_options)
    orientation_weight = checked_orientation_weight(
        chain, solver_options.pop('orientation_weight', None))
    heuristic, options = heuristic_and_options(implementation, chain, solver_options)
    finisher = implementation.polish_by_default if polish is None else bool(polish)
    settings = search_settings(heuristic, finisher, goal, orientation_weight,
                               polish_iterations, max_attempts)
    return _Call(chain.arrays, implementation, search_entry(implementation.search, chain.arrays),
                 options, settings, goal, finisher)


def _first_pair(finding) -> Optional[Tuple[str, str]]:
    if finding is None or not finding.colliding or not finding.pairs:
        return None
    return tuple(finding.pairs[0])


def _closest_orientation(implementation: type, chain, pose: np.ndarray, settings: np.ndarray,
                         options: np.ndarray, best: np.ndarray,
                         seed: np.ndarray) -> Optional[Tuple[np.ndarray, float, float]]:
    """
    Return the configuration that meets the position with the closest orientation, or None.

    It starts from the search's best configuration; if the position cannot be met from there,
    a position-only search from it comes first.
    """
    report = np.empty(REPORT_SIZE)
    q = best.copy()
    closest_orientation(chain.arrays, pose, settings, q, report)
    if report[REPORT_STATUS] != STATUS_CODE_SUCCESS:
        q = best.copy()
        position_settings = settings.copy()
        position_settings[ORIENTATION_MODE] = MODE_NONE
        implementation.search(chain.arrays, pose, position_settings, options, q, report)
        closest_orientation(chain.arrays, pose, settings, q, report)
        if report[REPORT_STATUS] != STATUS_CODE_SUCCESS:
            return None
    _nearest_turn_kernel(q, seed, chain.arrays)
    return q, float(report[REPORT_POSITION_ERROR]), float(report[REPORT_ORIENTATION_ERROR])


def nearest_turn(q: np.ndarray, start: np.ndarray, chain) -> np.ndarray:
    """
    Move each revolute joint by whole turns to the value nearest ``start`` within its limits.

    The pose is the same, but a joint whose limits span more than a turn (continuous joints,
    and many industrial arms' +-2 pi) would otherwise be commanded a full spin to get there.

    :param q: (N,) configuration within the limits, rad or m.
    :param start: (N,) the configuration the solution should stay near (the seed).
    :param chain: the chain, for its limits and joint types.
    :returns: A new (N,) configuration with the same forward kinematics, within the limits.
    """
    result = np.array(q, dtype=float)
    _nearest_turn_kernel(result, np.asarray(start, dtype=float), chain.arrays)
    return result
