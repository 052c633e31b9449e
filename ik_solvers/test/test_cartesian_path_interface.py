# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The CartesianPath service type carries a timed trajectory (its codes: test_node_error_codes)."""

import pytest

interfaces = pytest.importorskip('ik_solvers_interfaces.srv',
                                 reason='ik_solvers_interfaces is not built')
CartesianPath = interfaces.CartesianPath

from trajectory_msgs.msg import JointTrajectoryPoint  # noqa: E402


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
