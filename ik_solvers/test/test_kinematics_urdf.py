# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""URDF corner cases: joint types, conventions, the model, and every error message."""

import math
from pathlib import Path

from conftest import CountedName
import numpy as np
import pytest

from ik_solvers.exceptions import InvalidSeedError, RobotModelError
from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.joint import JointDescription
from urdf_snippets import (
    MIMIC_URDF,
    planar_tip as _planar_tip,
    rx as _rx,
    ry as _ry,
    rz as _rz,
    urdf_joint as _joint,
    urdf_robot as _robot,
)

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'


def test_rpy_is_fixed_axis_roll_then_pitch_then_yaw():
    urdf = _robot(_joint('mount', 'fixed', 'base', 'a', xyz='1 2 3', rpy='%r 0 %r'
                         % (math.pi / 2, math.pi / 2)),
                  _joint('j', 'revolute', 'a', 'b', axis='0 0 1'))
    pose = RobotModel.from_urdf(urdf).chain('base', 'b').fk([0.0])
    # Hand-computed: Rz(90) Rx(90) sends x to y, y to z and z to x.
    np.testing.assert_allclose(pose[:3, :3], [[0, 0, 1], [1, 0, 0], [0, 1, 0]], atol=1e-15)
    np.testing.assert_allclose(pose[:3, 3], [1, 2, 3])

    roll, pitch, yaw = 0.3, -0.5, 1.2
    urdf = _robot(_joint('mount', 'fixed', 'base', 'a', rpy='%r %r %r' % (roll, pitch, yaw)),
                  _joint('j', 'revolute', 'a', 'b', axis='0 0 1'))
    pose = RobotModel.from_urdf(urdf).chain('base', 'b').fk([0.0])
    np.testing.assert_allclose(pose[:3, :3], _rz(yaw) @ _ry(pitch) @ _rx(roll), atol=1e-15)


def test_revolute_joint_turns_about_its_axis_through_its_origin():
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', xyz='1 0 0', axis='0 0 1'),
                  _joint('tool', 'fixed', 'a', 'tip', xyz='0.5 0 0'))
    pose = RobotModel.from_urdf(urdf).chain('base', 'tip').fk([math.pi / 2])
    np.testing.assert_allclose(pose[:3, 3], [1.0, 0.5, 0.0], atol=1e-15)
    np.testing.assert_allclose(pose[:3, :3], _rz(math.pi / 2), atol=1e-15)


def test_prismatic_joint_slides_along_its_axis():
    urdf = _robot(_joint('lift', 'prismatic', 'base', 'a', xyz='0 0 0.5', rpy='0 0 %r'
                         % (math.pi / 2), axis='1 0 0',
                         limit='<limit lower="0" upper="0.3" effort="1" velocity="0.1"/>'))
    chain = RobotModel.from_urdf(urdf).chain('base', 'a')
    assert chain.is_prismatic.tolist() == [True]
    np.testing.assert_allclose(chain.fk([0.2])[:3, 3], [0.0, 0.2, 0.5], atol=1e-15)
    np.testing.assert_allclose(chain.jacobian([0.2])[:, 0], [0, 1, 0, 0, 0, 0], atol=1e-15)
    assert (chain.lower[0], chain.upper[0], chain.velocity_limits[0]) == (0.0, 0.3, 0.1)


def test_continuous_joint_has_infinite_limits():
    urdf = _robot(_joint('wheel', 'continuous', 'base', 'a', axis='0 1 0',
                         limit='<limit effort="1" velocity="4"/>'))
    chain = RobotModel.from_urdf(urdf).chain('base', 'a')
    assert chain.is_continuous.tolist() == [True]
    assert chain.lower[0] == -math.inf and chain.upper[0] == math.inf
    assert chain.velocity_limits[0] == 4.0
    assert chain.within_limits([100.0])
    assert chain.clip([100.0])[0] == 100.0
    assert chain.mid_configuration()[0] == 0.0
    samples = [chain.random_configuration(np.random.default_rng(i))[0] for i in range(200)]
    assert all(-math.pi <= value <= math.pi for value in samples)
    np.testing.assert_allclose(chain.fk([2 * math.pi + 0.5]), chain.fk([0.5]), atol=1e-14)


