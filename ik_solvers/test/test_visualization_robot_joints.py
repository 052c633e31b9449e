# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The joints the simulated executor reports, and their limits, agree with the solvers' chain."""

import math

import pytest

from ik_solvers.exceptions import RobotModelError
from ik_solvers.kinematics import RobotModel
from ik_solvers.visualization.robot_joints import moving_joints

URDF = '''<robot name="mixed">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <link name="tip"/>
  <joint name="turn" type="revolute"><parent link="base"/><child link="a"/>
    <axis xyz="0 0 1"/><limit lower="-2.5" upper="2" effort="1" velocity="1"/></joint>
  <joint name="wheel" type="continuous"><parent link="a"/><child link="b"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="slide" type="prismatic"><parent link="b"/><child link="c"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/>
    <limit lower="0.1" upper="0.4" effort="1" velocity="1"/></joint>
  <joint name="follower" type="revolute"><parent link="c"/><child link="d"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="turn"/></joint>
  <joint name="flange" type="fixed"><parent link="d"/><child link="tip"/>
    <origin xyz="0.1 0 0"/></joint>
</robot>'''


def test_moving_joints_have_the_limits_the_chain_gives_them():
    joints = moving_joints(URDF)
    assert [joint.name for joint in joints] == ['turn', 'wheel', 'slide']
    chain = RobotModel.from_urdf(URDF).chain('base', 'tip')
    assert list(chain.joint_names) == ['turn', 'wheel', 'slide']
    # The chain may narrow a leader to keep its mimic follower in limits; compare the others.
    for joint, lower, upper in list(zip(joints, chain.lower, chain.upper))[1:]:
        assert (joint.lower, joint.upper) == (lower, upper)
    assert (joints[0].lower, joints[0].upper) == (-2.5, 2.0)
    assert (joints[1].lower, joints[1].upper) == (-math.inf, math.inf)
    assert [joint.rest_position for joint in joints] == pytest.approx([-0.25, 0.0, 0.25])


def test_a_prismatic_joint_without_limits_is_refused_as_by_the_chain():
    urdf = URDF.replace('<limit lower="0.1" upper="0.4" effort="1" velocity="1"/>', '')
    with pytest.raises(RobotModelError, match='slide'):
        moving_joints(urdf)
    with pytest.raises(RobotModelError, match='slide'):
        RobotModel.from_urdf(urdf).chain('base', 'tip')
