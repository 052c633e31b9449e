# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Goals beyond any reach of the chain are bad input: refused, never tracked approximately."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.goal_distance import FAR_GOAL_FACTOR, goal_distance_limit
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.path_request import PathRequest, PathWaypoint
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.settings import NodeSettings

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
SETTINGS = NodeSettings(tip_link='tool0', joint_state_timeout=0.0)
START = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])


@pytest.fixture
def engine():
    engine = IKEngine()
    chain = engine.robot.load_description(UR5, 'base_link', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, START)
    return engine, chain


def _at(distance):
    direction = np.array([0.6, 0.0, 0.8])
    return tuple(distance * direction)


@pytest.mark.parametrize('distance', [1e3, 1e30, 3.3e94, 1e308])
def test_a_streamed_goal_beyond_any_reach_is_refused_and_not_commanded(engine, distance):
    engine, chain = engine
    outcome = engine.handle(IKRequest(position=_at(distance), orientation=(0, 0, 0, 1),
                                      streamed=True), SETTINGS)
    assert outcome.error_code == ErrorCode.INVALID_TARGET, outcome.message
    assert outcome.command is None
    assert '%.4g m' % goal_distance_limit(chain) in outcome.message
    outcome = engine.handle(IKRequest(position=_at(distance), orientation=(0, 0, 0, 1),
                                      approximate=True, execute=True), SETTINGS)
    assert outcome.error_code == ErrorCode.INVALID_TARGET and outcome.command is None


def test_a_goal_just_out_of_reach_is_still_tracked_approximately(engine):
    engine, chain = engine
    reach = chain.arrays.reach
    assert goal_distance_limit(chain) >= FAR_GOAL_FACTOR * reach
    outcome = engine.handle(IKRequest(position=_at(1.5 * reach), orientation=(0, 0, 0, 1),
                                      streamed=True), SETTINGS)
    assert outcome.error_code == ErrorCode.APPROXIMATE, outcome.message
    assert outcome.command is not None


def test_a_waypoint_beyond_any_reach_is_invalid_target(engine):
    engine, _ = engine
    request = PathRequest(waypoints=[PathWaypoint(_at(1e6), (0.0, 0.0, 0.0, 1.0))])
    outcome = engine.handle_path(request, SETTINGS)
    assert outcome.code == ErrorCode.INVALID_TARGET
    assert 'waypoint 0' in outcome.message
