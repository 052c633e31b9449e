# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A motion refused on its way names the pair and the configuration in fields of their own."""

from pathlib import Path

from builtin_interfaces.msg import Time
from ik_solvers.collision import ADD, Box, Obstacle, Primitive
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.ros.conversions import fill_response, outcome_poses, status_message
from ik_solvers_interfaces.srv import SolveIK
import numpy as np

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
# Streamed, without the jump guard and without approximate steps: the straight motion alone.
SETTINGS = NodeSettings(tip_link='tool0', joint_state_timeout=0.0, timeout=0.5,
                        max_joint_jump=0.0, approximate_tracking=False)


def test_a_streamed_motion_through_a_box_names_the_box_in_the_motion_fields():
    engine = IKEngine()
    chain = engine.robot.load_description(UR5, 'base_link', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, HOME)
    goal_q = HOME + np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    middle = HOME + np.array([0.5, 0.0, 0.0, 0.0, 0.0, 0.0])
    box = np.eye(4)
    box[:3, 3] = chain.fk(middle)[:3, 3]
    engine.robot.apply_obstacle(Obstacle('box', box, (Primitive(Box(size=(0.1, 0.1, 0.1))),), ADD),
                                'base_link', SETTINGS)
    goal = chain.fk(goal_q)
    outcome = engine.handle(IKRequest(position=tuple(goal[:3, 3]),
                                      orientation=tuple(xyzw_quaternion(goal)), streamed=True,
                                      seed_names=tuple(chain.joint_names),
                                      seed_positions=tuple(goal_q)), SETTINGS)
    assert outcome.error_code == ErrorCode.IN_COLLISION and outcome.command is None, \
        outcome.message
    stamp = Time(sec=1)
    for message in (fill_response(SolveIK.Response(), outcome, stamp),
                    status_message(outcome, stamp=stamp, frame_id='base_link',
                                   poses=outcome_poses(outcome))):
        # The solution itself is free: only the motion names the box.
        assert list(message.collision_pair) == []
        assert 'box' in message.motion_collision_pair, message.motion_collision_pair
        assert list(message.motion_collision_state.name) == list(chain.joint_names)
        q = np.array(message.motion_collision_state.position)
        # On the straight way from the start to the solution, at neither end.
        solution = outcome.result.q
        share = (q[0] - HOME[0]) / (solution[0] - HOME[0])
        assert 0.0 < share < 1.0
        assert np.allclose(q, HOME + share * (solution - HOME), atol=1e-9)
