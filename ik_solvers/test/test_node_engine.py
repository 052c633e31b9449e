# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The ik_node's decisions without ROS: model, seeds, frames, error codes and commands."""

import math
from pathlib import Path

from ik_solvers import SOLVERS
from ik_solvers.exceptions import InvalidSeedError, RobotModelError
from ik_solvers.kinematics import RobotModel
from ik_solvers.ros.engine import CommandRefusedError, IKEngine, StaleJointStatesError
from ik_solvers.ros.error_codes import ErrorCode
from ik_solvers.ros.frames import UnknownFrameError
from ik_solvers.ros.outcome import IKRequest
from ik_solvers.ros.parameters import NodeSettings
from ik_solvers.ros.pose_math import xyzw_quaternion
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
    engine.load_description(UR5, '', 'tool0')
    return engine


def _request(matrix, **fields):
    return IKRequest(position=tuple(matrix[:3, 3]), orientation=tuple(xyzw_quaternion(matrix)),
                     **fields)


def _goal(engine):
    return engine.chain('', 'tool0').fk(Q_GOAL)


def test_no_model_means_no_robot_model():
    outcome = IKEngine().solve(_request(np.eye(4)), SETTINGS)
    assert outcome.error_code == ErrorCode.NO_ROBOT_MODEL
    assert 'robot_description' in outcome.message


