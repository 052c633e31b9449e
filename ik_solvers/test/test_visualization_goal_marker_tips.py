# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""One goal marker per tip: the specs from tip_link/tip_links, and each core on its tip's topic."""

import os
from pathlib import Path
import threading
import time

import numpy as np
import pytest

from ik_solvers.ros.names import TARGET_POSE_TOPIC, tip_target_topic
from ik_solvers.visualization.goal_marker_shape import GOAL_MARKER_NAME, pose_to_message
from ik_solvers.visualization.goal_marker_tips import goal_specs, GoalSpec, split_tip_links

URDF = Path(__file__).resolve().parents[1] / 'urdf' / 'trees' / 'dual_arm_waist.urdf'


def test_a_chain_gets_one_marker_on_target_pose():
    assert goal_specs('panda_hand_tcp') == (
        GoalSpec('panda_hand_tcp', TARGET_POSE_TOPIC, GOAL_MARKER_NAME),)
    # One tip in tip_links is the chain's tip, as the IK node takes it.
    assert goal_specs('ignored', ['left_tool']) == (
        GoalSpec('left_tool', TARGET_POSE_TOPIC, GOAL_MARKER_NAME),)


def test_several_tips_get_one_marker_each_on_their_own_topic():
    specs = goal_specs('left_tool', ('left_tool', 'right_tool'))
    assert [spec.tip for spec in specs] == ['left_tool', 'right_tool']
    assert [spec.target_topic for spec in specs] == ['target_pose/left_tool',
                                                     'target_pose/right_tool']
    assert [spec.target_topic for spec in specs] == [tip_target_topic('left_tool'),
                                                     tip_target_topic('right_tool')]
    assert len({spec.marker_name for spec in specs}) == 2
    assert all(spec.marker_name.startswith(GOAL_MARKER_NAME + '/') for spec in specs)


@pytest.mark.parametrize('tip_link, tip_links', [
    ('', ()),
    ('', ('',)),
    ('hand', ('left_tool', 'left_tool')),
    ('hand', ('left_tool', '')),
])
def test_bad_tips_are_refused_with_a_clear_error(tip_link, tip_links):
    with pytest.raises(ValueError, match='tip'):
        goal_specs(tip_link, tip_links)


def test_the_launch_argument_reads_tips_separated_by_commas_or_spaces():
    assert split_tip_links('') == ()
    assert split_tip_links('[]') == ()
    assert split_tip_links('left_tool,right_tool') == ('left_tool', 'right_tool')
    assert split_tip_links(' left_tool, right_tool ') == ('left_tool', 'right_tool')
    assert split_tip_links("['left_tool', 'right_tool']") == ('left_tool', 'right_tool')
    with pytest.raises(ValueError, match='twice'):
        split_tip_links('left_tool,left_tool')


def _wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError('condition not met within %.0f s' % timeout)


def test_each_tip_marker_starts_at_its_tip_and_sends_on_its_topic():
    rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')
    pytest.importorskip('ik_solvers_interfaces.msg', reason='ik_solvers_interfaces is not built')
    from geometry_msgs.msg import PoseStamped
    from rclpy.executors import MultiThreadedExecutor
    from sensor_msgs.msg import JointState
    from ik_solvers.kinematics import RobotModel
    from ik_solvers.kinematics.tree import KinematicTree
    from ik_solvers.visualization.goal_marker_core import GoalMarkerCore

    urdf = URDF.read_text(encoding='utf-8')
    tree = KinematicTree(RobotModel.from_urdf(urdf), 'base_link', ('left_tool', 'right_tool'))
    q = tree.mid_configuration()
    tips = tree.fk(q)
    namespace = '/goal_marker_tips_test_%d' % os.getpid()
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = MultiThreadedExecutor(context=context)
    node = rclpy.create_node('goal_marker', namespace=namespace, context=context)
    probe = rclpy.create_node('probe', namespace=namespace, context=context)
    resets, targets, lock = {}, {}, threading.Lock()
    cores = []
    for spec in goal_specs('', ('left_tool', 'right_tool')):
        def on_target(message, tip=spec.tip):
            with lock:
                targets.setdefault(tip, []).append(message)
        probe.create_subscription(PoseStamped, spec.target_topic, on_target, 10)
        cores.append(GoalMarkerCore(
            node, base_link='base_link', tip_link=spec.tip, target_topic=spec.target_topic,
            status_topic=namespace + '/ik_node/status', robot_description=urdf,
            on_goal_reset=lambda pose, frame, tip=spec.tip: resets.__setitem__(tip, pose)))
    for each in (node, probe):
        executor.add_node(each)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    try:
        publisher = probe.create_publisher(JointState, 'joint_states', 10)
        _wait(lambda: publisher.get_subscription_count() > 0)
        publisher.publish(JointState(name=list(tree.joint_names), position=q.tolist()))
        _wait(lambda: len(resets) == 2)
        for t, tip in enumerate(tree.tip_links):
            assert np.allclose(resets[tip].position, tips[t][:3, 3], atol=1e-9)
        # Mouse-up on the right hand's marker sends on its topic only.
        moved = cores[1].tracker.pose
        _wait(lambda: probe.count_publishers(namespace + '/target_pose/right_tool') > 0)
        cores[1].release(pose_to_message(moved))
        _wait(lambda: 'right_tool' in targets)
        time.sleep(0.2)
        assert 'left_tool' not in targets
        sent = targets['right_tool'][-1].pose.position
        assert np.allclose([sent.x, sent.y, sent.z], tips[1][:3, 3], atol=1e-9)
    finally:
        executor.shutdown()
        spinner.join(timeout=5.0)
        node.destroy_node()
        probe.destroy_node()
        rclpy.shutdown(context=context)
