# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Before any joint state arrives the node commands open loop, and an answer that commands says so.

A caller (the demo, a test bench) that starts streaming before the node hears the arm would
have its commands timed for the node's model of the arm rather than for the arm; the answer's
message lets it wait for the joint states first.
"""

from pathlib import Path

from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.robot_state import OPEN_LOOP_NOTE
from ik_solvers.engine.settings import NodeSettings
import numpy as np

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5)


def _request(chain, q, *, execute):
    pose = chain.fk(q)
    return IKRequest(position=tuple(pose[:3, 3]), orientation=tuple(xyzw_quaternion(pose)),
                     execute=execute)


def test_a_command_before_any_joint_state_says_it_is_open_loop():
    engine = IKEngine()
    chain = engine.robot.load_description(UR5, '', 'tool0')
    goal = HOME + np.array([0.05, 0.0, -0.05, 0.0, 0.05, 0.0])
    outcome = engine.handle(_request(chain, goal, execute=True), SETTINGS)
    assert outcome.success and outcome.command is not None, outcome.message
    assert OPEN_LOOP_NOTE in outcome.message
    assert OPEN_LOOP_NOTE in outcome.notes


def test_with_joint_states_a_command_is_not_called_open_loop():
    engine = IKEngine()
    chain = engine.robot.load_description(UR5, '', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, HOME, [])
    goal = HOME + np.array([0.05, 0.0, -0.05, 0.0, 0.05, 0.0])
    outcome = engine.handle(_request(chain, goal, execute=True), SETTINGS)
    assert outcome.success and outcome.command is not None, outcome.message
    assert OPEN_LOOP_NOTE not in outcome.message
    assert OPEN_LOOP_NOTE not in outcome.notes


def test_an_answer_that_commands_nothing_carries_the_note_only_in_its_notes():
    engine = IKEngine()
    chain = engine.robot.load_description(UR5, '', 'tool0')
    outcome = engine.handle(_request(chain, HOME, execute=False), SETTINGS)
    assert outcome.success and outcome.command is None, outcome.message
    assert OPEN_LOOP_NOTE not in outcome.message
    assert OPEN_LOOP_NOTE in outcome.notes
