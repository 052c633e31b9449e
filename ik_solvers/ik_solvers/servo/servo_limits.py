# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The joint velocities one servo cycle may end at, within speed, acceleration and position limits.

A cycle goes from the last point ``(q, v)`` to the next ``(q', v')`` over one period ``dt``,
with ``q' = q + (v + v') dt / 2``. The controller's cubic through two points with these
positions and velocities has the constant acceleration ``(v' - v) / dt``: the point is chosen
so that the spline itself stays within the limits between samples, not only at the points.
"""

from dataclasses import dataclass

import numpy as np

__all__ = ['VelocityBox', 'stopping_speed', 'velocity_box']


@dataclass(frozen=True)
class VelocityBox:
    """
    Per joint, the interval the velocity at the next point must lie in.

    :ivar low: (N,) lowest velocity, rad/s or m/s.
    :ivar high: (N,) highest velocity.
    :ivar braking: (N,) whether a position limit, not the velocity or acceleration limit,
        sets the bound on the side the joint is moving to.
    """

    low: np.ndarray
    high: np.ndarray
    braking: np.ndarray

    def contains(self, velocity: np.ndarray, slack: float = 1e-12) -> bool:
        """Return whether every joint's velocity lies within its interval."""
        return bool(np.all(velocity >= self.low - slack) and np.all(velocity <= self.high + slack))

    def clip(self, velocity: np.ndarray) -> np.ndarray:
        """Return ``velocity`` clipped joint by joint into the box."""
        return np.minimum(np.maximum(velocity, self.low), self.high)

    def scale_toward(self, start: np.ndarray, wanted: np.ndarray) -> float:
        """
        Return the largest ``s`` in [0, 1] with ``start + s (wanted - start)`` in the box.

        Scaling every joint's change by one factor keeps the direction of the motion (and so of
        the tip's velocity, to first order) where a joint-by-joint clip would bend it.
        ``start`` must lie in the box.
        """
        change = wanted - start
        scale = 1.0
        for index in np.flatnonzero(np.abs(change) > 1e-15):
            bound = self.high[index] if change[index] > 0 else self.low[index]
            scale = min(scale, max(0.0, (bound - start[index]) / change[index]))
        return scale


def stopping_speed(distance: np.ndarray, speed: np.ndarray, acceleration: float,
                   period: float) -> np.ndarray:
    """
    Largest speed ``u`` toward a limit ``distance`` away that can still stop before it.

    From speed ``speed`` now, this cycle moves ``(speed + u) dt / 2``; braking from ``u`` at
    ``acceleration`` one period at a time then covers ``u^2 / (2 a)`` (the trapezoids of a
    constant deceleration). Solving ``(speed + u) dt / 2 + u^2 / (2 a) = distance`` for ``u``
    gives this.

    :param distance: (N,) or scalar, how far the limit is, rad or m (0 or less: at it).
    :param speed: the velocity toward it now, rad/s or m/s.
    :param acceleration: the largest deceleration, rad/s^2 or m/s^2.
    :param period: one cycle, s.
    :returns: The largest speed toward the limit at the next point, rad/s or m/s, >= 0.
    """
    left = np.maximum(distance - 0.5 * speed * period, 0.0)
    half = 0.5 * period
    return acceleration * (-half + np.sqrt(half * half + 2.0 * left / acceleration))


def velocity_box(q: np.ndarray, v: np.ndarray, *, lower: np.ndarray, upper: np.ndarray,
                 velocity_limit: np.ndarray, acceleration: float,
                 period: float) -> VelocityBox:
    """
    Return the velocities the next point may have.

    :param q: (N,) the last point's positions, rad or m.
    :param v: (N,) its velocities, rad/s or m/s.
    :param lower: (N,) lower position limits (-inf: none).
    :param upper: (N,) upper position limits (inf: none).
    :param velocity_limit: (N,) largest speeds, already scaled.
    :param acceleration: largest acceleration, rad/s^2 or m/s^2.
    :param period: one cycle, s.
    :returns: The :class:`VelocityBox`: within the speed limit, within one period's
        acceleration of ``v``, and slow enough to stop at either position limit. Where the
        acceleration limit cannot reach the braking bound in one period, the box is the
        hardest braking (that case only arises from a start state already too fast).
    """
    step = acceleration * period
    ramp_low, ramp_high = v - step, v + step
    brake_high = stopping_speed(upper - q, v, acceleration, period)
    brake_low = -stopping_speed(q - lower, -v, acceleration, period)
    high = np.minimum(np.minimum(velocity_limit, ramp_high), brake_high)
    low = np.maximum(np.maximum(-velocity_limit, ramp_low), brake_low)
    braking = (brake_high < np.minimum(velocity_limit, ramp_high)) | \
        (brake_low > np.maximum(-velocity_limit, ramp_low))
    # Too fast to reach the braking bound within one period: brake as hard as allowed.
    high = np.where(high < low, np.maximum(ramp_low, np.minimum(high, v)), high)
    low = np.minimum(low, high)
    return VelocityBox(low=low, high=high, braking=braking)
