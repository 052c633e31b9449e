# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Mimic joints: followers are not variables, follow their leaders and bound their limits."""

import math

import numpy as np
import pytest

from ik_solvers.exceptions import RobotModelError
from ik_solvers.kinematics import RobotModel
from urdf_snippets import (
    MIMIC_URDF,
    planar_tip as _planar_tip,
    ry as _ry,
    rz as _rz,
    urdf_joint as _joint,
    urdf_robot as _robot,
)


def test_mimic_followers_are_not_variables_and_follow_their_leader():
    chain = RobotModel.from_urdf(MIMIC_URDF).chain('base', 'tip')
    assert chain.joint_names == ('leader',)
    assert chain.num_joints == 1
    assert chain.velocity_limits.tolist() == [3.0]
    for leader in (-1.0, 0.0, 0.6):
        follower = 2 * leader + 0.1
        second = -follower  # mimics of mimics compose
        np.testing.assert_allclose(chain.fk([leader])[:3, 3],
                                   _planar_tip([leader, follower, second]), atol=1e-14)
        # d tip / d leader through all three joints; z rows of rotation sum to 1 + 2 - 2.
        jacobian = chain.jacobian([leader])
        assert jacobian.shape == (6, 1)
        step = 1e-6
        expected = (_planar_tip([leader + step, 2 * (leader + step) + 0.1,
                                 -(2 * (leader + step) + 0.1)])
                    - _planar_tip([leader - step, 2 * (leader - step) + 0.1,
                                   -(2 * (leader - step) + 0.1)])) / (2 * step)
        np.testing.assert_allclose(jacobian[:3, 0], expected, atol=1e-8)
        np.testing.assert_allclose(jacobian[3:, 0], [0, 0, 1.0], atol=1e-14)


def test_mimic_follower_whose_leader_is_outside_the_chain_makes_the_leader_a_variable():
    model = RobotModel.from_urdf(MIMIC_URDF)
    # From 'a', the leader is above the base: it becomes the chain's one variable.
    chain = model.chain('a', 'tip')
    assert chain.joint_names == ('leader',)
    for leader in (-1.0, 0.0, 0.6):
        follower = 2 * leader + 0.1
        expected = np.array([1.0, 0.0, 0.0]) + _planar_tip([follower, -follower])
        np.testing.assert_allclose(chain.fk([leader])[:3, 3], expected, atol=1e-14)
        # The variable drives the follower at twice its rate, the second joint at minus that.
        step = 1e-6
        numeric = (chain.fk([leader + step])[:3, 3] - chain.fk([leader - step])[:3, 3]) / (
            2 * step)
        np.testing.assert_allclose(chain.jacobian([leader])[:3, 0], numeric, atol=1e-8)
        np.testing.assert_allclose(
            chain.fk([leader]), model.transform('a', 'tip', {'leader': leader}), atol=1e-14)
    # A follower on a sibling branch of its leader: the leader joins the chain's variables.
    sibling = model.chain('base', 'copy_link')
    assert sibling.joint_names == ('side', 'leader')
    for side, leader in ((0.3, -0.4), (-1.0, 0.9)):
        np.testing.assert_allclose(
            sibling.fk([side, leader]),
            model.transform('base', 'copy_link', {'side': side, 'leader': leader}), atol=1e-14)
        np.testing.assert_allclose(sibling.fk([side, leader])[:3, :3], _ry(side) @ _rz(leader),
                                   atol=1e-14)
    # The follower's limits bound its leader here too: 'follower' allows [-1, 1] only.
    np.testing.assert_allclose((chain.lower[0], chain.upper[0]), (-0.55, 0.45))


