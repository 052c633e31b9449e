# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The goal marker node with its real marker server (where interactive_markers is installed)."""

import os
from pathlib import Path
import threading
import time

import pytest

pytest.importorskip(
    'interactive_markers', reason='interactive_markers is not installed (rosdep key '
                                  'interactive_markers); test_visualization_goal_marker_core.py '
                                  'covers the logic without it')
rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')

from geometry_msgs.msg import PoseStamped  # noqa: E402
from rclpy.executors import MultiThreadedExecutor  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from visualization_msgs.msg import InteractiveMarkerFeedback, Marker  # noqa: E402
from visualization_msgs.srv import GetInteractiveMarkers  # noqa: E402

from ik_solvers.visualization import GoalPose  # noqa: E402
from ik_solvers.visualization.goal_marker_node import GoalMarkerNode  # noqa: E402
from ik_solvers.visualization.goal_marker_shape import (  # noqa: E402
    GOAL_MARKER_NAME, pose_from_message, pose_to_message)

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'planar_3link.urdf').read_text()
NAMESPACE = '/goal_marker_node_test_%d' % os.getpid()


# Hang bound: discovery and answers take milliseconds to a second; only a hang waits 10 s.
def _wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError('condition not met within %.0f s' % timeout)


def test_the_marker_appears_at_the_tip_and_dragging_it_sends_goals():
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = MultiThreadedExecutor(context=context)
    try:
        node = GoalMarkerNode(context=context, namespace=NAMESPACE, parameter_overrides=[
            Parameter('tip_link', value='tip'), Parameter('robot_description', value=URDF)])
        probe = rclpy.create_node('probe', namespace=NAMESPACE, context=context)
        targets = []
        probe.create_subscription(PoseStamped, 'target_pose', targets.append, 10)
        states = probe.create_publisher(JointState, 'joint_states', 10)
        feedback = probe.create_publisher(
            InteractiveMarkerFeedback, NAMESPACE + '/goal_marker/feedback', 10)
        markers = probe.create_client(
            GetInteractiveMarkers, NAMESPACE + '/goal_marker/get_interactive_markers')
        for each in (node, probe):
            executor.add_node(each)
        threading.Thread(target=executor.spin, daemon=True).start()

        _wait(lambda: states.get_subscription_count() > 0)
        states.publish(JointState(name=['joint_1', 'joint_2', 'joint_3'],
                                  position=[0.0, 0.0, 0.0]))
        assert markers.wait_for_service(timeout_sec=10.0)  # hang bound, as in _wait

        def marker():
            response = markers.call_async(GetInteractiveMarkers.Request())
            _wait(response.done)
            found = [m for m in response.result().markers if m.name == GOAL_MARKER_NAME]
            return found[0] if found else None

        shown = _wait(marker)
        assert shown.header.frame_id == 'base_link'
        assert pose_from_message(shown.pose).distance_to(GoalPose((1.5, 0.0, 0.0)))[0] < 1e-9

        _wait(lambda: feedback.get_subscription_count() > 0)
        dragged = GoalPose((1.0, 0.5, 0.0))

        def drag_taken():
            # The server ignores a new client for a while after the marker's last change: the
            # drag is sent again until a target shows that it was taken.
            for event in (InteractiveMarkerFeedback.POSE_UPDATE,
                          InteractiveMarkerFeedback.MOUSE_UP):
                message = InteractiveMarkerFeedback(
                    client_id='test', marker_name=GOAL_MARKER_NAME, event_type=event,
                    pose=pose_to_message(dragged))
                message.header.frame_id = 'base_link'
                feedback.publish(message)
            try:
                return _wait(lambda: targets, timeout=0.2)
            except AssertionError:
                return False

        _wait(drag_taken, timeout=30.0)
        assert pose_from_message(targets[-1].pose).distance_to(dragged)[0] < 1e-12
    finally:
        executor.shutdown()
        rclpy.shutdown(context=context)


def test_axis_mode_shows_an_arrow_and_bad_modes_stop_the_start():
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = MultiThreadedExecutor(context=context)
    try:
        base = [Parameter('tip_link', value='tip'), Parameter('robot_description', value=URDF)]
        for bad in (Parameter('orientation_mode', value='pose'),
                    Parameter('tip_axis', value=[0.0, 0.0, 0.0])):
            with pytest.raises(ValueError, match=bad.name):
                GoalMarkerNode(context=context, namespace=NAMESPACE + '_bad',
                               parameter_overrides=base + [bad])
        # Integers, as a command line gives them, are a valid axis.
        node = GoalMarkerNode(context=context, namespace=NAMESPACE, parameter_overrides=base + [
            Parameter('orientation_mode', value='axis'), Parameter('tip_axis', value=[1, 0, 0])])
        probe = rclpy.create_node('probe', namespace=NAMESPACE, context=context)
        states = probe.create_publisher(JointState, 'joint_states', 10)
        markers = probe.create_client(
            GetInteractiveMarkers, NAMESPACE + '/goal_marker/get_interactive_markers')
        for each in (node, probe):
            executor.add_node(each)
        threading.Thread(target=executor.spin, daemon=True).start()
        _wait(lambda: states.get_subscription_count() > 0)
        states.publish(JointState(name=['joint_1', 'joint_2', 'joint_3'],
                                  position=[0.0, 0.0, 0.0]))
        assert markers.wait_for_service(timeout_sec=10.0)  # hang bound, as in _wait

        def marker():
            response = markers.call_async(GetInteractiveMarkers.Request())
            _wait(response.done)
            found = [m for m in response.result().markers if m.name == GOAL_MARKER_NAME]
            return found[0] if found else None

        shown = _wait(marker)
        names = [control.name for control in shown.controls]
        assert names == ['move_3d', 'move_x', 'move_y', 'move_z', 'tilt_u', 'tilt_v']
        arrow = shown.controls[0].markers[0]
        assert arrow.type == Marker.ARROW
        # In the marker's own frame the arrow runs along the tip axis; at zero the planar
        # arm's tip frame is parallel to the base, so the arrow points along the base x axis.
        assert arrow.points[1].x > 0.0 and arrow.points[1].y == arrow.points[1].z == 0.0
        assert pose_from_message(shown.pose).distance_to(GoalPose((1.5, 0.0, 0.0)))[1] < 1e-9
    finally:
        executor.shutdown()
        rclpy.shutdown(context=context)
