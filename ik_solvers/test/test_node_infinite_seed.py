# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Over DDS: a SolveIK seed or a CartesianPath start with +inf or -inf is refused, by name."""

import math
import threading

from geometry_msgs.msg import PoseStamped
from ik_solvers.ros.conversions import matrix_to_pose
from ik_solvers_interfaces.msg import ErrorCodes
from ik_solvers_interfaces.srv import CartesianPath
import pytest
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from test_node_support import (
    start_ur5_node,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    WAIT,
)

Codes = ErrorCodes
INFINITIES = pytest.mark.parametrize('value', [math.inf, -math.inf], ids=['plus_inf', 'minus_inf'])
#: The joint given the infinite position (its name must be in the refusal).
JOINT = 2


def _infinite_state(value):
    positions = [float(x) for x in HOME]
    positions[JOINT] = value
    return JointState(name=list(CHAIN.joint_names), position=positions)


@INFINITIES
def test_solveik_refuses_an_infinite_seed_with_the_joint_name(ros, value):
    node, probe = start_ur5_node(ros)
    goal = CHAIN.fk(HOME)
    start = probe.commands.count()
    response = probe.call(probe.target_request(goal, seed=_infinite_state(value), execute=True))
    assert not response.success
    assert response.error_code == Codes.INVALID_SEED, response.message
    assert CHAIN.joint_names[JOINT] in response.message, response.message
    # The same seed without names (the chain's joints in order) is refused alike.
    unnamed = _infinite_state(value)
    unnamed.name = []
    response = probe.call(probe.target_request(goal, seed=unnamed, execute=True))
    assert response.error_code == Codes.INVALID_SEED, response.message
    assert CHAIN.joint_names[JOINT] in response.message, response.message
    assert probe.commands.count() == start  # nothing was commanded


@INFINITIES
def test_cartesian_path_refuses_an_infinite_start_with_the_joint_name(ros, value):
    node, probe = start_ur5_node(ros)
    client = probe.node.create_client(
        CartesianPath, 'ik_node/cartesian_path',
        qos_profile=QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
    assert client.wait_for_service(timeout_sec=WAIT)
    goal = CHAIN.fk(HOME)
    goal[2, 3] -= 0.02
    waypoint = PoseStamped()
    waypoint.header.frame_id = 'base_link'
    waypoint.pose = matrix_to_pose(goal)
    request = CartesianPath.Request(waypoints=[waypoint], start=_infinite_state(value),
                                    max_step=0.005)
    start = probe.commands.count()
    future = client.call_async(request)
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    assert done.wait(WAIT), 'no CartesianPath response within %g s' % WAIT
    response = future.result()
    assert not response.success and not response.commanded
    assert response.error_code == Codes.INVALID_SEED, response.message
    assert CHAIN.joint_names[JOINT] in response.message, response.message
    assert probe.commands.count() == start
