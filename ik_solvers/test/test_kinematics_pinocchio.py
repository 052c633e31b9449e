# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Forward kinematics and Jacobians agree with Pinocchio on bundled and vendor arms."""

import importlib.metadata
from pathlib import Path

import numpy as np
import pytest

from ik_solvers.kinematics import Chain, RobotModel

pinocchio = pytest.importorskip(
    'pinocchio', reason='Pinocchio (PyPI: pin) is the reference for FK and Jacobians')

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
CONFIGURATIONS_PER_ROBOT = 200
TOLERANCE = 1e-9

BUNDLED = [
    ('planar_3link.urdf', 'base_link', 'tip'),
    ('ur5_like.urdf', 'base_link', 'tool0'),
    ('panda_like.urdf', 'panda_link0', 'panda_hand_tcp'),
    ('panda_like.urdf', 'panda_link0', 'panda_leftfinger'),
    ('so101_like.urdf', 'base_link', 'gripper_frame_link'),
    ('so101_like.urdf', 'base_link', 'moving_jaw_link'),
    ('snake_20.urdf', 'base_link', 'tip'),
    ('snake_100.urdf', 'base_link', 'tip'),
]

VENDOR = [
    ('ur_description/urdf/ur5_robot.urdf', 'base_link', 'tool0'),
    ('panda_description/urdf/panda.urdf', 'panda_link0', 'panda_hand_tcp'),
    ('kinova_description/robots/kinova.urdf', 'base', 'j2s6s200_end_effector'),
    ('z1_description/urdf/z1.urdf', 'link00', 'link06'),
    ('xarm_description/urdf/xarm7.urdf', 'link_base', 'link_eef'),
    ('so_arm_description/urdf/so101.urdf', 'base_link', 'gripper_frame_link'),
    ('tiago_description/robots/tiago.urdf', 'base_footprint', 'arm_tool_link'),
]


def _vendor_dir() -> Path:
    try:
        distribution = importlib.metadata.distribution('example-robot-data')
    except importlib.metadata.PackageNotFoundError:
        pytest.skip('example-robot-data (PyPI) is not installed; it holds the vendor URDFs')
    robots = Path(distribution.locate_file('cmeel.prefix/share/example-robot-data/robots'))
    if not robots.is_dir():
        pytest.skip('example-robot-data has no robots directory at %s' % robots)
    return robots


def _vendor_path(relative: str) -> Path:
    return _vendor_dir() / relative


class PinocchioReference:
    """FK and Jacobian of one base-to-tip pair computed by Pinocchio."""

    def __init__(self, urdf_xml: str, chain: Chain):
        self.model = pinocchio.buildModelFromXML(urdf_xml)
        self.data = self.model.createData()
        self.base = self.model.getFrameId(chain.base_link)
        self.tip = self.model.getFrameId(chain.tip_link)
        joints = [self.model.joints[self.model.getJointId(name)] for name in chain.joint_names]
        self.q_index = [joint.idx_q for joint in joints]
        self.v_index = [joint.idx_v for joint in joints]
        # Pinocchio stores a continuous joint as (cos, sin).
        self.continuous = [joint.nq == 2 for joint in joints]

    def configuration(self, q: np.ndarray) -> np.ndarray:
        q_pinocchio = pinocchio.neutral(self.model)
        for index, continuous, value in zip(self.q_index, self.continuous, q):
            if continuous:
                q_pinocchio[index:index + 2] = np.cos(value), np.sin(value)
            else:
                q_pinocchio[index] = value
        return q_pinocchio

    def fk_and_jacobian(self, q: np.ndarray):
        q_pinocchio = self.configuration(q)
        pinocchio.framesForwardKinematics(self.model, self.data, q_pinocchio)
        base = self.data.oMf[self.base]
        pose = (base.inverse() * self.data.oMf[self.tip]).homogeneous
        jacobian = pinocchio.computeFrameJacobian(
            self.model, self.data, q_pinocchio, self.tip, pinocchio.LOCAL_WORLD_ALIGNED)
        rotation = base.rotation.T
        in_base = np.vstack([rotation @ jacobian[:3], rotation @ jacobian[3:]])
        return pose, in_base[:, self.v_index]


def _compare(urdf_xml: str, base_link: str, tip_link: str, seed: int):
    chain = RobotModel.from_urdf(urdf_xml).chain(base_link, tip_link)
    reference = PinocchioReference(urdf_xml, chain)
    rng = np.random.default_rng(seed)
    position_error = rotation_error = jacobian_error = 0.0
    for _ in range(CONFIGURATIONS_PER_ROBOT):
        q = chain.random_configuration(rng)
        expected_pose, expected_jacobian = reference.fk_and_jacobian(q)
        pose = chain.fk(q)
        position_error = max(position_error, np.abs(pose[:3, 3] - expected_pose[:3, 3]).max())
        rotation_error = max(rotation_error,
                             np.abs(pose[:3, :3] - expected_pose[:3, :3]).max())
        jacobian_error = max(jacobian_error,
                             np.abs(chain.jacobian(q) - expected_jacobian).max())
        assert np.array_equal(pose[3], [0.0, 0.0, 0.0, 1.0])
    assert position_error <= TOLERANCE, 'position error %.3g m' % position_error
    assert rotation_error <= TOLERANCE, 'rotation matrix error %.3g' % rotation_error
    assert jacobian_error <= TOLERANCE, 'Jacobian error %.3g' % jacobian_error
    return chain


@pytest.mark.parametrize('file_name, base_link, tip_link', BUNDLED)
def test_bundled_robot_matches_pinocchio(file_name, base_link, tip_link):
    urdf_xml = (URDF_DIR / file_name).read_text()
    _compare(urdf_xml, base_link, tip_link, seed=len(file_name))


@pytest.mark.parametrize('relative_path, base_link, tip_link', VENDOR)
def test_vendor_robot_matches_pinocchio(relative_path, base_link, tip_link):
    urdf_xml = _vendor_path(relative_path).read_text()
    chain = _compare(urdf_xml, base_link, tip_link, seed=len(relative_path))
    assert chain.num_joints >= 5


def test_continuous_joints_of_the_vendor_arm_are_unbounded():
    urdf_xml = _vendor_path('kinova_description/robots/kinova.urdf').read_text()
    chain = RobotModel.from_urdf(urdf_xml).chain('base', 'j2s6s200_end_effector')
    assert chain.is_continuous.tolist() == [True, False, False, True, False, True]
    assert np.all(np.isinf(chain.lower[chain.is_continuous]))
    assert np.all(np.isinf(chain.upper[chain.is_continuous]))
    assert np.all(np.isfinite(chain.lower[~chain.is_continuous]))
