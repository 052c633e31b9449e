# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A timed joint path: when each path point is reached, and how fast, as plain arrays.

The timing comes from a geometric path (a cubic spline through the joint path, in a path
parameter s from 0 to 1 in equal steps per point) and a timing law s(t) with a constant path
acceleration between grid points, as the time-optimal parametrization produced it. Between the
points the robot runs what a joint_trajectory_controller makes of them, the quintic through
their positions, velocities and accelerations; sampling at any time gives that motion.
"""

from dataclasses import dataclass, field
from typing import Callable, Tuple

import numpy as np

__all__ = ['PathTiming', 'TimedTrajectory']


@dataclass(frozen=True)
class PathTiming:
    """
    The timing law s(t): constant path acceleration between consecutive grid points.

    :ivar grid: (G,) path parameter of the grid points, increasing from 0 to 1.
    :ivar grid_times: (G,) time at each grid point, s, from 0.
    :ivar path_velocity: (G,) ds/dt at each grid point, >= 0.
    :ivar path_acceleration: (G-1,) d2s/dt2 within each stage.
    """

    grid: np.ndarray
    grid_times: np.ndarray
    path_velocity: np.ndarray
    path_acceleration: np.ndarray

    def at_times(self, times: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """
        Evaluate s, ds/dt and d2s/dt2 at the given times (clamped to the duration).

        :param times: (M,) times, s.
        :returns: ``(s, ds/dt, d2s/dt2)``, each (M,).
        """
        clamped = np.clip(np.asarray(times, dtype=float), 0.0, self.grid_times[-1])
        stage = np.clip(np.searchsorted(self.grid_times, clamped, side='right') - 1, 0,
                        len(self.grid) - 2)
        elapsed = clamped - self.grid_times[stage]
        acceleration = self.path_acceleration[stage]
        velocity = np.maximum(self.path_velocity[stage] + acceleration * elapsed, 0.0)
        position = np.minimum(self.grid[stage] + self.path_velocity[stage] * elapsed
                              + 0.5 * acceleration * elapsed ** 2, self.grid[-1])
        return position, velocity, acceleration


@dataclass(frozen=True)
class TimedTrajectory:
    """
    A joint path with the time, velocity and acceleration at each of its K points.

    :ivar joint_names: The chain's N joint names, base to tip.
    :ivar times: (K,) time from the start at each point, s; 0 first, non-decreasing (strictly
        increasing when the path moves between every two points).
    :ivar positions: (K, N) the joint path, rad or m.
    :ivar velocities: (K, N) rad/s or m/s; zero at the first and last point.
    :ivar accelerations: (K, N) rad/s^2 or m/s^2 (at a grid point, that of the stage after it).
    :ivar time_scale: How much slower than the parametrization's own timing the trajectory
        runs (1.0 unless the checks of the limits between grid points and on the controller's
        spline slowed it).
    """

    joint_names: Tuple[str, ...]
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    time_scale: float = 1.0
    _sampler: Callable[[np.ndarray], Tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default=None, repr=False, compare=False)

    @property
    def duration(self) -> float:
        """Time from the first point to the last, s."""
        return float(self.times[-1])

    def sample(self, times) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """
        Positions, velocities and accelerations of the same motion at any times.

        :param times: (M,) times, s; clamped to [0, duration].
        :returns: ``(positions, velocities, accelerations)``, each (M, N).
        """
        times = np.atleast_1d(np.asarray(times, dtype=float))
        if self._sampler is None:  # a path of one point stands still
            shape = (times.shape[0], self.positions.shape[1])
            return (np.broadcast_to(self.positions[0], shape).copy(), np.zeros(shape),
                    np.zeros(shape))
        return self._sampler(times)
