# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Cartesian paths: straight lines of the tool through waypoints, and their timing.

:func:`cartesian_path` interpolates the lines, solves each point warm on one branch and stops at
the first point unreached, jumping or colliding; :func:`time_parametrize` times a joint path
within velocity and acceleration limits (TOPP-RA, by toppra); :func:`trajectory_limits` gathers
those limits from the URDF and a joint_limits.yaml mapping. No ROS here.
"""

from .cartesian import (
    CartesianPathResult,
    CollisionCheck,
    DEFAULT_MAX_POINTS,
    DEFAULT_WALK_STEPS,
    STOP_REASONS,
    cartesian_path,
)
from .interpolation import InterpolatedPath, interpolate_path
from .jumps import MIN_STEPS_FOR_RELATIVE_TEST
from .path_limits import JointLimit, TrajectoryLimits, parse_joint_limits, trajectory_limits
from .parametrization import DEFAULT_GRID_POINTS, time_parametrize, warm_up_timing
from .pose_errors import pose_errors
from .timed_trajectory import PathTiming, TimedTrajectory

__all__ = [
    'CartesianPathResult',
    'CollisionCheck',
    'DEFAULT_GRID_POINTS',
    'DEFAULT_MAX_POINTS',
    'DEFAULT_WALK_STEPS',
    'InterpolatedPath',
    'JointLimit',
    'MIN_STEPS_FOR_RELATIVE_TEST',
    'PathTiming',
    'STOP_REASONS',
    'TimedTrajectory',
    'TrajectoryLimits',
    'cartesian_path',
    'interpolate_path',
    'parse_joint_limits',
    'pose_errors',
    'time_parametrize',
    'trajectory_limits',
    'warm_up_timing',
]
