# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""target_pose takes best-effort (sensor-data QoS) and reliable publishers, over DDS."""

from geometry_msgs.msg import PoseStamped
from ik_solvers.ros.conversions import matrix_to_pose
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
from rclpy.qos import qos_profile_sensor_data
from test_node_support import (
    oracle_confirms,
    same_position,
    start_ur5_node,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    UR5_ORACLE as ORACLE,
    wait_until,
)


def _goal(offset: float) -> np.ndarray:
    return CHAIN.fk(HOME + np.array([offset, -offset, offset, 0.5 * offset, -offset, offset]))


def test_targets_of_a_best_effort_publisher_are_received_and_commanded(ros):
    node, probe = start_ur5_node(ros)
    best_effort = probe.node.create_publisher(PoseStamped, 'target_pose', qos_profile_sensor_data)
    # A reliable subscription never matches a best-effort publisher.
    assert wait_until(lambda: best_effort.get_subscription_count() > 0), \
        'the ik_node does not match a best-effort target_pose publisher'
    for offset in (0.04, 0.08):
        goal = _goal(offset)
        message = PoseStamped()
        message.pose = matrix_to_pose(goal)
        start = probe.statuses.count()
        best_effort.publish(message)
        status = probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=start)
        assert status.error_code == ErrorCodes.SUCCESS and status.commanded, \
            status.message
        oracle_confirms(ORACLE, status.solution.name, status.solution.position, goal)
    # The reliable publisher of the probe is still heard.
    goal = _goal(0.02)
    start = probe.statuses.count()
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=start)
    assert status.error_code == ErrorCodes.SUCCESS, status.message
