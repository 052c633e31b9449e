# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A straight line of the tool to the goal marker's pose, previewed or run through ~/cartesian_path.

The goal marker's menu offers both (see :mod:`.goal_marker_node`); this part needs no marker
server. A preview asks the IK node for the path without ``execute`` and draws the tool's path
(forward kinematics of the returned trajectory) as a line strip on ``~/line_preview``: green
when the whole line is reachable, red up to where it stops. Running it asks with ``execute``:
the node commands the timed trajectory (a complete line only).
"""

from __future__ import annotations

from typing import Callable, Optional

from geometry_msgs.msg import Point, PoseStamped
from ik_solvers_interfaces.srv import CartesianPath
import numpy as np
from rclpy.node import Node
from visualization_msgs.msg import Marker

from ..kinematics import Chain
from ..ros.names import CARTESIAN_PATH_SERVICE, of_node
from .goal_marker_shape import pose_to_message
from .goal_tracker import GoalPose

__all__ = ['LINE_PREVIEW_TOPIC', 'StraightLineToGoal', 'line_request', 'preview_marker']

#: visualization_msgs/Marker: the tool path of the last straight line asked for.
LINE_PREVIEW_TOPIC = '~/line_preview'
_REACHED = (0.1, 0.8, 0.2, 1.0)
_STOPPED = (0.9, 0.15, 0.1, 1.0)


def line_request(goal: GoalPose, frame_id: str, *, execute: bool,
                 max_step: float = 0.0) -> CartesianPath.Request:
    """
    Build the CartesianPath request of a straight line to ``goal``.

    :param goal: The goal pose, in ``frame_id``.
    :param frame_id: The goal's frame (the chain's base link).
    :param execute: Command the path (complete paths only).
    :param max_step: m between points; 0 means the node's ``cartesian_max_step``.
    :returns: The request.
    """
    request = CartesianPath.Request()
    waypoint = PoseStamped()
    waypoint.header.frame_id = frame_id
    waypoint.pose = pose_to_message(goal)
    request.waypoints = [waypoint]
    request.max_step = float(max_step)
    request.execute = bool(execute)
    return request


def preview_marker(chain: Chain, response: CartesianPath.Response, frame_id: str) -> Marker:
    """
    Draw the tool's path of a CartesianPath response as a line strip.

    :param chain: The chain, for forward kinematics of the trajectory's points.
    :param response: The node's answer.
    :param frame_id: The chain's base link.
    :returns: A LINE_STRIP marker (empty when the answer has no trajectory).
    """
    marker = Marker()
    marker.header.frame_id = frame_id
    marker.ns = 'straight_line'
    marker.type = Marker.LINE_STRIP
    marker.action = Marker.ADD
    marker.pose.orientation.w = 1.0
    marker.scale.x = 0.004
    colour = _REACHED if response.success else _STOPPED
    marker.color.r, marker.color.g, marker.color.b, marker.color.a = colour
    names = list(response.trajectory.joint_names)
    if names != list(chain.joint_names) or not response.trajectory.points:
        return marker
    positions = np.array([point.positions for point in response.trajectory.points])
    for tip in chain.fk_batch(positions)[:, :3, 3]:
        marker.points.append(Point(x=float(tip[0]), y=float(tip[1]), z=float(tip[2])))
    return marker


class StraightLineToGoal:
    """Asks the IK node for straight lines to the goal, and shows their tool path."""

    def __init__(self, node: Node, chain: Callable[[], Optional[Chain]], *,
                 ik_node_service: str = of_node(CARTESIAN_PATH_SERVICE)) -> None:
        """
        Create the service client and the preview publisher on ``node``.

        :param node: The goal marker's node.
        :param chain: Returns the goal's chain once the description is known, else None.
        :param ik_node_service: The IK node's CartesianPath service.
        """
        self._node = node
        self._chain = chain
        self._client = node.create_client(CartesianPath, ik_node_service)
        self._preview = node.create_publisher(Marker, LINE_PREVIEW_TOPIC, 1)

    def send(self, goal: Optional[GoalPose], frame_id: str, *, execute: bool) -> bool:
        """
        Ask for the line to ``goal``; the answer is drawn and logged when it comes.

        :param goal: The goal, or None before the marker is placed.
        :param frame_id: The goal's frame.
        :param execute: Run the line (else only preview it).
        :returns: Whether a request was sent (a goal exists and the service is there).
        """
        if goal is None or not self._client.service_is_ready():
            self._node.get_logger().warning('no straight line: %s' % (
                'the goal is not placed yet' if goal is None
                else 'the IK node\'s cartesian_path service is not available'))
            return False
        future = self._client.call_async(line_request(goal, frame_id, execute=execute))
        future.add_done_callback(lambda done: self._answered(done.result(), frame_id))
        return True

    def _answered(self, response: Optional[CartesianPath.Response], frame_id: str) -> None:
        if response is None:
            return
        chain = self._chain()
        if chain is not None:
            self._preview.publish(preview_marker(chain, response, frame_id))
        log = self._node.get_logger()
        (log.info if response.success else log.warning)(
            'straight line to the goal: %s (fraction %.3f%s)' % (
                response.message, response.fraction,
                ', commanded' if response.commanded else ''))
