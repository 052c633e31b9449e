# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The engine's collision judge: what collides is never answered as success nor commanded."""

import dataclasses
from pathlib import Path
from typing import Optional

from ik_solvers import solve
from ik_solvers.collision import Box, Obstacle, Primitive
from ik_solvers.engine.candidate import Candidate
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.fallback import Fallback
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.refusal import Refusal
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.exceptions import InvalidObstacleError
import numpy as np
import pytest

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
SETTINGS = NodeSettings(base_link='base_link', tip_link='tool0', timeout=0.05,
                        max_joint_jump=0.0)
Q_FREE = np.array([0.2, -1.2, 1.4, -0.6, 0.5, 0.1])
#: The shoulder pan turned a quarter turn from Q_FREE: where the box below stands.
Q_IN_BOX = Q_FREE + np.array([np.pi / 2, 0.0, 0.0, 0.0, 0.0, 0.0])


def _request(matrix, **fields):
    return IKRequest(position=tuple(matrix[:3, 3]), orientation=tuple(xyzw_quaternion(matrix)),
                     **fields)


def _fed(q):
    """Make a solve function that answers with ``q``, measured by FK, whatever the target."""
    def answer(chain, target, **arguments):
        result = solve(chain, chain.fk(q), seed=q, timeout=0.05)
        return dataclasses.replace(result, q=np.array(q, dtype=float))
    return answer


def _engine_with_box(**options):
    engine = IKEngine(**options)
    chain = engine.robot.load_description(UR5, 'base_link', 'tool0')
    box = np.eye(4)
    box[:3, 3] = chain.fk(Q_IN_BOX)[:3, 3]
    engine.robot.apply_obstacle(Obstacle('box', box, (Primitive(Box(size=(0.15, 0.15, 0.15))),)),
                                '', SETTINGS)
    return engine, chain


@pytest.mark.parametrize('fields', [{'streamed': True}, {'execute': True}, {}])
def test_a_colliding_solution_is_refused_naming_the_pair_and_never_commanded(fields):
    engine, chain = _engine_with_box(solve_function=_fed(Q_IN_BOX))
    # Without approximate tracking, whose own search may find a configuration clear of the box.
    settings = dataclasses.replace(SETTINGS, approximate_tracking=False)
    outcome = engine.handle(_request(chain.fk(Q_IN_BOX), **fields), settings)
    assert outcome.error_code == ErrorCode.IN_COLLISION, outcome.message
    assert "'box'" in outcome.message and outcome.command is None
    assert outcome.collision.checked and any('box' in pair for pair in outcome.collision.pairs)
    assert dict(outcome.collision.poses)['box'][:3, 3] == pytest.approx(
        chain.fk(Q_IN_BOX)[:3, 3])


def test_the_search_avoids_the_box_when_another_configuration_reaches_the_goal():
    engine, chain = _engine_with_box()
    goal = chain.fk(Q_FREE)
    outcome = engine.handle(_request(goal, execute=True), SETTINGS)
    assert outcome.success and outcome.command is not None, outcome.message
    assert outcome.collision.checked and outcome.collision.pairs == ()


class Propose(Fallback):
    """Proposes a given configuration in place of any refused candidate."""

    def __init__(self, q):
        self.q = np.array(q, dtype=float)
        self.asked = 0

    def proposal(self, refused: Candidate, refusal: Refusal) -> Optional[Candidate]:
        self.asked += 1
        return dataclasses.replace(refused, q=self.q, reached=refused.chain.fk(self.q),
                                   claim=ErrorCode.ORIENTATION_UNREACHABLE)


def test_a_fallback_proposal_that_collides_is_refused_too():
    colliding = Propose(Q_IN_BOX)
    engine, chain = _engine_with_box(solve_function=_fed(Q_IN_BOX), fallbacks=[colliding])
    outcome = engine.handle(_request(chain.fk(Q_IN_BOX), streamed=True), SETTINGS)
    assert colliding.asked == 1
    assert outcome.error_code == ErrorCode.IN_COLLISION and outcome.command is None
    free = Propose(Q_FREE)
    engine, chain = _engine_with_box(solve_function=_fed(Q_IN_BOX), fallbacks=[free])
    outcome = engine.handle(_request(chain.fk(Q_IN_BOX), streamed=True), SETTINGS)
    assert outcome.command is not None, outcome.message
    assert outcome.command.positions == pytest.approx(Q_FREE)


