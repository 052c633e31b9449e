# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The last check of a command: against the collision scene as it is when the command is sent.

A request is solved against the scene it found when it arrived; an obstacle accepted while it
was being solved (a path of thousands of points takes a while) would otherwise be driven
through. Here the command is checked again against the newest scene and sent in one step, under
:attr:`.collision_scene.CollisionScene.publication`, which every obstacle change takes too: an
obstacle the node reported as in place before the command left is always checked against it.
A command that now collides is not sent; its outcome becomes ``IN_COLLISION``.
"""

import dataclasses
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .error_codes import ErrorCode
from .outcome import Command, IKOutcome
from .path_request import PathCommand, PathOutcome
from .settings import NodeSettings
from ..exceptions import IKError

__all__ = ['send_checked', 'send_checked_path']


def _collision(engine: Any, settings: NodeSettings, joint_names: Sequence[str],
               points: np.ndarray) -> Optional[str]:
    """Return why the points may not be sent now, or None; call under the publication lock."""
    model = engine.collision_model(settings)
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


def send_checked(engine: Any, outcome: IKOutcome, settings: NodeSettings,
                 send: Callable[[Command], None],
                 send_path: Optional[Callable[[PathCommand], None]] = None) -> IKOutcome:
    """
    Send an outcome's command if it is collision-free in the scene as it is now.

    :param engine: The node's engine (its ``collisions`` and ``collision_model``).
    :param outcome: The outcome; without a command, or without a collision check of its
        answer, it is sent as it is.
    :param settings: The node's parameters.
    :param send: Sends a single-point command (the command sink).
    :param send_path: Sends a multi-point command (a motion routed around an obstacle,
        ``outcome.path_command``); every point of it is checked.
    :returns: ``outcome``, or one with ``IN_COLLISION`` and no command when it now collides.
    """
    command, path = outcome.command, outcome.path_command
    if command is None and (path is None or send_path is None):
        return outcome
    with engine.collisions.publication:
        reason = None
        if outcome.collision.checked:
            positions = (np.asarray([command.positions], dtype=float) if command is not None
                         else np.asarray(path.positions, dtype=float))
            joint_names = command.joint_names if command is not None else path.joint_names
            reason = _collision(engine, settings, joint_names, positions)
        if reason is None:
            # Timed again from the controller's state now, when it starts (engine/pipeline.py).
            sent = engine.at_publication(command if command is not None else path)
            if sent is None:
                engine.forget_command()
                return dataclasses.replace(
                    outcome, error_code=ErrorCode.EXECUTION_FAILED, command=None,
                    path_command=None, message='%s; not commanded: no duration keeps the limits '
                    'from the motion running when it was sent' % outcome.message)
            if command is not None:
                send(sent)
                return outcome if sent == command else dataclasses.replace(outcome, command=sent)
            send_path(sent)
            return outcome
    engine.forget_command()
    return dataclasses.replace(outcome, error_code=ErrorCode.IN_COLLISION, command=None,
                               path_command=None, message='not commanded: %s' % reason)


def send_checked_path(engine: Any, outcome: PathOutcome, settings: NodeSettings, *,
                      checked: bool, send: Callable[[PathCommand], None]) -> PathOutcome:
    """
    Send a path command if every point of it is collision-free in the scene as it is now.

    :param engine: The node's engine.
    :param outcome: The path outcome; without a command it is returned as it is.
    :param settings: The node's parameters.
    :param checked: Whether the path was planned with collision checks (the request's
        ``avoid_collisions``, or the parameter for a commanded path).
    :param send: Sends the command.
    :returns: ``outcome``, or one with ``IN_COLLISION`` and no command when it now collides.
    """
    command = outcome.command
    if command is None:
        return outcome
    with engine.collisions.publication:
        reason = None
        if checked:
            reason = _collision(engine, settings, command.joint_names, command.positions)
        if reason is None:
            send(engine.at_publication(command))  # the path starts now
            return outcome
    engine.forget_command()
    return dataclasses.replace(outcome, code=ErrorCode.IN_COLLISION, command=None,
                               message='%s; not commanded: %s' % (outcome.message, reason))
