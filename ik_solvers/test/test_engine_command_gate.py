# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A single command is checked against the scene as it is when it is sent."""

from pathlib import Path

import numpy as np
import transforms3d

from ik_solvers.collision import ADD, Box, Obstacle, Primitive
from ik_solvers.engine.command_gate import publication
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.settings import NodeSettings

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
SETTINGS = NodeSettings(tip_link='tool0', joint_state_timeout=0.0, timeout=0.5)


def __send_checked(engine, outcome, settings, send):
    """Send an outcome's command as the node does: checked and timed as it leaves."""
    with publication(engine.robot, engine.timing, outcome, settings) as checked:
        if checked.command is not None:
            send(checked.command)
    return checked


def _send_checked(engine, outcome, settings, send):
    """Send an outcome's command as the node does: checked and timed as it leaves."""
    with publication(engine.robot, engine.timing, outcome, settings) as checked:
        if checked.command is not None:
            send(checked.command)
    return checked


def test_a_command_into_an_obstacle_accepted_after_it_was_planned_is_not_sent():
    engine = IKEngine()
    chain = engine.robot.load_description(UR5, 'base_link', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, HOME)
    goal = chain.fk(HOME + np.array([0.05, 0.0, 0.0, 0.0, 0.0, 0.0]))
    w, x, y, z = transforms3d.quaternions.mat2quat(goal[:3, :3])
    outcome = engine.handle(IKRequest(position=tuple(goal[:3, 3]), orientation=(x, y, z, w),
                                      streamed=True), SETTINGS)
    assert outcome.command is not None and outcome.collision.checked, outcome.message
    sent = []
    # Without a change of the scene the command is sent as planned.
    assert _send_checked(engine, outcome, SETTINGS, sent.append) is outcome
    assert sent == [outcome.command]
    # A box where the tool will be, accepted after the plan: not sent.
    pose = np.eye(4)
    pose[:3, 3] = goal[:3, 3]
    engine.robot.apply_obstacle(
        Obstacle('late', pose, (Primitive(Box(size=(0.1, 0.1, 0.1))),), ADD), 'base_link',
        SETTINGS)
    refused = _send_checked(engine, outcome, SETTINGS, sent.append)
    assert refused.error_code == ErrorCode.IN_COLLISION and refused.command is None
    assert 'late' in refused.message and len(sent) == 1
