# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The bundled URDFs have the published geometry, limits and links they claim."""

import importlib.metadata
import math
from pathlib import Path

import numpy as np
import pytest

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
