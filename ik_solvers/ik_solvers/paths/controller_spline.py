# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The motion a joint_trajectory_controller runs through a trajectory, and a check of its limits.

ros2_control's joint_trajectory_controller (interpolation method ``splines``) joins consecutive
points by polynomials in time: a line when the points give positions only, a cubic (Hermite)
when they give positions and velocities, a quintic when they give accelerations too; what both
ends of a segment give sets its kind. The first segment starts from the controller's state when
the trajectory arrives (time 0 here: a header stamp of zero means "now") and ends at the first
point, unless that point is at time 0; after the last point the joints hold still.

:class:`ControllerSpline` is that motion; :meth:`ControllerSpline.sample_every` samples it on a
fine grid (1 ms by default) and :func:`limit_excess` says how far the samples go past the
limits. A single rest-to-rest point timed as distance / velocity limit peaks at 1.5 times the
limit as a cubic and 1.875 times as a quintic: timing the points alone does not keep the limits.
"""

from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from ..exceptions import InvalidPathError

__all__ = ['ControllerSpline', 'LimitExcess', 'SplineSamples', 'limit_excess',
           'DEFAULT_SAMPLE_PERIOD']

#: s: the grid the limits are checked on (a controller at 1 kHz samples this often).
DEFAULT_SAMPLE_PERIOD = 0.001


@dataclass(frozen=True)
class SplineSamples:
    """(M,) times, s, and (M, N) positions (rad or m), velocities and accelerations at them."""

    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray


@dataclass(frozen=True)
class LimitExcess:
    """
    How far a motion goes past its limits.

    :ivar velocity_ratio: Largest |velocity| / limit over samples and joints (<= 1: within).
    :ivar acceleration_ratio: Largest |acceleration| / limit.
    :ivar position_excess: Largest distance past a position limit, rad or m (0: within).
    """

    velocity_ratio: float
    acceleration_ratio: float
    position_excess: float

    def within(self, *, slack: float = 1e-9) -> bool:
        """Whether every limit holds, up to ``slack`` (relative for the ratios, else rad or m)."""
        return (self.velocity_ratio <= 1.0 + slack and self.acceleration_ratio <= 1.0 + slack
                and self.position_excess <= slack)


def _rows(values, count: int, width: int, name: str) -> Optional[np.ndarray]:
    if values is None:
        return None
    array = np.asarray(values, dtype=float)
    if array.size == 0:
        return None
    if array.shape != (count, width) or not np.isfinite(array).all():
        raise InvalidPathError('%s must be %d finite rows of %d, got shape %s'
                               % (name, count, width, array.shape))
    return array


class ControllerSpline:
    """The piecewise polynomial a joint_trajectory_controller follows through the points."""

    def __init__(self, times, positions, velocities=None, accelerations=None, *,
                 start_positions=None, start_velocities=None,
                 start_accelerations=None) -> None:
        """
        Build the segments as the controller does.

        :param times: (K,) time_from_start of each point, s, >= 0, strictly increasing.
        :param positions: (K, N) rad or m.
        :param velocities: (K, N) rad/s, or None (or empty) when the points give none.
        :param accelerations: (K, N) rad/s^2, or None; only used with velocities.
        :param start_positions: (N,) the controller's state at time 0; None: the first point
            (then the first point must be at time 0).
        :param start_velocities: (N,) the state's velocity, or None when the controller has no
            velocity state (the first segment is then a line).
        :param start_accelerations: (N,) the state's acceleration, or None.
        :raises InvalidPathError: Shapes disagree, a value is not finite, or the times do not
            increase.
        """
        points = np.atleast_2d(np.asarray(positions, dtype=float))
        count, width = points.shape
        times = np.asarray(times, dtype=float).reshape(-1)
        if count < 1 or times.shape != (count,) or not np.isfinite(times).all() \
                or not np.isfinite(points).all() or times[0] < 0.0 or np.any(
                    np.diff(times) <= 0.0):
            raise InvalidPathError('a trajectory needs K >= 1 points at increasing times >= 0 '
                                   'with finite positions')
        velocities = _rows(velocities, count, width, 'velocities')
        accelerations = None if velocities is None else _rows(accelerations, count, width,
                                                              'accelerations')
        self._first: Optional[int] = None
        if start_positions is None:
            if times[0] > 0.0:
                raise InvalidPathError('without a start state the first point is at time 0')
        elif times[0] > 0.0:
            start = [np.asarray(start_positions, dtype=float).reshape(width)]
            state_velocity = None if start_velocities is None else np.asarray(
                start_velocities, dtype=float).reshape(width)
            state_acceleration = None if start_accelerations is None else np.asarray(
                start_accelerations, dtype=float).reshape(width)
            self._first = _segment_order(state_velocity, state_acceleration, velocities,
                                         accelerations)
            times = np.concatenate(([0.0], times))
            points = np.concatenate((start, points))
            zero = np.zeros((1, width))
            if velocities is not None:
                velocities = np.concatenate((zero if state_velocity is None
                                             else state_velocity[None], velocities))
            if accelerations is not None:
                accelerations = np.concatenate((zero if state_acceleration is None
                                                else state_acceleration[None], accelerations))
        self.times = times
        self.positions = points
        self.velocities = velocities
        self.accelerations = accelerations
        # (6, S, N): each power's coefficients, contiguous for the gathers of sample().
        self._coefficients = np.ascontiguousarray(np.moveaxis(_coefficients(
            times, points, velocities, accelerations, self._first), 1, 0))

    @classmethod
    def to_rest(cls, start: np.ndarray, start_velocity: np.ndarray, goal: np.ndarray,
                duration: float) -> 'ControllerSpline':
        """
        Return the spline of a single-point command to rest, without the general checks.

        It is ``ControllerSpline([duration], [goal], zeros, start_positions=start,
        start_velocities=start_velocity)``, array for array. The node times such a command
        after every streamed target, from inputs that
        :func:`~ik_solvers.engine.controller_motion.command_duration` has just checked; the
        checks and joins of the general constructor took as long as the coefficients.

        :param start: (N,) float array, the controller's position, rad or m, finite.
        :param start_velocity: (N,) float array, its velocity, rad/s, finite.
        :param goal: (N,) float array, the point, reached at rest, finite.
        :param duration: s, finite and > 0.
        """
        spline = object.__new__(cls)
        spline._first = 3  # a cubic from the state's position and velocity
        spline.times = np.array([0.0, float(duration)])
        spline.positions = np.array([start, goal], dtype=float)
        spline.velocities = np.array([start_velocity, np.zeros(len(goal))], dtype=float)
        spline.accelerations = None
        spline._coefficients = np.ascontiguousarray(np.moveaxis(_coefficients(
            spline.times, spline.positions, spline.velocities, None, 3), 1, 0))
        return spline

    def slowed(self, factor: float) -> 'ControllerSpline':
        """
        Return the same curve run ``factor`` times slower (velocities / k, accelerations / k^2).

        :param factor: > 0.
        """
        slower = object.__new__(ControllerSpline)
        slower._first = self._first
        slower.times = self.times * factor
        slower.positions = self.positions
        slower.velocities = None if self.velocities is None else self.velocities / factor
        slower.accelerations = None if self.accelerations is None else (
            self.accelerations / (factor * factor))
        powers = factor ** -np.arange(6.0)
        slower._coefficients = self._coefficients * powers[:, None, None]
        return slower

    @property
    def duration(self) -> float:
        """Time of the last point, s."""
        return float(self.times[-1])

    def sample(self, times) -> SplineSamples:
        """
        Positions, velocities and accelerations at the given times.

        :param times: (M,) s; before 0 the state at 0, after the end the last point at rest.
        :returns: The samples.
        """
        times = np.atleast_1d(np.asarray(times, dtype=float))
        width = self.positions.shape[1]
        if self.times.size == 1:
            shape = (times.size, width)
            return SplineSamples(times, np.broadcast_to(self.positions[0], shape).copy(),
                                 np.zeros(shape), np.zeros(shape))
        clamped = np.clip(times, 0.0, self.duration)
        segment = np.clip(np.searchsorted(self.times, clamped, side='right') - 1, 0,
                          self.times.size - 2)
        tau = (clamped - self.times[segment])[:, None]
        c = [coefficient[segment] for coefficient in self._coefficients]  # 6 x (M, N)
        position = c[0] + tau * (c[1] + tau * (c[2] + tau * (c[3] + tau * (
            c[4] + tau * c[5]))))
        velocity = c[1] + tau * (2.0 * c[2] + tau * (3.0 * c[3] + tau * (
            4.0 * c[4] + tau * 5.0 * c[5])))
        acceleration = 2.0 * c[2] + tau * (6.0 * c[3] + tau * (
            12.0 * c[4] + tau * 20.0 * c[5]))
        after = times > self.duration
        velocity[after] = 0.0
        acceleration[after] = 0.0
        return SplineSamples(times, position, velocity, acceleration)

    def state_at(self, time: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the (N,) positions, velocities and accelerations at one time, s."""
        samples = self.sample([time])
        return samples.positions[0], samples.velocities[0], samples.accelerations[0]

    def sample_every(self, period: float = DEFAULT_SAMPLE_PERIOD, *,
                     per_segment: int = 0) -> SplineSamples:
        """
        Sample from 0 to the end every ``period`` seconds, the end included.

        :param period: s, > 0.
        :param per_segment: Also this many evenly spaced samples inside every segment (a
            finer look at short segments).
        :returns: The samples, in time order.
        """
        if not period > 0.0:
            raise InvalidPathError('period must be positive, got %r' % (period,))
        times = np.append(np.arange(0.0, self.duration, period), self.duration)
        if per_segment > 0 and self.times.size > 1:
            shares = np.arange(1, per_segment + 1) / (per_segment + 1.0)
            inside = (self.times[:-1, None] + shares[None, :] * np.diff(self.times)[:, None])
            times = np.sort(np.concatenate((times, self.times, inside.ravel())))
        return self.sample(times)