def test_non_unit_axis_is_normalised():
    long_axis = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 5'),
                       _joint('t', 'fixed', 'a', 'tip', xyz='1 0 0'))
    unit_axis = long_axis.replace('0 0 5', '0 0 1')
    long_chain = RobotModel.from_urdf(long_axis).chain('base', 'tip')
    unit_chain = RobotModel.from_urdf(unit_axis).chain('base', 'tip')
    np.testing.assert_allclose(long_chain.axes, [[0, 0, 1]])
    np.testing.assert_allclose(long_chain.fk([0.7]), unit_chain.fk([0.7]), atol=1e-15)
    np.testing.assert_allclose(long_chain.jacobian([0.7]), unit_chain.jacobian([0.7]),
                               atol=1e-15)


def test_missing_axis_defaults_to_x():
    urdf = _robot(_joint('j', 'revolute', 'base', 'a'))
    chain = RobotModel.from_urdf(urdf).chain('base', 'a')
    np.testing.assert_allclose(chain.axes, [[1, 0, 0]])
    np.testing.assert_allclose(chain.fk([0.4])[:3, :3], _rx(0.4), atol=1e-15)


def test_fixed_tool_frames_after_the_last_moving_joint():
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 1'),
                  _joint('flange', 'fixed', 'a', 'flange', xyz='0.4 0 0', rpy='0 1.0 0'),
                  _joint('tcp', 'fixed', 'flange', 'tcp', xyz='0 0 0.1', rpy='0.2 0 0'))
    model = RobotModel.from_urdf(urdf)
    to_joint = model.chain('base', 'a')
    to_tcp = model.chain('base', 'tcp')
    assert to_tcp.tip_link == 'tcp' and to_tcp.joint_names == ('j',)
    tool = model.transform('a', 'tcp', {})
    for angle in (-0.8, 0.0, 0.9):
        np.testing.assert_allclose(to_tcp.fk([angle]), to_joint.fk([angle]) @ tool, atol=1e-15)
    # The tool's rotation follows the hand-written origins.
    np.testing.assert_allclose(tool[:3, :3], _ry(1.0) @ _rx(0.2), atol=1e-15)
    np.testing.assert_allclose(tool[:3, 3], [0.4, 0, 0] + _ry(1.0) @ [0, 0, 0.1], atol=1e-15)


def test_fixed_joints_before_the_first_moving_joint_are_folded_in():
    urdf = _robot(_joint('mount', 'fixed', 'base', 'plate', xyz='0 0 1', rpy='0 0 0.5'),
                  _joint('j', 'revolute', 'plate', 'a', axis='1 0 0'))
    chain = RobotModel.from_urdf(urdf).chain('base', 'a')
    pose = chain.fk([0.3])
    np.testing.assert_allclose(pose[:3, :3], _rz(0.5) @ _rx(0.3), atol=1e-15)
    np.testing.assert_allclose(pose[:3, 3], [0, 0, 1])
    frames, _ = chain.joint_frames([0.3])
    np.testing.assert_allclose(frames[0], pose, atol=1e-15)


def test_root_link_with_inertia_is_accepted():
    inertial = ('<inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="4.0"/>'
                '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>')
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 1'),
                  _joint('t', 'fixed', 'a', 'tip', xyz='1 0 0'), root_inertial=inertial)
    assert '<mass value="4.0"/>' in urdf
    chain = RobotModel.from_urdf(urdf).chain('base', 'tip')
    np.testing.assert_allclose(chain.fk([math.pi])[:3, 3], [-1, 0, 0], atol=1e-15)


@pytest.mark.parametrize('joint_type', ['revolute', 'prismatic'])
def test_a_revolute_or_prismatic_joint_without_limit_is_refused_like_urdfdom_does(joint_type):
    # Even outside any chain: robot_state_publisher refuses the whole file.
    urdf = _robot(_joint('arm', 'revolute', 'base', 'a', axis='0 0 1'),
                  _joint('j', joint_type, 'base', 'b', axis='0 0 1', limit=''))
    with pytest.raises(RobotModelError, match="joint 'j' is %s but has no <limit>" % joint_type):
        RobotModel.from_urdf(urdf)


def test_a_continuous_joint_without_limit_gets_the_default_velocity():
    urdf = _robot(_joint('wheel', 'continuous', 'base', 'a', axis='0 0 1', limit=''))
    assert RobotModel.from_urdf(urdf).chain('base', 'a').velocity_limits[0] == 1.0


