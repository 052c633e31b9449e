# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
:func:`solve_tree`: one goal per tip of a :class:`~ik_solvers.kinematics.tree.KinematicTree`.

Each attempt starts from the seed (the first) or a random configuration within the limits
(every other restart keeps, from the best answer so far, the joints that move only met tips),
runs the chosen heuristic (one file each: ``tree_fabrik``, ``tree_ccd``,
``tree_jacobian_transpose``, ``tree_length_relaxation``) and, unless ``polish=False``, the
prioritised polish (:mod:`.tree_polish`). Every answer is checked by forward kinematics of
each tip against its own tolerances: :attr:`TreeResult.met` says which tips are met. Attempts
stop at the first configuration meeting every tip, at ``timeout`` or ``max_attempts``, or
when the required tips are met and the best-effort ones stopped improving; the best answer
is the one meeting most required tips, then, when all are met, the one with the least weighted
best-effort error (otherwise the least required error).
"""

import time
import warnings
from dataclasses import dataclass, field
from typing import Dict, Optional, Sequence, Tuple

import numpy as np

from .status import Status
from .tree_ccd import tree_ccd
from .tree_fabrik import tree_fabrik
from .tree_polish import tree_polish
from .tree_goals import pack_goals, tip_errors, TipGoal
from .tree_jacobian_transpose import tree_jacobian_transpose
from .tree_length_relaxation import tree_length_relaxation
from .tree_points import tree_kernel
from ..exceptions import InvalidSolverOptionError, UnknownSolverError
from ..kinematics.tree import KinematicTree

__all__ = ['TREE_SOLVERS', 'TreeOptions', 'TreeResult', 'solve_tree']

#: The heuristics on trees, by the chain solvers' names.
TREE_SOLVERS = {
    'fabrik': tree_fabrik,
    'ccd': tree_ccd,
    'jacobian_transpose': tree_jacobian_transpose,
    'length_relaxation': tree_length_relaxation,
}

# Attempts without a better answer, once the required tips are met, before the search stops.
_PATIENCE = 3


@dataclass(frozen=True)
class TreeOptions:
    """
    How one tree solve searches.

    :ivar timeout: deadline of the solve, s.
    :ivar polish: run the polish after the heuristic in every attempt.
    :ivar max_attempts: cap on the attempts, or None (until the deadline).
    :ivar iterations: heuristic iterations per attempt; None: 10 with the polish (the heuristic
        does the global work, the polish the last digits), 1000 alone.
    :ivar stall: heuristic iterations without 5 % progress before an attempt gives up (a quarter
        of them while it is still far from the goals).
    :ivar polish_iterations: polish steps per attempt (at most: it stops at a local
        minimum).
    :ivar finisher_iterations: the previous release's name of ``polish_iterations``; given,
        it sets that field and warns (DeprecationWarning), for one release.
    :raises InvalidSolverOptionError: a value out of range.
    """

    timeout: float = 0.05
    polish: bool = True
    max_attempts: Optional[int] = None
    iterations: Optional[int] = None
    stall: int = 30
    polish_iterations: int = 60
    finisher_iterations: Optional[int] = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.finisher_iterations is not None:
            warnings.warn('TreeOptions(finisher_iterations=...) is deprecated; use '
                          'TreeOptions(polish_iterations=%r)' % (self.finisher_iterations,),
                          DeprecationWarning, stacklevel=3)
            object.__setattr__(self, 'polish_iterations', self.finisher_iterations)
            object.__setattr__(self, 'finisher_iterations', None)
        if not (self.timeout > 0 and np.isfinite(self.timeout)):
            raise InvalidSolverOptionError('timeout must be a positive number of seconds')
        for name in ('max_attempts', 'iterations'):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise InvalidSolverOptionError('%s must be a positive integer or None' % name)
        for name in ('stall', 'polish_iterations'):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise InvalidSolverOptionError('%s must be a positive integer' % name)


@dataclass(frozen=True)
class TreeResult:
    """
    The answer of :func:`solve_tree`.

    :ivar q: (N,) the configuration, within the limits, in the tree's variable order.
    :ivar status: ``SUCCESS`` when every tip is met (FK-verified), ``TIMED_OUT`` when the
        deadline came first, ``NO_SOLUTION`` otherwise.
    :ivar tips: the tip links, in the order of ``met`` and ``errors``.
    :ivar met: per tip, whether its forward kinematics meets its goal's tolerances.
    :ivar required: per tip, whether it was required.
    :ivar errors: (T, 2) position (m) and orientation (rad) error per tip.
    :ivar attempts: the attempts run.
    :ivar seconds: the solve's time, s; :ivar heuristic_seconds: of which in the heuristic.
    :ivar iterations: the heuristic's iterations, summed over the attempts.
    """

    q: np.ndarray
    status: Status
    tips: Tuple[str, ...]
    met: Tuple[bool, ...]
    required: Tuple[bool, ...]
    errors: np.ndarray
    attempts: int
    seconds: float
    heuristic_seconds: float
    iterations: int = 0

    @property
    def success(self) -> bool:
        """Whether every tip is met."""
        return self.status == Status.SUCCESS

    @property
    def required_met(self) -> bool:
        """Whether every required tip is met (best-effort ones as close as they allow)."""
        return all(m for m, r in zip(self.met, self.required) if r)

    def joint_positions(self, tree: KinematicTree) -> Dict[str, float]:
        """Return the configuration by joint name."""
        return dict(zip(tree.joint_names, (float(value) for value in self.q)))


def solve_tree(tree: KinematicTree, goals: Sequence[TipGoal], solver: str = 'fabrik', *,
               seed: Optional[np.ndarray] = None, options: TreeOptions = TreeOptions(),
               rng: Optional[np.random.Generator] = None) -> TreeResult:
    """
    Solve the goals of a tree's tips with one heuristic (and the polish).

    :param tree: the tree.
    :param goals: at most one :class:`TipGoal` per tip; a tip without one holds its pose at
        ``seed``.
    :param solver: one of :data:`TREE_SOLVERS`.
    :param seed: (N,) where the search starts and untargeted tips hold; the middle of the
        limits when None (then every tip needs a goal).
    :param options: the search's budget.
    :param rng: the restarts' random generator (a fixed one when None).
    :raises UnknownSolverError: an unknown solver.
    :raises InvalidTargetError: as :func:`.tree_goals.pack_goals`.
    :raises InvalidSeedError: a seed that is not N finite values.
    """
    started = time.perf_counter()
    if solver not in TREE_SOLVERS:
        raise UnknownSolverError('unknown tree solver %r; known: %s'
                                 % (solver, ', '.join(sorted(TREE_SOLVERS))))
    heuristic = TREE_SOLVERS[solver]
    start = None if seed is None else tree.clip_into_limits(tree.configuration(seed))
    packed = pack_goals(tree, goals, start)
    kernel = tree_kernel(tree)
    rng = np.random.default_rng(0) if rng is None else rng
    iterations = options.iterations or (10 if options.polish else 1000)
    first = tree.mid_configuration() if start is None else start
    best, best_score, heuristic_seconds, attempts, since = None, None, 0.0, 0, 0
    best_met = None
    iterations_run = 0
    required = packed.required != 0.0
    timed_out = False
    while True:
        q = (first if attempts == 0 else tree.random_configuration(rng)).copy()
        if attempts % 2 == 1 and best_met is not None and best_met.any():
            # A restart keeps the joints that move met tips only (an arm on a fixed torso
            # that reached its goal), every other one: only the rest of the tree starts anew.
            keep = ~np.any(kernel.below[:, tree.num_joints:tree.num_joints + len(best_met)]
                           & ~best_met[None, :], axis=1)
            q[keep] = best[keep]
        attempts += 1
        began = time.perf_counter()
        iterations_run += heuristic(kernel, packed, q, iterations, options.stall)
        heuristic_seconds += time.perf_counter() - began
        if options.polish:
            tree_polish(kernel, packed, q, options.polish_iterations)
        errors = tip_errors(packed, tree.fk(q))
        met = (errors[:, 0] <= packed.tolerances[:, 0]) & (errors[:, 1] <= packed.tolerances[:, 1])
        weighted = packed.weights ** 2 * (errors[:, 0] ** 2 + (packed.scale * errors[:, 1]) ** 2)
        all_required = bool(met[required].all())
        score = (-int(np.sum(met & required)),
                 float(np.sum(weighted[~required] if all_required else weighted[required])))
        if best_score is None or score < best_score:
            improved = (best_score is None or score[0] < best_score[0]
                        or score[1] < best_score[1] * (1 - 1e-6))
            best, best_score, best_met, best_errors = q, score, met, errors
            since = 0 if improved else since + 1
        else:
            since += 1
        if met.all():
            break
        if best_met[required].all() and since >= _PATIENCE:
            break
        if options.max_attempts is not None and attempts >= options.max_attempts:
            break
        if time.perf_counter() - started > options.timeout:
            timed_out = True
            break
    status = (Status.SUCCESS if best_met.all()
              else Status.TIMED_OUT if timed_out else Status.NO_SOLUTION)
    return TreeResult(best, status, tree.tip_links, tuple(bool(m) for m in best_met),
                      tuple(bool(r) for r in required), best_errors, attempts,
                      time.perf_counter() - started, heuristic_seconds, iterations_run)
