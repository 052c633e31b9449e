# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
:func:`solve_tree`: one goal per tip of a :class:`~ik_solvers.kinematics.tree.KinematicTree`.

Each attempt starts from the seed (the first) or a random configuration within the limits
(every other restart keeps, from the best answer so far, the joints that move only met tips),
runs the chosen heuristic (one file each: ``tree_fabrik``, ``tree_ccd``,
``tree_jacobian_transpose``, ``tree_length_relaxation``) and, unless ``polish=False``, the
prioritised polish (:mod:`.tree_polish`); the attempts run in one compiled loop
(:mod:`.tree_search`) that reads the deadline between attempts. Every answer is checked by
forward kinematics of each tip against its own tolerances: :attr:`TreeResult.met` says which
tips are met. Attempts stop at the first configuration meeting every tip, at ``timeout`` or
``max_attempts``, or when the required tips are met and the best-effort ones stopped improving;
the best answer is the one meeting most required tips, then, when all are met, the one with the
least weighted best-effort error (otherwise the least required error).
"""

import math
import time
import warnings
import weakref
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from .status import Status
from .tree_ccd import tree_ccd
from .tree_fabrik import tree_fabrik
from .tree_goals import pack_goals, TipGoal
from .tree_jacobian_transpose import tree_jacobian_transpose
from .tree_length_relaxation import tree_length_relaxation
from .tree_points import tree_kernel, TreeKernel
from .tree_search import (REPORT_SIZE, settings_array, STATUS_NO_SOLUTION, STATUS_SUCCESS,
                          STATUS_TIMED_OUT, TREE_SEARCHES)
from ..exceptions import InvalidSolverOptionError, UnknownSolverError
from ..kinematics.jit import specialised
from ..kinematics.tree import KinematicTree

__all__ = ['TREE_SOLVERS', 'TreeOptions', 'TreeResult', 'solve_tree']

#: The heuristics on trees, by the chain solvers' names.
TREE_SOLVERS = {
    'fabrik': tree_fabrik,
    'ccd': tree_ccd,
    'jacobian_transpose': tree_jacobian_transpose,
    'length_relaxation': tree_length_relaxation,
}

# Heuristic iterations per attempt with the polish: the heuristic does the global work, the
# polish the last digits. Past 3 iterations the heuristics' steps (8-40 us each on a two-arm
# tree) bought no success the polish did not reach anyway; with a best-effort tip CCD takes
# 10, which it needs to pull that tip as close as it goes (see docs/trees.md).
_POLISHED_ITERATIONS = 3
_BEST_EFFORT_CCD_ITERATIONS = 10
# The trust region of each heuristic with the polish, when the options give none (see
# TreeOptions.trust_region and docs/trees.md).
_POLISHED_TRUST_REGIONS = {'ccd': 0.5}
# The restarts' generator seed when the caller gives no generator: the same inputs give the
# same restarts, run after run.
_RESTART_SEED = 20260101
_PARK_MILLER_MODULUS = 2147483647
_STATUSES = {STATUS_SUCCESS: Status.SUCCESS, STATUS_TIMED_OUT: Status.TIMED_OUT,
             STATUS_NO_SOLUTION: Status.NO_SOLUTION}
# Per tree, made once (a tree does not change): the compiled kernels' view of it, and its
# searches compiled for the types of the arguments solve_tree makes, called without
# numba's per-call type dispatch (3 us of a 100 us two-arm solve, _core/search_entry.py).
_Compiled = Tuple[TreeKernel, Dict[str, Callable]]
_KERNELS: 'weakref.WeakKeyDictionary[KinematicTree, _Compiled]' = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class TreeOptions:
    """
    How one tree solve searches.

    :ivar timeout: deadline of the solve, s.
    :ivar polish: run the polish after the heuristic in every attempt.
    :ivar max_attempts: cap on the attempts, or None (until the deadline).
    :ivar iterations: heuristic iterations per attempt; None: with the polish 3 (10 for CCD
        with a best-effort tip; the heuristic does the global work, the polish the last
        digits), 1000 alone.
    :ivar stall: heuristic iterations without 5 % progress before an attempt gives up (a quarter
        of them while it is still far from the goals).
    :ivar polish_iterations: polish steps per attempt (at most: it stops at a local
        minimum).
    :ivar trust_region: a heuristic step moves each variable at most this multiple of the
        attempt's starting error over the goals' length scale (rad; m per length scale for a
        slide), and the extrapolation of its iterates at most as far again, as the chains'
        search bounds its steps; ``math.inf`` for no bound. None: with
        the polish, CCD's 0.5 (the chains' value; a full closed-form turn of a joint far from
        its goal throws the start into another basin, and the polish fails there more often)
        and no bound for the others; alone, no bound.
    :ivar extrapolation: each heuristic iteration (but the Jacobian transpose's, whose
        conjugate directions play that part) is followed by the secant point and the
        extrapolation of its iterates (:func:`.tree_secant.accelerate`). None: alone only, as
        the chains' search does; with the polish, which does the last digits, they cost more
        than they saved.
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
    trust_region: Optional[float] = None
    extrapolation: Optional[bool] = None
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
        if self.trust_region is not None and not (
                isinstance(self.trust_region, (int, float)) and self.trust_region > 0):
            raise InvalidSolverOptionError('trust_region must be a positive number, math.inf '
                                           'or None')
        if self.extrapolation is not None and not isinstance(self.extrapolation, bool):
            raise InvalidSolverOptionError('extrapolation must be True, False or None')


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
    :param rng: seeds the restarts' generator (a fixed seed when None); one draw per solve.
    :raises UnknownSolverError: an unknown solver.
    :raises InvalidTargetError: as :func:`.tree_goals.pack_goals`.
    :raises InvalidSeedError: a seed that is not N finite values.
    """
    started = time.perf_counter()
    if solver not in TREE_SOLVERS:
        raise UnknownSolverError('unknown tree solver %r; known: %s'
                                 % (solver, ', '.join(sorted(TREE_SOLVERS))))
    start = None if seed is None else tree.clip_into_limits(seed)
    packed = pack_goals(tree, goals, start)
    kernel, entries = _kernel(tree)
    restart_seed = (_RESTART_SEED if rng is None
                    else int(rng.integers(1, _PARK_MILLER_MODULUS - 1)))
    iterations = options.iterations or (
        1000 if not options.polish
        else _BEST_EFFORT_CCD_ITERATIONS if solver == 'ccd' and not packed.required.all()
        else _POLISHED_ITERATIONS)
    q = np.array(tree.mid_configuration() if start is None else start, dtype=np.float64,
                 order='C')
    count = len(tree.tip_links)
    met, errors = np.zeros(count, dtype=bool), np.zeros((count, 2))
    report = np.zeros(REPORT_SIZE)
    trust_region = options.trust_region
    if trust_region is None:
        trust_region = _POLISHED_TRUST_REGIONS.get(solver, math.inf) if options.polish \
            else math.inf
    settings = settings_array(iterations, options.stall, options.polish,
                              options.polish_iterations, options.max_attempts or 0,
                              started + options.timeout, restart_seed, float(trust_region),
                              not options.polish if options.extrapolation is None
                              else options.extrapolation)
    # Every argument is made here as a fresh writeable C-contiguous array of one type per
    # tree (the tree's own sampling array aside), which the specialised search requires.
    search = entries.get(solver)
    if search is None:
        search = entries[solver] = specialised(TREE_SEARCHES[solver], kernel, packed, q,
                                               tree.sampling, settings, met, errors, report)
    search(kernel, packed, q, tree.sampling, settings, met, errors, report)
    status = _STATUSES[int(report[0])]
    return TreeResult(q, status, tree.tip_links, tuple(met.tolist()),
                      tuple((packed.required != 0.0).tolist()), errors, int(report[1]),
                      time.perf_counter() - started, float(report[3]), int(report[2]))


def _kernel(tree: KinematicTree) -> _Compiled:
    """Return the compiled kernels' view of ``tree`` and its compiled searches, made once."""
    found = _KERNELS.get(tree)
    if found is None:
        found = _KERNELS[tree] = (tree_kernel(tree), {})
    return found
