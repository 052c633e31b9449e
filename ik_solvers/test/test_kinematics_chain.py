# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Chain behaviour: Jacobian against finite differences, joint frames, limits, bad input."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers.exceptions import InvalidSeedError
from ik_solvers.kinematics import RobotModel

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'

BUNDLED = [
    ('planar_3link.urdf', 'base_link', 'tip'),
    ('ur5_like.urdf', 'base_link', 'tool0'),
    ('panda_like.urdf', 'panda_link0', 'panda_hand_tcp'),
    ('panda_like.urdf', 'panda_link0', 'panda_leftfinger'),
    ('so101_like.urdf', 'base_link', 'gripper_frame_link'),
    ('snake_20.urdf', 'base_link', 'tip'),
]

# Revolute, continuous, prismatic and a mimic joint, with non-unit and oblique axes.
MIXED_URDF = """<?xml version="1.0" encoding="utf-8"?>
<robot name="mixed">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <link name="e"/><link name="tool"/>
  <joint name="turn" type="revolute">
    <parent link="base"/><child link="a"/>
    <origin xyz="0.1 0 0.2" rpy="0.1 0.2 0.3"/><axis xyz="0 0 3"/>
    <limit lower="-2" upper="2" effort="1" velocity="1.5"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="a"/><child link="b"/>
    <origin xyz="0 0.3 0" rpy="0 0.5 0"/><axis xyz="1 1 0"/>
    <limit lower="-0.2" upper="0.4" effort="1" velocity="0.3"/>
  </joint>
  <joint name="spin" type="continuous">
    <parent link="b"/><child link="c"/>
    <origin xyz="0 0 0.25" rpy="0 0 0"/><axis xyz="0.3 -0.2 0.9"/>
  </joint>
  <joint name="follow" type="revolute">
    <parent link="c"/><child link="d"/>
    <origin xyz="0.2 0 0" rpy="-0.4 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="turn" multiplier="-0.5" offset="0.2"/>
  </joint>
  <joint name="bend" type="revolute">
    <parent link="d"/><child link="e"/>
    <origin xyz="0 0 0.15" rpy="0 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1.5" effort="1" velocity="2"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="e"/><child link="tool"/>
    <origin xyz="0 0.05 0.1" rpy="0 0 0.7"/>
  </joint>
</robot>
"""


CASES = [((URDF_DIR / name).read_text(), base, tip) for name, base, tip in BUNDLED]
CASES.append((MIXED_URDF, 'base', 'tool'))
CHAINS = [RobotModel.from_urdf(urdf_xml).chain(base_link, tip_link)
          for urdf_xml, base_link, tip_link in CASES]
CHAIN_IDS = ['%s-%s-%d' % (chain.base_link, chain.tip_link, chain.num_joints)
             for chain in CHAINS]


def _rotation_vector(rotation: np.ndarray) -> np.ndarray:
    """Small-angle rotation vector of a rotation matrix close to the identity."""
    skew_part = 0.5 * (rotation - rotation.T)
    return np.array([skew_part[2, 1], skew_part[0, 2], skew_part[1, 0]])


def _axis_motion(point: np.ndarray, axis: np.ndarray, amount: float,
                 prismatic: bool) -> np.ndarray:
    """4x4 transform of a rotation about (or slide along) a line through ``point``."""
    motion = np.eye(4)
    if prismatic:
        motion[:3, 3] = amount * axis
        return motion
    x, y, z = axis
    cross = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    rotation = np.eye(3) + np.sin(amount) * cross + (1 - np.cos(amount)) * cross @ cross
    motion[:3, :3] = rotation
    motion[:3, 3] = point - rotation @ point
    return motion


