# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's collision segment: the hand dragged into the table and into the arm's own base.

A user dragging the goal marker carelessly pulls it through the table and into the robot. The
node must hold the arm where every solution collides and follow again once the goal is clear:
every command it sends is checked here by an exact collision check built by the demo itself,
and the count of colliding commands must be 0.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence, Tuple

import numpy as np

from ..collision import CollisionModel, load_robot_geometry
from ..engine.error_codes import ErrorCode
from ..kinematics import Chain, RobotModel
from .metrics import DragRecording
from .scripted_drag import ScriptedGoal

__all__ = ['CollisionSummary', 'IN_COLLISION', 'collision_drag', 'format_collision_summary',
           'summarise_collisions']

#: The SolveIK and IKStatus code of a goal whose every solution collides.
IN_COLLISION = int(ErrorCode.IN_COLLISION)
#: Metres between consecutive goals: a hand moving at 25 cm/s at the demo's 50 Hz, which the
#: arm follows within max_joint_jump (at 1 m/s it lags too far behind and is held).
_STEP = 0.005


def _line(start: np.ndarray, end: np.ndarray) -> list[np.ndarray]:
    steps = max(2, int(np.ceil(np.linalg.norm(end[:3, 3] - start[:3, 3]) / _STEP)) + 1)
    poses = []
    for fraction in np.linspace(0.0, 1.0, steps):
        pose = start.copy()
        pose[:3, 3] = (1.0 - fraction) * start[:3, 3] + fraction * end[:3, 3]
        poses.append(pose)
    return poses


def collision_drag(start: np.ndarray, *, table_depth: float = 0.08,
                   beside_base: Sequence[float] = (0.06, 0.0, 0.1)) -> list[ScriptedGoal]:
    """
    Goals from the start pose down through the table top and back, then into the base and back.

    :param start: 4x4 start pose of the tip in the base frame; its orientation is kept.
    :param table_depth: how far below the base frame's z = 0 (the table top) the goal goes, m.
    :param beside_base: where the goal goes next to the base, m in the base frame.
    :returns: The goals, all streamed as path goals.
    """
    start = np.asarray(start, dtype=float)
    into_table = start.copy()
    into_table[2, 3] = -table_depth
    into_base = start.copy()
    into_base[:3, 3] = beside_base
    poses = []
    for first, second in ((start, into_table), (into_table, start), (start, into_base),
                          (into_base, start)):
        poses += _line(first, second)
    return [ScriptedGoal(pose=pose, reachable=True) for pose in poses]


@dataclass(frozen=True)
class CollisionSummary:
    """The figures of the collision segment."""

    solver: str
    goals: int
    solved: int
    commands: int
    #: Commands the demo's own exact check finds in collision: must be 0.
    colliding_commands: int
    #: Goals answered IN_COLLISION: not commanded, the arm held where it was.
    held_for_collision: int
    #: (code name, answers) of every code the segment's answers carried, most frequent first.
    answers_by_code: Tuple[Tuple[str, int], ...] = ()


def summarise_collisions(recording: DragRecording, urdf_xml: str,
                         chain: Chain) -> CollisionSummary:
    """
    Check every command of the segment with a collision model built here, apart from the node.

    :param recording: The segment's drag.
    :param urdf_xml: The description the node was given.
    :param chain: The chain it commands.
    :returns: The figures.
    """
    robot_model = RobotModel.from_urdf(urdf_xml)
    model = CollisionModel(robot_model, robot_model.chain(chain.base_link, chain.tip_link),
                           load_robot_geometry(urdf_xml))
    colliding = sum(1 for command in recording.path_commands if model.check(command).colliding)
    return CollisionSummary(
        solver=recording.solver, goals=len(recording.goals),
        solved=len({solve.goal_index for solve in recording.solves}),
        commands=len(recording.path_commands), colliding_commands=colliding,
        held_for_collision=len({solve.goal_index for solve in recording.solves
                                if solve.error_code == IN_COLLISION}),
        answers_by_code=tuple(Counter(_code_name(solve.error_code)
                                      for solve in recording.solves).most_common()))


def _code_name(code: int) -> str:
    try:
        return ErrorCode(code).name
    except ValueError:
        return str(code)


def format_collision_summary(summary: CollisionSummary) -> str:
    """Format the segment's table: a title line, the header and the row."""
    return '\n'.join((
        'Collision segment (%s): the hand dragged into the table and into the arm\'s base'
        % summary.solver,
        '%-9s%-9s%-11s%-21s%s' % ('goals', 'solved', 'commands', 'colliding commands',
                                  'goals refused or held for collision'),
        '%-9d%-9d%-11d%-21d%d' % (summary.goals, summary.solved, summary.commands,
                                  summary.colliding_commands, summary.held_for_collision),
        'answers: ' + ', '.join('%s %d' % pair for pair in summary.answers_by_code)))
