# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The goal marker's ROS side over real DDS: start at the tip, latest wins, colour by status."""

import math
import os
from pathlib import Path
import threading
import time

import pytest

rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')
IKStatus = pytest.importorskip(
    'ik_solvers_interfaces.msg', reason='ik_solvers_interfaces is not built').IKStatus

from geometry_msgs.msg import Pose, PoseStamped  # noqa: E402
from rclpy.executors import MultiThreadedExecutor  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from ik_solvers.visualization import GoalPose, Reachability  # noqa: E402
from ik_solvers.visualization.goal_marker_core import GoalMarkerCore  # noqa: E402
from ik_solvers.visualization.goal_marker_shape import (  # noqa: E402
    pose_from_message, pose_to_message)

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'planar_3link.urdf').read_text()
NAMESPACE = '/goal_marker_test_%d' % os.getpid()
STATUS_TOPIC = NAMESPACE + '/ik_node/status'
Q = [0.3, -0.6, 0.9]


def _planar_tip(q):
    """Tip of three 0.5 m links turning about z, computed independently of the package."""
    angles = [sum(q[:k + 1]) for k in range(3)]
    x = sum(0.5 * math.cos(a) for a in angles)
    y = sum(0.5 * math.sin(a) for a in angles)
    return (x, y, 0.0), angles[-1]


def _yaw_pose(x, y, yaw):
    return GoalPose((x, y, 0.0), (0.0, 0.0, math.sin(yaw / 2.0), math.cos(yaw / 2.0)))


# Hang bound: the timer thread acts within milliseconds; only a hang waits 10 s.
def _wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError('condition not met within %.0f s' % timeout)


@pytest.fixture
def setup():
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = MultiThreadedExecutor(context=context)
    node = rclpy.create_node('goal_marker', namespace=NAMESPACE, context=context)
    probe = rclpy.create_node('probe', namespace=NAMESPACE, context=context)
    record = {'resets': [], 'reachability': [], 'targets': []}
    lock = threading.Lock()

    def on_target(message):
        with lock:
            record['targets'].append(message)

    probe.create_subscription(PoseStamped, 'target_pose', on_target, 100)
    core = GoalMarkerCore(
        node, tip_link='tip', send_rate=20.0, status_topic=STATUS_TOPIC,
        robot_description=URDF,
        on_goal_reset=lambda pose, frame: record['resets'].append((pose, frame)),
        on_reachability=record['reachability'].append)
    for each in (node, probe):
        executor.add_node(each)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    try:
        yield core, probe, record
    finally:
        executor.shutdown()
        spinner.join(timeout=5.0)
        node.destroy_node()
        probe.destroy_node()
        rclpy.shutdown(context=context)


def _publish_joint_states(probe):
    publisher = probe.create_publisher(JointState, 'joint_states', 10)
    _wait(lambda: publisher.get_subscription_count() > 0)
    publisher.publish(JointState(name=['joint_1', 'joint_2', 'joint_3'], position=Q))


def test_the_goal_starts_at_the_tip_of_the_current_joint_state(setup):
    core, probe, record = setup
    _publish_joint_states(probe)
    _wait(lambda: record['resets'])
    pose, frame = record['resets'][0]
    (x, y, _), yaw = _planar_tip(Q)
    metres, radians = pose.distance_to(_yaw_pose(x, y, yaw))
    assert frame == 'base_link' and core.frame_id == 'base_link'
    assert metres < 1e-9 and radians < 1e-6
    assert len(record['resets']) == 1
    assert not record['targets']  # placing the goal sends nothing