@pytest.mark.parametrize('chain', CHAINS, ids=CHAIN_IDS)
def test_jacobian_matches_central_finite_differences(chain):
    rng = np.random.default_rng(7)
    step = 1e-6
    for _ in range(20):
        q = chain.random_configuration(rng)
        jacobian = chain.jacobian(q)
        assert jacobian.shape == (6, chain.num_joints)
        for j in range(chain.num_joints):
            delta = np.zeros(chain.num_joints)
            delta[j] = step
            plus, minus = chain.fk(q + delta), chain.fk(q - delta)
            linear = (plus[:3, 3] - minus[:3, 3]) / (2 * step)
            angular = _rotation_vector(plus[:3, :3] @ minus[:3, :3].T) / (2 * step)
            np.testing.assert_allclose(jacobian[:3, j], linear, atol=1e-7)
            np.testing.assert_allclose(jacobian[3:, j], angular, atol=1e-7)


@pytest.mark.parametrize('chain', CHAINS, ids=CHAIN_IDS)
def test_joint_frames_locate_each_joint_axis(chain):
    """Moving joint i moves the tip about (or along) the axis line the frames report."""
    rng = np.random.default_rng(11)
    for _ in range(10):
        q = chain.random_configuration(rng)
        frames, tip = chain.joint_frames(q)
        assert frames.shape == (chain.num_joints, 4, 4)
        np.testing.assert_allclose(tip, chain.fk(q), atol=1e-12)
        for i in range(chain.num_joints):
            axis = frames[i, :3, :3] @ chain.axes[i]
            amount = 0.3
            moved = q.copy()
            moved[i] += amount
            if chain.joint_names[i] == 'turn':
                continue  # its mimic follower moves too; covered by the Jacobian test
            expected = _axis_motion(frames[i, :3, 3], axis, amount,
                                    bool(chain.is_prismatic[i])) @ tip
            np.testing.assert_allclose(chain.fk(moved), expected, atol=1e-12)


@pytest.mark.parametrize('urdf_xml, chain', list(zip([case[0] for case in CASES], CHAINS)),
                         ids=CHAIN_IDS)
def test_joint_frames_are_the_child_link_poses(urdf_xml, chain):
    model = RobotModel.from_urdf(urdf_xml)
    q = chain.random_configuration(np.random.default_rng(3))
    positions = dict(zip(chain.joint_names, q))
    frames, _ = chain.joint_frames(q)
    for name, frame in zip(chain.joint_names, frames):
        child = model.joint(name).child
        np.testing.assert_allclose(
            frame, model.transform(chain.base_link, child, positions), atol=1e-12)


@pytest.mark.parametrize('chain', CHAINS, ids=CHAIN_IDS)
def test_fk_batch_equals_fk_row_by_row(chain):
    rng = np.random.default_rng(5)
    configurations = np.array([chain.random_configuration(rng) for _ in range(25)])
    poses = chain.fk_batch(configurations)
    assert poses.shape == (25, 4, 4)
    for q, pose in zip(configurations, poses):
        np.testing.assert_allclose(pose, chain.fk(q), atol=1e-12)
    assert chain.fk_batch(np.empty((0, chain.num_joints))).shape == (0, 4, 4)


def test_fk_batch_rejects_a_wrong_shape():
    chain = CHAINS[1]
    with pytest.raises(InvalidSeedError, match=r'\(K, 6\)'):
        chain.fk_batch(np.zeros((3, 5)))
    with pytest.raises(InvalidSeedError):
        chain.fk_batch(np.zeros(6))


