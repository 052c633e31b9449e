# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Several end effectors over DDS: SolveIK with tip_links, the tip target topics, bad tips."""

from pathlib import Path

from conftest import UrdfOracle
from geometry_msgs.msg import PoseStamped
from ik_solvers.exceptions import InvalidParameterError
from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.tree import KinematicTree
from ik_solvers.ros.conversions import matrix_to_pose
from ik_solvers.ros.names import tip_target_topic
from ik_solvers_interfaces.msg import ErrorCodes as Codes
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
import pytest
from test_node_support import Collector, start_ur5_node, UR5_CHAIN, UR5_HOME, wait_until
from trajectory_msgs.msg import JointTrajectory

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'trees' / 'dual_arm_waist.urdf').read_text()
TIPS = ('left_tool', 'right_tool')
TREE = KinematicTree(RobotModel.from_urdf(URDF), 'base_link', TIPS)
ORACLES = {tip: UrdfOracle(URDF, 'base_link', tip) for tip in TIPS}
# A configuration near the middle of the limits, free of collisions.
GOAL_Q = 0.6 * TREE.mid_configuration() + 0.4 * TREE.random_configuration(
    np.random.default_rng(1))


def _start(ros, **parameters):
    node, probe = ros.start(base_link='base_link', tip_links=list(TIPS), **parameters)
    probe.stream_joint_states(TREE.joint_names, np.zeros(TREE.num_joints))
    probe.publish_description(URDF)
    probe.wait_for_model()
    return node, probe


def _stamped(matrix: np.ndarray) -> PoseStamped:
    message = PoseStamped()
    message.pose = matrix_to_pose(matrix)
    return message


def _request(tips, poses, **fields) -> SolveIK.Request:
    request = SolveIK.Request()
    request.tip_links = list(tips)
    request.tip_targets = [_stamped(pose) for pose in poses]
    request.timeout.sec = 2
    for name, value in fields.items():
        setattr(request, name, value)
    return request


def _oracle_pose(tip: str, names, positions) -> np.ndarray:
    by_name = dict(zip(names, positions))
    oracle = ORACLES[tip]
    return oracle.fk([by_name[name] for name in oracle.joint_names])


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return (np.linalg.norm(a[:3, 3] - b[:3, 3]) <= 1e-4
            and np.linalg.norm(a[:3, :3] - b[:3, :3]) <= 2e-3)


def test_solve_ik_meets_two_tips_and_answers_every_joint(ros):
    node, probe = _start(ros)
    poses = TREE.fk(GOAL_Q)
    response = probe.call(_request(TIPS, poses))
    assert response.success, response.message
    assert response.error_code == Codes.SUCCESS
    assert list(response.solution.name) == list(TREE.joint_names)
    assert list(response.tips) == list(TIPS) and list(response.tips_met) == [True, True]
    assert max(response.tip_position_errors) <= 1e-4
    assert response.collision_checked
    for tip, pose in zip(TIPS, poses):
        reached = _oracle_pose(tip, response.solution.name, response.solution.position)
        assert _close(reached, pose), tip
    assert TREE.within_limits(np.array(response.solution.position))


def test_one_tip_moves_and_the_other_holds_with_execute(ros):
    node, probe = _start(ros)
    zero = np.zeros(TREE.num_joints)
    held = TREE.fk(zero)[1]
    start = probe.commands.count()
    response = probe.call(_request(TIPS[:1], TREE.fk(GOAL_Q)[:1], execute=True))
    assert response.success, response.message
    assert list(response.tips_met) == [True, True]
    assert _close(_oracle_pose('right_tool', response.solution.name,
                               response.solution.position), held)
    command = probe.commands.wait_for(lambda message: True, start=start)
    assert list(command.joint_names) == list(TREE.joint_names)
    assert np.allclose(command.points[-1].positions, response.solution.position)


@pytest.mark.parametrize('tips, count, says', [
    (['no_such_link'], 1, 'not a link'),
    (['left_tool', 'left_tool'], 2, 'twice'),
    (['left_link4'], 1, 'not one of the node'),
    (['left_tool', 'right_tool'], 1, 'tip_targets'),
])
def test_bad_tips_are_refused_and_move_nothing(ros, tips, count, says):
    node, probe = _start(ros)
    start = probe.commands.count()
    poses = TREE.fk(GOAL_Q)
    request = _request(tips, [poses[0]] * count, execute=True)
    response = probe.call(request)
    assert not response.success
    assert response.error_code == Codes.INVALID_TIPS, response.message
    assert says in response.message
    assert not wait_until(lambda: probe.commands.count() > start, timeout=0.5)


def test_tips_without_a_path_to_the_base_are_refused(ros):
    # left_link3 is the base: left_tool lies below it, right_tool does not.
    node, probe = ros.start(base_link='left_link3', tip_links=list(TIPS))
    probe.stream_joint_states(TREE.joint_names, np.zeros(TREE.num_joints))
    probe.publish_description(URDF)
    response = probe.wait_for_model()
    assert response.error_code == Codes.INVALID_TIPS, response.message
    assert 'share no path' in response.message


