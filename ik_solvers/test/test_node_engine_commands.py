# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The engine's commands without ROS: what is commanded, what the judges refuse, and why."""

import math
from pathlib import Path

from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
import numpy as np
import pytest

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
UR5 = (URDF_DIR / 'ur5_like.urdf').read_text()
PLANAR = (URDF_DIR / 'planar_3link.urdf').read_text()
Q_GOAL = np.array([0.3, -1.0, 1.2, -0.5, 0.4, 0.2])
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5)
# Commands every verified streamed solution, whatever the jump.
UNBOUNDED = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.0)


class _FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


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


def test_an_executed_solution_is_commanded_and_remembered(engine):
    chain = engine.robot.chain('', 'tool0')
    outcome = engine.handle(_request(_goal(engine), execute=True), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert '; commanded' in outcome.message
    command = outcome.command
    assert command.joint_names == chain.joint_names
    assert list(command.positions) == pytest.approx(list(outcome.result.q))
    assert command.duration >= SETTINGS.min_duration
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(outcome.result.q)


def test_unreachable_target_is_not_a_success_and_is_not_commanded(engine):
    far = np.eye(4)
    far[:3, 3] = [5.0, 0.0, 0.0]
    outcome = engine.handle(_request(far, timeout=0.02, execute=True), SETTINGS)
    assert outcome.error_code in (ErrorCode.NO_SOLUTION, ErrorCode.TIMED_OUT)
    assert outcome.result is not None and not outcome.success
    assert outcome.command is None
    chain = engine.robot.chain('', 'tool0')
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(chain.mid_configuration())


def test_last_command_seeds_when_no_joint_states_arrive(engine):
    chain = engine.robot.chain('', 'tool0')
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(chain.mid_configuration())
    outcome = engine.handle(_request(_goal(engine), execute=True), SETTINGS)
    assert outcome.command is not None, outcome.message
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(outcome.result.q)
    # A nearby target then starts from the last command: no large jump.
    nearby = _goal(engine).copy()
    nearby[2, 3] += 0.01
    second = engine.handle(_request(nearby), SETTINGS)
    assert second.start == pytest.approx(outcome.result.q)
    assert np.max(np.abs(second.result.q - outcome.result.q)) < 0.5


def test_large_streamed_joint_jumps_are_not_commanded(engine):
    chain = engine.robot.chain('', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL + 0.3)
    strict = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.01,
                          approximate_tracking=False)
    refused = engine.handle(_request(_goal(engine), streamed=True), strict)
    assert refused.error_code == ErrorCode.EXECUTION_FAILED
    assert 'reached the target' in refused.message and 'max_joint_jump' in refused.message
    assert refused.result is not None and refused.command is None
    disabled = engine.handle(_request(_goal(engine), streamed=True), UNBOUNDED)
    assert disabled.success and disabled.command is not None, disabled.message


def test_a_streamed_jump_from_the_last_command_is_refused_while_the_joint_states_lag(engine):
    # The arm lags 0.3 rad behind the last command on one joint (within the 0.35 rad bound),
    # and the next solution lies 0.3 rad on the other side of the arm: 0.6 rad from the last
    # command. Judged against the lagging joint states alone it would pass.
    chain = engine.robot.chain('', 'tool0')
    settings = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.35,
                            approximate_tracking=False)
    first = engine.handle(_request(chain.fk(Q_GOAL), streamed=True), UNBOUNDED)
    assert first.success and first.command is not None, first.message
    lagging = first.result.q.copy()
    lagging[0] -= 0.3
    engine.robot.joint_states.update(chain.joint_names, lagging)
    beyond = first.result.q.copy()
    beyond[0] -= 0.6
    second = engine.handle(_request(chain.fk(beyond), streamed=True), settings)
    assert second.error_code == ErrorCode.EXECUTION_FAILED, second.message
    assert second.result.success and second.command is None
    assert abs(second.result.q[0] - first.result.q[0]) > 0.35
    assert np.max(np.abs(second.result.q - lagging)) <= 0.35
    assert 'shoulder_pan_joint' in second.message and 'the last command' in second.message
    # The same target asked for once, through the service, is an explicit move.
    explicit = engine.handle(_request(chain.fk(beyond), execute=True), settings)
    assert explicit.success and explicit.command is not None, explicit.message