def test_a_burst_of_drags_sends_the_newest_pose_and_mouse_up_sends_at_once(setup):
    core, probe, record = setup
    _publish_joint_states(probe)
    _wait(lambda: record['resets'])
    _wait(lambda: probe.count_publishers(NAMESPACE + '/target_pose') > 0)
    final = _yaw_pose(0.99, 0.2, 0.1)
    dragged = [_yaw_pose(0.5 + 0.01 * k, 0.2, 0.1) for k in range(50)]
    for pose in dragged:
        core.drag(pose_to_message(pose))

    def newest_arrived():
        targets = list(record['targets'])
        return targets and pose_from_message(targets[-1].pose).distance_to(final)[0] < 1e-12

    _wait(newest_arrived)
    targets = list(record['targets'])
    assert targets[-1].header.frame_id == 'base_link'
    # How many are sent depends on how the drags fell on the send timer, which real time on a
    # loaded machine does not fix; the fake-clock tests of GoalTracker pin the count down.
    # Here: every target sent is one of the dragged poses, each at most once, in the order
    # dragged, and the newest is the last.
    sent = [next(k for k, pose in enumerate(dragged)
                 if pose_from_message(target.pose).distance_to(pose)[0] < 1e-12)
            for target in targets]
    assert sent == sorted(set(sent)) and sent[-1] == len(dragged) - 1, sent

    core.release(pose_to_message(_yaw_pose(0.4, -0.3, 0.2)))
    _wait(lambda: len(record['targets']) == len(targets) + 1)
    released = pose_from_message(record['targets'][-1].pose)
    assert released.distance_to(_yaw_pose(0.4, -0.3, 0.2))[0] < 1e-12

    bad = Pose()
    bad.position.x = math.nan
    bad.orientation.w = 1.0
    core.drag(bad)
    # the invalid pose was dropped: the goal is still where the mouse was let go
    assert core.tracker.pose.distance_to(_yaw_pose(0.4, -0.3, 0.2))[0] < 1e-12
    # Targets go out in order on one topic: the next release arriving right after the last
    # one shows that nothing was sent for the invalid pose.
    core.release(pose_to_message(_yaw_pose(0.3, 0.3, 0.0)))
    _wait(lambda: len(record['targets']) >= len(targets) + 2)
    assert len(record['targets']) == len(targets) + 2
    last = pose_from_message(record['targets'][-1].pose)
    assert last.distance_to(_yaw_pose(0.3, 0.3, 0.0))[0] < 1e-12


def test_the_status_of_the_goal_last_sent_sets_the_colour(setup):
    core, probe, record = setup
    _publish_joint_states(probe)
    _wait(lambda: record['resets'])
    status_publisher = probe.create_publisher(IKStatus, STATUS_TOPIC, 10)
    _wait(lambda: status_publisher.get_subscription_count() > 0)
    goal = _yaw_pose(2.0, 0.0, 0.0)
    core.release(pose_to_message(goal))

    def status(pose, success):
        message = IKStatus(success=success)
        message.header.frame_id = 'base_link'
        message.target = pose_to_message(pose)
        status_publisher.publish(message)

    status(_yaw_pose(0.5, 0.5, 0.0), True)  # some other goal: ignored
    status(goal, False)
    _wait(lambda: record['reachability'])
    assert record['reachability'] == [Reachability.UNREACHABLE]
    status(goal, True)
    _wait(lambda: len(record['reachability']) == 2)
    assert record['reachability'] == [Reachability.UNREACHABLE, Reachability.REACHABLE]
    assert core.tracker.reachability is Reachability.REACHABLE


def test_a_chain_the_description_does_not_have_is_refused_with_a_clear_error():
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = rclpy.create_node('goal_marker_bad', namespace=NAMESPACE, context=context)
        core = GoalMarkerCore(node, tip_link='no_such_link', robot_description=URDF)
        assert core.tracker.pose is None
        with pytest.raises(ValueError):
            GoalMarkerCore(node, tip_link='')
        node.destroy_node()
    finally:
        rclpy.shutdown(context=context)


def test_the_orientation_mode_and_tip_axis_are_checked_when_the_core_starts():
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = rclpy.create_node('goal_marker_modes', namespace=NAMESPACE, context=context)
        default = GoalMarkerCore(node, tip_link='tip', robot_description=URDF)
        assert (default.orientation_mode, default.tip_axis) == ('full', (0.0, 0.0, 1.0))
        axis = GoalMarkerCore(node, tip_link='tip', robot_description=URDF,
                              orientation_mode='axis', tip_axis=[0, 2, 0])
        assert (axis.orientation_mode, axis.tip_axis) == ('axis', (0.0, 1.0, 0.0))
        with pytest.raises(ValueError, match="orientation_mode must be one of 'full'"):
            GoalMarkerCore(node, tip_link='tip', orientation_mode='pose')
        with pytest.raises(ValueError, match='tip_axis must have a direction'):
            GoalMarkerCore(node, tip_link='tip', orientation_mode='axis', tip_axis=[0, 0, 0])
        with pytest.raises(ValueError, match='tip_axis must be three numbers'):
            GoalMarkerCore(node, tip_link='tip', tip_axis=[1.0, 0.0])
        node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
