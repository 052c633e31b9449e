# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Commands follow the rules joint_trajectory_controller checks before accepting a trajectory."""

import math

from ik_solvers.ros.conversions import command_trajectory, duration_to_seconds
from ik_solvers.engine.outcome import Command
from ik_solvers.engine.controller_motion import largest_joint_jump, trajectory_duration
import pytest
from test_node_support import jtc_accepts

NAMES = ['j1', 'j2', 'j3']


def build_trajectory(names, start, goal, velocity_limits, **timing):
    duration = trajectory_duration(start, goal, velocity_limits, **timing)
    return command_trajectory(Command(tuple(names), tuple(goal), duration))


def test_single_goal_point_with_zero_velocity():
    trajectory = build_trajectory(NAMES, [0.0, 0.0, 0.0], [0.4, -0.2, 0.1], [2.0, 2.0, 2.0],
                                  velocity_scale=0.5, min_duration=0.1)
    assert jtc_accepts(trajectory, NAMES)
    assert list(trajectory.joint_names) == NAMES
    (point,) = trajectory.points
    assert list(point.positions) == pytest.approx([0.4, -0.2, 0.1])
    assert list(point.velocities) == [0.0, 0.0, 0.0]
    # The slowest joint moves 0.4 rad at 0.5 * 2 rad/s.
    assert duration_to_seconds(point.time_from_start) == pytest.approx(0.4)


def test_duration_follows_the_slowest_joint():
    duration = trajectory_duration([0.0, 0.0], [1.0, 1.0], [4.0, 1.0], velocity_scale=1.0,
                                   min_duration=0.01)
    assert duration == pytest.approx(1.0)


def test_small_moves_last_at_least_min_duration():
    trajectory = build_trajectory(NAMES, [0.0] * 3, [1e-6] * 3, [2.0] * 3, min_duration=0.25)
    assert duration_to_seconds(trajectory.points[0].time_from_start) == pytest.approx(0.25)
    # No motion at all still gives a positive time, which the controller requires.
    assert trajectory_duration([0.0], [0.0], [1.0], min_duration=0.1) == pytest.approx(0.1)


def test_joints_without_velocity_limit_do_not_constrain():
    duration = trajectory_duration([0.0, 0.0, 0.0], [5.0, 5.0, 0.5],
                                   [0.0, math.inf, 1.0], velocity_scale=1.0, min_duration=0.01)
    assert duration == pytest.approx(0.5)


@pytest.mark.parametrize('options', [
    {'velocity_scale': 0.0}, {'velocity_scale': 1.5}, {'min_duration': 0.0},
    {'min_duration': float('nan')},
])
def test_bad_options_are_rejected(options):
    with pytest.raises(ValueError):
        trajectory_duration([0.0], [1.0], [1.0], **options)


def test_bad_sizes_are_rejected():
    with pytest.raises(ValueError):
        build_trajectory(NAMES, [0.0] * 3, [0.0] * 2, [1.0] * 3)
    with pytest.raises(ValueError):
        build_trajectory([], [], [], [])
    with pytest.raises(ValueError):
        trajectory_duration([0.0, 0.0], [0.0, float('nan')], [1.0, 1.0])


def test_largest_joint_jump():
    assert largest_joint_jump([0.0, 1.0, -1.0], [0.5, -1.0, -1.2]) == pytest.approx(2.0)
    assert largest_joint_jump([], []) == 0.0
    with pytest.raises(ValueError):
        largest_joint_jump([0.0], [0.0, 1.0])


def test_the_restated_controller_checks_reject_what_the_controller_rejects():
    good = build_trajectory(NAMES, [0.0] * 3, [0.1] * 3, [1.0] * 3)
    assert not jtc_accepts(good, ['j1', 'j2', 'other'])
    moving = build_trajectory(NAMES, [0.0] * 3, [0.1] * 3, [1.0] * 3)
    moving.points[0].velocities = [0.0, 0.1, 0.0]
    assert not jtc_accepts(moving, NAMES)
    repeated = build_trajectory(NAMES, [0.0] * 3, [0.1] * 3, [1.0] * 3)
    repeated.points = [repeated.points[0], repeated.points[0]]
    assert not jtc_accepts(repeated, NAMES)
    short = build_trajectory(NAMES, [0.0] * 3, [0.1] * 3, [1.0] * 3)
    short.points[0].positions = [0.1, 0.1]
    assert not jtc_accepts(short, NAMES)