@pytest.mark.parametrize('parameter, asked, commanding, checked', [
    (True, None, False, True),
    (True, False, False, False),
    (True, False, True, True),    # a command is checked whatever the request says
    (False, None, True, False),
    (False, True, False, True),
])
def test_which_answers_are_checked(parameter, asked, commanding, checked):
    engine, chain = _engine_with_box(solve_function=_fed(Q_IN_BOX))
    settings = dataclasses.replace(SETTINGS, avoid_collisions=parameter)
    outcome = engine.handle(_request(chain.fk(Q_IN_BOX), execute=commanding,
                                     avoid_collisions=asked), settings)
    assert outcome.collision.checked == checked
    assert (outcome.error_code == ErrorCode.IN_COLLISION) == checked, outcome.message
    assert bool(outcome.collision.reason) != checked  # an unchecked answer says why


def test_an_obstacle_named_like_a_link_or_in_an_unknown_frame_is_refused_keeping_the_rest():
    engine, chain = _engine_with_box()
    box = (Primitive(Box(size=(0.1, 0.1, 0.1))),)
    for obstacle, frame, reason in (
            (Obstacle('forearm_link', np.eye(4), box), '', 'name of a link'),
            (Obstacle('crate', np.eye(4), box), 'no_such_frame', 'no_such_frame'),
            (Obstacle('crate', np.full((4, 4), np.nan), box), '', 'non-finite')):
        with pytest.raises(InvalidObstacleError, match=reason):
            engine.robot.apply_obstacle(obstacle, frame, SETTINGS)
        assert 'obstacles: box;' in engine.robot.collisions.summary(None)
    # The box still stands where the goal is: every configuration reaching it collides.
    outcome = engine.handle(_request(chain.fk(Q_IN_BOX), execute=True), SETTINGS)
    assert outcome.error_code == ErrorCode.IN_COLLISION and outcome.command is None


def test_an_obstacle_named_like_a_link_of_a_new_description_is_removed_not_fatal():
    engine, chain = _engine_with_box()
    renamed = UR5.replace('"wrist_3_link"', '"box"')
    engine.robot.load_description(renamed, 'base_link', 'tool0')
    assert "removed, the robot description has links of their names: box" in \
        engine.robot.collisions.summary(None)
    outcome = engine.handle(_request(chain.fk(Q_FREE), execute=True), SETTINGS)
    assert outcome.success and outcome.collision.checked, outcome.message


def test_an_obstacle_keeps_its_place_in_the_cell_when_a_joint_above_the_chain_moves():
    # A lift between the description's root and the arm's base: the box is put in the root
    # frame, then the lift raises the arm; the box must stay where it was put, not ride along.
    lifted = UR5.replace('<link name="base_link">', """<link name="cell"/>
  <joint name="lift" type="prismatic"><parent link="cell"/><child link="base_link"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="0.5" effort="1" velocity="1"/></joint>
  <link name="base_link">""", 1)
    engine = IKEngine()
    chain = engine.robot.load_description(lifted, 'base_link', 'tool0')
    engine.robot.joint_states.update(['lift'], [0.0])
    box = np.eye(4)
    box[:3, 3] = chain.fk(Q_IN_BOX)[:3, 3]
    engine.robot.apply_obstacle(Obstacle('box', box, (Primitive(Box(size=(0.15, 0.15, 0.15))),)),
                                'cell', SETTINGS)
    settings = dataclasses.replace(SETTINGS, approximate_tracking=False)
    before = engine.handle(_request(chain.fk(Q_IN_BOX), execute=True), settings)
    assert before.error_code == ErrorCode.IN_COLLISION, before.message
    engine.robot.joint_states.update(['lift'], [0.3])
    # In the arm's base frame the box is now 0.3 m lower: the old goal is clear of it ...
    clear = engine.handle(_request(chain.fk(Q_IN_BOX), execute=True), settings)
    assert clear.success and clear.collision.checked, clear.message
    # ... and a goal 0.3 m lower, inside the box, is not.
    lowered = chain.fk(Q_IN_BOX)
    lowered[2, 3] -= 0.3
    blocked = engine.handle(_request(lowered, execute=True), settings)
    assert blocked.error_code == ErrorCode.IN_COLLISION, blocked.message
    assert dict(blocked.collision.poses)['box'][:3, 3] == pytest.approx(lowered[:3, 3])