def _segment_order(state_velocity, state_acceleration, velocities, accelerations) -> int:
    if velocities is None or state_velocity is None:
        return 1
    if accelerations is None or state_acceleration is None:
        return 3
    return 5


def _coefficients(times, points, velocities, accelerations, first: Optional[int]) -> np.ndarray:
    """(S, 6, N) polynomial coefficients of each segment in the time since its start."""
    count, width = points.shape
    result = np.zeros((max(count - 1, 1), 6, width))
    if count < 2:
        result[0, 0] = points[0]
        return result
    order = 1 if velocities is None else (3 if accelerations is None else 5)
    orders = np.full(count - 1, order)
    if first is not None:
        orders[0] = first
    span = np.diff(times)[:, None]
    p0, p1 = points[:-1], points[1:]
    result[:, 0] = p0
    linear = orders == 1
    result[linear, 1] = ((p1 - p0) / span)[linear]
    if velocities is None:
        return result
    v0, v1 = velocities[:-1], velocities[1:]
    cubic = orders == 3
    result[cubic, 1] = v0[cubic]
    result[cubic, 2] = ((3 * (p1 - p0) - (2 * v0 + v1) * span) / span ** 2)[cubic]
    result[cubic, 3] = ((2 * (p0 - p1) + (v0 + v1) * span) / span ** 3)[cubic]
    if accelerations is None:
        return result
    a0, a1 = accelerations[:-1], accelerations[1:]
    quintic = orders == 5
    t2 = span ** 2
    result[quintic, 1] = v0[quintic]
    result[quintic, 2] = (0.5 * a0)[quintic]
    result[quintic, 3] = ((20 * (p1 - p0) - (8 * v1 + 12 * v0) * span - (3 * a0 - a1) * t2)
                          / (2 * span ** 3))[quintic]
    result[quintic, 4] = ((30 * (p0 - p1) + (14 * v1 + 16 * v0) * span + (3 * a0 - 2 * a1)
                           * t2) / (2 * span ** 4))[quintic]
    result[quintic, 5] = ((12 * (p1 - p0) - 6 * (v1 + v0) * span + (a1 - a0) * t2)
                          / (2 * span ** 5))[quintic]
    return result


