# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The engine's one pipeline: each input checked once, FK once, judges pluggable by one line."""

from collections import Counter
import dataclasses
from pathlib import Path
from typing import Optional

from ik_solvers import solve
from ik_solvers.engine.candidate import Candidate
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.request_checks import InputChecks
from ik_solvers.engine.judges import DEFAULT_JUDGES, Judge
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.refusal import Refusal
from ik_solvers.engine.settings import NodeSettings
import numpy as np
import pytest

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
UR5 = (URDF_DIR / 'ur5_like.urdf').read_text()
PANDA = (URDF_DIR / 'panda_like.urdf').read_text()
Q_GOAL = np.array([0.3, -1.0, 1.2, -0.5, 0.4, 0.2])
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.0)
CHECKS = ('names', 'target', 'overrides', 'seed', 'frame')


class CountingChecks(InputChecks):
    """The engine's own checks, each call counted by name."""

    def __init__(self):
        self.calls = Counter()

    def __getattribute__(self, name):
        attribute = super().__getattribute__(name)
        if name not in CHECKS:
            return attribute

        def counted(*args, **kwargs):
            self.calls[name] += 1
            return attribute(*args, **kwargs)
        return counted


def _request(matrix, **fields):
    return IKRequest(position=tuple(matrix[:3, 3]), orientation=tuple(xyzw_quaternion(matrix)),
                     **fields)


def _engine(**options):
    engine = IKEngine(**options)
    engine.robot.load_description(UR5, '', 'tool0')
    return engine


@pytest.mark.parametrize('fields, expected', [
    ({'execute': True, 'seed_names': ['elbow_joint'], 'seed_positions': [1.1],
      'frame_id': 'shoulder_link'}, dict.fromkeys(CHECKS, 1)),
    # A streamed target has no seed of its own: it starts from the last command.
    ({'streamed': True}, {**dict.fromkeys(CHECKS, 1), 'seed': 0}),
])
def test_each_input_check_runs_once_per_request(fields, expected):
    checks = CountingChecks()
    solves = []

    def counted_solve(*args, **kwargs):
        solves.append(1)
        return solve(*args, **kwargs)

    engine = _engine(checks=checks, solve_function=counted_solve)
    chain = engine.robot.chain('', 'tool0')
    goal = chain.fk(Q_GOAL)
    if fields.get('frame_id'):
        shoulder = engine.robot.chain_and_model(SETTINGS)[1].transform(
            'base_link', 'shoulder_link', dict(zip(chain.joint_names, chain.mid_configuration())))
        goal = np.linalg.inv(shoulder) @ goal
    outcome = engine.handle(_request(goal, **fields), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    assert outcome.command is not None
    assert dict(checks.calls) == {name: count for name, count in expected.items() if count}
    assert len(solves) == 1


def test_a_refused_input_stops_the_checks_and_the_solve():
    checks = CountingChecks()
    engine = _engine(checks=checks)
    outcome = engine.handle(IKRequest(position=(0.3, 0.1, 0.4), orientation=(0, 0, 0, 0)),
                            SETTINGS)
    assert outcome.error_code == ErrorCode.INVALID_TARGET
    assert dict(checks.calls) == {'names': 1, 'target': 1}
    assert outcome.result is None


def test_forward_kinematics_of_the_solution_runs_once_and_is_shared():
    engine = _engine()
    chain = engine.robot.chain('', 'tool0')
    calls = []
    original = chain.fk

    def counted_fk(q):
        calls.append(1)
        return original(q)

    chain.fk = counted_fk
    goal = original(Q_GOAL)
    # Without approximate tracking the exact search has the whole timeout: with it, a loaded
    # machine can end the streamed 1 ms budget first, and the approximate step's answer (another
    # configuration) is measured by a forward kinematics of its own.
    settings = dataclasses.replace(SETTINGS, approximate_tracking=False)
    outcome = engine.handle(_request(goal, streamed=True), settings)
    assert outcome.success and outcome.command is not None, outcome.message
    assert len(calls) == 1
    assert np.linalg.norm(outcome.reached[:3, 3] - goal[:3, 3]) <= SETTINGS.position_tolerance


class JointOneAtMostOneRadian(Judge):
    """A judge only this test adds: joint 1 above 1 rad is refused."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        if candidate.q[0] <= 1.0:
            return None
        return Refusal(ErrorCode.NO_SOLUTION, 'joint %s at %.3f rad is above 1 rad'
                       % (candidate.chain.joint_names[0], candidate.q[0]))


def test_a_new_judge_is_one_object_and_one_line():
    engine = _engine(judges=DEFAULT_JUDGES + (JointOneAtMostOneRadian(),))
    chain = engine.robot.chain('', 'tool0')
    beyond = Q_GOAL + np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    engine.robot.joint_states.update(chain.joint_names, beyond)
    refused = engine.handle(_request(chain.fk(beyond), execute=True), SETTINGS)
    assert refused.error_code == ErrorCode.NO_SOLUTION
    assert refused.message == 'joint shoulder_pan_joint at %.3f rad is above 1 rad' % (
        refused.result.q[0])
    assert refused.result.success and refused.result.q[0] > 1.0
    assert refused.command is None
    streamed = engine.handle(_request(chain.fk(beyond), streamed=True), SETTINGS)
    assert streamed.error_code == ErrorCode.NO_SOLUTION and streamed.command is None
    # Nothing was commanded: the engine does not take either solution for the last command.
    engine.robot.joint_states.update(chain.joint_names, Q_GOAL)
    accepted = engine.handle(_request(chain.fk(Q_GOAL), execute=True), SETTINGS)
    assert accepted.success and accepted.command is not None, accepted.message


def test_a_solution_outside_the_joint_limits_is_refused_by_the_limits_judge():
    # The panda's joints turn less than a full turn: no other turn of the joint is within its
    # limits either, so the engine cannot bring the solution back.
    def beyond_the_limits(chain, target, **arguments):
        result = solve(chain, target, **arguments)
        q = result.q.copy()
        q[1] = chain.upper[1] + 0.2
        return dataclasses.replace(result, q=q)

    engine = IKEngine(solve_function=beyond_the_limits)
    chain = engine.robot.load_description(PANDA, 'panda_link0', 'panda_hand_tcp')
    settings = NodeSettings(base_link='panda_link0', tip_link='panda_hand_tcp', timeout=0.5,
                            max_joint_jump=0.0, approximate_tracking=False)
    goal = chain.fk(np.array([0.3, -0.5, 0.2, -1.8, 0.1, 1.5, 0.4]))
    for fields in ({'execute': True}, {'streamed': True}, {}):
        outcome = engine.handle(_request(goal, **fields), settings)
        assert outcome.error_code == ErrorCode.NO_SOLUTION, outcome.message
        assert 'outside the joint limits' in outcome.message
        assert chain.joint_names[1] in outcome.message
        assert outcome.command is None and not outcome.success
        assert not chain.within_limits(outcome.result.q)
    assert engine.robot.current_configuration(chain)[0] == pytest.approx(chain.mid_configuration())