def test_a_drag_starts_from_the_last_command_unless_the_robot_moved_away(engine):
    chain = engine.robot.chain('', 'tool0')
    settings = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.35)
    first = engine.handle(_request(chain.fk(Q_GOAL), streamed=True), UNBOUNDED)
    assert first.command is not None, first.message
    behind = first.result.q - 0.1
    engine.robot.joint_states.update(chain.joint_names, behind)
    followed = engine.handle(_request(chain.fk(Q_GOAL + 0.02), streamed=True), settings)
    assert followed.success and followed.start == pytest.approx(behind)
    # Seeded at the last command, the drag stays within a few hundredths of a radian of it.
    assert np.max(np.abs(followed.result.q - first.result.q)) < 0.1
    assert followed.command is not None
    # Someone moved the arm far away: the last command no longer holds, the joint states do.
    elsewhere = Q_GOAL + np.array([0.8, 0.0, 0.0, 0.0, 0.0, 0.0])
    engine.robot.joint_states.update(chain.joint_names, elsewhere)
    there = engine.handle(_request(chain.fk(elsewhere + 0.02), streamed=True), settings)
    assert there.success, there.message
    assert there.command is not None


def test_replacing_the_description_rebuilds_the_chain_and_forgets_old_commands(engine):
    outcome = engine.handle(_request(_goal(engine), execute=True), SETTINGS)
    assert outcome.command is not None
    chain = engine.robot.load_description(PLANAR, 'base_link', 'tip')
    assert chain.num_joints == 3
    q, _ = engine.robot.current_configuration(chain)
    assert q == pytest.approx(chain.mid_configuration())
    goal = chain.fk([0.3, 0.4, -0.2])
    planar = NodeSettings(base_link='base_link', tip_link='tip', position_only=True,
                          timeout=0.5)
    assert engine.handle(_request(goal), planar).success
    assert math.isfinite(engine.handle(_request(goal), planar).result.position_error)


def test_continuous_joints_are_commanded_the_short_way_round():
    # The planar arm with a continuous first joint, sitting near +pi.
    urdf = PLANAR.replace('type="revolute"', 'type="continuous"', 1)
    engine = IKEngine()
    chain = engine.robot.load_description(urdf, '', 'tip')
    assert list(chain.is_continuous) == [True, False, False]
    start = np.array([3.0, 0.2, 0.3])
    engine.robot.joint_states.update(chain.joint_names, start)
    settings = NodeSettings(tip_link='tip', max_joint_jump=1.0, velocity_scale=1.0,
                            min_duration=0.01)
    # A goal given one turn away: the solve reports and commands the nearby turn.
    goal = chain.fk(np.array([3.1 + 2 * math.pi, 0.3, 0.2]))
    solved = engine.handle(_request(goal, timeout=0.5, execute=True), settings)
    assert solved.success, solved.message
    assert abs(solved.result.q[0] - 3.0) <= math.pi
    assert solved.command.positions == pytest.approx(tuple(solved.result.q))
    # Timed for the short way round: well under a turn at 2 rad/s.
    assert solved.command.duration < math.pi / 2.0


def test_stale_joint_states_are_not_trusted_as_the_start_of_a_command():
    clock = _FakeClock()
    engine = IKEngine(clock=clock)
    chain = engine.robot.load_description(UR5, '', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL + 0.05)
    settings = NodeSettings(tip_link='tool0', timeout=0.5, joint_state_timeout=0.5)
    assert engine.handle(_request(_goal(engine), execute=True), settings).command is not None
    clock.now += 5.0  # the joint_states publisher went quiet
    solved = engine.handle(_request(_goal(engine)), settings)
    assert solved.success, solved.message  # solving goes on
    refused = engine.handle(_request(_goal(engine), execute=True), settings)
    assert refused.error_code == ErrorCode.EXECUTION_FAILED and refused.command is None
    assert refused.log_kind == 'joint_states_stale'
    assert refused.result.success
    assert 'shoulder_pan_joint' in refused.message
    assert '5.00 s old' in refused.message and 'joint_state_timeout = 0.5 s' in refused.message
    # Disabled, the old behaviour; fresh states command again.
    disabled = NodeSettings(tip_link='tool0', timeout=0.5, joint_state_timeout=0.0)
    assert engine.handle(_request(_goal(engine), execute=True), disabled).command is not None
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL + 0.05)
    assert engine.handle(_request(_goal(engine), execute=True), settings).command is not None


def test_one_stale_chain_joint_is_enough_to_refuse_a_command():
    clock = _FakeClock()
    engine = IKEngine(clock=clock)
    chain = engine.robot.load_description(UR5, '', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL)
    clock.now += 1.0
    # A NaN keeps the old value and its old arrival time.
    positions = list(Q_GOAL)
    positions[3] = float('nan')
    engine.robot.joint_states.update(chain.joint_names, positions)
    outcome = engine.handle(_request(_goal(engine), streamed=True), UNBOUNDED)
    assert outcome.error_code == ErrorCode.EXECUTION_FAILED and outcome.command is None
    assert 'of %s are' % chain.joint_names[3] in outcome.message
