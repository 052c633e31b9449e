# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Where the robot is, read once per request: the judges see the states the start came from."""

from pathlib import Path

from ik_solvers import solve
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
import numpy as np

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
Q_START = np.array([0.2, -1.1, 1.3, -0.6, 0.5, 0.1])
Q_GOAL = np.array([0.3, -1.0, 1.2, -0.5, 0.4, 0.2])
# s: joint states older than this are not commanded from.
TIMEOUT = 0.5
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.0,
                        joint_state_timeout=TIMEOUT, avoid_collisions=False)


class Clock:
    """A monotonic clock the test moves by hand, s."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _run(solve_seconds, *, state_during_solve):
    clock = Clock()

    def slow_solve(*args, **kwargs):
        result = solve(*args, **kwargs)
        clock.now += solve_seconds
        if state_during_solve:
            engine.robot.joint_states.update(chain.joint_names, Q_START.tolist())
        return result

    engine = IKEngine(clock=clock, solve_function=slow_solve)
    engine.robot.load_description(UR5, '', 'tool0')
    chain = engine.robot.chain('', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, Q_START.tolist())
    clock.now = 0.3  # the request arrives with joint states 0.3 s old
    goal = chain.fk(Q_GOAL)
    request = IKRequest(position=tuple(goal[:3, 3]), orientation=tuple(xyzw_quaternion(goal)),
                        execute=True)
    return engine.handle(request, SETTINGS)


def test_states_read_within_the_timeout_are_commanded_from():
    outcome = _run(0.1, state_during_solve=False)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert outcome.commanded


def test_states_that_aged_past_the_timeout_during_the_solve_are_not_commanded_from():
    outcome = _run(0.4, state_during_solve=False)
    assert outcome.error_code == ErrorCode.EXECUTION_FAILED, outcome.message
    assert 'joint_state_timeout' in outcome.message
    assert not outcome.commanded


def test_a_state_arriving_during_the_solve_does_not_make_the_start_fresh():
    # The start, the continuity and the seed came from the states read before the solve; a
    # newer one arriving meanwhile says nothing of them.
    outcome = _run(0.4, state_during_solve=True)
    assert outcome.error_code == ErrorCode.EXECUTION_FAILED, outcome.message
    assert 'joint_state_timeout' in outcome.message
    assert not outcome.commanded
