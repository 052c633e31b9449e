# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How far and how long a command moves: the numbers of a joint_trajectory_controller command.

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

__all__ = ['largest_joint_jump', 'trajectory_duration']


def largest_joint_jump(start: Sequence[float], goal: Sequence[float]) -> float:
    """
    Largest absolute change of one joint between two configurations.

    :param start: Configuration in rad or m.
    :param goal: Configuration in rad or m, same length.
    :returns: max_i |goal_i - start_i|, in the joint's unit; 0 for empty configurations.
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
    :returns: Seconds.
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
