# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A tree's command against a moving robot: continuity while dragged, and its duration.

Both follow the chains' rules. While both hands are dragged the joint states lag behind the
commands, by more than ``max_joint_jump`` at the default 5 degrees: a streamed answer is bound
to the last command while the robot still follows its commands (its joint states within the
lag allowed, :func:`.judges.continuity.moved_away`), and held within that lag of the joint
states, so that a flip can pass in no number of steps (docs/node.md). The command's duration
keeps the velocity and acceleration limits from every state the robot can be in when the
command arrives: the latest joint state, with its velocity, run on over its age and the
delivery time (:func:`.command_timing.measured_states`).
"""

from typing import Optional

import numpy as np

from .arrival_states import box_corners
from .command_timing import measured_states
from .controller_motion import command_duration, largest_joint_jump
from .judges.continuity import moved_away
from .robot_state import RobotState
from .settings import NodeSettings
from ..kinematics.tree import KinematicTree

__all__ = ['streamed_step_refusal', 'tree_command_duration', 'tree_velocity_limits']


def tree_velocity_limits(tree: KinematicTree) -> np.ndarray:
    """Return (N,) each tree variable's URDF velocity limit, rad/s or m/s."""
    velocity = np.ones(tree.num_joints)
    for chain, variables in zip(tree.chains, tree.tip_variables):
        velocity[variables] = chain.velocity_limits
    return velocity


def streamed_step_refusal(robot: RobotState, tree: KinematicTree, start: np.ndarray,
                          q: np.ndarray, settings: NodeSettings) -> Optional[str]:
    """
    Give why a streamed answer ``q`` moves too far, or None.

    :param start: (N,) where the robot is (joint states), rad or m.
    :param q: (N,) the answer.
    :returns: The refusal's message naming the joint, the reference and the parameter.
    """
    bound = settings.max_joint_jump
    if bound <= 0.0:
        return None
    references = [('its current position', start, bound, 'max_joint_jump')]
    last = robot.last_command()
    if last is not None and tuple(last[0]) == tuple(tree.joint_names) and \
            largest_joint_jump(start, last[1]) <= moved_away(settings):
        references = [('the last command', last[1], bound, 'max_joint_jump'),
                      ('its current position', start, moved_away(settings), 'the lag allowed')]
    for name, reference, limit, limit_name in references:
        step = np.abs(np.asarray(q, dtype=float) - reference)
        if step.size and float(step.max()) > limit:
            index = int(np.argmax(step))
            return ('not commanded: joint %s would move %.3g from %s, more than %s %.3g'
                    % (tree.joint_names[index], step[index], name, limit_name, limit))
    return None


def tree_command_duration(robot: RobotState, tree: KinematicTree, start: np.ndarray,
                          q: np.ndarray, settings: NodeSettings) -> float:
    """
    Return the duration, s, of the single-point command from ``start`` to ``q``.

    :raises ValueError: No duration keeps the limits from every state the robot may be in.
    """
    max_velocity = settings.velocity_scale * tree_velocity_limits(tree)
    max_acceleration = np.full(tree.num_joints, settings.acceleration_limit)
    velocities = robot.joint_states.velocities()
    velocity = np.array([velocities.get(name, 0.0) for name in tree.joint_names], dtype=float)
    if not np.all(np.isfinite(velocity)):
        velocity = np.zeros(tree.num_joints)
    corners = box_corners([(start, velocity)] + measured_states(
        robot, tree.joint_names, np.zeros(tree.num_joints), max_velocity, max_acceleration))
    return command_duration(start, q, max_velocity=max_velocity,
                            max_acceleration=max_acceleration, lower=tree.lower,
                            upper=tree.upper, start_velocity=velocity, also_from=corners,
                            min_duration=settings.min_duration)
