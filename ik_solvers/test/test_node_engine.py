# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The ik_node's engine without ROS: model, joint states, seeds, frames and input errors."""

from pathlib import Path

from ik_solvers import SOLVERS
from ik_solvers.exceptions import InvalidSeedError, RobotModelError
from ik_solvers.kinematics import RobotModel
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.frames import UnknownFrameError
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.engine.pose_math import xyzw_quaternion
import numpy as np
import pytest

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
UR5 = (URDF_DIR / 'ur5_like.urdf').read_text()
PLANAR = (URDF_DIR / 'planar_3link.urdf').read_text()
Q_GOAL = np.array([0.3, -1.0, 1.2, -0.5, 0.4, 0.2])
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5)


@pytest.fixture
def engine():
    engine = IKEngine()
    engine.robot.load_description(UR5, '', 'tool0')
    return engine


def _request(matrix, **fields):
    return IKRequest(position=tuple(matrix[:3, 3]), orientation=tuple(xyzw_quaternion(matrix)),
                     **fields)


def _goal(engine):
    return engine.robot.chain('', 'tool0').fk(Q_GOAL)


def test_no_model_means_no_robot_model():
    outcome = IKEngine().handle(_request(np.eye(4)), SETTINGS)
    assert outcome.error_code == ErrorCode.NO_ROBOT_MODEL
    assert 'robot_description' in outcome.message


