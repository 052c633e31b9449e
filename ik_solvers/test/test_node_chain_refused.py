# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A description received whose chain is refused is answered as such, not as "no model yet"."""

from pathlib import Path

from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.msg import ErrorCodes
from ik_solvers_interfaces.srv import CartesianPath, SolveIK
from rclpy.qos import QoSProfile, ReliabilityPolicy
from test_node_cartesian_path import _call as _path_call
from test_node_support import UR5, wait_until, WAIT

PANDA = (Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf').read_text()


def _solve_until_not_waiting(probe) -> SolveIK.Response:
    answers = []

    def answered():
        answers.append(probe.call(SolveIK.Request()))
        return answers[-1].error_code != ErrorCodes.NO_ROBOT_MODEL

    assert wait_until(answered), 'the description was never read: %s' % answers[-1].message
    return answers[-1]


def test_a_refused_chain_answers_chain_refused_with_its_reason_until_a_fitting_one_comes(ros):
    # The chain base_link -> tool0 of a UR-style arm, offered the bundled Panda, which has
    # neither link.
    _, probe = ros.start(base_link='base_link', tip_link='tool0')
    probe.paths = probe.node.create_client(
        CartesianPath, 'ik_node/cartesian_path',
        qos_profile=QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
    assert probe.paths.wait_for_service(timeout_sec=WAIT)
    probe.publish_description(PANDA)
    answer = _solve_until_not_waiting(probe)
    assert answer.error_code == ErrorCodes.CHAIN_REFUSED and not answer.success, answer.message
    assert answer.message.startswith(
        'robot_description received, but chain base_link\u2192tool0 refused: '), answer.message
    assert 'no valid robot_description received yet' not in answer.message
    # The reason names what is missing.
    assert 'base_link' in answer.message.split('refused: ', 1)[1], answer.message

    # A Cartesian path gives the same code (it is one of the path codes).
    request = CartesianPath.Request(waypoints=[PoseStamped()])
    request.waypoints[0].pose.orientation.w = 1.0
    path = _path_call(probe, request)
    assert path.error_code == ErrorCodes.CHAIN_REFUSED, path.message
    assert 'refused' in path.message

    # A description with that chain is adopted, and the refusal is forgotten.
    probe.publish_description(UR5)
    assert wait_until(lambda: probe.call(SolveIK.Request()).error_code
                      != ErrorCodes.CHAIN_REFUSED), 'the fitting description was not adopted'
    assert probe.call(SolveIK.Request()).error_code not in (ErrorCodes.CHAIN_REFUSED,
                                                            ErrorCodes.NO_ROBOT_MODEL)