def limit_excess(samples: SplineSamples, *, max_velocity, max_acceleration=None, lower=None,
                 upper=None) -> LimitExcess:
    """
    How far the samples go past the limits.

    :param samples: Samples of a motion (see :meth:`ControllerSpline.sample_every`).
    :param max_velocity: (N,) rad/s or m/s; a joint whose limit is not finite and positive is
        not limited.
    :param max_acceleration: (N,) rad/s^2, or None for none.
    :param lower: (N,) lower position limits, rad or m (-inf: none), or None.
    :param upper: (N,) upper position limits, or None.
    :returns: The :class:`LimitExcess`.
    """
    return LimitExcess(
        velocity_ratio=_ratio(samples.velocities, max_velocity),
        acceleration_ratio=_ratio(samples.accelerations, max_acceleration),
        position_excess=_excess(samples.positions, lower, upper))


def _ratio(values: np.ndarray, limits) -> float:
    if limits is None or values.size == 0:
        return 0.0
    limits = np.asarray(limits, dtype=float)
    used = np.isfinite(limits) & (limits > 0.0)
    if not used.any():
        return 0.0
    return float(np.max(np.abs(values[:, used]) / limits[used]))


def _excess(positions: np.ndarray, lower, upper) -> float:
    worst = 0.0
    if lower is not None:
        worst = max(worst, float(np.max(np.asarray(lower, dtype=float) - positions)))
    if upper is not None:
        worst = max(worst, float(np.max(positions - np.asarray(upper, dtype=float))))
    return max(worst, 0.0)
