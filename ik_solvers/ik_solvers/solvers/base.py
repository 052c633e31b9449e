# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The interface every heuristic implements, and the problem it is handed.

A heuristic only improves a configuration from a start: restarts, the deadline bookkeeping,
the optional polish and the final verification by forward kinematics belong to
:func:`ik_solvers.solve`, so that every heuristic gets them the same way.
"""

from abc import ABC, abstractmethod
import math
import time
from typing import Any, ClassVar, Dict, Tuple

import numpy as np

from ..exceptions import InvalidSolverOptionError
from ..kinematics import Chain
from .pose_error import _rotation_vector

__all__ = [
    'Attempt',
    'IKProblem',
    'ProgressMonitor',
    'Solver',
    'positive_float',
    'positive_integer',
    'trust_radius',
]


class IKProblem:
    """
    One target for one chain, with the tolerances that count as reaching it.

    :ivar chain: the chain, which gives the kinematics.
    :ivar target: (4, 4) target pose of the tip in the base frame.
    :ivar position_only: whether the orientation is ignored.
    :ivar position_tolerance: m.
    :ivar orientation_tolerance: rad (ignored when ``position_only``).
    :ivar orientation_weight: m per rad; an orientation error of 1 rad weighs as much as a
        position error of this many metres wherever the two are summed.
    """

    def __init__(self, chain: Chain, target: np.ndarray, *, position_only: bool,
                 position_tolerance: float, orientation_tolerance: float,
                 orientation_weight: float) -> None:
        """Store the problem; the arguments are assumed valid (``solve`` checks them)."""
        self.chain = chain
        self.target = target
        self.target_rotation = target[:3, :3]
        self.target_position = target[:3, 3]
        self._target_position_list = target[:3, 3].tolist()
        self.position_only = position_only
        self.position_tolerance = position_tolerance
        self.orientation_tolerance = orientation_tolerance
        self.orientation_weight = orientation_weight

    def with_tolerances(self, position_tolerance: float,
                        orientation_tolerance: float) -> 'IKProblem':
        """Return the same problem with other tolerances."""
        return IKProblem(self.chain, self.target, position_only=self.position_only,
                         position_tolerance=position_tolerance,
                         orientation_tolerance=orientation_tolerance,
                         orientation_weight=self.orientation_weight)

    def residual(self, tip: np.ndarray) -> Tuple[list, float, float]:
        """
        Error of a reached tip pose.

        :returns: ``(error, position_error, orientation_error)``: ``error`` lists the position
            error (3 values, m, target minus reached) followed, unless position-only, by the
            rotation vector carrying the reached orientation onto the target (3 values, rad,
            base frame); then the position error's norm (m) and the rotation angle (rad).
        """
        px, py, pz = tip[:3, 3].tolist()
        tx, ty, tz = self._target_position_list
        ex, ey, ez = tx - px, ty - py, tz - pz
        position_error = math.sqrt(ex * ex + ey * ey + ez * ez)
        if self.position_only:
            return [ex, ey, ez], position_error, 0.0
        rotation = _rotation_vector((self.target_rotation @ tip[:3, :3].T).tolist())
        wx, wy, wz = rotation
        return ([ex, ey, ez, wx, wy, wz], position_error,
                math.sqrt(wx * wx + wy * wy + wz * wz))

    def is_solved(self, position_error: float, orientation_error: float) -> bool:
        """Whether both errors are within the tolerances."""
        return (position_error <= self.position_tolerance
                and (self.position_only or orientation_error <= self.orientation_tolerance))

    def cost(self, position_error: float, orientation_error: float) -> float:
        """Scalar error used to rank configurations, m."""
        return position_error + self.orientation_weight * orientation_error


class ProgressMonitor:
    """
    Tells a heuristic when to give up on its current start.

    Progress stalls when the best cost has not dropped by ``relative_decrease`` within
    ``window`` iterations.
    """

    def __init__(self, window: int, relative_decrease: float = 0.05) -> None:
        """Start watching; ``window`` is a number of iterations."""
        self._window = window
        self._factor = 1.0 - relative_decrease
        self._reference = math.inf
        self._since = 0

    def stalled(self, cost: float) -> bool:
        """Record the cost of one iteration; return whether progress has stalled."""
        if cost < self._reference * self._factor:
            self._reference = cost
            self._since = 0
            return False
        self._since += 1
        return self._since >= self._window


class Attempt:
    """
    Bookkeeping of one start of a heuristic: the best configuration so far, and when to stop.

    Every heuristic iterates the same way: forward kinematics of its current configuration,
    then :meth:`finished`; the attempt keeps the best configuration seen and ends on success,
    on a stall (see :class:`ProgressMonitor`), at the iteration cap or at the deadline.

    :ivar best_q: best configuration recorded so far, (N,).
    :ivar cost: cost of the configuration recorded last, m (see :meth:`IKProblem.cost`).
    :ivar error: residual of the configuration recorded last (see :meth:`IKProblem.residual`).
    """

    def __init__(self, problem: IKProblem, q: np.ndarray, *, max_iterations: int,
                 stall_iterations: int, deadline: float) -> None:
        """Start an attempt from ``q``; ``deadline`` is a ``time.perf_counter`` value, s."""
        self._problem = problem
        self._max_iterations = max_iterations
        self._deadline = deadline
        self._monitor = ProgressMonitor(stall_iterations)
        self._best_cost = math.inf
        self.best_q = q
        self.cost = math.inf
        self.error: list = []

    def finished(self, q: np.ndarray, tip: np.ndarray, iteration: int) -> bool:
        """Record ``q`` and its (4, 4) ``tip`` pose; return whether the attempt is over."""
        problem = self._problem
        self.error, position_error, orientation_error = problem.residual(tip)
        self.cost = cost = problem.cost(position_error, orientation_error)
        if cost < self._best_cost:
            self.best_q, self._best_cost = q, cost
        return (problem.is_solved(position_error, orientation_error)
                or self._monitor.stalled(cost) or iteration >= self._max_iterations
                or time.perf_counter() > self._deadline)


class Solver(ABC):
    """
    A heuristic that improves a configuration toward a target.

    Subclasses declare their ``name``, the ``defaults`` of their options (all keyword-only,
    validated on construction), whether the local polish runs after them by default, and the
    errors below which they hand over to it.
    """

    name: ClassVar[str] = ''
    defaults: ClassVar[Dict[str, Any]] = {}
    polish_by_default: ClassVar[bool] = True
    # With the polish on, the heuristic hands over once within these errors (m, rad).
    handoff_position_tolerance: ClassVar[float] = 1e-3
    handoff_orientation_tolerance: ClassVar[float] = 1e-2
    # With the polish on, the default cap on the heuristic's iterations per start (see
    # :mod:`ik_solvers.solvers.solve` for the measurement: one was best or as good for all four).
    iterations_before_polish: ClassVar[int] = 1

    def __init__(self, **options: Any) -> None:
        """
        Take the options, each falling back to its default.

        :raises InvalidSolverOptionError: an option is unknown or out of range.
        """
        unknown = sorted(set(options) - set(self.defaults))
        if unknown:
            raise InvalidSolverOptionError(
                'unknown option(s) %s for solver %r; it accepts %s'
                % (', '.join(unknown), self.name, ', '.join(sorted(self.defaults)) or 'none'))
        self.options = dict(self.defaults)
        self.options.update(options)
        self.check_options()

    def check_options(self) -> None:
        """
        Check ``self.options``; subclasses extend this.

        :raises InvalidSolverOptionError: an option is out of range.
        """
        for key in ('max_iterations', 'stall_iterations'):
            if key in self.options:
                positive_integer(self.options, key)
        if self.options.get('trust_region') is not None:
            positive_float(self.options, 'trust_region')

    def check_chain(self, chain: Chain) -> None:
        """
        Check the options against the chain about to be solved; subclasses extend this.

        :raises InvalidSolverOptionError: an option does not fit the chain.
        """

    @abstractmethod
    def improve(self, problem: IKProblem, q: np.ndarray, *,
                deadline: float) -> Tuple[np.ndarray, int]:
        """
        Improve ``q`` toward ``problem.target``.

        Stops when the problem is solved, progress stalls, an iteration cap is reached or
        ``time.perf_counter()`` passes ``deadline``.

        :param problem: target and tolerances.
        :param q: start configuration within the limits, (N,); not modified.
        :param deadline: absolute time, s, on the ``time.perf_counter`` clock.

        :returns: The best configuration found (within the limits) and the iterations used.
        """


def trust_radius(problem: IKProblem, cost: float, gain: Any) -> float:
    """
    Largest motion of a revolute joint in one iteration, rad, for a start with this cost.

    A heuristic's optimal move for one joint can swing it far even when the start is already
    close to a solution (CCD turning a wrist to align an axis, say), which would carry a warm
    seed away to another branch of solutions. Bounding each joint's motion per iteration by
    ``gain`` times the start's cost (m) over the chain's length keeps the motion in proportion
    to how far the start is: wide from a poor start, tight from a close one. The radius is
    fixed per start rather than shrunk with the error: shrinking it throttled the heuristics
    alone (CCD needed 38 iterations instead of 13 on ur5_like, position only), since a joint
    with a short lever needs more than the error over the chain's length. Prismatic joints
    get this radius times the chain's length, in m.

    :param problem: target and tolerances (its chain gives the length scale).
    :param cost: the cost at the start, m (see :meth:`IKProblem.cost`).
    :param gain: the solver's ``trust_region`` option; None for no limit.

    :returns: The radius, rad; ``math.inf`` when ``gain`` is None.
    """
    if gain is None:
        return math.inf
    return float(gain) * cost / problem.chain.length_scale


def positive_integer(options: Dict[str, Any], key: str) -> int:
    """
    Return ``options[key]``, checking that it is a positive integer.

    :raises InvalidSolverOptionError: it is not.
    """
    value = options[key]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidSolverOptionError('%s must be a positive integer, got %r' % (key, value))
    return int(value)


def positive_float(options: Dict[str, Any], key: str, *, allow_zero: bool = False) -> float:
    """
    Return ``options[key]`` as a float, checking that it is finite and positive.

    :raises InvalidSolverOptionError: it is not.
    """
    value = options[key]
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidSolverOptionError('%s must be a number, got %r' % (key, value)) from None
    if not math.isfinite(number) or number < 0.0 or (number == 0.0 and not allow_zero):
        raise InvalidSolverOptionError('%s must be a finite %s number, got %r'
                                       % (key, 'non-negative' if allow_zero else 'positive',
                                          value))
    return number