def test_mimic_of_an_unknown_joint_moves_on_its_own_and_a_cycle_is_refused():
    unknown = MIMIC_URDF.replace('<mimic joint="leader" multiplier="2"',
                                 '<mimic joint="leadr" multiplier="2"')
    model = RobotModel.from_urdf(unknown)
    # The misspelt leader is named, with the close names, and the joint becomes a variable.
    assert any("mimics joint 'leadr'" in message and "'leader'" in message
               for message in model.parser_messages), model.parser_messages
    mimicking = RobotModel.from_urdf(MIMIC_URDF).chain('base', 'tip')
    independent = model.chain('base', 'tip')
    assert independent.num_joints == mimicking.num_joints + 1
    cycle = MIMIC_URDF.replace(
        'limit lower="-2" upper="2" effort="1" velocity="3"/>',
        'limit lower="-2" upper="2" effort="1" velocity="3"/><mimic joint="second"/>', 1)
    with pytest.raises(RobotModelError, match='cycle'):
        RobotModel.from_urdf(cycle).chain('base', 'tip')


def _gripper(*, follower_limit, multiplier, offset='0', leader_type='revolute'):
    return _robot(
        _joint('leader', leader_type, 'base', 'a', axis='0 0 1',
               limit='<limit lower="-2.5" upper="2.5" effort="1" velocity="1"/>'),
        _joint('follower', 'revolute', 'a', 'b', xyz='1 0 0', axis='0 0 1',
               limit='<limit lower="%s" upper="%s" effort="1" velocity="1"/>'
               % follower_limit,
               extra='<mimic joint="leader" multiplier="%s" offset="%s"/>'
               % (multiplier, offset)),
        _joint('tool', 'fixed', 'b', 'tip', xyz='1 0 0'))


@pytest.mark.parametrize('multiplier, offset, expected', [
    ('0.8', '0', (-0.25, 0.25)),
    ('-0.8', '0.1', (-0.125, 0.375)),  # a negative multiplier swaps the ends
    ('0.05', '0', (-2.5, 2.5)),  # the leader's own limits are the tighter ones
])
def test_mimic_follower_limits_bound_the_leader(multiplier, offset, expected):
    chain = RobotModel.from_urdf(_gripper(follower_limit=('-0.2', '0.2'), multiplier=multiplier,
                                          offset=offset)).chain('base', 'tip')
    np.testing.assert_allclose((chain.lower[0], chain.upper[0]), expected, atol=1e-12)
    # 2 rad on the leader would put the follower outside its +-0.2 rad.
    assert chain.within_limits([2.0]) == (expected[1] >= 2.0)
    assert chain.within_limits(chain.clip([2.0]))
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = chain.random_configuration(rng)
        follower = float(multiplier) * q[0] + float(offset)
        assert -0.2 - 1e-12 <= follower <= 0.2 + 1e-12


def test_a_limited_follower_bounds_a_continuous_leader():
    chain = RobotModel.from_urdf(_gripper(follower_limit=('-0.2', '0.4'), multiplier='2',
                                          leader_type='continuous')).chain('base', 'tip')
    np.testing.assert_allclose((chain.lower[0], chain.upper[0]), (-0.1, 0.2))
    assert not chain.is_continuous[0]
    assert not chain.within_limits([math.pi])


def test_mimic_follower_whose_limits_no_leader_value_can_keep_is_refused():
    unreachable = _gripper(follower_limit=('3', '4'), multiplier='1')
    with pytest.raises(RobotModelError, match="'follower' mimics joint 'leader'.*'leader' in"):
        RobotModel.from_urdf(unreachable).chain('base', 'tip')
    pinned_outside = _gripper(follower_limit=('-0.2', '0.2'), multiplier='0', offset='0.5')
    with pytest.raises(RobotModelError, match="'follower'.*multiplier 0.*0.5"):
        RobotModel.from_urdf(pinned_outside).chain('base', 'tip')
    # Pinned inside its limits, the follower leaves the leader its own range.
    pinned_inside = _gripper(follower_limit=('-0.2', '0.2'), multiplier='0', offset='0.1')
    chain = RobotModel.from_urdf(pinned_inside).chain('base', 'tip')
    assert (chain.lower[0], chain.upper[0]) == (-2.5, 2.5)


def test_transform_lets_mimic_joints_follow_their_leaders():
    model = RobotModel.from_urdf(MIMIC_URDF)
    pose = model.transform('base', 'tip', {'leader': 0.6, 'follower': 9.0})
    np.testing.assert_allclose(pose[:3, 3], _planar_tip([0.6, 1.3, -1.3]), atol=1e-14)
