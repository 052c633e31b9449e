# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Every URDF of example-robot-data: accepted when urdfdom accepts it, and every chain's FK exact.

The oracle of the forward kinematics is a plain joint-by-joint walk of the URDF XML written
here, sharing nothing with the package's parser or kernels.
"""

import math
from typing import Dict, List, Tuple
import xml.etree.ElementTree as ElementTree

from ik_solvers.exceptions import RobotModelError
from ik_solvers.kinematics import Chain, RobotModel
import numpy as np
import pytest
from urdfdom_support import example_robot_urdf, example_robot_urdfs, urdfdom_verdict

TOLERANCE = 1e-9
CONFIGURATIONS_PER_CHAIN = 8

#: The descriptions robot_state_publisher loads that an earlier parser refused: an old-style
#: transmission, an empty texture, zero effort and velocity limits.
ONCE_REFUSED = [
    'pr2_description/urdf/pr2.urdf',
    'icub_description/robots/icub.urdf',
    'icub_description/robots/icub_reduced.urdf',
    'romeo_description/urdf/romeo_laas_small.urdf',
    'romeo_description/urdf/romeo.urdf',
    'double_pendulum_description/urdf/double_pendulum.urdf',
    'double_pendulum_description/urdf/double_pendulum_continuous.urdf',
    'double_pendulum_description/urdf/double_pendulum_simple.urdf',
    'iris_description/robots/iris.urdf',
]


def _numbers(text, default) -> np.ndarray:
    return np.array([float(part) for part in text.split()] if text else default, dtype=float)


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    x, y, z = axis
    skew = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + math.sin(angle) * skew + (1 - math.cos(angle)) * skew @ skew


class XmlWalk:
    """Link poses by walking the URDF XML from a link up to the root, one joint at a time."""

    def __init__(self, urdf_xml: str):
        self.joints = {}
        self.joint_above = {}
        for joint in ElementTree.fromstring(urdf_xml).iter('joint'):
            if joint.find('child') is None:
                continue  # a <joint> inside a transmission
            self.joints[joint.get('name')] = joint
            self.joint_above[joint.find('child').get('link')] = joint

    def value(self, joint: ElementTree.Element, positions: Dict[str, float]) -> float:
        mimic = joint.find('mimic')
        if mimic is None:
            return positions.get(joint.get('name'), 0.0)
        leader = self.value(self.joints[mimic.get('joint')], positions)
        return (float(mimic.get('multiplier', '1')) * leader
                + float(mimic.get('offset', '0')))

    def step(self, joint: ElementTree.Element, positions: Dict[str, float]) -> np.ndarray:
        origin = joint.find('origin')
        xyz = _numbers(None if origin is None else origin.get('xyz'), [0, 0, 0])
        roll, pitch, yaw = _numbers(None if origin is None else origin.get('rpy'), [0, 0, 0])
        transform = np.eye(4)
        transform[:3, :3] = (_rotation(np.array([0, 0, 1.0]), yaw)
                             @ _rotation(np.array([0, 1.0, 0]), pitch)
                             @ _rotation(np.array([1.0, 0, 0]), roll))
        transform[:3, 3] = xyz
        kind = joint.get('type')
        if kind not in ('revolute', 'continuous', 'prismatic'):
            return transform
        axis_element = joint.find('axis')
        axis = _numbers(None if axis_element is None else axis_element.get('xyz'), [1, 0, 0])
        axis = axis / np.linalg.norm(axis)
        motion = np.eye(4)
        value = self.value(joint, positions)
        if kind == 'prismatic':
            motion[:3, 3] = value * axis
        else:
            motion[:3, :3] = _rotation(axis, value)
        return transform @ motion

    def pose(self, base: str, tip: str, positions: Dict[str, float]) -> np.ndarray:
        pose = np.eye(4)
        link = tip
        while link != base:
            joint = self.joint_above[link]
            pose = self.step(joint, positions) @ pose
            link = joint.find('parent').get('link')
        return pose


def _leaf_chains(model: RobotModel) -> List[Tuple[str, str]]:
    parents = {model.joint(name).parent for name in model.joint_names}
    leaves = [link for link in model.link_names if link not in parents]
    return [(model.root_link, leaf) for leaf in leaves
            if any(joint.is_moving for joint in model.path(model.root_link, leaf))]


def _fk_deviation(chain: Chain, walk: XmlWalk, rng: np.random.Generator) -> float:
    deviation = 0.0
    for _ in range(CONFIGURATIONS_PER_CHAIN):
        q = chain.random_configuration(rng)
        expected = walk.pose(chain.base_link, chain.tip_link, dict(zip(chain.joint_names, q)))
        deviation = max(deviation, float(np.abs(chain.fk(q) - expected).max()))
    return deviation


def test_every_example_robot_is_read_as_urdfdom_reads_it_and_its_chains_fk_is_exact():
    paths = example_robot_urdfs()
    accepted = chains = 0
    broken_mimics: List[str] = []
    worst = 0.0
    rng = np.random.default_rng(22)
    for path in paths:
        urdf_xml = path.read_text(encoding='utf-8')
        verdict = urdfdom_verdict(urdf_xml)
        try:
            model = RobotModel.from_urdf(urdf_xml)
        except RobotModelError as error:
            assert verdict is False, '%s: urdfdom accepts it, we refuse: %s' % (path, error)
            continue
        assert verdict in (None, True), '%s: urdfdom refuses it, we accept it' % path
        accepted += 1
        walk = XmlWalk(urdf_xml)
        for base, tip in _leaf_chains(model):
            try:
                chain = model.chain(base, tip)
            except RobotModelError as error:
                # Only a mimic tag naming a joint the robot lacks leaves a chain unusable.
                assert 'which robot' in str(error) and 'does not have' in str(error), error
                broken_mimics.append('%s: %s' % (path.name, tip))
                continue
            chains += 1
            deviation = _fk_deviation(chain, walk, rng)
            assert deviation <= TOLERANCE, '%s %s -> %s: FK off by %.3g' % (
                path.name, base, tip, deviation)
            worst = max(worst, deviation)
    print('\n%d of %d descriptions accepted, %d chains built (%d refused for a mimic of an '
          'unknown joint: %s), largest FK deviation %.3g'
          % (accepted, len(paths), chains, len(broken_mimics), ', '.join(broken_mimics), worst))
    assert accepted >= len(paths) - 1 and chains > 500


@pytest.mark.parametrize('relative', ONCE_REFUSED)
def test_descriptions_robot_state_publisher_loads_are_accepted(relative):
    urdf_xml = example_robot_urdf(relative)
    assert urdfdom_verdict(urdf_xml) in (None, True)
    model = RobotModel.from_urdf(urdf_xml)
    base, tip = max(_leaf_chains(model), key=lambda pair: len(model.path(*pair)))
    chain = model.chain(base, tip)
    q = chain.random_configuration(np.random.default_rng(len(relative)))
    np.testing.assert_allclose(
        chain.fk(q), XmlWalk(urdf_xml).pose(base, tip, dict(zip(chain.joint_names, q))),
        atol=TOLERANCE)


@pytest.mark.parametrize('relative, base, tip, follower, leader', [
    ('panda_description/urdf/panda.urdf', 'panda_link0', 'panda_rightfinger',
     'panda_finger_joint2', 'panda_finger_joint1'),
    ('talos_data/robots/talos_full_v2.urdf', 'base_link', 'gripper_left_inner_single_link',
     'gripper_left_inner_single_joint', 'gripper_left_joint'),
])
def test_a_follower_whose_leader_is_off_the_chain_is_moved_through_its_leader(
        relative, base, tip, follower, leader):
    urdf_xml = example_robot_urdf(relative)
    model = RobotModel.from_urdf(urdf_xml)
    chain = model.chain(base, tip)
    assert leader in chain.joint_names and follower not in chain.joint_names
    assert model.joint(follower).mimic.leader == leader
    walk = XmlWalk(urdf_xml)
    rng = np.random.default_rng(3)
    assert _fk_deviation(chain, walk, rng) <= TOLERANCE
    # Moving the leader alone moves the tip (or turns it): the variable drives the follower.
    q = chain.mid_configuration()
    index = chain.joint_names.index(leader)
    moved = q.copy()
    moved[index] = chain.lower[index] + 0.9 * (chain.upper[index] - chain.lower[index])
    assert np.abs(chain.fk(moved) - chain.fk(q)).max() > 1e-3
    # The frame standing for the leader is the follower's, its axis the way a rise of the
    # leader moves the tip (reversed for Talos, whose follower turns against its leader), as
    # the solvers' sweeps read it.
    poses = chain.poses(moved)
    axis, origin, tip = poses[index, :3, 2], poses[index, :3, 3], poses[-1, :3, 3]
    column = chain.jacobian(moved)[:, index]
    if chain.is_prismatic[index]:
        np.testing.assert_allclose(column, np.concatenate([axis, np.zeros(3)]), atol=1e-12)
    else:
        np.testing.assert_allclose(column, np.concatenate([np.cross(axis, tip - origin), axis]),
                                   atol=1e-12)
