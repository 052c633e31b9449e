# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The bundled URDFs have the published geometry, limits and links they claim."""

import importlib.metadata
import math
from pathlib import Path

from conftest import bundled_oracle
import numpy as np
import pytest
import transforms3d

from ik_solvers import solve
from ik_solvers.kinematics import RobotModel

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'


def _chain(file_name, base_link, tip_link):
    return RobotModel.from_urdf((URDF_DIR / file_name).read_text()).chain(base_link, tip_link)


def _standard_dh(theta, d, a, alpha):
    """Frame i-1 to frame i: Rz(theta) Tz(d) Tx(a) Rx(alpha)."""
    ct, st, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


def _modified_dh(a, d, alpha, theta):
    """Frame i-1 to frame i in Craig's convention: Rx(alpha) Tx(a) Rz(theta) Tz(d)."""
    ct, st, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return np.array([[ct, -st, 0.0, a],
                     [st * ca, ct * ca, -sa, -d * sa],
                     [st * sa, ct * sa, ca, d * ca],
                     [0.0, 0.0, 0.0, 1.0]])


UR5_DH = [  # (d, a, alpha)
    (0.089159, 0.0, math.pi / 2),
    (0.0, -0.425, 0.0),
    (0.0, -0.39225, 0.0),
    (0.10915, 0.0, math.pi / 2),
    (0.09465, 0.0, -math.pi / 2),
    (0.0823, 0.0, 0.0),
]

PANDA_DH = [  # (a, d, alpha)
    (0.0, 0.333, 0.0),
    (0.0, 0.0, -math.pi / 2),
    (0.0, 0.316, math.pi / 2),
    (0.0825, 0.0, math.pi / 2),
    (-0.0825, 0.384, -math.pi / 2),
    (0.0, 0.0, math.pi / 2),
    (0.088, 0.0, math.pi / 2),
]
PANDA_LOWER = [-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973]
PANDA_UPPER = [2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973]
PANDA_VELOCITY = [2.175, 2.175, 2.175, 2.175, 2.61, 2.61, 2.61]

# The SO-101's published geometry at the zero configuration, every frame parallel to the base:
# (joint, offset from the previous joint's axis in m, axis). The tool frame follows the roll.
SO101_JOINTS = [
    ('shoulder_pan', (0.0388353, 0.0, 0.0624), (0.0, 0.0, -1.0)),
    ('shoulder_lift', (0.0303992, -0.0182778, 0.0542), (0.0, 1.0, 0.0)),
    ('elbow_flex', (0.028, 0.0, 0.11257), (0.0, 1.0, 0.0)),
    ('wrist_flex', (0.1349, 0.0, 0.0052), (0.0, 1.0, 0.0)),
    ('wrist_roll', (0.0611, 0.0181, 0.0), (-1.0, 0.0, 0.0)),
]
SO101_TOOL_OFFSET = (0.0981274, -0.000218121, -0.0079)
SO101_LIMITS_DEG = [110.0, 100.0, math.degrees(1.69), 95.0, 160.0]
# The published description's wrist_roll reading when this file's roll is at zero.
SO101_ROLL_ZERO = 0.0486795


def test_ur5_like_follows_the_published_dh_parameters():
    chain = _chain('ur5_like.urdf', 'base_link', 'tool0')
    assert chain.num_joints == 6
    assert chain.joint_names[0] == 'shoulder_pan_joint'
    np.testing.assert_allclose(chain.lower, -2 * math.pi)
    np.testing.assert_allclose(chain.upper, 2 * math.pi)
    assert np.all((chain.velocity_limits > 3.0) & (chain.velocity_limits < 3.3))
    rng = np.random.default_rng(0)
    for _ in range(50):
        q = chain.random_configuration(rng)
        expected = np.eye(4)
        for theta, (d, a, alpha) in zip(q, UR5_DH):
            expected = expected @ _standard_dh(theta, d, a, alpha)
        np.testing.assert_allclose(chain.fk(q), expected, atol=1e-12)
    # The arm stretched out: the published reach along -x at the zero configuration.
    np.testing.assert_allclose(chain.fk(np.zeros(6))[:3, 3],
                               [-0.81725, -0.19145, -0.005491], atol=1e-12)


