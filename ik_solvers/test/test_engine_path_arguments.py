# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""CartesianPath arguments the .srv refuses are refused, cheap checks before per-waypoint ones."""

import math
from pathlib import Path

import numpy as np
import pytest

from ik_solvers.engine.request_checks import InputChecks
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.path_request import PathRequest, PathWaypoint
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5, cartesian_timeout=10.0,
                        position_tolerance=1e-5, orientation_tolerance=1e-5)
NAMES = ('shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint', 'wrist_1_joint',
         'wrist_2_joint', 'wrist_3_joint')


class _CountingChecks(InputChecks):
    def __init__(self):
        super().__init__()
        self.targets = 0

    def target(self, position, orientation):
        self.targets += 1
        return super().target(position, orientation)


@pytest.fixture
def engine():
    engine = IKEngine()
    engine.robot.load_description(URDF, '', 'tool0')
    engine.robot.joint_states.update(NAMES, HOME)
    return engine


def _line(engine, depth=0.042):
    goal = engine.robot.chain('', 'tool0').fk(HOME)
    goal[2, 3] -= depth
    return PathWaypoint(position=tuple(goal[:3, 3]), orientation=tuple(xyzw_quaternion(goal)))


def _outcome(engine, **fields):
    fields.setdefault('waypoints', [_line(engine)])
    return engine.handle_path(PathRequest(**fields), SETTINGS)


@pytest.mark.parametrize('name', ['max_step', 'max_angle_step', 'jump_threshold',
                                  'relative_jump_threshold'])
@pytest.mark.parametrize('value', [math.inf, -math.inf, math.nan, -1e-9])
def test_steps_and_thresholds_that_are_negative_or_not_finite_are_invalid_step(
        engine, name, value):
    outcome = _outcome(engine, execute=True, **{name: value})
    assert outcome.code == ErrorCode.INVALID_STEP, outcome.message
    assert outcome.command is None and name in outcome.message


def test_a_step_longer_than_the_line_still_ends_at_the_waypoint(engine):
    chain = engine.robot.chain('', 'tool0')
    for max_step in (1e20, 1e300):
        outcome = _outcome(engine, max_step=max_step, max_angle_step=1.0)
        assert outcome.trajectory is not None, outcome.message
        positions = outcome.trajectory.positions
        assert positions.shape[0] == 2, outcome.message  # the start and the waypoint
        if outcome.code == ErrorCode.SUCCESS:
            reached = chain.fk(positions[-1])[:3, 3]
            assert np.linalg.norm(reached - np.array(_line(engine).position)) <= 1e-5


def test_the_smallest_step_is_too_many_points_not_an_internal_error(engine):
    outcome = _outcome(engine, max_step=5e-324)
    assert outcome.code == ErrorCode.TOO_MANY_POINTS, outcome.message


@pytest.mark.parametrize('value', [math.inf, -math.inf, math.nan, 10.0, -1e300])
def test_a_start_not_finite_or_outside_the_limits_is_invalid_seed(engine, value):
    start = list(HOME)
    start[0] = value
    outcome = _outcome(engine, start_names=NAMES, start_positions=tuple(start))
    assert outcome.code == ErrorCode.INVALID_SEED, outcome.message


def test_start_positions_without_names_are_taken_as_solve_ik_takes_a_seed(engine):
    # The chain's joints in order, as SolveIK reads them...
    start = HOME + np.array([0.0, 0.0, 0.1, 0.0, 0.0, 0.0])
    outcome = _outcome(engine, start_positions=tuple(start))
    assert np.allclose(outcome.trajectory.positions[0], start), outcome.message
    # ... and refused where SolveIK refuses the same seed.
    for positions in ((0.0,), tuple([0.0] * 7)):
        assert _outcome(engine, start_positions=positions).code == ErrorCode.INVALID_SEED
    assert _outcome(engine, start_positions=tuple(HOME), execute=True).code == \
        ErrorCode.INVALID_SEED


def test_too_many_waypoints_are_refused_before_any_is_checked():
    checks = _CountingChecks()
    engine = IKEngine(checks=checks)
    engine.robot.load_description(URDF, '', 'tool0')
    engine.robot.joint_states.update(NAMES, HOME)
    waypoints = [_line(engine)] * (SETTINGS.cartesian_max_points)
    outcome = engine.handle_path(PathRequest(waypoints=waypoints), SETTINGS)
    assert outcome.code == ErrorCode.TOO_MANY_POINTS, outcome.message
    assert checks.targets == 0
