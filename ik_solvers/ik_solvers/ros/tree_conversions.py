# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Messages of several end effectors to the engine's plain data and back.

A SolveIK request with ``tip_links`` and ``tip_targets`` becomes an
:class:`~ik_solvers.engine.outcome.IKRequest` with one
:class:`~ik_solvers.engine.outcome.TipTarget` per tip; a
:class:`~ik_solvers.engine.tree_outcome.TreeOutcome` fills the response (every joint of the
tree, which tips were met) or an ``IKStatus``. Numbers are checked by the engine.
"""

import dataclasses
from typing import Sequence

from builtin_interfaces.msg import Time
from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.msg import IKStatus
from ik_solvers_interfaces.srv import SolveIK

from .conversions import joint_state_message, matrix_to_pose, seconds_to_duration, \
    service_request
from ..engine.outcome import IKRequest, TipTarget
from ..engine.settings import NodeSettings
from ..engine.tree_outcome import TreeOutcome
from ..exceptions import InvalidTipsError

__all__ = ['asks_for_tree', 'fill_tree_response', 'tip_target', 'tree_service_request',
           'tree_status_message']


def asks_for_tree(request: SolveIK.Request, settings: NodeSettings) -> bool:
    """Tell whether a SolveIK call is solved on the tree: it names tips, or the node has two."""
    return bool(request.tip_links) or bool(request.tip_targets) or len(settings.tip_links) > 1


def tip_target(tip: str, target: PoseStamped) -> TipTarget:
    """
    Turn one tip's target message into plain data.

    :param tip: The tip link.
    :param target: Its pose and frame.
    :returns: The target, unchecked.
    """
    position, orientation = target.pose.position, target.pose.orientation
    return TipTarget(tip=tip, position=(position.x, position.y, position.z),
                     orientation=(orientation.x, orientation.y, orientation.z, orientation.w),
                     frame_id=target.header.frame_id)


def tree_service_request(request: SolveIK.Request) -> IKRequest:
    """
    Turn a SolveIK call of several tips into the solve it asks for.

    :param request: The service request; ``tip_targets[i]`` is the target of ``tip_links[i]``.
    :returns: The request; empty ``tip_links`` means ``target`` for the node's first tip.
    :raises InvalidTipsError: If ``tip_links`` and ``tip_targets`` differ in length.
    """
    if len(request.tip_links) != len(request.tip_targets):
        raise InvalidTipsError('%d tip_links but %d tip_targets: give one target per tip'
                               % (len(request.tip_links), len(request.tip_targets)))
    targets = tuple(tip_target(tip, target)
                    for tip, target in zip(request.tip_links, request.tip_targets))
    return dataclasses.replace(service_request(request), tip_targets=targets)


def _fill_tips(message, outcome: TreeOutcome, stamp: Time) -> None:
    if outcome.q is not None:
        message.solution = joint_state_message(list(outcome.joint_names), outcome.q)
        message.solution.header.stamp = stamp
        message.position_error = max(outcome.position_errors, default=0.0)
        message.orientation_error = max(outcome.orientation_errors, default=0.0)
        message.solve_time = seconds_to_duration(max(outcome.seconds, 0.0))
        message.iterations = int(outcome.attempts)
    message.collision_checked = outcome.collision.checked
    if outcome.collision.pairs and not outcome.success:
        message.collision_pair = list(outcome.collision.pairs[0])
    message.unchecked_links = list(outcome.collision.unchecked_links)


def fill_tree_response(response: SolveIK.Response, outcome: TreeOutcome,
                       stamp: Time) -> SolveIK.Response:
    """
    Copy a tree outcome into a SolveIK response.

    :param response: The response to fill.
    :param outcome: The outcome.
    :param stamp: Stamp of the solution's joint state.
    :returns: ``response``: every joint of the tree in ``solution``, per tip ``tips_met`` and
        the errors; ``position_error`` and ``orientation_error`` the largest over the tips.
    """
    response.success = outcome.success
    response.error_code = int(outcome.error_code)
    response.message = outcome.message.splitlines()[0] if outcome.message else ''
    _fill_tips(response, outcome, stamp)
    response.tips = list(outcome.tips)
    response.tips_met = [bool(met) for met in outcome.met]
    response.tip_position_errors = [float(error) for error in outcome.position_errors]
    response.tip_orientation_errors = [float(error) for error in outcome.orientation_errors]
    return response


def tree_status_message(outcome: TreeOutcome, *, stamp: Time,
                        tips: Sequence[str]) -> IKStatus:
    """
    Build the IKStatus of one streamed solve of several tips.

    :param outcome: The outcome.
    :param stamp: Time of the solve.
    :param tips: The node's tips; the status's target and reached are the first tip's.
    :returns: The message.
    """
    status = IKStatus()
    status.header.stamp = stamp
    status.header.frame_id = outcome.base_link
    status.success = outcome.success
    status.error_code = int(outcome.error_code)
    status.message = outcome.message.splitlines()[0] if outcome.message else ''
    status.solver = outcome.solver
    status.commanded = outcome.commanded
    if outcome.targets and tips:
        status.target = matrix_to_pose(outcome.targets[0])
        status.reached = matrix_to_pose(outcome.reached[0])
    _fill_tips(status, outcome, stamp)
    status.collision_scene = outcome.collision.scene
    return status
