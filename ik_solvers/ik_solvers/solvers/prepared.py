# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
One chain, goal and search options, checked and packed once, ready for many targets.

:func:`ik_solvers.solve` is a one-shot over one of these; a Cartesian path solves hundreds of
nearby targets with one (its :meth:`PreparedSolver.walk` and
:meth:`PreparedSolver.solve_sequence` make only the compiled call per target).
"""

import math
import time
from typing import Any, Optional, Tuple

import numpy as np

from ..exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from ._core.fallback_kernel import closest_orientation_answer
from ._core.input_checks import STATUS_INVALID_SEED, STATUS_INVALID_TARGET
from ._core.pack import new_report, pack, read_report, set_deadline, unpack
from ._core.collision_avoidance import avoid_collisions, CollisionCheck
from ._core.full_turns import search_arrays
from ._core.input_arrays import search_seed, search_target, seed_array, target_problem
from .request import from_keywords, Goal, is_positive_number, SearchOptions
from .result import IKResult
from ._core.search_entry import search_entry
from .status import Status
from ._core.walk import walk_targets
from .warm_up import is_warm, warm_up

__all__ = ['PreparedSolver']

# With the orientation fallback on, the search has this share of the timeout; the fallback
# the rest.
_SEARCH_SHARE_WITH_FALLBACK = 0.7
# The search's own outcomes, by the integer it reports.
_SEARCH_STATUSES = (Status.SUCCESS, Status.NO_SOLUTION, Status.TIMED_OUT)


class PreparedSolver:
    """
    One chain, goal and search options, checked and packed once, ready for many targets.

    :param chain: a :class:`ik_solvers.Chain`.
    :param goal: the :class:`Goal` (None: built from the keywords, by default the whole pose
        within 1e-5 m and 1e-5 rad).
    :param options: the :class:`SearchOptions` (None: built from the keywords).
    :param free_whole_turns: :meth:`solve` searches a revolute joint whose limits span a whole
        turn without them and answers within them, on the turn nearest the seed
        (:mod:`._core.full_turns`); False keeps every limit in the search, for a caller that
        tracks from its last point and must not be answered across a limit (a servo).
        :meth:`solve_sequence` always keeps them.
    :param keywords: instead of ``goal`` and ``options``, :func:`ik_solvers.solve`'s keyword
        arguments (``solver``, ``orientation_mode``, ``position_tolerance``, ...).
    :raises InvalidTargetError: a tolerance or goal option is out of range.
    :raises UnknownSolverError: the solver is not registered.
    :raises InvalidSolverOptionError: an option is unknown, out of range or does not fit the
        chain.

    :meth:`solve` may be called from several threads at once; :meth:`walk` and
    :meth:`solve_sequence` reuse the instance's arrays and may not.
    """

    def __init__(self, chain, goal: Optional[Goal] = None,
                 options: Optional[SearchOptions] = None, *, free_whole_turns: bool = True,
                 **keywords: Any) -> None:
        if keywords or goal is None or options is None:
            goal, options = from_keywords(keywords, goal=goal, options=options)
        heuristic = options.heuristic
        self.goal = goal
        self.options = options
        self._implementation = type(heuristic)
        self._options = heuristic.packed_options(chain)
        self._settings = pack(goal, heuristic, polish=options.runs_polish,
                              orientation_weight=options.orientation_weight(chain),
                              polish_iterations=options.polish_iterations,
                              max_attempts=options.max_attempts, tuning=options.tuning)
        self._chain = chain
        self._arrays = chain.arrays
        # Joints whose limits span a turn are searched without them, answered within them
        # (_core/full_turns.py); a path's next point, tracked from the last, keeps them.
        self._free_arrays = search_arrays(chain.arrays) if free_whole_turns else chain.arrays
        self._shape = (chain.num_joints,)
        self._report = new_report()
        # Read on every solve: plain attributes cost less than the typed request's properties.
        self._fallback = goal.orientation_fallback
        self._timeout = options.timeout
        self._solver_name = options.solver
        self._polish = options.runs_polish
        if not is_warm(options.solver):  # compile now rather than inside the first deadline
            warm_up((options.solver,))
        self._search = search_entry(self._implementation.search, self._free_arrays)
        self._tracking_search = search_entry(self._implementation.search, self._arrays)
        #: ``time.perf_counter()`` when this solver was ready (compiled and loaded).
        self.ready_time = time.perf_counter()

    @property
    def chain(self):
        """Return the chain every target is solved for."""
        return self._chain

    def solve(self, target: Any, seed: Any = None, *, timeout: Optional[float] = None,
              collision: Optional[CollisionCheck] = None,
              start_time: Optional[float] = None) -> IKResult:
        """
        Solve for one target from ``seed``, as :func:`ik_solvers.solve` describes.

        :param target: (4, 4) pose of the tip in the chain's base frame (m).
        :param seed: (N,) start configuration, rad or m (not modified); None: the middle of
            the limits.
        :param timeout: hard deadline, s, from ``start_time``; None takes the options'.
        :param collision: an exact collision check (``check(q, stop_at_first)``), or None.
        :param start_time: ``time.perf_counter()`` value the timeout counts from (default:
            now).
        :returns: An :class:`IKResult`.
        :raises InvalidTargetError: ``target`` is not a finite rigid transform.
        :raises InvalidSeedError: ``seed`` has the wrong length or non-finite values.
        :raises InvalidSolverOptionError: ``timeout`` is not a finite positive number, or
            ``collision`` has no ``check`` method.
        """
        if start_time is None:
            start_time = time.perf_counter()
        if timeout is None:
            timeout = self._timeout
        # The common case (a float timeout) is checked with plain comparisons.
        elif not (type(timeout) is float and 0.0 < timeout < math.inf) \
                and not is_positive_number(timeout):
            raise InvalidSolverOptionError('timeout must be a finite positive number of '
                                           'seconds, got %r' % (timeout,))
        if collision is not None and not callable(getattr(collision, 'check', None)):
            raise InvalidSolverOptionError('collision must offer check(q, stop_at_first), got '
                                           '%s' % type(collision).__name__)
        fallback = self._fallback
        pose = search_target(target)
        q = search_seed(seed, self._chain)
        # The search overwrites q; the reseeds and the fallback need the seed itself.
        start = q.copy() if collision is not None or fallback else q
        settings = self._settings.copy()
        set_deadline(settings, start_time + (float(timeout) * _SEARCH_SHARE_WITH_FALLBACK
                                             if fallback else float(timeout)))
        report = new_report()
        self._search(self._free_arrays, pose, settings, self._options, q, report)
        # A plain tuple: the named Outcome costs a quarter of a microsecond more per call.
        code, success, attempts, iterations, position_error, orientation_error, costs = \
            read_report(report)
        if code == STATUS_INVALID_TARGET:
            raise InvalidTargetError(target_problem(pose))
        if code == STATUS_INVALID_SEED:
            raise InvalidSeedError('seed has non-finite values')
        status = _SEARCH_STATUSES[code]
        if not success and status is Status.SUCCESS:  # lost to rounding on the nearest turn
            status = Status.NO_SOLUTION
        finding = None
        if collision is not None:
            q, finding, reseeds, more = avoid_collisions(
                self._implementation, self._chain, pose, settings, self._options, q, report,
                collision, start)
            attempts += reseeds
            iterations += more
            if reseeds:
                again = unpack(report)
                position_error, orientation_error = again.position_error, \
                    again.orientation_error
            if finding.colliding and success:
                success, status = False, Status.IN_COLLISION
        if not success and fallback:
            set_deadline(settings, start_time + float(timeout))
            closest = closest_orientation_answer(self._implementation.search,
                                                 self._free_arrays, pose, settings,
                                                 self._options, q, start)
            if closest is not None:
                q, position_error, orientation_error = closest
                status = Status.CLOSEST_ORIENTATION
                if collision is not None:
                    finding = collision.check(q, stop_at_first=True)
        if finding is None:  # the common case, without the collision fields' defaults
            return IKResult(q, success, float(position_error), float(orientation_error),
                            iterations, time.perf_counter() - start_time, status,
                            self._solver_name, attempts, self._polish, costs=costs)
        return IKResult(q=q, success=success, position_error=float(position_error),
                        orientation_error=float(orientation_error), iterations=iterations,
                        elapsed=time.perf_counter() - start_time, status=status,
                        solver=self._solver_name, attempts=attempts,
                        polished=self._polish, collision_checked=True,
                        collision_pair=_first_pair(finding),
                        unchecked_links=tuple(finding.unchecked_links), costs=costs)

    @staticmethod
    def checked_seed(seed: Any, chain) -> np.ndarray:
        """
        Copy a seed into a new float (N,) array, checking its shape only.

        :param seed: N numbers, rad or m; None is the middle of the limits.
        :param chain: the chain.
        :raises InvalidSeedError: ``seed`` is not N numbers.
        """
        return seed_array(seed, chain)

    def compiled_call(self, target: np.ndarray, q: np.ndarray) -> None:
        """
        Make the bare compiled search for ``target`` from ``q`` (overwritten with the answer).

        No checks and no result: for measuring what the checks and the result cost. The
        deadline is the options' timeout from now.

        :param target: (4, 4) writeable C-contiguous float64 array, base frame, m.
        :param q: (N,) writeable C-contiguous float64 array, rad or m.
        """
        settings = self._settings.copy()
        set_deadline(settings, time.perf_counter() + self.options.timeout)
        self._search(self._free_arrays, target, settings, self._options, q, self._report)

    def walk(self, targets: np.ndarray, out: np.ndarray, first: int, last: int, *,
             max_steps: int, max_joint_motion: float, deadline: float) -> int:
        """
        Settle ``targets[first..last]`` in order by a few damped least-squares steps each.

        The fast way along a sequence of nearby targets (see :mod:`._core.walk`): one compiled call
        for the whole sequence, each target warm from the answer before it, judged by the same
        goal and tolerances as :meth:`solve`. It stops at the first target it does not settle,
        for :meth:`solve_sequence` to take over.

        :param targets: (K, 4, 4) target poses, base frame (m).
        :param out: (K, N) float array; row ``first - 1`` is the start, within the limits;
            rows ``first`` up to the returned index (excluded) are written.
        :param first: First index to solve, >= 1.
        :param last: Last index to solve, inclusive.
        :param max_steps: Steps per target before it is handed back, >= 0 (0: only targets
            the previous answer already meets are settled).
        :param max_joint_motion: Largest motion of one joint between consecutive answers that
            the walk accepts, rad or m; a target needing more is handed back.
        :param deadline: ``time.perf_counter()`` value after which no target starts.
        :returns: The index of the first target not settled, ``last + 1`` when all were.
        :raises InvalidSolverOptionError: ``max_steps`` is not a non-negative integer, or
            ``max_joint_motion`` is not a positive number.
        :raises InvalidSeedError: ``out`` is not a writeable C-contiguous (K, N) float64
            array (the walk writes into it).
        :raises InvalidTargetError: ``targets`` is not (K, 4, 4), or ``first`` or ``last``
            lies outside ``1..K-1``.
        """
        if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) \
                or max_steps < 0:
            raise InvalidSolverOptionError('max_steps must be a non-negative integer, got %r'
                                           % (max_steps,))
        if isinstance(max_joint_motion, bool) or not isinstance(
                max_joint_motion, (int, float, np.number)) or not max_joint_motion > 0.0:
            raise InvalidSolverOptionError('max_joint_motion must be a positive number, got %r'
                                           % (max_joint_motion,))
        if not (isinstance(out, np.ndarray) and out.dtype == np.float64 and out.ndim == 2
                and out.shape[1] == self._shape[0] and out.flags.c_contiguous
                and out.flags.writeable):
            raise InvalidSeedError('out must be a writeable C-contiguous (K, %d) float64 '
                                   'array' % self._shape[0])
        # The compiled walk compiles again for any other layout of its arrays: seconds.
        targets = np.ascontiguousarray(targets, dtype=np.float64)
        if not targets.flags.writeable:
            targets = targets.copy()
        if targets.ndim != 3 or targets.shape[1:] != (4, 4) or targets.shape[0] != out.shape[0]:
            raise InvalidTargetError('targets must have shape (%d, 4, 4), got %s'
                                     % (out.shape[0], targets.shape))
        if first < 1 or last >= out.shape[0]:
            raise InvalidTargetError('first and last must lie in 1..%d, got %d and %d'
                                     % (out.shape[0] - 1, first, last))
        if first > last:
            return first
        return int(walk_targets(self._chain.arrays, targets, self._settings, out, int(first),
                                int(last), int(max_steps), float(max_joint_motion),
                                float(deadline)))

    def solve_sequence(self, targets: np.ndarray, out: np.ndarray, first: int, last: int, *,
                       point_timeout: float, deadline: float,
                       timeout_retries: int = 2) -> Tuple[int, Optional[IKResult]]:
        """
        Solve ``targets[first..last]`` in order, each from the answer before it, into ``out``.

        The loop of a path: ``out[k]`` starts from ``out[k - 1]`` and receives the answer for
        ``targets[k]``; it stops at the first target not met. Only the compiled call is made per
        target (the arrays are checked once per call of this method), about a quarter less
        time per point than :meth:`solve` in a loop.

        :param targets: (K, 4, 4) finite rigid transforms, base frame (m).
        :param out: (K, N) float array; row ``first - 1`` is the start, rows ``first..last``
            are written.
        :param first: First index to solve, >= 1.
        :param last: Last index to solve, inclusive.
        :param point_timeout: Deadline of each target's solve, s.
        :param deadline: ``time.perf_counter()`` value after which no solve starts.
        :param timeout_retries: Further tries of a target whose solve ran out of its own time
            (a process not scheduled, say) while ``deadline`` allows.
        :returns: ``(index, None)`` when every target up to ``last`` was met (``index`` is
            ``last + 1``); else the index of the first target not met and its answer (status
            ``'timed_out'`` with zero errors when ``deadline`` passed before it was tried).
        :raises InvalidTargetError: ``targets`` is not (K, 4, 4), or a target is not a finite
            rigid transform.
        :raises InvalidSolverOptionError: ``point_timeout`` is not a finite positive number.
        """
        if not (type(point_timeout) is float and 0.0 < point_timeout < math.inf) \
                and not is_positive_number(point_timeout):
            raise InvalidSolverOptionError('point_timeout must be a finite positive number of '
                                           'seconds, got %r' % (point_timeout,))
        # The compiled search compiles again for any other layout of its arrays: seconds.
        targets = np.ascontiguousarray(targets, dtype=np.float64)
        if not targets.flags.writeable:
            targets = targets.copy()
        if targets.ndim != 3 or targets.shape[1:] != (4, 4):
            raise InvalidTargetError('targets must have shape (K, 4, 4), got %s'
                                     % (targets.shape,))
        arrays, options, search = self._arrays, self._options, self._tracking_search
        settings, report = self._settings, self._report
        clock = time.perf_counter
        for index in range(first, last + 1):
            tries = 1 + timeout_retries
            while True:
                now = clock()
                if now >= deadline:
                    return index, IKResult(out[index - 1].copy(), False, 0.0, 0.0, 0, 0.0,
                                           Status.TIMED_OUT, solver=self.options.solver)
                set_deadline(settings, now + min(point_timeout, deadline - now))
                q = np.array(out[index - 1], dtype=np.float64)  # a copy, as the call needs
                search(arrays, targets[index], settings, options, q, report)
                tries -= 1
                found = unpack(report)
                # The search's raw code (an int), compared as one.
                if found.status != int(Status.TIMED_OUT) or tries == 0:
                    break
            if not found.met:
                if found.status == STATUS_INVALID_TARGET:
                    raise InvalidTargetError(target_problem(targets[index]))
                status = (_SEARCH_STATUSES[found.status] if found.status < 3
                          else Status.NO_SOLUTION)
                return index, IKResult(
                    q, False, found.position_error, found.orientation_error, found.iterations,
                    clock() - now, Status.NO_SOLUTION if status is Status.SUCCESS else status,
                    solver=self.options.solver, attempts=found.attempts,
                    polished=self.options.runs_polish, costs=found.costs)
            out[index] = q
        return last + 1, None


def _first_pair(finding) -> Optional[Tuple[str, str]]:
    if finding is None or not finding.colliding or not finding.pairs:
        return None
    return tuple(finding.pairs[0])