@pytest.mark.parametrize('solver', SOLVERS)
def test_every_solver_reaches_a_reachable_target(engine, ur5_oracle, solver):
    engine.robot.joint_states.update(engine.robot.chain('', 'tool0').joint_names, Q_GOAL + 0.2)
    outcome = engine.handle(_request(_goal(engine), solver=solver), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert outcome.solver == solver
    # By the tests' own FK and the URDF limits; the pose reported is that FK's too.
    ur5_oracle.check(outcome.result.q, _goal(engine),
                     position_tolerance=SETTINGS.position_tolerance,
                     orientation_tolerance=SETTINGS.orientation_tolerance)
    assert outcome.reached == pytest.approx(ur5_oracle.fk(outcome.result.q), abs=1e-12)
    assert outcome.command is None  # neither streamed nor executed


def test_target_in_a_link_frame_is_resolved_through_the_description(engine):
    chain = engine.robot.chain('', 'tool0')
    current = Q_GOAL + 0.1
    engine.robot.joint_states.update(chain.joint_names, current)
    model_joints = dict(zip(chain.joint_names, current))
    # Express the goal in shoulder_link, which moves with the first joint.
    base_from_shoulder = RobotModel.from_urdf(UR5).transform('base_link', 'shoulder_link',
                                                             model_joints)
    goal_in_shoulder = np.linalg.inv(base_from_shoulder) @ _goal(engine)
    outcome = engine.handle(_request(goal_in_shoulder, frame_id='shoulder_link'), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert outcome.target == pytest.approx(_goal(engine), abs=1e-9)
    leading_slash = engine.handle(_request(goal_in_shoulder, frame_id='/shoulder_link'), SETTINGS)
    assert leading_slash.target == pytest.approx(_goal(engine), abs=1e-9)


def test_unknown_frame_without_tf_is_reported(engine):
    outcome = engine.handle(_request(_goal(engine), frame_id='map'), SETTINGS)
    assert outcome.error_code == ErrorCode.UNKNOWN_FRAME
    assert "'map'" in outcome.message


def test_external_lookup_resolves_other_frames_and_its_failures_are_unknown_frames():
    shift = np.eye(4)
    shift[0, 3] = 0.05

    def lookup(base_link, frame_id, timeout):
        if frame_id != 'camera':
            raise UnknownFrameError('no transform to %s' % frame_id)
        return shift

    engine = IKEngine(external_lookup=lookup)
    engine.robot.load_description(UR5, '', 'tool0')
    goal_in_camera = np.linalg.inv(shift) @ _goal(engine)
    outcome = engine.handle(_request(goal_in_camera, frame_id='camera'), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert engine.handle(_request(np.eye(4), frame_id='odom'), SETTINGS).error_code == \
        ErrorCode.UNKNOWN_FRAME


def test_a_target_in_a_turned_tf_frame_is_resolved_and_an_unknown_one_named(ur5_oracle):
    # What test_node_tf.py checks over DDS where tf2_ros is installed, without it: the node's
    # tf2 lookup is this callable (ros/tf_lookup.py), asked with the tf_timeout parameter.
    # The camera sits 0.1 m above the base, turned 90 degrees about z, as there.
    base_from_camera = np.array([[0.0, -1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0],
                                 [0.0, 0.0, 1.0, 0.1], [0.0, 0.0, 0.0, 1.0]])
    asked = []

    def lookup(base_link, frame_id, timeout):
        asked.append((base_link, frame_id, timeout))
        if frame_id != 'camera':
            raise UnknownFrameError('no transform from %r to %r within %g s'
                                    % (frame_id, base_link, timeout))
        return base_from_camera

    engine = IKEngine(external_lookup=lookup)
    engine.robot.load_description(UR5, '', 'tool0')
    settings = NodeSettings(tip_link='tool0', timeout=0.5, tf_timeout=0.2)
    goal = _goal(engine)
    outcome = engine.handle(_request(np.linalg.inv(base_from_camera) @ goal, frame_id='camera'),
                            settings)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert outcome.target == pytest.approx(goal, abs=1e-9)
    ur5_oracle.check(outcome.result.q, goal, position_tolerance=settings.position_tolerance,
                     orientation_tolerance=settings.orientation_tolerance)
    assert asked == [('base_link', 'camera', 0.2)]
    unknown = engine.handle(_request(goal, frame_id='nowhere'), settings)
    assert unknown.error_code == ErrorCode.UNKNOWN_FRAME and unknown.result is None
    assert 'nowhere' in unknown.message, unknown.message
    assert asked[-1] == ('base_link', 'nowhere', 0.2)


def test_a_bug_in_a_lookup_is_an_internal_error_not_a_crash():
    def lookup(base_link, frame_id, timeout):
        raise RuntimeError('boom')

    engine = IKEngine(external_lookup=lookup)
    engine.robot.load_description(UR5, '', 'tool0')
    outcome = engine.handle(_request(np.eye(4), frame_id='camera'), SETTINGS)
    assert outcome.error_code == ErrorCode.INTERNAL_ERROR and 'boom' in outcome.message


@pytest.mark.parametrize('position, quaternion', [
    ((float('nan'), 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
    ((0.0, float('inf'), 0.0), (0.0, 0.0, 0.0, 1.0)),
    ((0.3, 0.1, 0.4), (0.0, 0.0, 0.0, 0.0)),
    ((0.3, 0.1, 0.4), (0.0, 0.0, 0.5, 0.5)),
])
def test_invalid_targets(engine, position, quaternion):
    outcome = engine.handle(IKRequest(position=position, orientation=quaternion), SETTINGS)
    assert outcome.error_code == ErrorCode.INVALID_TARGET
    assert outcome.result is None


@pytest.mark.parametrize('fields, code', [
    ({'solver': 'simulated_annealing'}, ErrorCode.UNKNOWN_SOLVER),
    ({'timeout': -1.0}, ErrorCode.INVALID_TIMEOUT),
    ({'timeout': 3600.0}, ErrorCode.INVALID_TIMEOUT),
    ({'timeout': float('inf')}, ErrorCode.INVALID_TIMEOUT),
    ({'position_tolerance': -1e-3}, ErrorCode.INVALID_TARGET),
    ({'orientation_tolerance': float('nan')}, ErrorCode.INVALID_TARGET),
    ({'seed_positions': [0.0, 0.0]}, ErrorCode.INVALID_SEED),
    ({'seed_names': ['shoulder_pan_joint'], 'seed_positions': [0.0, 1.0]},
     ErrorCode.INVALID_SEED),
    ({'seed_names': ['gripper_joint'], 'seed_positions': [0.0]}, ErrorCode.INVALID_SEED),
    ({'seed_names': ['shoulder_pan_joint'], 'seed_positions': [float('nan')]},
     ErrorCode.INVALID_SEED),
])
def test_bad_requests_get_their_error_code(engine, fields, code):
    outcome = engine.handle(_request(_goal(engine), **fields), SETTINGS)
    assert outcome.error_code == code, outcome.message
    assert outcome.message


def test_unknown_solver_in_the_settings_is_reported(engine):
    outcome = engine.handle(_request(_goal(engine)), NodeSettings(solver='nope'))
    assert outcome.error_code == ErrorCode.UNKNOWN_SOLVER


def test_partial_named_seed_is_completed_from_the_current_configuration(engine):
    outcome = engine.handle(_request(_goal(engine), seed_names=['elbow_joint'],
                                     seed_positions=[1.1]), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message


def test_request_tolerances_and_position_only_are_honoured(engine):
    far_orientation = _goal(engine).copy()
    far_orientation[:3, :3] = np.diag([1.0, -1.0, -1.0]) @ far_orientation[:3, :3]
    loose = engine.handle(_request(far_orientation, position_only=True,
                                   position_tolerance=1e-3), SETTINGS)
    assert loose.error_code == ErrorCode.SUCCESS, loose.message
    assert loose.result.position_error <= 1e-3


def test_joint_states_seed_and_missing_joints_are_noted(engine):
    chain = engine.robot.chain('', 'tool0')
    engine.robot.joint_states.update(['shoulder_pan_joint', 'gripper'], [0.7, 0.01])
    q, notes = engine.robot.current_configuration(chain)
    assert q[0] == pytest.approx(0.7)
    assert notes and 'elbow_joint' in notes[0]
    outcome = engine.handle(_request(_goal(engine)), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS and outcome.notes


def test_a_bad_joint_state_message_changes_nothing(engine):
    chain = engine.robot.chain('', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL)
    assert engine.robot.joint_states.update(
        chain.joint_names, [float('nan')] * 6) == list(chain.joint_names)
    with pytest.raises(InvalidSeedError):
        engine.robot.joint_states.update(chain.joint_names, [0.0])
    with pytest.raises(InvalidSeedError):
        engine.robot.joint_states.update(['gripper', 'gripper'], [0.0, 0.0])
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(Q_GOAL)


def test_a_nan_on_another_joint_keeps_the_chain_joints_updating(engine):
    chain = engine.robot.chain('', 'tool0')
    names = list(chain.joint_names) + ['gripper']
    dropped = engine.robot.joint_states.update(names, list(Q_GOAL + 0.1) + [float('nan')])
    assert dropped == ['gripper']
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(Q_GOAL + 0.1)
    positions = list(Q_GOAL + 0.2)
    positions[2] = float('inf')
    assert engine.robot.joint_states.update(chain.joint_names, positions) == [chain.joint_names[2]]
    expected = Q_GOAL + 0.2
    expected[2] = Q_GOAL[2] + 0.1
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(expected)


def test_bad_descriptions_keep_the_previous_model(engine):
    with pytest.raises(RobotModelError):
        engine.robot.load_description('<robot name="broken"><link', '', 'tool0')
    with pytest.raises(RobotModelError):
        engine.robot.load_description(PLANAR, '', 'tool0')
    assert engine.robot.chain('', 'tool0').num_joints == 6
    assert engine.handle(_request(_goal(engine)), SETTINGS).success


def test_a_refused_description_is_adopted_when_the_links_change_to_match(engine):
    with pytest.raises(RobotModelError):
        engine.robot.load_description(PLANAR, '', 'tool0')
    engine.robot.check_links('', 'tip')
    # Checking alone changes nothing: the parameter change may still be refused.
    assert engine.robot.chain('', 'tool0').num_joints == 6
    engine.robot.adopt_links('', 'no_such_link')
    assert engine.robot.chain('', 'tool0').num_joints == 6
    engine.robot.adopt_links('', 'tip')
    chain = engine.robot.chain('', 'tip')
    assert chain.joint_names == ('joint_1', 'joint_2', 'joint_3')
    with pytest.raises(RobotModelError):
        engine.robot.check_links('', 'no_such_link')
    with pytest.raises(RobotModelError):
        engine.robot.check_links('', '')
    assert IKEngine().robot.check_links('', 'anything') is None


# Hostile sizes and stale joint states --------------------------------------------------------

def test_a_joint_states_message_far_larger_than_the_robot_is_refused_by_its_size(engine):
    chain = engine.robot.chain('', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL)
    joints = len(RobotModel.from_urdf(UR5).joint_names)
    limit = 10 * joints + 100
    names = ['joint_%d' % index for index in range(20_000)]
    names[-1] = names[0]
    with pytest.raises(InvalidSeedError, match='20000 names .* at most %d' % limit):
        engine.robot.joint_states.update(names, [0.0] * len(names))
    # Up to the bound, a message with other robots' joints is fine.
    others = list(chain.joint_names) + ['other_%d' % index for index in range(limit - 6)]
    engine.robot.joint_states.update(others, list(Q_GOAL + 0.1) + [0.0] * (limit - 6))
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(Q_GOAL + 0.1)


def test_without_a_description_joint_states_are_bounded_too():
    engine = IKEngine()
    with pytest.raises(InvalidSeedError, match='1001 names .* at most 1000 .*no robot '
                       'description'):
        engine.robot.joint_states.update(['j%d' % i for i in range(1001)], [0.0] * 1001)
    # Messages that keep inventing names never grow the store beyond the bound.
    for batch in range(5):
        names = ['b%d_%d' % (batch, i) for i in range(400)]
        engine.robot.joint_states.update(names, [0.0] * 400)
    engine.robot.load_description(UR5, '', 'tool0')
    chain = engine.robot.chain('', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL)
    # Only the description's joints are kept once it is loaded.
    assert set(engine.robot.joint_states.positions()) == set(chain.joint_names)


def test_a_seed_longer_than_the_chain_is_refused_before_its_names_are_read(engine):
    names = ['joint_%d' % index for index in range(20_000)]
    names[-1] = names[0]
    outcome = engine.handle(_request(_goal(engine), seed_names=names,
                                     seed_positions=[0.0] * len(names)), SETTINGS)
    assert outcome.error_code == ErrorCode.INVALID_SEED
    assert 'the seed has 20000 names and 20000 positions; the chain has 6 joints' in \
        outcome.message


@pytest.mark.parametrize('field, code', [('solver', ErrorCode.UNKNOWN_SOLVER),
                                         ('frame_id', ErrorCode.UNKNOWN_FRAME)])
def test_a_huge_name_is_refused_without_being_quoted_whole(engine, field, code):
    outcome = engine.handle(_request(_goal(engine), **{field: 'x' * 100_000}), SETTINGS)
    assert outcome.error_code == code
    assert 'has 100000 characters' in outcome.message and len(outcome.message) < 200
    assert len(outcome.solver) < 200