def test_panda_like_follows_the_published_dh_parameters_and_limits():
    chain = _chain('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')
    assert chain.joint_names == tuple('panda_joint%d' % i for i in range(1, 8))
    np.testing.assert_allclose(chain.lower, PANDA_LOWER)
    np.testing.assert_allclose(chain.upper, PANDA_UPPER)
    np.testing.assert_allclose(chain.velocity_limits, PANDA_VELOCITY)
    flange = _modified_dh(0.0, 0.107, 0.0, 0.0)
    hand = _modified_dh(0.0, 0.0, 0.0, -math.pi / 4)
    tcp = _modified_dh(0.0, 0.1034, 0.0, 0.0)
    rng = np.random.default_rng(1)
    for _ in range(50):
        q = chain.random_configuration(rng)
        expected = np.eye(4)
        for theta, (a, d, alpha) in zip(q, PANDA_DH):
            expected = expected @ _modified_dh(a, d, alpha, theta)
        expected = expected @ flange @ hand @ tcp
        np.testing.assert_allclose(chain.fk(q), expected, atol=1e-12)


def test_panda_like_root_link_has_an_inertia():
    text = (URDF_DIR / 'panda_like.urdf').read_text()
    root_block = text.split('<link name="panda_link0">')[1].split('</link>')[0]
    assert '<inertial>' in root_block and '<mass' in root_block
    assert RobotModel.from_urdf(text).root_link == 'panda_link0'


def test_panda_like_fingers_are_a_prismatic_pair():
    model = RobotModel.from_urdf((URDF_DIR / 'panda_like.urdf').read_text())
    left = model.chain('panda_link0', 'panda_leftfinger')
    assert left.joint_names[-1] == 'panda_finger_joint1'
    assert left.is_prismatic.tolist() == [False] * 7 + [True]
    assert (left.lower[-1], left.upper[-1]) == (0.0, 0.04)
    positions = {'panda_finger_joint1': 0.03}
    gap = model.transform('panda_leftfinger', 'panda_rightfinger', positions)
    np.testing.assert_allclose(np.linalg.norm(gap[:3, 3]), 0.06, atol=1e-15)


def test_planar_3link_reaches_like_the_textbook_arm():
    chain = _chain('planar_3link.urdf', 'base_link', 'tip')
    rng = np.random.default_rng(2)
    for _ in range(50):
        q = chain.random_configuration(rng)
        heading = np.cumsum(q)
        pose = chain.fk(q)
        np.testing.assert_allclose(
            pose[:3, 3], [0.5 * np.cos(heading).sum(), 0.5 * np.sin(heading).sum(), 0.0],
            atol=1e-14)
        np.testing.assert_allclose(pose[:3, :3], [[math.cos(heading[-1]),
                                                   -math.sin(heading[-1]), 0],
                                                  [math.sin(heading[-1]),
                                                   math.cos(heading[-1]), 0],
                                                  [0, 0, 1]], atol=1e-14)


@pytest.mark.parametrize('file_name, joints, reach', [
    ('snake_20.urdf', 20, 2.0), ('snake_100.urdf', 100, 3.0)])