@pytest.mark.parametrize('attribute', ['velocity', 'effort'])
@pytest.mark.parametrize('value, problem', [
    ('inf', 'must be finite'), ('nan', 'must be finite'), ('1e999', 'must be finite'),
    ('fast', 'must be a number'), ('1 ', 'must be a number'),
])
def test_a_limit_that_is_not_a_finite_number_is_refused_naming_it(attribute, value, problem):
    values = {'velocity': '1', 'effort': '1', attribute: value}
    limit = '<limit lower="-1" upper="1" effort="%(effort)s" velocity="%(velocity)s"/>' % values
    for joint_type in ('revolute', 'continuous', 'prismatic'):
        urdf = _robot(_joint('j', joint_type, 'base', 'a', axis='0 0 1', limit=limit))
        with pytest.raises(RobotModelError) as raised:
            RobotModel.from_urdf(urdf)
        message = str(raised.value)
        assert "joint 'j'" in message and '%s="%s"' % (attribute, value) in message, message
        assert problem in message, message


@pytest.mark.parametrize('value', ['0', '-1', '0.0'])
def test_zero_or_negative_effort_and_velocity_are_accepted_as_urdfdom_accepts_them(value):
    limit = '<limit lower="-1" upper="1" effort="%s" velocity="%s"/>' % (value, value)
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 1', limit=limit),
                  _joint('k', 'revolute', 'a', 'b', axis='0 0 1', xyz='1 0 0',
                         limit='<limit lower="-1" upper="1" effort="%s" velocity="2"/>' % value))
    chain = RobotModel.from_urdf(urdf).chain('base', 'b')
    # No usable velocity limit: timed with the default, and named for the node's warning.
    assert chain.velocity_limits.tolist() == [1.0, 2.0]
    assert chain.joints_without_velocity_limit == ('j',)
    np.testing.assert_allclose(chain.fk([0.5, 0.0])[:3, 3], [math.cos(0.5), math.sin(0.5), 0])


@pytest.mark.parametrize('attribute', ['velocity', 'effort'])
def test_a_limit_without_effort_or_velocity_is_refused_naming_it(attribute):
    limit = '<limit lower="-1" upper="1" %s="1"/>' % (
        'effort' if attribute == 'velocity' else 'velocity')
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 1', limit=limit))
    with pytest.raises(RobotModelError, match="joint 'j': <limit> has no %s" % attribute):
        RobotModel.from_urdf(urdf)


@pytest.mark.parametrize('fields, expected', [
    ({'rpy': '0 inf 0'}, "joint 'j': <origin rpy=\"0 inf 0\">: rpy must be finite"),
    ({'xyz': '0 0 nan'}, "joint 'j': <origin xyz=\"0 0 nan\">: xyz must be finite"),
    ({'axis': '0 0'}, "joint 'j': <axis xyz=\"0 0\">: xyz must hold 3 numbers"),
    ({'limit': '<limit lower="low" upper="1" effort="1" velocity="1"/>'},
     "joint 'j': <limit lower=\"low\">: lower must be a number"),
])
def test_joint_numbers_that_are_not_finite_name_the_joint_and_attribute(fields, expected):
    fields.setdefault('axis', '0 0 1')
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', **fields))
    with pytest.raises(RobotModelError) as raised:
        RobotModel.from_urdf(urdf)
    assert str(raised.value) == expected


def test_link_contents_urdfdom_cannot_read_are_tolerated_and_end_its_collisions():
    # urdfdom ignores what goes wrong inside a <link>: the description loads, and the link
    # keeps only the collisions read before the problem (none, as the inertial comes first).
    inertial = ('<inertial><mass value="inf"/>'
                '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>'
                '<collision><geometry><sphere radius="0.1"/></geometry></collision>')
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 1'), root_inertial=inertial)
    model = RobotModel.from_urdf(urdf)
    assert model.collisions('base') == ()
    assert any("link 'base': <mass value=\"inf\">" in message
               for message in model.parser_messages), model.parser_messages
    np.testing.assert_allclose(model.chain('base', 'a').fk([0.3])[:3, :3], _rz(0.3),
                               atol=1e-15)


def _line_of_links(count: int, name=str):
    links = [name('l%d' % index) for index in range(count + 1)]
    joints = [JointDescription(name='j%d' % index, joint_type='fixed', parent=links[index],
                               child=links[index + 1], origin=np.eye(4), axis=np.zeros(3))
              for index in range(count)]
    return links, joints


