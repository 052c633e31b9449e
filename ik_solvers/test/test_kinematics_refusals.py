# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The model's refusals: every malformed description or chain request names its problem."""

import pytest

from ik_solvers.exceptions import RobotModelError
from ik_solvers.kinematics import RobotModel
from urdf_snippets import urdf_joint as _joint, urdf_robot as _robot


ARM_URDF = _robot(
    _joint('shoulder', 'revolute', 'base', 'upper_arm', axis='0 0 1'),
    _joint('elbow', 'revolute', 'upper_arm', 'forearm', xyz='1 0 0', axis='0 1 0'),
    _joint('tool', 'fixed', 'forearm', 'tool0', xyz='1 0 0'),
    _joint('camera_mount', 'fixed', 'base', 'camera'),
)


def test_unknown_base_link_is_named_with_suggestions():
    with pytest.raises(RobotModelError) as raised:
        RobotModel.from_urdf(ARM_URDF).chain('bse', 'tool0')
    message = str(raised.value)
    assert "unknown base link 'bse'" in message
    assert "did you mean 'base'" in message
    assert "5 available: 'base', 'upper_arm', 'forearm', 'tool0', 'camera'" in message


def test_unknown_tip_link_is_named_with_suggestions():
    with pytest.raises(RobotModelError) as raised:
        RobotModel.from_urdf(ARM_URDF).chain('base', 'tool_0')
    message = str(raised.value)
    assert "unknown tip link 'tool_0'" in message
    assert "did you mean 'tool0'" in message
    assert "'forearm'" in message


def test_long_link_lists_are_cut_short():
    joints = [_joint('j%d' % i, 'revolute', 'base' if i == 0 else 'l%d' % (i - 1), 'l%d' % i)
              for i in range(50)]
    with pytest.raises(RobotModelError) as raised:
        RobotModel.from_urdf(_robot(*joints)).chain('base', 'nowhere')
    message = str(raised.value)
    assert '51 available' in message and '(21 more)' in message
    assert "'l48'" not in message


def test_base_that_is_not_an_ancestor_of_the_tip_is_refused():
    with pytest.raises(RobotModelError) as raised:
        RobotModel.from_urdf(ARM_URDF).chain('camera', 'tool0')
    message = str(raised.value)
    assert "base link 'camera' is not an ancestor of tip link 'tool0'" in message
    assert "'base' -> 'upper_arm' -> 'forearm' -> 'tool0'" in message
    with pytest.raises(RobotModelError, match="'tool0' is not an ancestor of tip link 'base'"):
        RobotModel.from_urdf(ARM_URDF).chain('tool0', 'base')


def test_chain_without_moving_joints_is_refused():
    with pytest.raises(RobotModelError) as raised:
        RobotModel.from_urdf(ARM_URDF).chain('forearm', 'tool0')
    message = str(raised.value)
    assert "from 'forearm' to 'tool0' has no moving joint" in message
    assert "'tool' (fixed)" in message
    with pytest.raises(RobotModelError, match='base and tip are the same link'):
        RobotModel.from_urdf(ARM_URDF).chain('base', 'base')


@pytest.mark.parametrize('joint_type', ['planar', 'floating'])
def test_planar_or_floating_joint_in_the_chain_is_refused(joint_type):
    urdf = _robot(_joint('slider', joint_type, 'base', 'carriage'),
                  _joint('j', 'revolute', 'carriage', 'a', axis='0 0 1'))
    with pytest.raises(RobotModelError) as raised:
        RobotModel.from_urdf(urdf).chain('base', 'a')
    message = str(raised.value)
    assert "joint 'slider' (type %s)" % joint_type in message
    assert "from 'base' to 'a'" in message
    # Outside the chain it does no harm.
    assert RobotModel.from_urdf(urdf).chain('carriage', 'a').joint_names == ('j',)


@pytest.mark.parametrize('text, expected', [
    ('<robot name="r"><link name="a"></robot>', r'malformed URDF XML: mismatched tag: line 1'),
    ('<robot name="r"><link name="a"/>', 'malformed URDF XML: no element found'),
    ('', 'the URDF text is empty'),
    ('<model name="r"/>', r'root element is <model>, expected <robot>'),
    ('<robot><link name="a"/></robot>', 'the <robot> element has no name attribute'),
    ('<robot name="r"><link name="a"/><joint name="j" type="hinge"><parent link="a"/>'
     '<child link="b"/></joint><link name="b"/></robot>', "joint 'j' has unknown type 'hinge'"),
    ('<robot name="r"><link name="a"/><joint name="j" type="fixed"><parent link="a"/>'
     '<child link="c"/></joint></robot>', "joint 'j' names child link 'c', which is not"),
    ('<robot name="r"><link name="a"/><link name="b"/></robot>',
     "exactly one root link.*found 2: 'a', 'b'"),
])
def test_malformed_descriptions_raise_robot_model_error_naming_the_problem(text, expected):
    with pytest.raises(RobotModelError, match=expected):
        RobotModel.from_urdf(text)


def test_non_text_input_is_refused():
    with pytest.raises(RobotModelError, match='XML text'):
        RobotModel.from_urdf(None)


def test_zero_axis_is_refused_where_it_is_used():
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 0'),
                  _joint('k', 'revolute', 'base', 'b', axis='0 0 1'))
    with pytest.raises(RobotModelError, match="joint 'j' .*zero <axis>"):
        RobotModel.from_urdf(urdf).chain('base', 'a')
    assert RobotModel.from_urdf(urdf).chain('base', 'b').num_joints == 1


def test_unusable_limits_are_refused():
    inverted = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 1',
                             limit='<limit lower="1" upper="-1" effort="1" velocity="1"/>'))
    with pytest.raises(RobotModelError, match="joint 'j' has unusable limits"):
        RobotModel.from_urdf(inverted).chain('base', 'a')
    unbounded_slider = _robot(_joint('s', 'prismatic', 'base', 'a', axis='0 0 1', limit=''))
    with pytest.raises(RobotModelError, match="joint 's' is prismatic but has no <limit>"):
        RobotModel.from_urdf(unbounded_slider).chain('base', 'a')
