# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Unreachable against out of time, as a client of the ik_node sees it (ErrorCodes.msg: the rule).

``NO_SOLUTION``: more time would not help (the target is out of reach). ``TIMED_OUT``: the
deadline came while the solver was still getting closer to a target it can reach.
"""

from pathlib import Path

from ik_solvers.kinematics import RobotModel
from ik_solvers.ros.ik_node import IKNode
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
import rclpy
from rclpy.parameter import Parameter
from test_node_support import COMMAND_TOPIC, Probe, same_position, Spinner, unique_namespace

Codes = ErrorCodes
URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf').read_text()
CHAIN = RobotModel.from_urdf(URDF).chain('panda_link0', 'panda_hand_tcp')


@pytest.fixture
def probe():
    """Start a panda_like ik_node at the middle of its limits; yield a probe talking to it."""
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    namespace = unique_namespace()
    nodes = []
    try:
        node = IKNode(namespace=namespace, context=context, parameter_overrides=[
            Parameter('command_topic', value=COMMAND_TOPIC),
            Parameter('base_link', value=CHAIN.base_link),
            Parameter('tip_link', value=CHAIN.tip_link),
            Parameter('timeout', value=0.2)])
        client = Probe(context, namespace)
        for each in (node, client.node):
            nodes.append(each)
            spinner.executor.add_node(each)
        client.wait_for_ik_node()
        client.stream_joint_states(CHAIN.joint_names, CHAIN.mid_configuration())
        client.publish_description(URDF)
        client.wait_for_model()
        yield client
    finally:
        spinner.stop()
        for each in nodes:
            each.destroy_node()
        rclpy.shutdown(context=context)


def _ten_metres_away() -> np.ndarray:
    goal = np.eye(4)
    goal[:3, 3] = [10.0, 0.0, 0.5]
    return goal


def test_a_goal_ten_metres_away_is_no_solution_on_the_service_and_approximate_when_streamed(
        probe):
    goal = _ten_metres_away()
    response = probe.call(probe.target_request(goal))
    assert not response.success
    assert response.error_code == Codes.NO_SOLUTION, response.message

    # Streamed, the arm is stretched toward it (approximate_tracking), never reaching it.
    start = probe.statuses.count()
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=start)
    assert not status.success and status.commanded
    assert status.error_code == Codes.APPROXIMATE, status.message
    assert status.position_error > 8.0


def test_a_reachable_goal_cut_short_by_its_deadline_is_timed_out(probe):
    # Reachable by construction (forward kinematics of a configuration within the limits), far
    # from the seed, with tolerances no first step meets and a deadline of one microsecond.
    goal = CHAIN.fk(CHAIN.random_configuration(np.random.default_rng(14)))
    request = probe.target_request(goal, position_tolerance=1e-9, orientation_tolerance=1e-9)
    request.timeout.nanosec = 1000
    response = probe.call(request)
    assert not response.success
    assert response.error_code == Codes.TIMED_OUT, response.message