def test_mixed_chain_description():
    chain = CHAINS[-1]
    assert chain.joint_names == ('turn', 'slide', 'spin', 'bend')
    assert chain.num_joints == 4
    assert chain.is_prismatic.tolist() == [False, True, False, False]
    assert chain.is_continuous.tolist() == [False, False, True, False]
    np.testing.assert_allclose(chain.lower, [-2, -0.2, -np.inf, -1])
    np.testing.assert_allclose(chain.upper, [2, 0.4, np.inf, 1.5])
    np.testing.assert_allclose(chain.velocity_limits, [1.5, 0.3, 1.0, 2.0])
    np.testing.assert_allclose(np.linalg.norm(chain.axes, axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(chain.axes[1], [np.sqrt(0.5), np.sqrt(0.5), 0.0])


def test_limits_helpers_respect_the_limits():
    chain = CHAINS[-1]
    rng = np.random.default_rng(0)
    samples = np.array([chain.random_configuration(rng) for _ in range(2000)])
    bounded = ~chain.is_continuous
    assert np.all(samples[:, bounded] >= chain.lower[bounded])
    assert np.all(samples[:, bounded] <= chain.upper[bounded])
    assert np.all(np.abs(samples[:, chain.is_continuous]) <= np.pi)
    # Uniform sampling reaches close to both ends of every range.
    assert np.all(samples.min(axis=0)[bounded] < chain.lower[bounded] + 0.05)
    assert all(chain.within_limits(q) for q in samples)

    np.testing.assert_allclose(chain.mid_configuration(), [0.0, 0.1, 0.0, 0.25])
    outside = np.array([5.0, -1.0, 100.0, 1.5 + 1e-6])
    assert not chain.within_limits(outside)
    clipped = chain.clip(outside)
    np.testing.assert_allclose(clipped, [2.0, -0.2, 100.0, 1.5])
    assert chain.within_limits(clipped)
    assert outside[0] == 5.0  # clip copies
    assert chain.within_limits(np.array([0.0, 0.0, 0.0, 1.5 + 1e-10]))
    assert not chain.within_limits(np.array([0.0, 0.0, 0.0, 1.5 + 1e-10]), tolerance=0.0)
    assert not chain.within_limits(np.array([np.nan, 0.0, 0.0, 0.0]))


def test_description_arrays_are_read_only():
    chain = CHAINS[1]
    for array in (chain.lower, chain.upper, chain.velocity_limits, chain.axes,
                  chain.is_prismatic, chain.is_continuous):
        with pytest.raises(ValueError):
            array[0] = 0
    middle = chain.mid_configuration()
    middle[0] = 42.0  # a copy: the chain keeps its own
    assert chain.mid_configuration()[0] == 0.0


@pytest.mark.parametrize('method', ['fk', 'jacobian', 'joint_frames', 'clip', 'within_limits'])
def test_configuration_of_the_wrong_length_is_refused(method):
    chain = CHAINS[2]
    with pytest.raises(InvalidSeedError, match='7 values.*panda_joint1'):
        getattr(chain, method)(np.zeros(6))
    with pytest.raises(InvalidSeedError):
        getattr(chain, method)(np.zeros((1, 7)))


def test_fk_returns_independent_arrays():
    chain = CHAINS[2]
    q = chain.mid_configuration()
    first = chain.fk(q)
    first[:] = 0.0
    np.testing.assert_allclose(chain.fk(q)[3], [0, 0, 0, 1])
    frames, tip = chain.joint_frames(q)
    tip[:] = 0.0
    np.testing.assert_allclose(chain.joint_frames(q)[1], chain.fk(q))


def test_long_chain_fk_matches_joint_frames():
    """The pairwise product used for long chains agrees with the prefix products."""
    model = RobotModel.from_urdf((URDF_DIR / 'snake_100.urdf').read_text())
    chain = model.chain('base_link', 'tip')
    assert chain.num_joints == 100
    rng = np.random.default_rng(2)
    for _ in range(5):
        q = chain.random_configuration(rng)
        np.testing.assert_allclose(chain.fk(q), chain.joint_frames(q)[1], atol=1e-12)
    np.testing.assert_allclose(chain.fk(np.zeros(100))[:3, 3], [3.0, 0.0, 0.0], atol=1e-12)


@pytest.mark.parametrize('name', ['trees/dual_arm_waist.urdf', 'panda_like.urdf'])
def test_poses_of_several_links_at_once_equal_each_transform(name):
    text = (URDF_DIR / name).read_text()
    model = RobotModel.from_urdf(text)
    rng = np.random.default_rng(5)
    positions = {joint: float(rng.uniform(-1.0, 1.0)) for joint in model.joint_names}
    links = list(model.link_names)
    for target in (model.root_link, links[len(links) // 2], links[-1]):
        together = model.transforms(target, links, positions)
        for link in links:
            assert np.array_equal(together[link], model.transform(target, link, positions))