def test_a_deep_tree_is_checked_in_linear_time():
    # 20,000 links in one line: no recursion limit, no walk that gives up on depth.
    links, joints = _line_of_links(20_000)
    assert RobotModel('deep', links, joints).root_link == 'l0'
    # Work counted in hashes and comparisons of link names, not seconds: walking up from
    # every link would take about 2,000 per link here, one walk down takes a few.
    links, joints = _line_of_links(2_000, CountedName)
    CountedName.operations = 0
    model = RobotModel('deep', links, joints)
    assert model.root_link == 'l0'
    assert 2_000 <= CountedName.operations <= 50 * 2_000, CountedName.operations
    # A loop of links hanging nowhere is still found.
    looped = joints + [
        JointDescription(name='x', joint_type='fixed', parent='c', child='d', origin=np.eye(4),
                         axis=np.zeros(3)),
        JointDescription(name='y', joint_type='fixed', parent='d', child='c', origin=np.eye(4),
                         axis=np.zeros(3))]
    with pytest.raises(RobotModelError, match="above link 'c' form a cycle"):
        RobotModel('looped', links + ['c', 'd'], looped)


# RobotModel --------------------------------------------------------------------------------

def test_model_lists_links_joints_and_root():
    model = RobotModel.from_urdf(MIMIC_URDF)
    assert model.root_link == 'base'
    assert set(model.link_names) == {'base', 'a', 'b', 'c', 'tip', 'side_link', 'copy_link'}
    assert model.joint_names == ('leader', 'follower', 'second', 'tool', 'side', 'copy')


def test_transform_across_moving_joints_matches_composed_chains():
    model = RobotModel.from_urdf((URDF_DIR / 'panda_like.urdf').read_text())
    to_hand = model.chain('panda_link0', 'panda_hand_tcp')
    to_link3 = model.chain('panda_link0', 'panda_link3')
    rng = np.random.default_rng(4)
    for _ in range(20):
        q = to_hand.random_configuration(rng)
        positions = dict(zip(to_hand.joint_names, q))
        expected = np.linalg.inv(to_link3.fk(q[:3])) @ to_hand.fk(q)
        np.testing.assert_allclose(model.transform('panda_link3', 'panda_hand_tcp', positions),
                                   expected, atol=1e-12)
        np.testing.assert_allclose(model.transform('panda_hand_tcp', 'panda_link3', positions),
                                   np.linalg.inv(expected), atol=1e-12)
        # Across the root: from the left finger to link 5, both below the base.
        left = model.transform('panda_link0', 'panda_leftfinger', positions)
        link5 = model.transform('panda_link0', 'panda_link5', positions)
        np.testing.assert_allclose(model.transform('panda_leftfinger', 'panda_link5', positions),
                                   np.linalg.inv(left) @ link5, atol=1e-12)
    np.testing.assert_allclose(model.transform('panda_link4', 'panda_link4', {}), np.eye(4))


def test_transform_counts_missing_joints_as_zero_and_ignores_unknown_names():
    model = RobotModel.from_urdf(MIMIC_URDF)
    np.testing.assert_allclose(model.transform('base', 'tip', {'other_robot_joint': 3.0}),
                               model.transform('base', 'tip', {'leader': 0.0}), atol=1e-15)
    np.testing.assert_allclose(model.transform('base', 'tip', {})[:3, 3],
                               _planar_tip([0.0, 0.1, -0.1]), atol=1e-15)


def test_transform_refuses_bad_positions_and_unknown_frames():
    model = RobotModel.from_urdf(MIMIC_URDF)
    with pytest.raises(InvalidSeedError, match="'leader'"):
        model.transform('base', 'tip', {'leader': float('nan')})
    with pytest.raises(InvalidSeedError, match="'leader'"):
        model.transform('base', 'tip', {'leader': 'fast'})
    with pytest.raises(RobotModelError, match="unknown target frame 'bsae'.*'base'"):
        model.transform('bsae', 'tip', {})
    with pytest.raises(RobotModelError, match="unknown source frame 'tpi'.*'tip'"):
        model.transform('base', 'tpi', {})


def test_unknown_tags_are_collected_not_printed(capfd):
    urdf = _robot(_joint('j', 'revolute', 'base', 'a', axis='0 0 1')).replace(
        '</robot>', '<gazebo_like_tag/><ros2_control name="x"/></robot>').replace(
        '<link name="a">', '<link name="a" colour="red">')
    model = RobotModel.from_urdf(urdf)
    captured = capfd.readouterr()
    assert captured.out == '' and captured.err == ''
    assert any('gazebo_like_tag' in message for message in model.parser_messages)
    assert any('colour' in message for message in model.parser_messages)
    assert model.chain('base', 'a').num_joints == 1
