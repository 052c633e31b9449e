# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark robots: bundled, vendor and generated descriptions with the right chains."""

import importlib.metadata

import numpy as np
import pytest

from ik_solvers.reach.named_robots import (
    bundled_robot_names,
    chain_endpoints,
    load_robot,
    snake_robot,
    vendor_robot_names,
)
from ik_solvers.exceptions import RobotModelError
from ik_solvers.kinematics import Chain, RobotModel


def _chain(name: str) -> Chain:
    robot = load_robot(name)
    return RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)


def test_bundled_arms_load_with_their_tool_frames():
    names = bundled_robot_names()
    assert {'ur5_like', 'panda_like', 'so101_like', 'snake_20', 'snake_100'} <= set(names)
    ur5 = load_robot('ur5_like')
    panda = load_robot('panda_like')
    so101 = load_robot('so101_like')
    assert (ur5.base_link, ur5.tip_link) == ('base_link', 'tool0')
    # The gripper's finger is deeper than the tool frame; the arm's chain ends at the tool.
    assert (panda.base_link, panda.tip_link) == ('panda_link0', 'panda_hand_tcp')
    # Likewise the SO-101's moving jaw: one joint deeper than the jaw centre.
    assert chain_endpoints(so101.urdf_xml) == ('base_link', 'moving_jaw_link')
    assert (so101.base_link, so101.tip_link) == ('base_link', 'gripper_frame_link')
    assert _chain('ur5_like').num_joints == 6
    assert _chain('panda_like').num_joints == 7
    assert _chain('so101_like').num_joints == 5


def test_chain_endpoints_follow_the_longest_moving_branch():
    assert chain_endpoints(load_robot('snake_20').urdf_xml) == ('base_link', 'tip')
    assert chain_endpoints(load_robot('ur5_like').urdf_xml) == ('base_link', 'tool0')


def test_chain_endpoints_refuse_broken_descriptions():
    with pytest.raises(RobotModelError, match='malformed URDF XML'):
        chain_endpoints('<robot name="x"><link name="a"></robot>')
    two_roots = '<robot name="x"><link name="a"/><link name="b"/></robot>'
    with pytest.raises(RobotModelError, match="exactly one root link.*found 2: 'a', 'b'"):
        chain_endpoints(two_roots)
    # A leaf below a loop of joints: its walk to the root must end, with an error.
    cyclic = ('<robot name="x"><link name="r"/><link name="b"/><link name="c"/><link name="d"/>'
              + ''.join('<joint name="%s" type="revolute"><parent link="%s"/><child link="%s"/>'
                        '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
                        'velocity="1"/></joint>' % joint
                        for joint in (('j1', 'b', 'c'), ('j2', 'c', 'b'), ('j3', 'c', 'd')))
              + '</robot>')
    with pytest.raises(RobotModelError, match='cycle'):
        chain_endpoints(cyclic)
    rigid = ('<robot name="x"><link name="a"/><link name="b"/><joint name="j" type="fixed">'
             '<parent link="a"/><child link="b"/></joint></robot>')
    with pytest.raises(RobotModelError, match='no chain with a moving joint'):
        chain_endpoints(rigid)


def test_generated_snake_matches_the_bundled_one():
    bundled = _chain('snake_20')
    generated_robot = snake_robot(20)
    generated = RobotModel.from_urdf(generated_robot.urdf_xml).chain(
        generated_robot.base_link, generated_robot.tip_link)
    assert generated.joint_names == bundled.joint_names
    np.testing.assert_allclose(generated.lower, bundled.lower)
    np.testing.assert_allclose(generated.upper, bundled.upper)
    rng = np.random.default_rng(0)
    for _ in range(20):
        q = bundled.random_configuration(rng)
        np.testing.assert_allclose(generated.fk(q), bundled.fk(q), atol=1e-12)


def test_generated_snakes_of_other_lengths():
    robot = load_robot('snake_37')
    assert robot.source == 'generated'
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    assert chain.num_joints == 37
    stretched = chain.fk(np.zeros(37))[:3, 3]
    # Between the bundled snakes' reaches: 2 m at 20 joints and 3 m at 100.
    assert 2.0 < stretched[0] < 3.0 and np.allclose(stretched[1:], 0.0)
    with pytest.raises(ValueError, match='at least one joint'):
        snake_robot(0)


def test_explicit_chain_and_unknown_names():
    robot = load_robot('panda_like:panda_link0:panda_link7')
    assert (robot.base_link, robot.tip_link) == ('panda_link0', 'panda_link7')
    with pytest.raises(RobotModelError, match='unknown robot'):
        load_robot('no_such_robot')


def test_vendor_robots_resolve_when_installed():
    try:
        importlib.metadata.distribution('example-robot-data')
    except importlib.metadata.PackageNotFoundError:
        pytest.skip('example-robot-data (PyPI) is not installed; it holds the vendor URDFs')
    assert vendor_robot_names() == ['vendor_ur5', 'vendor_panda']
    assert _chain('vendor_ur5').num_joints == 6
    assert _chain('vendor_panda').num_joints == 7
