# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Time-optimal timing of a joint path within velocity and acceleration limits, by TOPP-RA.

The path is the cubic spline through the joint path (:mod:`.joint_spline`) in the parameter
s, from 0 to 1 in equal steps per point (toppra's solver has absolute tolerances: with s
counted in points, the derivatives of a path of 1 mm steps are small enough to drown in them,
and it fails). toppra
(Pham and Pham, "A New Approach to Time-Optimal Path Parameterization Based on Reachability
Analysis", 2018) finds the fastest timing with the path at rest at both ends, on a uniform grid
of s. Its cost grows with the grid, so a coarse grid (``grid_points``) comes first; the limits
are then checked at every path point, at every grid point on both of its sides, and midway
between them all. A grid too coarse for a strongly curved joint path (off by more than 5 %) is
refined four times over, up to one grid point per path point. The controller does not run
that motion but the quintic through the points' positions, velocities and accelerations:
:func:`.controller_fit.fit_to_controller` checks that curve every millisecond and repairs the points until it
keeps every limit, positions included; what is left over is removed by running the whole timing
uniformly slower, which divides velocities by the factor and accelerations by its square.
The trajectory returned keeps every limit on the controller's curve, which is also what
:meth:`TimedTrajectory.sample` gives. The choice of toppra, by measurement, is recorded in
docs/DECISIONS.md.
"""

import time
from typing import Dict, Optional, Tuple

import numpy as np

from ..exceptions import InvalidPathError, PathTooLongError, TimeParametrizationError
from .controller_fit import fit_to_controller
from .cubic_limits import shortest_cubic_duration
from .joint_spline import joint_spline
from .path_limits import TrajectoryLimits
from .timed_trajectory import PathTiming, TimedTrajectory

__all__ = ['DEFAULT_GRID_POINTS', 'time_parametrize', 'warm_up_timing']

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


def _parameters(count: int, given: Optional[np.ndarray]) -> np.ndarray:
    if given is None:
        return np.arange(count, dtype=float) / (count - 1)
    parameters = np.asarray(given, dtype=float)
    if parameters.shape != (count,) or parameters[0] != 0.0 or parameters[-1] != 1.0 \
            or np.any(np.diff(parameters) <= 0.0):
        raise InvalidPathError('parameters must rise strictly from 0 to 1, one per point')
    return parameters


def _stage_of(grid: np.ndarray, parameters: np.ndarray) -> np.ndarray:
    """Return the stage each parameter lies in (at a grid point the next; at 1 the last)."""
    return np.clip(np.searchsorted(grid, parameters, side='right') - 1, 0, len(grid) - 2)


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


def _worst_ratios(path, parameters: np.ndarray, grid: np.ndarray, path_velocity: np.ndarray,
                  limits: TrajectoryLimits) -> Tuple[float, float]:
    """Return the largest |velocity| / limit and |acceleration| / limit found on the path."""
    acceleration = _stage_accelerations(grid, path_velocity)
    # The path points, the grid points and the middles between all of them, each with the
    # law of the stage it lies in; the inner grid points once more with the stage before
    # them, so that every grid point is checked on both of its sides.
    knots = np.union1d(parameters, grid)
    points = np.concatenate((knots, 0.5 * (knots[1:] + knots[:-1]), grid[1:-1]))
    stages = np.concatenate((_stage_of(grid, knots[:-1]), [len(grid) - 2],
                             _stage_of(grid, 0.5 * (knots[1:] + knots[:-1])),
                             np.arange(len(grid) - 2)))
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
                     grid_points: int = DEFAULT_GRID_POINTS,
                     parameters: Optional[np.ndarray] = None) -> TimedTrajectory:
    """
    Time a joint path as fast as the limits allow, at rest at both ends.

    :param positions: (K, N) joint path, rad or m, one row per path point.
    :param limits: The :class:`TrajectoryLimits` of the chain (scales already applied).
    :param grid_points: Grid points of the first parametrization, >= 2.
    :param parameters: (K,) path parameter of each point, from 0 to 1, strictly increasing
        (the share of the tip's travel, say, for points unevenly spaced); None: equal steps.
    :returns: A :class:`TimedTrajectory` with a point per path point; a path that does not move
        becomes a single point at time 0.
    :raises InvalidPathError: ``positions`` has the wrong shape or non-finite values.
    :raises PathTooLongError: The fastest timing within the limits lasts longer than
        ``limits.max_path_duration`` (a :class:`TimeParametrizationError`).
    :raises TimeParametrizationError: No timing keeps the limits.
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
    parameters = _parameters(count, parameters)
    path = joint_spline(parameters, array)
    # At least three grid points: one stage from rest to rest at a constant acceleration
    # cannot move. Refining stops at one grid point per path point.
    size = max(grid_points, 3)
    while True:
        # Grid points on path points: the path acceleration jumps at grid points, and the
        # controller's quintic, which joins the points, cannot follow a jump inside a segment.
        grid = parameters[np.unique(np.round(np.linspace(0.0, count - 1, min(size, count)))
                                    .astype(int))] if count >= 3 else np.linspace(0.0, 1.0, size)
        path_velocity = _path_velocities(path, grid, limits)
        velocity_ratio, acceleration_ratio = _worst_ratios(path, parameters, grid,
                                                           path_velocity, limits)
        finest = max(count, grid_points, 3)
        if size >= finest or max(velocity_ratio, acceleration_ratio) <= _REFINE_ABOVE:
            break
        size = min(finest, _REFINEMENT * (size - 1) + 1)
    # What toppra's own curve leaves over between grid points is not slowed away here: the
    # controller runs another curve, which fit_to_controller checks and slows.
    timing = _timing(grid, path_velocity)
    _check_duration(timing.grid_times[-1], limits)
    times, velocities, accelerations = _at_points(path, parameters, timing)
    fitted = fit_to_controller(times, array, velocities, accelerations,
                               max_velocity=limits.max_velocity,
                               max_acceleration=limits.max_acceleration, lower=limits.lower,
                               upper=limits.upper)
    _check_duration(fitted.times[-1], limits)
    spline = fitted.spline

    def sampler(sample_times: np.ndarray):
        samples = spline.sample(sample_times)
        return samples.positions, samples.velocities, samples.accelerations

    return TimedTrajectory(joint_names=limits.joint_names, times=fitted.times, positions=array,
                           velocities=fitted.velocities, accelerations=fitted.accelerations,
                           time_scale=fitted.time_scale, _sampler=sampler)


def _check_duration(duration: float, limits: TrajectoryLimits) -> None:
    if duration > limits.max_path_duration:
        raise PathTooLongError(
            'the path needs %.3f s within the limits, more than max_path_duration (%.3f s)'
            % (duration, limits.max_path_duration))


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


def _at_points(path, parameters: np.ndarray, timing: PathTiming):
    grid = timing.grid
    stage = _stage_of(grid, parameters)
    offset = parameters - grid[stage]
    acceleration = timing.path_acceleration[stage]
    start_velocity = timing.path_velocity[stage]
    squared = np.maximum(start_velocity ** 2 + 2.0 * acceleration * offset, 0.0)
    speed = np.sqrt(squared)
    sums = start_velocity + speed
    times = timing.grid_times[stage] + np.divide(2.0 * offset, sums,
                                                 out=np.zeros(parameters.shape),
                                                 where=sums > 0.0)
    speed[0] = speed[-1] = 0.0
    squared[0] = squared[-1] = 0.0
    # The path acceleration jumps at a grid point; a point there gets the mean of the stages on
    # both sides, so that the controller's quintic, which joins the points' accelerations,
    # neither under- nor overshoots the timing on either side.
    on_grid = (offset == 0.0) & (stage > 0)
    acceleration = np.where(on_grid, 0.5 * (acceleration + timing.path_acceleration[
        np.maximum(stage - 1, 0)]), acceleration)
    first = path(parameters, 1)
    velocities = first * speed[:, None]
    accelerations = first * acceleration[:, None] + path(parameters, 2) * squared[:, None]
    return times, velocities, accelerations


def warm_up_timing() -> float:
    """
    Import toppra, time a tiny path and one command: the first real request does not pay.

    toppra's import (scipy, matplotlib) takes seconds on a cold start; a node calls this
    before it reports ready.

    :returns: Seconds it took.
    """
    started = time.perf_counter()
    limits = TrajectoryLimits(joint_names=('joint',), max_velocity=np.ones(1),
                              max_acceleration=np.ones(1))
    time_parametrize(np.array([[0.0], [0.5], [1.0]]), limits)
    # A streamed command's timing kernel: compiled (or loaded) here, not by the first target.
    one = np.ones(1)
    shortest_cubic_duration(np.zeros((1, 1)), np.zeros((1, 1)), one, 1.0, 1.1, 2, 0.001, 2,
                            one, one, -one, one)
    return time.perf_counter() - started