@pytest.mark.parametrize('solver', SOLVERS)
def test_every_solver_reaches_a_reachable_target(engine, solver):
    engine.update_joint_states(engine.chain('', 'tool0').joint_names, Q_GOAL + 0.2)
    outcome = engine.solve(_request(_goal(engine), solver=solver), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert outcome.solver == solver
    reached = outcome.reached
    assert np.linalg.norm(reached[:3, 3] - _goal(engine)[:3, 3]) <= SETTINGS.position_tolerance
    command = engine.plan_command(outcome, SETTINGS)
    assert list(command.positions) == pytest.approx(list(outcome.result.q))
    assert command.duration >= SETTINGS.min_duration


def test_target_in_a_link_frame_is_resolved_through_the_description(engine):
    chain = engine.chain('', 'tool0')
    current = Q_GOAL + 0.1
    engine.update_joint_states(chain.joint_names, current)
    model_joints = dict(zip(chain.joint_names, current))
    # Express the goal in shoulder_link, which moves with the first joint.
    base_from_shoulder = RobotModel.from_urdf(UR5).transform('base_link', 'shoulder_link',
                                                             model_joints)
    goal_in_shoulder = np.linalg.inv(base_from_shoulder) @ _goal(engine)
    outcome = engine.solve(_request(goal_in_shoulder, frame_id='shoulder_link'), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert outcome.target == pytest.approx(_goal(engine), abs=1e-9)
    leading_slash = engine.solve(_request(goal_in_shoulder, frame_id='/shoulder_link'), SETTINGS)
    assert leading_slash.target == pytest.approx(_goal(engine), abs=1e-9)


def test_unknown_frame_without_tf_is_reported(engine):
    outcome = engine.solve(_request(_goal(engine), frame_id='map'), SETTINGS)
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
    engine.load_description(UR5, '', 'tool0')
    goal_in_camera = np.linalg.inv(shift) @ _goal(engine)
    outcome = engine.solve(_request(goal_in_camera, frame_id='camera'), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert engine.solve(_request(np.eye(4), frame_id='odom'), SETTINGS).error_code == \
        ErrorCode.UNKNOWN_FRAME


def test_a_bug_in_a_lookup_is_an_internal_error_not_a_crash():
    def lookup(base_link, frame_id, timeout):
        raise RuntimeError('boom')

    engine = IKEngine(external_lookup=lookup)
    engine.load_description(UR5, '', 'tool0')
    outcome = engine.solve(_request(np.eye(4), frame_id='camera'), SETTINGS)
    assert outcome.error_code == ErrorCode.INTERNAL_ERROR and 'boom' in outcome.message


@pytest.mark.parametrize('position, quaternion', [
    ((float('nan'), 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)),
    ((0.0, float('inf'), 0.0), (0.0, 0.0, 0.0, 1.0)),
    ((0.3, 0.1, 0.4), (0.0, 0.0, 0.0, 0.0)),
    ((0.3, 0.1, 0.4), (0.0, 0.0, 0.5, 0.5)),
])
def test_invalid_targets(engine, position, quaternion):
    outcome = engine.solve(IKRequest(position=position, orientation=quaternion), SETTINGS)
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
    outcome = engine.solve(_request(_goal(engine), **fields), SETTINGS)
    assert outcome.error_code == code, outcome.message
    assert outcome.message


def test_unknown_solver_in_the_settings_is_reported(engine):
    outcome = engine.solve(_request(_goal(engine)), NodeSettings(solver='nope'))
    assert outcome.error_code == ErrorCode.UNKNOWN_SOLVER


def test_partial_named_seed_is_completed_from_the_current_configuration(engine):
    outcome = engine.solve(_request(_goal(engine), seed_names=['elbow_joint'],
                                    seed_positions=[1.1]), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message


def test_request_tolerances_and_position_only_are_honoured(engine):
    far_orientation = _goal(engine).copy()
    far_orientation[:3, :3] = np.diag([1.0, -1.0, -1.0]) @ far_orientation[:3, :3]
    loose = engine.solve(_request(far_orientation, position_only=True,
                                  position_tolerance=1e-3), SETTINGS)
    assert loose.error_code == ErrorCode.SUCCESS, loose.message
    assert loose.result.position_error <= 1e-3


def test_unreachable_target_is_not_a_success_and_cannot_be_commanded(engine):
    far = np.eye(4)
    far[:3, 3] = [5.0, 0.0, 0.0]
    outcome = engine.solve(_request(far, timeout=0.02), SETTINGS)
    assert outcome.error_code in (ErrorCode.NO_SOLUTION, ErrorCode.TIMED_OUT)
    assert outcome.result is not None and not outcome.success
    with pytest.raises(CommandRefusedError):
        engine.plan_command(outcome, SETTINGS)


def test_joint_states_seed_and_missing_joints_are_noted(engine):
    chain = engine.chain('', 'tool0')
    engine.update_joint_states(['shoulder_pan_joint', 'gripper'], [0.7, 0.01])
    q, notes = engine.current_configuration(chain)
    assert q[0] == pytest.approx(0.7)
    assert notes and 'elbow_joint' in notes[0]
    outcome = engine.solve(_request(_goal(engine)), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS and outcome.notes


def test_a_bad_joint_state_message_changes_nothing(engine):
    chain = engine.chain('', 'tool0')
    engine.update_joint_states(chain.joint_names, Q_GOAL)
    assert engine.update_joint_states(
        chain.joint_names, [float('nan')] * 6) == list(chain.joint_names)
    with pytest.raises(InvalidSeedError):
        engine.update_joint_states(chain.joint_names, [0.0])
    with pytest.raises(InvalidSeedError):
        engine.update_joint_states(['gripper', 'gripper'], [0.0, 0.0])
    assert engine.current_configuration(chain)[0] == pytest.approx(Q_GOAL)


def test_a_nan_on_another_joint_keeps_the_chain_joints_updating(engine):
    chain = engine.chain('', 'tool0')
    names = list(chain.joint_names) + ['gripper']
    dropped = engine.update_joint_states(names, list(Q_GOAL + 0.1) + [float('nan')])
    assert dropped == ['gripper']
    assert engine.current_configuration(chain)[0] == pytest.approx(Q_GOAL + 0.1)
    positions = list(Q_GOAL + 0.2)
    positions[2] = float('inf')
    assert engine.update_joint_states(chain.joint_names, positions) == [chain.joint_names[2]]
    expected = Q_GOAL + 0.2
    expected[2] = Q_GOAL[2] + 0.1
    assert engine.current_configuration(chain)[0] == pytest.approx(expected)


def test_last_command_seeds_when_no_joint_states_arrive(engine):
    chain = engine.chain('', 'tool0')
    assert engine.current_configuration(chain)[0] == pytest.approx(chain.mid_configuration())
    outcome = engine.solve(_request(_goal(engine)), SETTINGS)
    engine.plan_command(outcome, SETTINGS)
    assert engine.current_configuration(chain)[0] == pytest.approx(outcome.result.q)
    # A nearby target then starts from the last command: no large jump.
    nearby = _goal(engine).copy()
    nearby[2, 3] += 0.01
    second = engine.solve(_request(nearby), SETTINGS)
    assert second.start == pytest.approx(outcome.result.q)
    assert np.max(np.abs(second.result.q - outcome.result.q)) < 0.5


def test_large_joint_jumps_are_not_commanded(engine):
    chain = engine.chain('', 'tool0')
    engine.update_joint_states(chain.joint_names, Q_GOAL + 0.3)
    outcome = engine.solve(_request(_goal(engine)), SETTINGS)
    assert outcome.success, outcome.message
    strict = NodeSettings(tip_link='tool0', max_joint_jump=0.01)
    with pytest.raises(CommandRefusedError, match='max_joint_jump'):
        engine.plan_command(outcome, strict, streamed=True)
    disabled = NodeSettings(tip_link='tool0', max_joint_jump=0.0)
    assert engine.plan_command(outcome, disabled, streamed=True).positions


def test_a_streamed_jump_from_the_last_command_is_refused_while_the_joint_states_lag(engine):
    # The arm lags 0.3 rad behind the last command on one joint (within the 0.35 rad bound),
    # and the next solution lies 0.3 rad on the other side of the arm: 0.6 rad from the last
    # command. Judged against the lagging joint states alone it would pass.
    chain = engine.chain('', 'tool0')
    settings = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.35)
    first = engine.solve(_request(chain.fk(Q_GOAL), streamed=True), settings)
    assert first.success, first.message
    engine.plan_command(first, NodeSettings(tip_link='tool0', max_joint_jump=0.0),
                        streamed=True)
    lagging = first.result.q.copy()
    lagging[0] -= 0.3
    engine.update_joint_states(chain.joint_names, lagging)
    beyond = first.result.q.copy()
    beyond[0] -= 0.6
    second = engine.solve(_request(chain.fk(beyond), streamed=True), settings)
    assert second.success, second.message
    assert abs(second.result.q[0] - first.result.q[0]) > 0.35
    assert np.max(np.abs(second.result.q - lagging)) <= 0.35
    with pytest.raises(CommandRefusedError, match='shoulder_pan_joint .* the last command'):
        engine.plan_command(second, settings, streamed=True)
    # The same solution asked for once, through the service, is an explicit move.
    assert engine.plan_command(second, settings, streamed=False).positions


def test_a_drag_starts_from_the_last_command_unless_the_robot_moved_away(engine):
    chain = engine.chain('', 'tool0')
    settings = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.35)
    first = engine.solve(_request(chain.fk(Q_GOAL), streamed=True), settings)
    engine.plan_command(first, NodeSettings(tip_link='tool0', max_joint_jump=0.0),
                        streamed=True)
    behind = first.result.q - 0.1
    engine.update_joint_states(chain.joint_names, behind)
    nearby = chain.fk(Q_GOAL + 0.02)
    followed = engine.solve(_request(nearby, streamed=True), settings)
    assert followed.success and followed.start == pytest.approx(behind)
    # Seeded at the last command, the drag stays within a few hundredths of a radian of it.
    assert np.max(np.abs(followed.result.q - first.result.q)) < 0.1
    engine.plan_command(followed, settings, streamed=True)
    # Someone moved the arm far away: the last command no longer holds, the joint states do.
    elsewhere = Q_GOAL + np.array([0.8, 0.0, 0.0, 0.0, 0.0, 0.0])
    engine.update_joint_states(chain.joint_names, elsewhere)
    there = engine.solve(_request(chain.fk(elsewhere + 0.02), streamed=True), settings)
    assert there.success, there.message
    assert engine.plan_command(there, settings, streamed=True).positions


def test_bad_descriptions_keep_the_previous_model(engine):
    with pytest.raises(RobotModelError):
        engine.load_description('<robot name="broken"><link', '', 'tool0')
    with pytest.raises(RobotModelError):
        engine.load_description(PLANAR, '', 'tool0')
    assert engine.chain('', 'tool0').num_joints == 6
    assert engine.solve(_request(_goal(engine)), SETTINGS).success


def test_a_refused_description_is_adopted_when_the_links_change_to_match(engine):
    with pytest.raises(RobotModelError):
        engine.load_description(PLANAR, '', 'tool0')
    engine.check_links('', 'tip')
    # Checking alone changes nothing: the parameter change may still be refused.
    assert engine.chain('', 'tool0').num_joints == 6
    engine.adopt_links('', 'no_such_link')
    assert engine.chain('', 'tool0').num_joints == 6
    engine.adopt_links('', 'tip')
    chain = engine.chain('', 'tip')
    assert chain.joint_names == ('joint_1', 'joint_2', 'joint_3')
    with pytest.raises(RobotModelError):
        engine.check_links('', 'no_such_link')
    with pytest.raises(RobotModelError):
        engine.check_links('', '')
    assert IKEngine().check_links('', 'anything') is None


def test_replacing_the_description_rebuilds_the_chain_and_forgets_old_commands(engine):
    outcome = engine.solve(_request(_goal(engine)), SETTINGS)
    engine.plan_command(outcome, SETTINGS)
    chain = engine.load_description(PLANAR, 'base_link', 'tip')
    assert chain.num_joints == 3
    q, _ = engine.current_configuration(chain)
    assert q == pytest.approx(chain.mid_configuration())
    goal = chain.fk([0.3, 0.4, -0.2])
    planar = NodeSettings(base_link='base_link', tip_link='tip', position_only=True,
                          timeout=0.5)
    assert engine.solve(_request(goal), planar).success
    assert math.isfinite(engine.solve(_request(goal), planar).result.position_error)


def test_continuous_joints_are_commanded_the_short_way_round():
    # The planar arm with a continuous first joint, sitting near +pi.
    urdf = PLANAR.replace('type="revolute"', 'type="continuous"', 1)
    engine = IKEngine()
    chain = engine.load_description(urdf, '', 'tip')
    assert list(chain.is_continuous) == [True, False, False]
    start = np.array([3.0, 0.2, 0.3])
    engine.update_joint_states(chain.joint_names, start)
    settings = NodeSettings(tip_link='tip', max_joint_jump=1.0, velocity_scale=1.0,
                            min_duration=0.01)
    # A goal given one turn away: the solve reports and commands the nearby turn.
    goal = chain.fk(np.array([3.1 + 2 * math.pi, 0.3, 0.2]))
    solved = engine.solve(_request(goal, timeout=0.5), settings)
    assert solved.success, solved.message
    assert abs(solved.result.q[0] - 3.0) <= math.pi
    command = engine.plan_command(solved, settings)
    assert command.positions == pytest.approx(tuple(solved.result.q))
    # Timed for the short way round: well under a turn at 2 rad/s.
    assert command.duration < math.pi / 2.0
    engine.plan_command(solved, settings)


# Hostile sizes and stale joint states --------------------------------------------------------

def test_a_joint_states_message_far_larger_than_the_robot_is_refused_by_its_size(engine):
    chain = engine.chain('', 'tool0')
    engine.update_joint_states(chain.joint_names, Q_GOAL)
    joints = len(RobotModel.from_urdf(UR5).joint_names)
    limit = 10 * joints + 100
    names = ['joint_%d' % index for index in range(20_000)]
    names[-1] = names[0]
    with pytest.raises(InvalidSeedError, match='20000 names .* at most %d' % limit):
        engine.update_joint_states(names, [0.0] * len(names))
    # Up to the bound, a message with other robots' joints is fine.
    others = list(chain.joint_names) + ['other_%d' % index for index in range(limit - 6)]
    engine.update_joint_states(others, list(Q_GOAL + 0.1) + [0.0] * (limit - 6))
    assert engine.current_configuration(chain)[0] == pytest.approx(Q_GOAL + 0.1)


def test_without_a_description_joint_states_are_bounded_too():
    engine = IKEngine()
    with pytest.raises(InvalidSeedError, match='1001 names .* at most 1000 .*no robot '
                       'description'):
        engine.update_joint_states(['j%d' % i for i in range(1001)], [0.0] * 1001)
    # Messages that keep inventing names never grow the store beyond the bound.
    for batch in range(5):
        names = ['b%d_%d' % (batch, i) for i in range(400)]
        engine.update_joint_states(names, [0.0] * 400)
    engine.load_description(UR5, '', 'tool0')
    chain = engine.chain('', 'tool0')
    engine.update_joint_states(chain.joint_names, Q_GOAL)
    # Only the description's joints are kept once it is loaded.
    assert set(engine._joint_states.positions()) == set(chain.joint_names)


def test_a_seed_longer_than_the_chain_is_refused_before_its_names_are_read(engine):
    names = ['joint_%d' % index for index in range(20_000)]
    names[-1] = names[0]
    outcome = engine.solve(_request(_goal(engine), seed_names=names,
                                    seed_positions=[0.0] * len(names)), SETTINGS)
    assert outcome.error_code == ErrorCode.INVALID_SEED
    assert 'the seed has 20000 names and 20000 positions; the chain has 6 joints' in \
        outcome.message


class _FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_stale_joint_states_are_not_trusted_as_the_start_of_a_command():
    clock = _FakeClock()
    engine = IKEngine(clock=clock)
    chain = engine.load_description(UR5, '', 'tool0')
    engine.update_joint_states(chain.joint_names, Q_GOAL + 0.05)
    settings = NodeSettings(tip_link='tool0', timeout=0.5, joint_state_timeout=0.5)
    fresh = engine.solve(_request(_goal(engine)), settings)
    assert engine.plan_command(fresh, settings).positions
    clock.now += 5.0  # the joint_states publisher went quiet
    outcome = engine.solve(_request(_goal(engine)), settings)
    assert outcome.success, outcome.message  # solving goes on
    with pytest.raises(StaleJointStatesError,
                       match=r'shoulder_pan_joint.* 5.00 s old.*joint_state_timeout = 0.5 s'):
        engine.plan_command(outcome, settings)
    # Disabled, the old behaviour; fresh states command again.
    assert engine.plan_command(outcome, NodeSettings(tip_link='tool0',
                                                     joint_state_timeout=0.0)).positions
    engine.update_joint_states(chain.joint_names, Q_GOAL + 0.05)
    again = engine.solve(_request(_goal(engine)), settings)
    assert engine.plan_command(again, settings).positions


def test_one_stale_chain_joint_is_enough_to_refuse_a_command():
    clock = _FakeClock()
    engine = IKEngine(clock=clock)
    chain = engine.load_description(UR5, '', 'tool0')
    engine.update_joint_states(chain.joint_names, Q_GOAL)
    clock.now += 1.0
    # A NaN keeps the old value and its old arrival time.
    positions = list(Q_GOAL)
    positions[3] = float('nan')
    engine.update_joint_states(chain.joint_names, positions)
    settings = NodeSettings(tip_link='tool0', timeout=0.5)
    outcome = engine.solve(_request(_goal(engine)), settings)
    with pytest.raises(StaleJointStatesError, match='of %s are' % chain.joint_names[3]):
        engine.plan_command(outcome, settings)


@pytest.mark.parametrize('field, code', [('solver', ErrorCode.UNKNOWN_SOLVER),
                                         ('frame_id', ErrorCode.UNKNOWN_FRAME)])
def test_a_huge_name_is_refused_without_being_quoted_whole(engine, field, code):
    outcome = engine.solve(_request(_goal(engine), **{field: 'x' * 100_000}), SETTINGS)
    assert outcome.error_code == code
    assert 'has 100000 characters' in outcome.message and len(outcome.message) < 200
    assert len(outcome.solver) < 200