def test_snakes_alternate_their_hinges_and_stay_short(file_name, joints, reach):
    chain = _chain(file_name, 'base_link', 'tip')
    assert chain.num_joints == joints
    np.testing.assert_allclose(chain.axes[0::2], np.tile([0, 0, 1], (joints // 2, 1)))
    np.testing.assert_allclose(chain.axes[1::2], np.tile([0, 1, 0], (joints // 2, 1)))
    np.testing.assert_allclose(chain.upper, math.pi / 2)
    np.testing.assert_allclose(chain.lower, -math.pi / 2)
    np.testing.assert_allclose(chain.fk(np.zeros(joints))[:3, 3], [reach, 0, 0], atol=1e-12)
    rng = np.random.default_rng(3)
    for _ in range(20):
        assert np.linalg.norm(chain.fk(chain.random_configuration(rng))[:3, 3]) < reach


def _so101_fk(q):
    """Tip pose from the published dimensions: translate, turn about the axis, repeat."""
    pose = np.eye(4)
    for angle, (_, offset, axis) in zip(q, SO101_JOINTS):
        step = transforms3d.affines.compose(
            offset, transforms3d.axangles.axangle2mat(axis, angle), np.ones(3))
        pose = pose @ step
    # The tool frame's z axis points out of the jaws (+x of the arm at zero), its x axis down.
    tool = transforms3d.affines.compose(
        SO101_TOOL_OFFSET, transforms3d.axangles.axangle2mat((0, 1, 0), math.pi / 2),
        np.ones(3))
    return pose @ tool


def test_so101_like_is_a_five_joint_arm_with_the_published_limits():
    model = RobotModel.from_urdf((URDF_DIR / 'so101_like.urdf').read_text())
    assert model.root_link == 'base_link'
    chain = model.chain('base_link', 'gripper_frame_link')
    assert chain.num_joints == 5
    assert chain.joint_names == tuple(name for name, _, _ in SO101_JOINTS)
    np.testing.assert_allclose(chain.axes, [axis for _, _, axis in SO101_JOINTS], atol=1e-15)
    np.testing.assert_allclose(chain.upper, np.radians(SO101_LIMITS_DEG), atol=1e-12)
    np.testing.assert_allclose(chain.lower, -chain.upper)
    np.testing.assert_allclose(chain.velocity_limits, 5.45)
    assert not chain.is_prismatic.any() and not chain.is_continuous.any()
    # The moving jaw is a sixth joint beside the arm's chain, not on it.
    jaw = model.chain('base_link', 'moving_jaw_link')
    assert jaw.joint_names == chain.joint_names + ('gripper',)


def test_so101_like_follows_the_published_dimensions():
    chain = _chain('so101_like.urdf', 'base_link', 'gripper_frame_link')
    stretched = chain.fk(np.zeros(5))
    np.testing.assert_allclose(stretched, _so101_fk(np.zeros(5)), atol=1e-12)
    # Stretched forward: the jaw centre 0.391 m out and 0.226 m up, its axis along +x.
    np.testing.assert_allclose(stretched[:3, 3], [0.3913619, -0.000395921, 0.22647],
                               atol=1e-12)
    np.testing.assert_allclose(stretched[:3, 2], [1.0, 0.0, 0.0], atol=1e-12)
    rng = np.random.default_rng(6)
    for _ in range(50):
        q = chain.random_configuration(rng)
        np.testing.assert_allclose(chain.fk(q), _so101_fk(q), atol=1e-12)


def test_so101_like_reaches_positions_sampled_from_its_workspace():
    chain = _chain('so101_like.urdf', 'base_link', 'gripper_frame_link')
    rng = np.random.default_rng(7)
    for _ in range(10):
        target = chain.fk(chain.random_configuration(rng))
        result = solve(chain, target, seed=chain.random_configuration(rng), position_only=True,
                       timeout=2.0)
        assert result.success, result
        bundled_oracle('so101_like.urdf', 'base_link', 'gripper_frame_link').check(
            result.q, target, orientation_mode='none')


def _vendor_urdf(relative: str) -> str:
    try:
        distribution = importlib.metadata.distribution('example-robot-data')
    except importlib.metadata.PackageNotFoundError:
        pytest.skip('example-robot-data (PyPI) is not installed; it holds the vendor URDFs')
    path = Path(distribution.locate_file('cmeel.prefix/share/example-robot-data/robots'))
    return (path / relative).read_text()


def test_ur5_like_matches_the_vendor_ur5_between_base_and_tool0():
    vendor = RobotModel.from_urdf(_vendor_urdf('ur_description/urdf/ur5_robot.urdf'))
    chain = _chain('ur5_like.urdf', 'base_link', 'tool0')
    rng = np.random.default_rng(4)
    for _ in range(50):
        q = chain.random_configuration(rng)
        # The vendor's 'base' frame is the Denavit-Hartenberg base; its values of pi are
        # written with fewer digits.
        np.testing.assert_allclose(
            vendor.transform('base', 'tool0', dict(zip(chain.joint_names, q))), chain.fk(q),
            atol=1e-9)


def test_panda_like_matches_the_vendor_panda():
    vendor = RobotModel.from_urdf(_vendor_urdf('panda_description/urdf/panda.urdf')).chain(
        'panda_link0', 'panda_hand_tcp')
    chain = _chain('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')
    assert vendor.joint_names == chain.joint_names
    np.testing.assert_allclose(chain.lower, vendor.lower)
    np.testing.assert_allclose(chain.upper, vendor.upper)
    rng = np.random.default_rng(5)
    for _ in range(50):
        q = chain.random_configuration(rng)
        np.testing.assert_allclose(chain.fk(q), vendor.fk(q), atol=1e-9)


def test_so101_like_matches_the_vendor_so101_with_its_roll_zero_moved():
    vendor = RobotModel.from_urdf(_vendor_urdf('so_arm_description/urdf/so101.urdf'))
    model = RobotModel.from_urdf((URDF_DIR / 'so101_like.urdf').read_text())
    chain = model.chain('base_link', 'gripper_frame_link')
    rng = np.random.default_rng(8)
    for _ in range(50):
        q = chain.random_configuration(rng)
        positions = dict(zip(chain.joint_names, q))
        positions['gripper'] = rng.uniform(-0.17, 1.7)
        published = dict(positions, wrist_roll=positions['wrist_roll'] + SO101_ROLL_ZERO)
        # The vendor rounds pi / 2 to 1.5708 and pi to 3.14159: entries differ by about 2e-5.
        np.testing.assert_allclose(
            vendor.transform('base_link', 'gripper_frame_link', published), chain.fk(q),
            atol=5e-5)
        np.testing.assert_allclose(
            vendor.transform('base_link', 'moving_jaw_so101_v1_link', published)[:3, 3],
            model.transform('base_link', 'moving_jaw_link', positions)[:3, 3], atol=1e-5)
