# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The last check of a command: against the collision scene as it is when the command is sent.

A request is solved against the scene it found when it arrived; an obstacle accepted while it
was being solved (a path of thousands of points takes a while) would otherwise be driven
through. :func:`publication` checks the command again against the newest scene and times it
from the controller's state now, while it holds
:attr:`.collision_scene.CollisionScene.publication`, which every obstacle change takes too.
The caller publishes the command it is given inside the ``with`` block: an obstacle the node
reported as in place before the command left is always checked against it. A command that
now collides comes back refused (``IN_COLLISION``) and without a command.

The engine sends nothing: the node publishes what it is handed here.
"""

import contextlib
import dataclasses
from typing import Iterator, Optional, Sequence

import numpy as np

from .command_timing import CommandTiming
from .error_codes import ErrorCode
from .outcome import IKOutcome
from .path_request import PathOutcome
from .robot_state import RobotState
from .settings import NodeSettings
from ..exceptions import IKError

__all__ = ['path_publication', 'publication']


def _collision(robot: RobotState, settings: NodeSettings, joint_names: Sequence[str],
               points: np.ndarray) -> Optional[str]:
    """Return why the points may not be sent now, or None; call under the publication lock."""
    model = robot.collision_model(settings)
    if model is None:
        return None  # no geometry now: nothing to check the command against
    if tuple(model.chain.joint_names) != tuple(joint_names):
        return 'the robot description changed while it was planned'
    for index, q in enumerate(points):
        try:
            report = model.check(q, stop_at_first=True)
        except IKError as error:
            return 'point %d cannot be checked: %s' % (index, error)
        if report.colliding:
            return ('point %d of %d now collides (%s): the scene changed while it was planned'
                    % (index, len(points), report.describe()))
    return None


@contextlib.contextmanager
def publication(robot: RobotState, timing: CommandTiming, outcome: IKOutcome,
                settings: NodeSettings) -> Iterator[IKOutcome]:
    """
    Check an outcome's command against the scene now; publish what it gives inside the block.

    :param robot: The engine's robot state (its collision scene and last command).
    :param timing: The engine's command timing (:meth:`CommandTiming.at_publication`).
    :param outcome: The outcome of :meth:`.pipeline.IKEngine.handle`; without a command, or
        without a collision check of its answer, it is only timed again.
    :param settings: The node's parameters.
    :returns: A context manager giving the outcome to report: its ``command`` or
        ``path_command`` is the one to publish now, timed from the controller's motion now;
        or an ``IN_COLLISION`` (``EXECUTION_FAILED`` when no duration keeps the limits)
        outcome without a command. The scene stays locked until the block ends.
    """
    with robot.collisions.publication:
        command, path = outcome.command, outcome.path_command
        if command is None and path is None:
            yield outcome
            return
        reason = None
        if outcome.collision.checked:
            positions = (np.asarray([command.positions], dtype=float) if command is not None
                         else np.asarray(path.positions, dtype=float))
            joint_names = command.joint_names if command is not None else path.joint_names
            reason = _collision(robot, settings, joint_names, positions)
        if reason is not None:
            robot.forget_command()
            yield dataclasses.replace(outcome, error_code=ErrorCode.IN_COLLISION, command=None,
                                      path_command=None, message='not commanded: %s' % reason)
            return
        # Timed again from the controller's state now, when it starts (command_timing.py).
        sent = timing.at_publication(command if command is not None else path)
        if sent is None:
            robot.forget_command()
            yield dataclasses.replace(
                outcome, error_code=ErrorCode.EXECUTION_FAILED, command=None,
                path_command=None, message='%s; not commanded: no duration keeps the limits '
                'from the motion running when it was sent' % outcome.message)
        elif command is not None:
            yield outcome if sent == command else dataclasses.replace(outcome, command=sent)
        else:
            yield outcome if sent == path else dataclasses.replace(outcome, path_command=sent)


@contextlib.contextmanager
def path_publication(robot: RobotState, timing: CommandTiming, outcome: PathOutcome,
                     settings: NodeSettings, *, checked: bool) -> Iterator[PathOutcome]:
    """
    Check a path command against the scene now; publish what it gives inside the block.

    :param robot: The engine's robot state.
    :param timing: The engine's command timing.
    :param outcome: The path outcome; without a command it is given as it is.
    :param settings: The node's parameters.
    :param checked: Whether the path was planned with collision checks (the request's
        ``avoid_collisions``, or the parameter for a commanded path).
    :returns: A context manager giving ``outcome`` with its command timed to start now, or
        one with ``IN_COLLISION`` and no command when it now collides.
    """
    with robot.collisions.publication:
        yield _path_checked(robot, timing, outcome, settings, checked)


def _path_checked(robot: RobotState, timing: CommandTiming, outcome: PathOutcome,
                  settings: NodeSettings, checked: bool) -> PathOutcome:
    command = outcome.command
    if command is None:
        return outcome
    reason = None
    if checked:
        reason = _collision(robot, settings, command.joint_names, command.positions)
    if reason is None:
        sent = timing.at_publication(command)  # the path starts now
        return outcome if sent is command else dataclasses.replace(outcome, command=sent)
    robot.forget_command()
    return dataclasses.replace(outcome, code=ErrorCode.IN_COLLISION, command=None,
                               message='%s; not commanded: %s' % (outcome.message, reason))
