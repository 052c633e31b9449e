# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The tests' own forward kinematics (conftest.UrdfOracle) against poses worked out by hand.

Every solver and node test that asserts success checks the answer with this oracle; these
tests make sure the oracle itself reads URDF origins, axes, joint types and mimic joints right.
"""

import math

from conftest import axis_angle, bundled_oracle, rotation_angle, URDF_DIRECTORY, UrdfOracle
import numpy as np
import pytest
from urdfdom_support import example_robot_urdf, urdfdom_verdict, VENDOR_CHAIN_IDS, VENDOR_CHAINS

from ik_solvers import RobotModel, RobotModelError

# One joint of each kind, origins turned about all three axes, a mimic follower, a fixed tip.
EVERY_KIND = """<?xml version="1.0"?>
<robot name="every_kind">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <link name="tool"/>
  <joint name="turn" type="revolute">
    <parent link="base"/><child link="a"/>
    <origin xyz="0 0 0.5" rpy="0 0 1.5707963267948966"/><axis xyz="0 0 2"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="a"/><child link="b"/>
    <origin xyz="1 0 0" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="0.5" effort="1" velocity="1"/>
  </joint>
  <joint name="follow" type="revolute">
    <parent link="b"/><child link="c"/>
    <origin xyz="0 0 0" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/>
    <mimic joint="turn" multiplier="-0.5" offset="0.1"/>
  </joint>
  <joint name="spin" type="continuous">
    <parent link="c"/><child link="d"/>
    <origin xyz="0 0 0" rpy="1.5707963267948966 0 0"/><axis xyz="0 0 1"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="d"/><child link="tool"/><origin xyz="0.2 0 0"/>
  </joint>
</robot>
"""

# A robot on a floating base with a planar joint on a side branch, and a two-finger gripper
# whose right finger mimics the left one: the chain to the right finger holds only the follower.
# The wrist's <mimic> names a joint the robot lacks.
FLOATING_BASE_AND_GRIPPER = """<?xml version="1.0"?>
<robot name="floating_gripper">
  <link name="world"/><link name="base"/><link name="cart"/><link name="palm"/>
  <link name="left"/><link name="right"/><link name="right_tip"/>
  <joint name="free" type="floating">
    <parent link="world"/><child link="base"/><origin xyz="0 0 1"/>
  </joint>
  <joint name="slide_plane" type="planar">
    <parent link="base"/><child link="cart"/><axis xyz="0 0 1"/>
  </joint>
  <joint name="wrist" type="revolute">
    <parent link="base"/><child link="palm"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="no_such_joint"/>
  </joint>
  <joint name="left_finger" type="prismatic">
    <parent link="palm"/><child link="left"/>
    <origin xyz="0 0.02 0.05"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="1"/>
  </joint>
  <joint name="right_finger" type="prismatic">
    <parent link="palm"/><child link="right"/>
    <origin xyz="0 -0.02 0.05"/><axis xyz="0 1 0"/>
    <limit lower="-0.03" upper="0" effort="1" velocity="1"/>
    <mimic joint="left_finger" multiplier="-1" offset="0"/>
  </joint>
  <joint name="right_tip_joint" type="fixed">
    <parent link="right"/><child link="right_tip"/><origin xyz="0 0 0.03"/>
  </joint>
