# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Make the points of a timed trajectory keep the limits on the controller's spline between them.

A time parametrization keeps the limits at its points and along its own curve; the controller
runs another curve, the quintic through the points' positions, velocities and accelerations
(see :mod:`.controller_spline`), which may overshoot a little. Two repairs, both checked on the
fine grid of that curve:

* **Positions.** A quintic segment whose ends lie within a joint's position limits can still
  pass a limit when its end velocities point outward. Uniform re-timing does not change the
  shape of the curve, so such a joint gets zero velocity and acceleration at both ends of that
  segment: the quintic between two points at rest is monotone and stays between them.
* **Velocity and acceleration.** Running the trajectory uniformly slower by a factor k divides
  every velocity of the same curve by k and every acceleration by k squared, so the factor that
  the fine check asks for removes the excess exactly; the check is repeated on the new timing.
"""

from dataclasses import dataclass
import math
from typing import Optional

import numpy as np

from .controller_spline import ControllerSpline, DEFAULT_SAMPLE_PERIOD, limit_excess

__all__ = ['FittedPoints', 'fit_to_controller']

# Samples inside each segment besides the regular grid: the fine check of short segments.
_PER_SEGMENT = 2
# rad or m past a position limit that counts as outside (below the 1e-9 the limits allow).
_POSITION_TOLERANCE = 1e-12
# Relative margin of the slow-down factor: the grid falls elsewhere on the slower curve and
# may see a little more than the samples did; 0.1 % of the duration spares most second rounds.
_MARGIN = 1e-3
_ROUNDS = 8


@dataclass(frozen=True)
class FittedPoints:
    """
    Times, velocities and accelerations of the points after the repairs; positions unchanged.

    :ivar time_scale: How much slower than the given timing (>= 1).
    :ivar stopped_joints: Number of (segment, joint) pairs brought to rest at their ends.
    """

    times: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    time_scale: float
    stopped_joints: int
    spline: ControllerSpline


def _stop_overshoots(samples, times, velocities, accelerations, lower, upper) -> int:
    """Bring each joint to rest at the ends of the segments where it passes a limit."""
    outside = (samples.positions < lower - _POSITION_TOLERANCE) | (
        samples.positions > upper + _POSITION_TOLERANCE)
    if not outside.any():
        return 0
    rows, joints = np.nonzero(outside)
    segments = np.clip(np.searchsorted(times, samples.times[rows], side='right') - 1, 0,
                       times.size - 2)
    stopped = 0
    for segment, joint in set(zip(segments.tolist(), joints.tolist())):
        ends = [segment, segment + 1]
        if np.any(velocities[ends, joint] != 0.0) or np.any(accelerations[ends, joint] != 0.0):
            velocities[ends, joint] = 0.0
            accelerations[ends, joint] = 0.0
            stopped += 1
    return stopped


def fit_to_controller(times, positions, velocities, accelerations, *, max_velocity,
                      max_acceleration, lower: Optional[np.ndarray] = None,
                      upper: Optional[np.ndarray] = None,
                      period: float = DEFAULT_SAMPLE_PERIOD) -> FittedPoints:
    """
    Repair the points so that the controller's quintic through them keeps every limit.

    :param times: (K,) s, from 0, strictly increasing; K >= 2.
    :param positions: (K, N) rad or m, within ``lower`` and ``upper``.
    :param velocities: (K, N) rad/s, zero at both ends.
    :param accelerations: (K, N) rad/s^2.
    :param max_velocity: (N,) rad/s, finite and positive.
    :param max_acceleration: (N,) rad/s^2, finite and positive.
    :param lower: (N,) position limits, rad or m (-inf or None: none).
    :param upper: (N,) position limits (+inf or None: none).
    :param period: s, the grid of the check.
    :returns: The :class:`FittedPoints`; its spline keeps every limit on the grid of the check
        (positions as long as the points themselves are within them).
    """
    times = np.array(times, dtype=float)
    positions = np.asarray(positions, dtype=float)
    velocities = np.array(velocities, dtype=float)
    accelerations = np.array(accelerations, dtype=float)
    width = positions.shape[1]
    lower = np.full(width, -np.inf) if lower is None else np.asarray(lower, dtype=float)
    upper = np.full(width, np.inf) if upper is None else np.asarray(upper, dtype=float)
    stopped = 0
    spline = ControllerSpline(times, positions, velocities, accelerations)
    samples = spline.sample_every(period, per_segment=_PER_SEGMENT)
    # Each round brings at least one more (segment, joint) to rest, or ends.
    for _ in range(positions.size):
        newly = _stop_overshoots(samples, times, velocities, accelerations, lower, upper)
        if not newly:
            break
        stopped += newly
        spline = ControllerSpline(times, positions, velocities, accelerations)
        samples = spline.sample_every(period, per_segment=_PER_SEGMENT)
    # Slowing does not move the curve: positions need no second look. The grid of the check
    # falls elsewhere on the slower curve, so it is checked again, each time with more margin.
    scale = 1.0
    for attempt in range(_ROUNDS):
        if attempt:
            samples = spline.sample_every(period, per_segment=_PER_SEGMENT)
        excess = limit_excess(samples, max_velocity=max_velocity,
                              max_acceleration=max_acceleration)
        factor = max(excess.velocity_ratio, math.sqrt(excess.acceleration_ratio))
        if factor <= 1.0:
            break
        factor *= 1.0 + _MARGIN * 10.0 ** attempt
        spline = spline.slowed(factor)
        scale *= factor
    return FittedPoints(times=spline.times, velocities=spline.velocities,
                        accelerations=spline.accelerations, time_scale=scale,
                        stopped_joints=stopped, spline=spline)
