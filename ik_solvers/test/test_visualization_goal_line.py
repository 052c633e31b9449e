# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The goal marker's straight line to the goal: the request, the preview, and a real ik_node."""

from pathlib import Path

import numpy as np
import pytest

rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')
CartesianPath = pytest.importorskip(
    'ik_solvers_interfaces.srv', reason='ik_solvers_interfaces is not built').CartesianPath

from geometry_msgs.msg import PoseStamped  # noqa: E402
from ik_solvers.kinematics import RobotModel  # noqa: E402
from ik_solvers.ros.ik_node import IKNode  # noqa: E402
from ik_solvers.visualization import GoalPose  # noqa: E402
from ik_solvers.visualization.goal_line import line_request, preview_marker  # noqa: E402
from ik_solvers.visualization.goal_marker_core import GoalMarkerCore  # noqa: E402
from ik_solvers.visualization.goal_marker_shape import pose_to_message  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from test_node_support import (  # noqa: E402
    COMMAND_TOPIC, Collector, Probe, Spinner, unique_namespace, wait_until)
from trajectory_msgs.msg import JointTrajectoryPoint  # noqa: E402
from visualization_msgs.msg import Marker  # noqa: E402

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
CHAIN = RobotModel.from_urdf(URDF).chain('base_link', 'tool0')
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])


def test_the_request_is_one_waypoint_at_the_goal():
    goal = GoalPose((0.4, 0.1, 0.3), (0.0, 1.0, 0.0, 0.0))
    request = line_request(goal, 'base_link', execute=True)
    assert len(request.waypoints) == 1 and request.execute
    waypoint = request.waypoints[0]
    assert waypoint.header.frame_id == 'base_link'
    assert (waypoint.pose.position.x, waypoint.pose.position.y) == (0.4, 0.1)
    assert waypoint.pose.orientation.y == 1.0


def test_the_preview_is_the_tool_path_by_forward_kinematics():
    response = CartesianPath.Response()
    response.success = True
    response.trajectory.joint_names = list(CHAIN.joint_names)
    for offset in (0.0, 0.1, 0.2):
        point = JointTrajectoryPoint(positions=(HOME + offset).tolist())
        response.trajectory.points.append(point)
    marker = preview_marker(CHAIN, response, 'base_link')
    assert marker.type == Marker.LINE_STRIP and len(marker.points) == 3
    tip = CHAIN.fk(HOME + 0.2)[:3, 3]
    assert np.allclose([marker.points[2].x, marker.points[2].y, marker.points[2].z], tip)
    assert marker.color.g > marker.color.r  # green: the whole line was reached
    response.success = False
    assert preview_marker(CHAIN, response, 'base_link').color.r > 0.5


def test_a_placed_goal_is_previewed_through_the_ik_node_and_not_streamed():
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    namespace = unique_namespace()
    nodes = []
    try:
        ik_node = IKNode(namespace=namespace, context=context, parameter_overrides=[
            Parameter('command_topic', value=COMMAND_TOPIC),
            Parameter('base_link', value='base_link'), Parameter('tip_link', value='tool0'),
            Parameter('timeout', value=0.5), Parameter('cartesian_timeout', value=10.0)])
        probe = Probe(context, namespace)
        marker_node = rclpy.create_node('goal_marker', namespace=namespace, context=context)
        core = GoalMarkerCore(marker_node, base_link='base_link', tip_link='tool0',
                              robot_description=URDF, stream_goals=False,
                              status_topic='ik_node/status',
                              cartesian_path_service='ik_node/cartesian_path')
        previews = Collector()
        targets = Collector()
        probe.node.create_subscription(Marker, 'goal_marker/line_preview', previews, 10)
        probe.node.create_subscription(PoseStamped, 'target_pose', targets, 10)
        for each in (ik_node, probe.node, marker_node):
            nodes.append(each)
            spinner.executor.add_node(each)
        probe.wait_for_ik_node()
        probe.stream_joint_states(CHAIN.joint_names, HOME)
        probe.publish_description(URDF)
        probe.wait_for_model()
        assert wait_until(lambda: core.tracker.pose is not None), 'goal never placed'
        goal = CHAIN.fk(HOME)
        goal[2, 3] -= 0.05
        core.release(pose_to_message(GoalPose.from_matrix(goal)))
        assert wait_until(lambda: core.line_to_goal(execute=False)), 'no cartesian_path'
        marker = previews.wait_for(lambda message: len(message.points) > 1)
        end = marker.points[-1]
        assert np.linalg.norm(np.array([end.x, end.y, end.z]) - goal[:3, 3]) <= 1e-4
        assert marker.color.g > marker.color.r
        assert targets.count() == 0  # placed, never streamed
    finally:
        spinner.stop()
        for each in nodes:
            each.destroy_node()
        rclpy.shutdown(context=context)