def test_a_target_on_a_tip_topic_is_reached_and_the_other_tip_holds(ros):
    node, probe = _start(ros)
    zero = np.zeros(TREE.num_joints)
    held = TREE.fk(zero)[1]
    # A streamed target near where the arms are: within max_joint_jump of them.
    near = zero + 0.02 * np.random.default_rng(2).uniform(-1.0, 1.0, TREE.num_joints)
    goal = TREE.fk(near)[0]
    publisher = probe.node.create_publisher(PoseStamped, tip_target_topic('left_tool'), 10)
    assert wait_until(lambda: publisher.get_subscription_count() > 0)
    start = probe.commands.count()

    def commanded() -> bool:
        publisher.publish(_stamped(goal))
        return probe.commands.count() > start

    assert wait_until(commanded), 'no command for the target of the left_tool topic'
    command = probe.commands.messages[start]
    assert list(command.joint_names) == list(TREE.joint_names)
    positions = command.points[-1].positions
    assert _close(_oracle_pose('left_tool', command.joint_names, positions), goal)
    assert _close(_oracle_pose('right_tool', command.joint_names, positions), held)


def test_a_far_target_published_once_on_a_tip_topic_is_driven_to(ros):
    node, probe = _start(ros)
    held = TREE.fk(np.zeros(TREE.num_joints))[1]
    # Too far for max_joint_jump in one streamed step: driven to as one motion.
    left = np.zeros(TREE.num_joints)
    for name in ('left_joint2', 'left_joint4'):
        left[TREE.joint_names.index(name)] = 0.5
    goal = TREE.fk(left)[0]
    publisher = probe.node.create_publisher(PoseStamped, tip_target_topic('left_tool'), 10)
    assert wait_until(lambda: publisher.get_subscription_count() > 0)
    start = probe.commands.count()
    publisher.publish(_stamped(goal))
    command = probe.commands.wait_for(lambda message: True, start=start)
    positions = command.points[-1].positions
    assert list(command.joint_names) == list(TREE.joint_names)
    assert _close(_oracle_pose('left_tool', command.joint_names, positions), goal)
    assert _close(_oracle_pose('right_tool', command.joint_names, positions), held)


LEFT = tuple(name for name in TREE.joint_names if name.startswith('left_'))
RIGHT = tuple(name for name in TREE.joint_names if name.startswith('right_'))


def _mapping(*groups):
    return ['%s: %s' % (topic, ' '.join(joints)) for topic, joints in groups]


def test_each_controller_gets_only_its_joints_with_one_stamp_and_duration(ros):
    mapping = _mapping(('left_arm', LEFT), ('right_arm', RIGHT), ('torso', ('waist',)))
    node, probe = _start(ros, controller_joints=mapping)
    collectors = {topic: Collector() for topic in ('left_arm', 'right_arm', 'torso')}
    for topic, collector in collectors.items():
        probe.node.create_subscription(JointTrajectory, topic, collector, 10)
    assert wait_until(lambda: all(probe.node.count_publishers(
        probe.node.resolve_topic_name(topic)) > 0 for topic in collectors))
    response = probe.call(_request(TIPS, TREE.fk(GOAL_Q), execute=True))
    assert response.success, response.message
    answer = dict(zip(response.solution.name, response.solution.position))
    parts = {topic: collector.wait_for(lambda message: True)
             for topic, collector in collectors.items()}
    for (topic, joints), message in zip((('left_arm', LEFT), ('right_arm', RIGHT),
                                         ('torso', ('waist',))), parts.values()):
        assert tuple(message.joint_names) == joints, topic
        assert np.allclose(message.points[-1].positions, [answer[name] for name in joints])
    stamps = {(m.header.stamp.sec, m.header.stamp.nanosec) for m in parts.values()}
    durations = {(m.points[-1].time_from_start.sec, m.points[-1].time_from_start.nanosec)
                 for m in parts.values()}
    assert len(stamps) == 1 and len(durations) == 1
    assert probe.commands.count() == 0  # nothing on the single command topic


def test_a_joint_no_controller_takes_is_refused_and_nothing_moves(ros):
    node, probe = _start(ros, controller_joints=_mapping(('left_arm', LEFT),
                                                         ('right_arm', RIGHT)))
    left = Collector()
    probe.node.create_subscription(JointTrajectory, 'left_arm', left, 10)
    response = probe.call(_request(TIPS, TREE.fk(GOAL_Q), execute=True))
    assert response.error_code == Codes.EXECUTION_FAILED, response.message
    assert 'waist' in response.message and 'controller_joints' in response.message
    assert not wait_until(lambda: left.count() > 0 or probe.commands.count() > 0, timeout=0.5)


def test_a_joint_named_by_two_controllers_stops_the_node_from_starting(ros):
    with pytest.raises(InvalidParameterError, match='waist twice'):
        ros.start(base_link='base_link', tip_links=list(TIPS), controller_joints=_mapping(
            ('left_arm', LEFT + ('waist',)), ('torso', ('waist',))))


def test_a_chain_command_with_a_joint_no_controller_takes_is_refused(ros):
    arm = Collector()
    node, probe = start_ur5_node(ros, controller_joints=_mapping(
        ('arm', UR5_CHAIN.joint_names[:-1])))
    probe.node.create_subscription(JointTrajectory, 'arm', arm, 10)
    goal = UR5_CHAIN.fk(UR5_HOME + 0.05)
    response = probe.call(probe.target_request(goal, execute=True))
    assert response.error_code == Codes.EXECUTION_FAILED, response.message
    assert UR5_CHAIN.joint_names[-1] in response.message
    assert not wait_until(lambda: arm.count() > 0 or probe.commands.count() > 0, timeout=0.5)
