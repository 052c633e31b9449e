# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
``solve()`` for many targets in a row with one set of options, checked once.

A Cartesian path solves hundreds of nearby targets with the same solver, goal and options;
checking those options and building the result object costs more than the compiled search of a
warm-started point (about 30 us against 17 us on the bundled Panda). :class:`PreparedSolver`
checks them once and then makes only the compiled call per target; the answer is the same as
``solve()``'s for the same arguments.
"""

import math
import time
from typing import Any, Optional, Tuple

import numpy as np

from ..exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from .goal_options import goal_options, is_positive_number
from .inputs import STATUS_INVALID_SEED, STATUS_INVALID_TARGET
from .layout import (
    DEADLINE,
    REPORT_MET,
    REPORT_ORIENTATION_ERROR,
    REPORT_POSITION_ERROR,
    REPORT_SIZE,
    REPORT_STATUS,
    STATUS_NO_SOLUTION,
    STATUS_SUCCESS,
    STATUS_TIMED_OUT,
)
from .input_arrays import search_seed, search_target, target_problem
from .registry import solver_class
from .search_entry import search_entry
from .search_options import (check_counts, checked_orientation_weight,
                             heuristic_and_options, search_settings)
from .walk import walk_targets
from .warm_up import is_warm, warm_up

__all__ = ['PreparedSolver', 'PreparedAnswer']

_STATUS_NAMES = {STATUS_SUCCESS: 'success', STATUS_NO_SOLUTION: 'no_solution',
                 STATUS_TIMED_OUT: 'timed_out'}


class PreparedAnswer:
    """
    The outcome of one :meth:`PreparedSolver.solve`, measured by forward kinematics.

    :ivar q: (N,) configuration within the limits, rad or m (the closest found on failure).
    :ivar success: the forward kinematics of ``q`` meets both tolerances.
    :ivar status: ``'success'``, ``'no_solution'`` or ``'timed_out'``, as :func:`solve` says.
    :ivar position_error: m, from forward kinematics of ``q``.
    :ivar orientation_error: rad, from forward kinematics of ``q``.
    """

    __slots__ = ('q', 'success', 'status', 'position_error', 'orientation_error')

    def __init__(self, q: np.ndarray, success: bool, status: str, position_error: float,
                 orientation_error: float) -> None:
        self.q = q
        self.success = success
        self.status = status
        self.position_error = position_error
        self.orientation_error = orientation_error


class PreparedSolver:
    """
    One chain, solver and goal definition, ready for many targets.

    The options mean what they mean for :func:`ik_solvers.solve` (the orientation fallback is
    not offered: a path point either meets the pose or it does not).

    :param chain: a :class:`ik_solvers.Chain`.
    :param solver: one of :data:`ik_solvers.SOLVERS`.
    :param orientation_mode: ``'full'``, ``'axis'`` or ``'none'``.
    :param tip_axis: the aimed axis in ``'axis'`` mode, in the tip frame.
    :param position_tolerance: largest accepted position error, m.
    :param orientation_tolerance: largest accepted orientation error, rad.
    :param polish: run the finisher; None takes the solver's default.
    :param polish_iterations: cap on finisher steps per start.
    :param max_attempts: cap on the number of starts per target (None: until the deadline).
    :param solver_options: the solver's own options, plus ``orientation_weight``.
    :raises InvalidTargetError: a tolerance or goal option is out of range.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: an option is unknown or out of range.

    One instance is not for several threads at once: it reuses its settings and report arrays.
    """

    def __init__(self, chain, *, solver: str = 'jacobian_transpose',
                 orientation_mode: str = 'full', tip_axis: Any = (0.0, 0.0, 1.0),
                 position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
                 polish: Optional[bool] = None, polish_iterations: int = 20,
                 max_attempts: Optional[int] = None, **solver_options: Any) -> None:
        self._implementation = solver_class(solver)
        goal = goal_options(orientation_mode=orientation_mode, tip_axis=tip_axis,
                            position_tolerance=position_tolerance,
                            orientation_tolerance=orientation_tolerance)
        check_counts(polish_iterations, max_attempts)
        solver_options = dict(solver_options)
        weight = checked_orientation_weight(chain,
                                            solver_options.pop('orientation_weight', None))
        heuristic, self._options = heuristic_and_options(self._implementation, chain,
                                                         solver_options)
        finisher = self._implementation.polish_by_default if polish is None else bool(polish)
        self._settings = search_settings(heuristic, finisher, goal, weight, polish_iterations,
                                         max_attempts).copy()
        self._chain = chain
        self._shape = (chain.num_joints,)
        self._report = np.empty(REPORT_SIZE)
        if not is_warm(solver):  # compile now rather than inside the first deadline
            warm_up((solver,))

    @property
    def chain(self):
        """Return the chain every target is solved for."""
        return self._chain

    def solve(self, target: Any, seed: Any, *, timeout: float) -> PreparedAnswer:
        """
        Solve for one target from ``seed``, as :func:`ik_solvers.solve` would.

        :param target: (4, 4) pose of the tip in the chain's base frame (m).
        :param seed: (N,) start configuration, rad or m; not modified.
        :param timeout: hard deadline, s, from the call.
        :returns: A :class:`PreparedAnswer`.
        :raises InvalidTargetError: ``target`` is not a finite rigid transform.
        :raises InvalidSeedError: ``seed`` has the wrong length or non-finite values.
        :raises InvalidSolverOptionError: ``timeout`` is not a finite positive number.
        """
        start_time = time.perf_counter()
        # The common case (a float timeout, arrays as a path loop passes them) is checked
        # with plain comparisons: the general checks cost a third of a warm point's search.
        if not (type(timeout) is float and 0.0 < timeout < math.inf) \
                and not is_positive_number(timeout):
            raise InvalidSolverOptionError('timeout must be a finite positive number of '
                                           'seconds, got %r' % (timeout,))
        target = search_target(target)
        q = search_seed(seed, self._chain)
        settings = self._settings
        settings[DEADLINE] = start_time + float(timeout)
        report = self._report
        arrays = self._chain.arrays
        search_entry(self._implementation.search, arrays)(arrays, target, settings,
                                                          self._options, q, report)
        status = report[REPORT_STATUS]
        if status == STATUS_INVALID_TARGET:
            raise InvalidTargetError(target_problem(target))
        if status == STATUS_INVALID_SEED:
            raise InvalidSeedError('seed has non-finite values')
        success = report[REPORT_MET] != 0.0
        name = _STATUS_NAMES[int(status)]
        if not success and name == 'success':  # lost to rounding on the nearest turn
            name = 'no_solution'
        return PreparedAnswer(q, success, name, float(report[REPORT_POSITION_ERROR]),
                              float(report[REPORT_ORIENTATION_ERROR]))

    def walk(self, targets: np.ndarray, out: np.ndarray, first: int, last: int, *,
             max_steps: int, max_joint_motion: float, deadline: float) -> int:
        """
        Settle ``targets[first..last]`` in order by a few damped least-squares steps each.

        The fast way along a sequence of nearby targets (see :mod:`.walk`): one compiled call
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
                       timeout_retries: int = 2) -> Tuple[int, Optional[PreparedAnswer]]:
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
        arrays, options = self._chain.arrays, self._options
        search = search_entry(self._implementation.search, arrays)
        settings, report = self._settings, self._report
        clock = time.perf_counter
        for index in range(first, last + 1):
            tries = 1 + timeout_retries
            while True:
                now = clock()
                if now >= deadline:
                    return index, PreparedAnswer(out[index - 1].copy(), False, 'timed_out',
                                                 0.0, 0.0)
                settings[DEADLINE] = now + min(point_timeout, deadline - now)
                q = np.array(out[index - 1], dtype=np.float64)  # a copy, as the call needs
                search(arrays, targets[index], settings, options, q, report)
                tries -= 1
                if report[REPORT_STATUS] != STATUS_TIMED_OUT or tries == 0:
                    break
            if report[REPORT_MET] == 0.0:
                status = report[REPORT_STATUS]
                if status == STATUS_INVALID_TARGET:
                    raise InvalidTargetError(target_problem(targets[index]))
                name = _STATUS_NAMES.get(int(status), 'no_solution')
                return index, PreparedAnswer(
                    q, False, 'no_solution' if name == 'success' else name,
                    float(report[REPORT_POSITION_ERROR]), float(report[REPORT_ORIENTATION_ERROR]))
            out[index] = q
        return last + 1, None