</robot>
"""


def test_planar_arm_poses_worked_out_by_hand():
    oracle = bundled_oracle('planar_3link.urdf', 'base_link', 'tip')
    assert oracle.joint_names == ['joint_1', 'joint_2', 'joint_3']
    pose = oracle.fk([0.0, 0.0, 0.0])
    np.testing.assert_allclose(pose[:3, 3], [1.5, 0.0, 0.0], atol=1e-12)
    # A right angle at the first joint: the arm points along y.
    pose = oracle.fk([math.pi / 2, 0.0, 0.0])
    np.testing.assert_allclose(pose[:3, 3], [0.0, 1.5, 0.0], atol=1e-12)
    # Elbow up by a right angle: 0.5 along x, then 1.0 along y, facing y.
    pose = oracle.fk([0.0, math.pi / 2, 0.0])
    np.testing.assert_allclose(pose[:3, 3], [0.5, 1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(pose[:3, 0], [0.0, 1.0, 0.0], atol=1e-12)


def test_every_joint_kind_and_a_mimic_joint_worked_out_by_hand():
    oracle = UrdfOracle(EVERY_KIND, 'base', 'tool')
    assert oracle.joint_names == ['turn', 'slide', 'spin']
    # turn = 0: frame a is the base turned 90 degrees about z, 0.5 up; the slide moves 0.3 up
    # from 1 m along a's x (the base's y); follow = 0.1 turns about z; spin's frame is turned
    # 90 degrees about x, so the tool's 0.2 along x lies in the base's x-y plane.
    pose = oracle.fk([0.0, 0.3, 0.0])
    follow = 0.1
    expected = np.array([0.0, 1.0, 0.8]) + 0.2 * np.array(
        [-math.sin(follow), math.cos(follow), 0.0])
    np.testing.assert_allclose(pose[:3, 3], expected, atol=1e-12)
    # The follower's own limits count: turn = -1 puts it at 0.6, beyond its 0.5.
    assert oracle.limit_violations([-1.0, 0.1, 0.0]) == [
        'follow = 0.6 outside [-0.5, 0.5]']
    assert oracle.limit_violations([0.5, 0.1, 100.0]) == []  # continuous: no limit
    assert oracle.limit_violations([0.5, 0.6, 0.0])[0].startswith('slide')


def test_check_reports_each_kind_of_miss():
    oracle = UrdfOracle(EVERY_KIND, 'base', 'tool')
    q = np.array([0.2, 0.1, 0.3])
    target = oracle.fk(q)
    oracle.check(q, target)
    moved = target.copy()
    moved[0, 3] += 1e-3
    with pytest.raises(AssertionError, match='position error'):
        oracle.check(q, moved, position_tolerance=1e-4)
    oracle.check(q, moved, position_bounds=[2e-3, 0.0, 0.0])
    turned = target.copy()
    turned[:3, :3] = target[:3, :3] @ np.array(
        [[math.cos(0.01), -math.sin(0.01), 0.0], [math.sin(0.01), math.cos(0.01), 0.0],
         [0.0, 0.0, 1.0]])
    assert rotation_angle(turned, target) == pytest.approx(0.01)
    with pytest.raises(AssertionError, match='orientation error'):
        oracle.check(q, turned, orientation_tolerance=1e-3)
    # A turn about the tip's z axis leaves that axis where it was.
    assert axis_angle(turned, target, (0.0, 0.0, 1.0)) < 1e-12
    oracle.check(q, turned, orientation_mode='axis', orientation_tolerance=1e-9)
    oracle.check(q, turned, orientation_mode='none')
    with pytest.raises(AssertionError, match='URDF limits'):
        oracle.check([1.5, 0.1, 0.3], oracle.fk([1.5, 0.1, 0.3]))


@pytest.mark.parametrize('file_name, base_link, tip_link', [
    ('ur5_like.urdf', 'base_link', 'tool0'),
    ('panda_like.urdf', 'panda_link0', 'panda_hand_tcp'),
    ('panda_like.urdf', 'panda_link0', 'panda_leftfinger'),
    ('so101_like.urdf', 'base_link', 'gripper_frame_link'),
    ('planar_3link.urdf', 'base_link', 'tip'),
    ('snake_20.urdf', 'base_link', 'tip'),
])
def test_the_oracle_and_the_package_agree_on_every_bundled_arm(file_name, base_link, tip_link):
    # Two computations written apart agree; the hand-worked cases above pin the oracle down.
    text = (URDF_DIRECTORY / file_name).read_text(encoding='utf-8')
    oracle = bundled_oracle(file_name, base_link, tip_link)
    chain = RobotModel.from_urdf(text).chain(base_link, tip_link)
    assert list(chain.joint_names) == oracle.joint_names
    rng = np.random.default_rng(41)
    for _ in range(20):
        q = chain.random_configuration(rng)
        np.testing.assert_allclose(oracle.fk(q), chain.fk(q), atol=1e-12)
        assert oracle.limit_violations(q) == []


def test_joints_of_more_than_one_freedom_count_only_on_the_chain():
    # urdfdom reads floating and planar joints; a chain that does not cross them ignores them.
    oracle = UrdfOracle(FLOATING_BASE_AND_GRIPPER, 'base', 'palm')
    assert oracle.joint_names == ['wrist']
    # The wrist turned a right angle about y: the palm's z axis lies along the base's x.
    pose = oracle.fk([math.pi / 2])
    np.testing.assert_allclose(pose[:3, 3], [0.0, 0.0, 0.1], atol=1e-12)
    np.testing.assert_allclose(pose[:3, 2], [1.0, 0.0, 0.0], atol=1e-12)
    # Across the floating base, the oracle refuses the chain, and so does the package.
    with pytest.raises(ValueError, match='free'):
        UrdfOracle(FLOATING_BASE_AND_GRIPPER, 'world', 'palm')
    model = RobotModel.from_urdf(FLOATING_BASE_AND_GRIPPER)
    with pytest.raises(RobotModelError):
        model.chain('world', 'palm')
    # A type urdfdom does not know is refused anywhere in the file, as urdfdom refuses it.
    with pytest.raises(ValueError, match='hinge'):
        UrdfOracle(FLOATING_BASE_AND_GRIPPER.replace('"planar"', '"hinge"'), 'base', 'palm')
    assert urdfdom_verdict(FLOATING_BASE_AND_GRIPPER) in (None, True)
    assert urdfdom_verdict(
        FLOATING_BASE_AND_GRIPPER.replace('"planar"', '"hinge"')) in (None, False)


def test_a_leader_off_the_chain_is_the_variable_where_its_first_follower_is():
    oracle = UrdfOracle(FLOATING_BASE_AND_GRIPPER, 'base', 'right_tip')
    # The chain holds the right finger only; the left finger it mimics drives it.
    assert oracle.joint_names == ['wrist', 'left_finger']
    chain = RobotModel.from_urdf(FLOATING_BASE_AND_GRIPPER).chain('base', 'right_tip')
    assert list(chain.joint_names) == oracle.joint_names
    # Wrist straight, the left finger opened 1 cm: the right one moves 1 cm along -y.
    pose = oracle.fk([0.0, 0.01])
    np.testing.assert_allclose(pose[:3, 3], [0.0, -0.03, 0.18], atol=1e-12)
    np.testing.assert_allclose(oracle.fk([0.3, 0.01]), chain.fk([0.3, 0.01]), atol=1e-12)
    assert oracle.joint_values([0.0, 0.01]) == pytest.approx(
        {'wrist': 0.0, 'left_finger': 0.01, 'right_finger': -0.01})
    # Both fingers' limits count: the left one's own, and the right one's through the mimic.
    assert oracle.limit_violations([0.0, 0.035]) == [
        'right_finger = -0.035 outside [-0.03, 0.0]']
    assert oracle.limit_violations([0.0, -0.01])[0].startswith('left_finger = -0.01')
    # The wrist's <mimic> names a joint the robot lacks: it moves by itself, as under
    # robot_state_publisher.
    assert oracle.limit_violations([0.5, 0.02]) == []
    assert oracle.joint_values([0.5, 0.02])['wrist'] == 0.5


@pytest.mark.parametrize('relative, base_link, tip_link', VENDOR_CHAINS, ids=VENDOR_CHAIN_IDS)
def test_the_oracle_and_the_package_agree_on_the_vendor_descriptions(
        relative, base_link, tip_link):
    # The descriptions the node tests load from example-robot-data (skipped without it).
    text = example_robot_urdf(relative)
    oracle = UrdfOracle(text, base_link, tip_link)
    chain = RobotModel.from_urdf(text).chain(base_link, tip_link)
    assert list(chain.joint_names) == oracle.joint_names
    rng = np.random.default_rng(43)
    for _ in range(20):
        q = chain.random_configuration(rng)
        np.testing.assert_allclose(oracle.fk(q), chain.fk(q), atol=1e-12)
        assert oracle.limit_violations(q) == []
