# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Time-optimal timing of a joint path within velocity and acceleration limits, by TOPP-RA.

The path is the cubic spline through the joint path in the parameter s, from 0 to 1 in equal
steps per point (toppra's solver has absolute tolerances: with s counted in points, the
derivatives of a path of 1 mm steps are small enough to drown in them, and it fails);
toppra (Pham and Pham, "A New Approach to Time-Optimal Path Parameterization Based on
Reachability Analysis", 2018) finds the fastest timing with the path at rest at both ends, on a
grid of the path's points. Its cost grows with the grid, so a coarse grid (``grid_points``)
comes first; the limits are then checked at every path point, on both sides of it, and midway
between points. A grid too coarse for a strongly curved joint path is refined (every fourth,
then every point); what is left over is removed by running the whole timing uniformly slower,
which divides velocities by the factor and accelerations by its square. The trajectory
returned keeps every limit wherever it was checked. The choice of toppra, by measurement, is
recorded in docs/DECISIONS.md.
"""

import math
from typing import Dict, Tuple

import numpy as np

from ..exceptions import InvalidPathError, TimeParametrizationError
from .limits import TrajectoryLimits
from .trajectory import PathTiming, TimedTrajectory

__all__ = ['DEFAULT_GRID_POINTS', 'time_parametrize']

#: Grid points of the first parametrization of a path (more only when the check needs them).
DEFAULT_GRID_POINTS = 16
# A first grid whose check is off by more than this share is refined rather than slowed down.
_REFINE_ABOVE = 1.05
# How much finer each refinement is.
_REFINEMENT = 4
# Constraint objects by their limits: toppra formats a description of the limits when one is
# built, a good share of a short path's time.
_CONSTRAINTS: Dict[tuple, tuple] = {}
_CONSTRAINTS_CAPACITY = 32


def _toppra():
    # Imported on first use: toppra pulls in scipy and matplotlib, seconds that a program
    # which never times a path should not pay.
    import toppra
    import toppra.algorithm
    import toppra.constraint
    return toppra


def _constraints(limits: TrajectoryLimits):
    key = (tuple(limits.max_velocity), tuple(limits.max_acceleration))
    found = _CONSTRAINTS.get(key)
    if found is None:
        toppra = _toppra()
        velocity = np.column_stack((-limits.max_velocity, limits.max_velocity))
        acceleration = np.column_stack((-limits.max_acceleration, limits.max_acceleration))
        found = (toppra.constraint.JointVelocityConstraint(velocity),
                 toppra.constraint.JointAccelerationConstraint(
                     acceleration, discretization_scheme=(
                         toppra.constraint.DiscretizationType.Interpolation)))
        if len(_CONSTRAINTS) >= _CONSTRAINTS_CAPACITY:
            _CONSTRAINTS.clear()
        _CONSTRAINTS[key] = found
    return found


def _parameters(count: int) -> np.ndarray:
    return np.arange(count, dtype=float) / (count - 1)


def _grid(count: int, stride: int) -> np.ndarray:
    indices = np.arange(0, count, stride)
    if indices[-1] != count - 1:
        indices = np.append(indices, count - 1)
    return indices / (count - 1.0)


def _path_velocities(path, grid: np.ndarray, limits: TrajectoryLimits) -> np.ndarray:
    toppra = _toppra()
    algorithm = toppra.algorithm.TOPPRA(list(_constraints(limits)), path, gridpoints=grid,
                                        solver_wrapper='seidel')
    _, path_velocity, _ = algorithm.compute_parameterization(0.0, 0.0)
    if path_velocity is None or not np.all(np.isfinite(path_velocity)):
        raise TimeParametrizationError('toppra found no timing of the path within the '
                                       'velocity and acceleration limits')
    path_velocity = np.maximum(np.asarray(path_velocity, dtype=float), 0.0)
    path_velocity[0] = path_velocity[-1] = 0.0  # at rest at both ends, exactly
    return path_velocity


def _stage_accelerations(grid: np.ndarray, path_velocity: np.ndarray) -> np.ndarray:
    # Constant path acceleration u in a stage: (ds/dt)^2 grows linearly by 2 u per unit of s.
    return 0.5 * np.diff(path_velocity ** 2) / np.diff(grid)


def _worst_ratios(path, count: int, grid: np.ndarray, path_velocity: np.ndarray,
                  limits: TrajectoryLimits) -> Tuple[float, float]:
    """Return the largest |velocity| / limit and |acceleration| / limit found on the path."""
    acceleration = _stage_accelerations(grid, path_velocity)
    parameters = _parameters(count)
    starts = parameters[:-1]
    ends = parameters[1:]
    # Each interval between path points lies in one stage; check both of its ends and its
    # middle with that stage's law, so a grid point is checked on both of its sides.
    stage = np.clip(np.searchsorted(grid, 0.5 * (starts + ends)) - 1, 0, len(grid) - 2)
    points = np.concatenate((starts, 0.5 * (starts + ends), ends))
    stages = np.concatenate((stage, stage, stage))
    squared = np.maximum(path_velocity[stages] ** 2
                         + 2.0 * acceleration[stages] * (points - grid[stages]), 0.0)
    first = path(points, 1)
    second = path(points, 2)
    velocity = np.abs(first) * np.sqrt(squared)[:, None]
    accelerations = np.abs(first * acceleration[stages][:, None] + second * squared[:, None])
    return (float(np.max(velocity / limits.max_velocity)),
            float(np.max(accelerations / limits.max_acceleration)))


def _check_inputs(positions, limits: TrajectoryLimits) -> np.ndarray:
    array = np.array(positions, dtype=float)
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] != len(limits.joint_names):
        raise InvalidPathError('positions must have shape (K >= 1, %d), got %s'
                               % (len(limits.joint_names), array.shape))
    if not np.isfinite(array).all():
        raise InvalidPathError('positions have non-finite values')
    return array


def time_parametrize(positions, limits: TrajectoryLimits, *,
                     grid_points: int = DEFAULT_GRID_POINTS) -> TimedTrajectory:
    """
    Time a joint path as fast as the limits allow, at rest at both ends.

    :param positions: (K, N) joint path, rad or m, one row per path point.
    :param limits: The :class:`TrajectoryLimits` of the chain (scales already applied).
    :param grid_points: Grid points of the first parametrization, >= 2.
    :returns: A :class:`TimedTrajectory` with a point per path point; a path that does not move
        becomes a single point at time 0.
    :raises InvalidPathError: ``positions`` has the wrong shape or non-finite values.
    :raises TimeParametrizationError: No timing keeps the limits, or the fastest one lasts
        longer than ``limits.max_path_duration``.
    """
    array = _check_inputs(positions, limits)
    if isinstance(grid_points, bool) or not isinstance(grid_points, int) or grid_points < 2:
        raise InvalidPathError('grid_points must be an integer >= 2, got %r' % (grid_points,))
    count = array.shape[0]
    if count == 1 or not np.any(array != array[0]):
        still = np.zeros((1, array.shape[1]))
        return TimedTrajectory(joint_names=limits.joint_names, times=np.zeros(1),
                               positions=array[:1].copy(), velocities=still,
                               accelerations=still.copy())
    path = _toppra().SplineInterpolator(_parameters(count), array)
    stride = max(1, int(math.ceil((count - 1) / (grid_points - 1))))
    while True:
        grid = _grid(count, stride)
        path_velocity = _path_velocities(path, grid, limits)
        velocity_ratio, acceleration_ratio = _worst_ratios(path, count, grid, path_velocity,
                                                           limits)
        if stride == 1 or max(velocity_ratio, acceleration_ratio) <= _REFINE_ABOVE:
            break
        stride = max(1, stride // _REFINEMENT)
    slower = max(1.0, velocity_ratio, math.sqrt(acceleration_ratio))
    path_velocity = path_velocity / slower
    timing = _timing(grid, path_velocity)
    if timing.grid_times[-1] > limits.max_path_duration:
        raise TimeParametrizationError(
            'the path needs %.3f s within the limits, more than max_path_duration (%.3f s)'
            % (timing.grid_times[-1], limits.max_path_duration))
    times, velocities, accelerations = _at_points(path, count, timing)

    def sampler(sample_times: np.ndarray):
        s, ds, dds = timing.at_times(sample_times)
        first = path(s, 1)
        return (path(s), first * ds[:, None],
                first * dds[:, None] + path(s, 2) * (ds ** 2)[:, None])

    return TimedTrajectory(joint_names=limits.joint_names, times=times, positions=array,
                           velocities=velocities, accelerations=accelerations,
                           time_scale=slower, _sampler=sampler)


def _timing(grid: np.ndarray, path_velocity: np.ndarray) -> PathTiming:
    sums = path_velocity[:-1] + path_velocity[1:]
    # A stage of length ds covered at a constant path acceleration takes 2 ds / (v0 + v1).
    durations = 2.0 * np.diff(grid) / np.where(sums > 0.0, sums, np.inf)
    if np.any(sums <= 0.0):
        raise TimeParametrizationError('the timing stops inside the path (zero path velocity '
                                       'at two consecutive grid points)')
    return PathTiming(grid=grid, grid_times=np.concatenate(([0.0], np.cumsum(durations))),
                      path_velocity=path_velocity,
                      path_acceleration=_stage_accelerations(grid, path_velocity))


def _at_points(path, count: int, timing: PathTiming):
    points = _parameters(count)
    grid = timing.grid
    # The stage that starts at a point (the last point: the stage that ends there); comparing
    # indices, not parameters, keeps rounding out of the choice.
    indices = np.rint(grid * (count - 1)).astype(int)
    stage = np.clip(np.searchsorted(indices, np.arange(count), side='right') - 1, 0,
                    len(grid) - 2)
    offset = points - grid[stage]
    acceleration = timing.path_acceleration[stage]
    start_velocity = timing.path_velocity[stage]
    squared = np.maximum(start_velocity ** 2 + 2.0 * acceleration * offset, 0.0)
    speed = np.sqrt(squared)
    sums = start_velocity + speed
    times = timing.grid_times[stage] + np.divide(2.0 * offset, sums, out=np.zeros(count),
                                                 where=sums > 0.0)
    speed[0] = speed[-1] = 0.0
    squared[0] = squared[-1] = 0.0
    first = path(points, 1)
    velocities = first * speed[:, None]
    accelerations = first * acceleration[:, None] + path(points, 2) * squared[:, None]
    return times, velocities, accelerations
