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

from ik_solvers import RobotModel

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
