# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The CartesianPath service type: its codes agree with SolveIK's and carry a trajectory."""

import pytest

interfaces = pytest.importorskip('ik_solvers_interfaces.srv',
                                 reason='ik_solvers_interfaces is not built')
CartesianPath = interfaces.CartesianPath
SolveIK = interfaces.SolveIK

from trajectory_msgs.msg import JointTrajectoryPoint  # noqa: E402

SHARED = ['SUCCESS', 'NO_SOLUTION', 'TIMED_OUT', 'INVALID_TARGET', 'UNKNOWN_FRAME',
          'NO_ROBOT_MODEL', 'INVALID_SEED', 'UNKNOWN_SOLVER', 'INVALID_TIMEOUT',
          'EXECUTION_FAILED', 'BUSY', 'IN_COLLISION', 'INTERNAL_ERROR']
NEW = ['JOINT_JUMP', 'INVALID_STEP', 'TOO_MANY_POINTS', 'INVALID_LIMITS',
       'PATH_TOO_LONG', 'COLLISION_CHECKING_UNAVAILABLE']


def test_codes_shared_with_solve_ik_have_its_numbers():
    for name in SHARED:
        assert getattr(CartesianPath.Response, name) == getattr(SolveIK.Response, name), name


def test_every_code_is_distinct_and_the_new_ones_do_not_reuse_old_numbers():
    codes = [getattr(CartesianPath.Response, name) for name in SHARED + NEW]
    assert len(set(codes)) == len(codes)
    assert all(20 <= getattr(CartesianPath.Response, name) < 255 for name in NEW)


def test_the_response_carries_a_timed_multi_point_trajectory():
    response = CartesianPath.Response()
    response.trajectory.joint_names = ['a', 'b']
    for index in range(3):
        point = JointTrajectoryPoint()
        point.positions = [0.1 * index, 0.2 * index]
        point.velocities = [0.0, 0.0]
        point.accelerations = [0.0, 0.0]
        point.time_from_start.nanosec = 1000 * index
        response.trajectory.points.append(point)
    assert [p.time_from_start.nanosec for p in response.trajectory.points] == [0, 1000, 2000]
    request = CartesianPath.Request()
    assert list(request.waypoints) == [] and request.max_step == 0.0 and not request.execute
