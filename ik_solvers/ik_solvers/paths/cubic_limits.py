# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The shortest single-point command whose controller cubic keeps the limits, compiled.

A streamed command is one point reached at rest; the controller joins its state (position p0,
velocity v0) to it by the cubic Hermite segment ``p0 + v0 t + c2 t^2 + c3 t^3``. Whether a
duration keeps the limits is decided on the samples :class:`~.controller_spline.ControllerSpline`
checks: every ``period`` from 0, the end, both knots, and ``per_segment`` evenly spaced inside.
The arithmetic is the spline's own, operation for operation (its coefficients, Horner's rule
with the quintic terms at zero, the ratios against the limits), so the answer is the one the
sampled spline gives; this kernel only spares the dozens of small array operations per try that
made the timing of one streamed command cost more than its solve.
"""

import numpy as np

from ..kinematics.jit import compiled

__all__ = ['shortest_cubic_duration']


@compiled
def _keeps_limits(start: np.ndarray, velocity: np.ndarray, goal: np.ndarray, duration: float,
                  period: float, per_segment: int, max_velocity: np.ndarray,
                  max_acceleration: np.ndarray, low: np.ndarray, high: np.ndarray) -> bool:
    span = duration
    grid = 0
    # np.arange(0, T, period) has ceil(T / period) entries, each start + i * period.
    count = int(np.ceil(span / period))
    total = count + 2 + per_segment
    for joint in range(goal.size):
        p0 = start[joint]
        v0 = velocity[joint]
        p1 = goal[joint]
        c1 = v0
        c2 = (3 * (p1 - p0) - (2 * v0 + 0.0) * span) / (span * span)
        # numpy squares by multiplying and raises to 3 by pow(): the same here.
        c3 = (2 * (p0 - p1) + (v0 + 0.0) * span) / span ** 3.0
        c4 = 0.0
        c5 = 0.0
        for sample in range(total):
            if sample < count:
                grid = sample
                tau = 0.0 + grid * period
                if tau > span:
                    continue
            elif sample == count:
                tau = span  # the end (and the second knot)
            elif sample == count + 1:
                tau = 0.0  # the first knot
            else:
                share = (sample - count - 1) / (per_segment + 1.0)
                tau = 0.0 + share * (span - 0.0)
            position = p0 + tau * (c1 + tau * (c2 + tau * (c3 + tau * (c4 + tau * c5))))
            speed = c1 + tau * (2.0 * c2 + tau * (3.0 * c3 + tau * (4.0 * c4 + tau * 5.0 * c5)))
            acceleration = 2.0 * c2 + tau * (6.0 * c3 + tau * (12.0 * c4 + tau * 20.0 * c5))
            if abs(speed) / max_velocity[joint] > 1.0:
                return False
            if abs(acceleration) / max_acceleration[joint] > 1.0:
                return False
            if low[joint] - position > 0.0 or position - high[joint] > 0.0:
                return False
    return True


@compiled
def shortest_cubic_duration(starts: np.ndarray, velocities: np.ndarray, goal: np.ndarray,
                            first: float, growth: float, tries: int, period: float,
                            per_segment: int, max_velocity: np.ndarray,
                            max_acceleration: np.ndarray, low: np.ndarray,
                            high: np.ndarray) -> float:
    """
    Return the shortest duration tried whose cubic from every start keeps the limits.

    The durations tried are ``first * growth^k`` for k < ``tries``; the result is in s, or
    -1.0 when none of them keeps the limits.

    :param starts: (S, N) where the controller may be when the command arrives, rad or m.
    :param velocities: (S, N) its velocity there, rad/s or m/s.
    :param goal: (N,) the point, reached at rest.
    :param first: s, the first duration tried, > 0.
    :param growth: > 1, the factor between tries.
    :param tries: how many durations to try.
    :param period: s, the sample grid (the controller's period).
    :param per_segment: samples inside the cubic besides the grid.
    :param max_velocity: (N,) > 0, ``inf`` where a joint has no limit.
    :param max_acceleration: (N,) likewise.
    :param low: (N,) lower position bounds, ``-inf`` where none.
    :param high: (N,) upper position bounds, ``inf`` where none.
    """
    duration = first
    for _ in range(tries):
        kept = True
        for index in range(starts.shape[0]):
            if not _keeps_limits(starts[index], velocities[index], goal, duration, period,
                                 per_segment, max_velocity, max_acceleration, low, high):
                kept = False
                break
        if kept:
            return duration
        duration *= growth
    return -1.0
