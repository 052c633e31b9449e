# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The servo benchmark's judge of which cycles no servo could track within the limits."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers import RobotModel
from ik_solvers_benchmarks.servo_feasibility import beyond_limits, displacement_bounds

URDF = Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf'


def test_the_displacement_bounds_follow_the_acceleration_and_the_speed_limit():
    speeds = np.array([1.0, 1.0, 1.0])
    free = np.full((2, 3), np.inf)
    bounds = displacement_bounds(np.array([0.0, 1.0, 0.9]), speeds, 10.0, 0.1, free)
    # From rest: a T^2 / 2 either way. At the speed limit: s T forward, and braking at a
    # backward. Near it: accelerate for 0.01 s, then hold the limit.
    np.testing.assert_allclose(bounds[:, 0], [-0.05, 0.05])
    np.testing.assert_allclose(bounds[:, 1], [0.1 - 0.05, 0.1])
    np.testing.assert_allclose(bounds[1, 2], 0.9 * 0.01 + 5.0 * 0.01 ** 2 + 1.0 * 0.09)
    np.testing.assert_allclose(bounds[0, 2], 0.9 * 0.1 - 5.0 * 0.01)


def test_a_joint_near_its_limit_moves_no_farther_than_it_can_still_stop():
    # 0.05 rad before the upper limit at 1 rad/s: it ends a 10 ms period at 0.9 rad/s or more,
    # and needs 0.9^2 / 20 = 0.0405 rad to stop from there (free, it would move 0.0105 rad).
    room = np.array([[np.inf], [0.05]])
    bounds = displacement_bounds(np.array([1.0]), np.array([2.0]), 10.0, 0.01, room)
    np.testing.assert_allclose(bounds[1, 0], 0.05 - 0.0405)


@pytest.mark.parametrize('speed, expected', [(0.05, False), (50.0, True)])
def test_a_twist_needing_more_than_the_speed_limits_is_beyond_them(speed, expected):
    model = RobotModel.from_urdf(URDF.read_text(encoding='utf-8'))
    chain = model.chain('base_link', 'tool0')
    q = np.array([0.3, -1.2, 1.4, -1.6, -1.5, 0.2])
    period = 0.01
    velocity = np.linalg.solve(chain.jacobian(q), np.array([speed, 0.0, 0.0, 0.0, 0.0, 0.0]))
    # The arm already moves as the command needs (no acceleration to gain), within 3.2 rad/s.
    start = np.clip(velocity, -3.2, 3.2)
    bounds = displacement_bounds(start, np.full(6, 3.2), 10.0, period, np.full((2, 6), np.inf))
    wanted = np.array([speed, 0.0, 0.0, 0.0, 0.0, 0.0])
    assert beyond_limits(chain.jacobian(q), np.r_[np.ones(3), np.full(3, 0.5)], wanted, bounds,
                         period) is expected
