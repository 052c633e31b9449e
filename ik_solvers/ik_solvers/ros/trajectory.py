# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
JointTrajectory commands that ros2_control's joint_trajectory_controller accepts.

The controller rejects a trajectory whose joint names are empty or unknown, whose points have
positions (or non-empty velocities) of a size other than the number of names, whose
``time_from_start`` is not strictly increasing, or whose last point moves (non-zero velocity).
A header stamp of zero means "start now". The command is therefore a single point, the goal,
reached at a time T > 0 with zero velocity: the controller interpolates from wherever the joints
are, so a stale start point can never cause a jump.
"""

import math
from typing import Sequence

import numpy as np
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .conversions import seconds_to_duration

__all__ = ['build_trajectory', 'largest_joint_jump', 'nearest_equivalent', 'trajectory_duration']


def nearest_equivalent(start: Sequence[float], goal: Sequence[float],
                       is_continuous: Sequence[bool]) -> np.ndarray:
    """
    Move each continuous joint of ``goal`` by whole turns to within half a turn of ``start``.

    A continuous joint reaches the same pose at q and q + 2 pi k, and has no limits to leave;
    taking the nearest of those angles spares a command the long way round (and a refusal by
    the largest-jump check).

    :param start: Configuration in rad or m.
    :param goal: Configuration in rad or m, same length.
    :param is_continuous: True for the joints to move, same length.
    :return: A copy of ``goal`` where continuous joints satisfy goal_i - start_i in (-pi, pi].
    :raises ValueError: If the lengths differ.
    """
    start = np.asarray(start, dtype=float)
    goal = np.array(goal, dtype=float)
    continuous = np.asarray(is_continuous, dtype=bool)
    if not start.shape == goal.shape == continuous.shape:
        raise ValueError('start, goal and is_continuous have %d, %d and %d entries'
                         % (start.size, goal.size, continuous.size))
    difference = goal[continuous] - start[continuous]
    goal[continuous] = start[continuous] + (math.pi - np.mod(math.pi - difference, 2 * math.pi))
    return goal


def largest_joint_jump(start: Sequence[float], goal: Sequence[float]) -> float:
    """
    Largest absolute change of one joint between two configurations.

    :param start: Configuration in rad or m.
    :param goal: Configuration in rad or m, same length.
    :return: max_i |goal_i - start_i|, in the joint's unit; 0 for empty configurations.
    :raises ValueError: If the lengths differ.
    """
    start = np.asarray(start, dtype=float)
    goal = np.asarray(goal, dtype=float)
    if start.shape != goal.shape:
        raise ValueError('configurations of %d and %d joints' % (start.size, goal.size))
    return float(np.max(np.abs(goal - start))) if start.size else 0.0


def trajectory_duration(start: Sequence[float], goal: Sequence[float],
                        velocity_limits: Sequence[float], *, velocity_scale: float = 0.5,
                        min_duration: float = 0.1) -> float:
    """
    Time to move from ``start`` to ``goal`` with every joint within its scaled velocity limit.

    T = max_i |goal_i - start_i| / (velocity_scale * v_max_i), at least ``min_duration``.
    Joints whose limit is zero, negative or not finite (a URDF without velocity limits) do not
    constrain T.

    :param start: Configuration in rad or m.
    :param goal: Configuration in rad or m, same length.
    :param velocity_limits: Largest joint speeds in rad/s or m/s, same length.
    :param velocity_scale: Fraction of the limits to use, in (0, 1].
    :param min_duration: Shortest duration in seconds, > 0.
    :return: Seconds.
    :raises ValueError: If the lengths differ, a position is not finite, or an option is out of
        range.
    """
    if not 0.0 < velocity_scale <= 1.0:
        raise ValueError('velocity_scale must be in (0, 1], not %r' % velocity_scale)
    if not (math.isfinite(min_duration) and min_duration > 0.0):
        raise ValueError('min_duration must be a positive number of seconds, not %r'
                         % min_duration)
    start = np.asarray(start, dtype=float)
    goal = np.asarray(goal, dtype=float)
    limits = np.asarray(velocity_limits, dtype=float)
    if not start.shape == goal.shape == limits.shape:
        raise ValueError('start, goal and velocity_limits have %d, %d and %d entries'
                         % (start.size, goal.size, limits.size))
    if not (np.all(np.isfinite(start)) and np.all(np.isfinite(goal))):
        raise ValueError('start and goal must be finite')
    usable = np.isfinite(limits) & (limits > 0.0)
    times = np.abs(goal - start)[usable] / (velocity_scale * limits[usable])
    slowest = float(np.max(times)) if times.size else 0.0
    return max(slowest, float(min_duration))


def build_trajectory(joint_names: Sequence[str], start: Sequence[float],
                     goal: Sequence[float], velocity_limits: Sequence[float], *,
                     velocity_scale: float = 0.5, min_duration: float = 0.1) -> JointTrajectory:
    """
    Build the command that moves the joints to ``goal``.

    :param joint_names: The chain's joint names, base to tip.
    :param start: Where the joints are now (rad or m); sets the duration only.
    :param goal: The configuration to reach (rad or m).
    :param velocity_limits: Largest joint speeds in rad/s or m/s.
    :param velocity_scale: Fraction of the velocity limits to use, in (0, 1].
    :param min_duration: Shortest duration in seconds, > 0.
    :return: A trajectory with a zero stamp (start now) and one point at T with zero velocity.
    :raises ValueError: If the sizes disagree, there are no joints, or an option is out of range.
    """
    names = list(joint_names)
    goal = np.asarray(goal, dtype=float)
    if not names:
        raise ValueError('a trajectory needs at least one joint')
    if len(names) != goal.size:
        raise ValueError('%d joint names but %d goal positions' % (len(names), goal.size))
    duration = trajectory_duration(start, goal, velocity_limits,
                                   velocity_scale=velocity_scale, min_duration=min_duration)
    point = JointTrajectoryPoint()
    point.positions = [float(value) for value in goal]
    point.velocities = [0.0] * len(names)
    point.time_from_start = seconds_to_duration(duration)
    trajectory = JointTrajectory()
    trajectory.joint_names = names
    trajectory.points = [point]
    return trajectory
