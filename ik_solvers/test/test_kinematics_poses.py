# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The chain's one pass for solvers: aligned poses, tip offset, length scale and the cache."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers.exceptions import InvalidSeedError
from ik_solvers.kinematics import RobotModel

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'

# A wrist joint that follows the elbow at half its angle, between two independent joints,
# and a prismatic joint on an oblique axis.
MIMIC_URDF = """<?xml version="1.0" encoding="utf-8"?>
<robot name="mimic_arm">
  <link name="base"/><link name="l1"/><link name="l2"/><link name="l3"/><link name="l4"/>
  <link name="l5"/><link name="tool"/>
  <joint name="pan" type="revolute">
    <parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="l1"/><child link="l2"/>
    <origin xyz="0 0.05 0.3" rpy="0.2 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <joint name="follower" type="revolute">
    <parent link="l2"/><child link="l3"/>
    <origin xyz="0.25 0 0" rpy="0 0 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="elbow" multiplier="0.5" offset="0.1"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="l3"/><child link="l4"/>
    <origin xyz="0.1 0 0" rpy="0 0 0"/><axis xyz="1 0 1"/>
    <limit lower="-0.1" upper="0.2" effort="1" velocity="1"/>
  </joint>
  <joint name="roll" type="revolute">
    <parent link="l4"/><child link="l5"/>
    <origin xyz="0.1 0 0" rpy="0 0.4 0"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="l5"/><child link="tool"/>
    <origin xyz="0.05 0 0.02" rpy="0 0 0"/>
  </joint>
</robot>
"""

CASES = [
    ((URDF_DIR / 'ur5_like.urdf').read_text(), 'base_link', 'tool0'),
    ((URDF_DIR / 'panda_like.urdf').read_text(), 'panda_link0', 'panda_hand_tcp'),
    ((URDF_DIR / 'so101_like.urdf').read_text(), 'base_link', 'gripper_frame_link'),
    ((URDF_DIR / 'snake_20.urdf').read_text(), 'base_link', 'tip'),
    (MIMIC_URDF, 'base', 'tool'),
]
CHAINS = [RobotModel.from_urdf(urdf_xml).chain(base_link, tip_link)
          for urdf_xml, base_link, tip_link in CASES]
CHAIN_IDS = ['%s-%d' % (chain.tip_link, chain.num_joints) for chain in CHAINS]


@pytest.mark.parametrize('chain', CHAINS, ids=CHAIN_IDS)
def test_poses_agree_with_fk_and_joint_frames(chain):
    rng = np.random.default_rng(5)
    for _ in range(10):
        q = chain.random_configuration(rng)
        poses = chain.poses(q)
        assert poses.shape == (chain.num_joints + 1, 4, 4)
        frames, tip = chain.joint_frames(q)
        np.testing.assert_allclose(poses[-1], chain.fk(q), atol=1e-12)
        np.testing.assert_allclose(poses[-1], tip, atol=1e-12)
        np.testing.assert_allclose(poses[:-1, :3, 3], frames[:, :3, 3], atol=1e-12)
        # The aligned frames carry each joint's axis as their z axis.
        axes = np.einsum('nij,nj->ni', frames[:, :3, :3], chain.axes)
        np.testing.assert_allclose(poses[:-1, :3, 2], axes, atol=1e-12)
        for rotation in poses[:, :3, :3]:
            np.testing.assert_allclose(rotation.T @ rotation, np.eye(3), atol=1e-12)
            assert np.linalg.det(rotation) > 0.0


@pytest.mark.parametrize('chain', CHAINS, ids=CHAIN_IDS)
def test_jacobian_after_poses_of_another_configuration_is_its_own(chain):
    rng = np.random.default_rng(6)
    urdf_xml, base_link, tip_link = CASES[CHAINS.index(chain)]
    fresh = RobotModel.from_urdf(urdf_xml).chain(base_link, tip_link)
    for _ in range(5):
        first, second = chain.random_configuration(rng), chain.random_configuration(rng)
        chain.poses(first)
        np.testing.assert_allclose(chain.jacobian(second), fresh.jacobian(second), atol=1e-12)
        np.testing.assert_allclose(chain.jacobian(first), fresh.jacobian(first), atol=1e-12)
        chain.poses(second)
        np.testing.assert_allclose(chain.fk(first), fresh.fk(first), atol=1e-12)


def test_callers_cannot_corrupt_the_chain_through_its_answers():
    chain = CHAINS[1]
    q = chain.mid_configuration()
    poses = chain.poses(q)
    expected = poses.copy()
    poses[-1, 0, 3] = 5.0  # every answer is the caller's own array
    tip = chain.fk(q)
    tip[:3, 3] += 1.0  # fk hands out its own array
    frames, tip_again = chain.joint_frames(q)
    frames[:] = 0.0
    tip_again[:] = 0.0
    jacobian = chain.jacobian(q)
    jacobian[:] = 0.0
    np.testing.assert_array_equal(chain.poses(q.copy()), expected)
    np.testing.assert_allclose(chain.fk(q), expected[-1], atol=0.0)


@pytest.mark.parametrize('chain', CHAINS[:3], ids=CHAIN_IDS[:3])
def test_tip_offset_carries_the_last_joint_frame_to_the_tip(chain):
    rng = np.random.default_rng(9)
    assert not chain.tip_offset.flags.writeable
    for _ in range(5):
        poses = chain.poses(chain.random_configuration(rng))
        np.testing.assert_allclose(poses[-2] @ chain.tip_offset, poses[-1], atol=1e-12)


@pytest.mark.parametrize('chain', CHAINS, ids=CHAIN_IDS)
def test_length_scale_is_the_length_through_the_joint_origins(chain):
    frames, tip = chain.joint_frames(np.zeros(chain.num_joints))
    points = np.vstack((frames[:, :3, 3], tip[:3, 3]))
    expected = np.sum(np.linalg.norm(np.diff(points, axis=0), axis=1))
    assert expected > 0.1
    assert chain.length_scale == pytest.approx(expected, rel=1e-12)


def test_poses_refuse_a_configuration_of_the_wrong_length():
    chain = CHAINS[0]
    with pytest.raises(InvalidSeedError, match='has 6 values'):
        chain.poses(np.zeros(5))
