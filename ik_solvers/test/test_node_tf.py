# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Targets in TF frames outside the robot description, where tf2_ros is installed."""

import math

from geometry_msgs.msg import TransformStamped
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
from test_node_support import (
    oracle_confirms,
    same_position,
    start_ur5_node,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    UR5_ORACLE,
)

tf2_ros = pytest.importorskip(
    'tf2_ros', reason='tf2_ros is not installed (targets in TF frames need a ROS 2 install)')


def test_target_in_a_static_tf_frame_is_resolved(ros):  # noqa: F811
    node, probe = start_ur5_node(ros)
    broadcaster = tf2_ros.StaticTransformBroadcaster(probe.node)
    # The camera sits 0.1 m above the base, rotated 90 degrees about z.
    transform = TransformStamped()
    transform.header.stamp = probe.node.get_clock().now().to_msg()
    transform.header.frame_id = 'base_link'
    transform.child_frame_id = 'camera'
    transform.transform.translation.z = 0.1
    transform.transform.rotation.z = math.sqrt(0.5)
    transform.transform.rotation.w = math.sqrt(0.5)
    broadcaster.sendTransform(transform)
    base_from_camera = np.array([[0.0, -1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0],
                                 [0.0, 0.0, 1.0, 0.1], [0.0, 0.0, 0.0, 1.0]])
    goal = CHAIN.fk(HOME + 0.1)
    probe.publish_target(np.linalg.inv(base_from_camera) @ goal, frame_id='camera')
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal, 1e-6))
    assert status.success and status.commanded, status.message
    oracle_confirms(UR5_ORACLE, status.solution.name, status.solution.position, goal)


def test_unknown_tf_frame_times_out_into_an_error_code(ros):  # noqa: F811
    node, probe = start_ur5_node(ros, tf_timeout=0.2)
    request = probe.target_request(CHAIN.fk(HOME))
    request.target.header.frame_id = 'nowhere'
    response = probe.call(request)
    assert response.error_code == ErrorCodes.UNKNOWN_FRAME
    assert 'nowhere' in response.message
