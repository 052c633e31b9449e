# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Approximate tracking in the engine: bounded commands, never a success, only when asked."""

from pathlib import Path

from conftest import bundled_oracle, rotation_angle
import numpy as np
import pytest
import transforms3d

from ik_solvers.demo.scripted_drag import figure_eight, moved_toward_base, out_of_reach
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.engine.controller_motion import trajectory_duration

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
STARTS = {
    'zero': np.zeros(6),
    'upright': np.array([0.0, -1.57, 0.0, -1.57, 0.0, 0.0]),
}
SETTINGS = NodeSettings(tip_link='tool0', joint_state_timeout=0.0)
BOUND = SETTINGS.max_joint_jump
ORACLE = bundled_oracle('ur5_like.urdf', 'base_link', 'tool0')
# Rounding allowance on the bound, rad.
ROUNDING = 1e-12


def _request(matrix: np.ndarray, **fields) -> IKRequest:
    w, x, y, z = transforms3d.quaternions.mat2quat(matrix[:3, :3])
    return IKRequest(position=tuple(matrix[:3, 3]), orientation=(x, y, z, w), **fields)


def _engine(start: np.ndarray):
    engine = IKEngine()
    chain = engine.robot.load_description(UR5, 'base_link', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, start)
    return engine, chain


@pytest.mark.parametrize('start_name', sorted(STARTS))
@pytest.mark.parametrize('offset', [0.0, 0.15])
def test_a_drag_from_a_singular_start_is_followed_without_a_jump(start_name, offset):
    engine, chain = _engine(STARTS[start_name])
    q = chain.clip(STARTS[start_name])
    codes = set()
    path = figure_eight(moved_toward_base(chain, q, offset), count=300)[:60]
    far = out_of_reach(chain.fk(q), count=3, reach=chain.arrays.reach)
    for index, goal in enumerate(path + far):
        outcome = engine.handle(_request(goal, streamed=True), SETTINGS)
        codes.add(outcome.error_code)
        assert outcome.error_code in (ErrorCode.SUCCESS, ErrorCode.APPROXIMATE), outcome.message
        assert outcome.command is not None, outcome.message
        commanded = np.array(outcome.command.positions)
        assert np.max(np.abs(commanded - q)) <= BOUND + ROUNDING
        # The URDF limits and the FK of the tests' oracle (conftest.py), not the chain's.
        assert ORACLE.limit_violations(commanded) == []
        assert outcome.command.duration >= trajectory_duration(
            q, commanded, chain.velocity_limits, velocity_scale=SETTINGS.velocity_scale,
            min_duration=SETTINGS.min_duration) - 1e-12
        reached = ORACLE.fk(commanded)
        position_error = float(np.linalg.norm(reached[:3, 3] - goal[:3, 3]))
        if outcome.error_code == ErrorCode.SUCCESS:
            ORACLE.check(commanded, goal, position_tolerance=SETTINGS.position_tolerance,
                         orientation_tolerance=SETTINGS.orientation_tolerance)
        else:
            assert not outcome.success
            assert outcome.result.position_error == pytest.approx(position_error, abs=1e-9)
            assert outcome.result.orientation_error == pytest.approx(
                rotation_angle(reached, goal), abs=1e-9)
            assert 'approximate' in outcome.message
        if index >= len(path):
            assert outcome.error_code == ErrorCode.APPROXIMATE  # out of reach: never reached
        q = commanded
        engine.robot.joint_states.update(chain.joint_names, q)  # the arm follows its commands
    assert ErrorCode.APPROXIMATE in codes


def test_without_approximate_tracking_a_far_solution_is_refused():
    engine, chain = _engine(STARTS['zero'])
    goal = figure_eight(chain.fk(STARTS['zero']), count=300)[3]
    settings = NodeSettings(tip_link='tool0', joint_state_timeout=0.0,
                            approximate_tracking=False)
    outcome = engine.handle(_request(goal, streamed=True), settings)
    assert outcome.error_code in (ErrorCode.EXECUTION_FAILED, ErrorCode.NO_SOLUTION,
                                  ErrorCode.TIMED_OUT), outcome.message
    assert outcome.command is None


def test_a_one_shot_request_is_approximate_only_when_it_asks():
    engine, chain = _engine(STARTS['upright'])
    far = out_of_reach(chain.fk(STARTS['upright']), count=1, reach=chain.arrays.reach)[0]
    plain = engine.handle(_request(far, timeout=0.01), SETTINGS)
    assert plain.error_code in (ErrorCode.NO_SOLUTION, ErrorCode.TIMED_OUT)
    asked = engine.handle(_request(far, timeout=0.01, approximate=True), SETTINGS)
    assert asked.error_code == ErrorCode.APPROXIMATE and not asked.success, asked.message
    assert asked.command is None  # nothing is commanded without execute
    start = chain.clip(STARTS['upright'])
    assert np.max(np.abs(asked.result.q - start)) <= BOUND + ROUNDING
    assert asked.result.position_error < np.linalg.norm(far[:3, 3] - chain.fk(start)[:3, 3])
    executed = engine.handle(_request(far, timeout=0.01, approximate=True, execute=True),
                             SETTINGS)
    assert executed.error_code == ErrorCode.APPROXIMATE and executed.command is not None
    assert np.max(np.abs(np.array(executed.command.positions) - start)) <= BOUND + ROUNDING


def test_stale_joint_states_get_no_approximate_command():
    now = [100.0]
    engine = IKEngine(clock=lambda: now[0])
    chain = engine.robot.load_description(UR5, 'base_link', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, STARTS['zero'])
    now[0] += 5.0
    goal = figure_eight(chain.fk(STARTS['zero']), count=300)[3]
    outcome = engine.handle(_request(goal, streamed=True),
                            NodeSettings(tip_link='tool0', joint_state_timeout=0.5))
    # Whether the exact solution failed or jumped, the approximate one is judged too, and the
    # joint states refuse it as well.
    assert outcome.command is None
    assert outcome.error_code != ErrorCode.APPROXIMATE, outcome.message
