# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The goal marker node: an interactive marker in RViz that drives the IK node.

It appears at the tip's current pose, streams the dragged pose on ``target_pose`` (newest
first, at most ``send_rate`` times a second, and once more on mouse-up) and turns green or red
as the IK node reports the goal reachable or not. The marker server's topics live under the
node's name (``/goal_marker`` by default): that is the namespace to give RViz's
InteractiveMarkers display. With ``orientation_mode`` ``axis`` the marker is an arrow to move and
tilt (the direction ``tip_axis`` of the tip must point along); with ``none`` a point to move.
Given the IK node's ``tip_links`` (two or more), it shows one such marker per tip, each sending
on ``target_pose/<tip>`` (:mod:`.goal_marker_tips`).
"""

from __future__ import annotations

import sys
from typing import Optional

# interactive_markers is a ROS package of its own (not in every install): without it the node
# cannot run, and main() says so in one line instead of an import traceback.
try:
    from interactive_markers import InteractiveMarkerServer
    from interactive_markers.menu_handler import MenuHandler
    _MISSING: Optional[ImportError] = None
except ImportError as missing:
    _MISSING = missing
from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor
from rclpy.node import Node
from rclpy.parameter import Parameter
from visualization_msgs.msg import InteractiveMarkerFeedback

from ..ros.names import CARTESIAN_PATH_SERVICE, of_node, STATUS_TOPIC
from ..ros.node_main import run_node
from .goal_marker_core import GoalMarkerCore
from .goal_marker_mode import (check_orientation_mode, check_tip_axis, DEFAULT_TIP_AXIS,
                               ORIENTATION_MODES)
from .goal_marker_shape import make_goal_marker
from .goal_marker_tips import goal_specs
from .goal_tracker import COLOURS, GoalPose, Reachability

__all__ = ['GoalMarkerNode', 'main']

NODE_NAME = 'goal_marker'


class GoalMarkerNode(Node):
    """
    Interactive marker server around :class:`GoalMarkerCore`.

    Parameters: ``base_link`` (empty: the description's root link), ``tip_link``,
    ``tip_links`` (the IK node's; with two or more, one marker per tip on ``target_pose/<tip>``,
    see :mod:`.goal_marker_tips`),
    ``send_rate`` (Hz), ``status_topic``, ``marker_scale`` (m), ``robot_description``,
    ``orientation_mode`` (``full``, ``axis`` or ``none``), ``tip_axis`` (x, y, z in the tip
    frame), ``stream_goals``. The marker's menu previews or runs a straight line of the tool to
    the goal (:mod:`.goal_line`).
    """

    def __init__(self, *, node_name: str = NODE_NAME, **node_options) -> None:
        """
        Create the node and its marker server; the marker appears once the tip is known.

        :raises ValueError: ``tip_link`` and ``tip_links`` are empty, ``tip_links`` names a tip
            twice, or ``orientation_mode`` or ``tip_axis`` is invalid.
        """
        super().__init__(node_name, **node_options)

        def declare(name, default, description, value_range=None, any_type=False):
            descriptor = ParameterDescriptor(description=description, read_only=True,
                                             dynamic_typing=any_type)
            if value_range is not None:
                descriptor.floating_point_range = [FloatingPointRange(
                    from_value=value_range[0], to_value=value_range[1], step=0.0)]
            return self.declare_parameter(name, default, descriptor).value

        base_link = declare('base_link', '', 'Frame of the goal; empty means the root link.')
        tip_link = declare('tip_link', '', 'Link whose pose the goal controls.')
        tip_links = self.declare_parameter(
            'tip_links', Parameter.Type.STRING_ARRAY,
            ParameterDescriptor(description='The IK node\'s tip_links: with two or more, one '
                                'marker per tip, sending on target_pose/<tip>.',
                                read_only=True)).value
        send_rate = declare('send_rate', 25.0, 'Most goals sent per second while dragging, Hz.',
                            (1.0, 200.0))
        status_topic = declare('status_topic', of_node(STATUS_TOPIC),
                               'IKStatus topic of the IK node.')
        path_service = declare('cartesian_path_service', of_node(CARTESIAN_PATH_SERVICE),
                               'CartesianPath service of the IK node (the menu\'s lines).')
        self._scale = declare('marker_scale', 0.2, 'Size of the marker, in metres.', (0.01, 10.0))
        description = declare('robot_description', '',
                              'URDF used until one arrives on the robot_description topic.')
        orientation_mode = declare(
            'orientation_mode', ORIENTATION_MODES[0],
            'What the goal orientation means: %s.' % ', '.join(ORIENTATION_MODES))
        # Any type: [0, 0, 1] typed on a command line is an integer array, which a declared
        # double array would refuse with a type error instead of accepting the axis.
        tip_axis = declare('tip_axis', list(DEFAULT_TIP_AXIS),
                           'In axis mode, the tip axis (x, y, z in the tip frame).',
                           any_type=True)
        stream_goals = declare('stream_goals', True,
                               'Send the dragged goal to the IK node (the arm follows the drag); '
                               'false only places it, for the menu\'s straight line to it.')
        # Refused here, before the marker server exists, so that nothing is left half made.
        orientation_mode = check_orientation_mode(orientation_mode)
        tip_axis = check_tip_axis(tip_axis)

        specs = goal_specs(tip_link, tip_links or ())
        self._server = InteractiveMarkerServer(self, self.get_fully_qualified_name())
        # One marker per tip of the IK node, each on its tip's target topic.
        self._cores: dict[str, GoalMarkerCore] = {}
        for spec in specs:
            self._cores[spec.marker_name] = GoalMarkerCore(
                self, base_link=base_link, tip_link=spec.tip, send_rate=send_rate,
                target_topic=spec.target_topic, status_topic=status_topic,
                robot_description=description, orientation_mode=orientation_mode,
                tip_axis=tip_axis,
                on_goal_reset=lambda pose, frame_id, name=spec.marker_name:
                    self._insert(name, pose, frame_id, Reachability.UNKNOWN),
                on_reachability=lambda reachability, name=spec.marker_name:
                    self._recolour(name, reachability),
                stream_goals=stream_goals, cartesian_path_service=path_service)
        # Right-click on the marker: a straight line of the tool to the goal, through the IK
        # node's ~/cartesian_path.
        self._menu = MenuHandler()
        self._menu.insert('Preview straight line to goal',
                          callback=lambda feedback: self._line(feedback, execute=False))
        self._menu.insert('Run straight line to goal',
                          callback=lambda feedback: self._line(feedback, execute=True))
        self.get_logger().info(
            'interactive marker server on %s (the namespace for RViz)'
            % self.get_fully_qualified_name())

    def _line(self, feedback: InteractiveMarkerFeedback, *, execute: bool) -> None:
        core = self._cores.get(feedback.marker_name)
        if core is not None:
            core.line_to_goal(execute=execute)

    def _recolour(self, name: str, reachability: Reachability) -> None:
        core = self._cores[name]
        pose = core.tracker.pose
        if pose is not None:
            self._insert(name, pose, core.frame_id, reachability)

    def _insert(self, name: str, pose: GoalPose, frame_id: str,
                reachability: Reachability) -> None:
        core = self._cores[name]
        marker = make_goal_marker(
            pose, frame_id=frame_id, reachability=reachability,
            colour=COLOURS[reachability], scale=self._scale,
            orientation_mode=core.orientation_mode, tip_axis=core.tip_axis)
        marker.name = name
        if len(self._cores) > 1:
            marker.description = '%s: %s' % (core.tip_link, marker.description)
        self._server.insert(marker, feedback_callback=self._on_feedback)
        self._menu.apply(self._server, marker.name)
        self._server.applyChanges()

    def _on_feedback(self, feedback: InteractiveMarkerFeedback) -> None:
        core = self._cores.get(feedback.marker_name)
        if core is None:
            return
        if feedback.event_type == InteractiveMarkerFeedback.POSE_UPDATE:
            core.drag(feedback.pose)
        elif feedback.event_type == InteractiveMarkerFeedback.MOUSE_UP:
            core.release(feedback.pose)

    def destroy_node(self) -> None:
        """Remove the marker from RViz, then destroy the node."""
        self._server.shutdown()
        super().destroy_node()


MISSING_PACKAGE_MESSAGE = (
    'goal_marker needs the ROS 2 package interactive_markers, which is not installed here '
    '(install ros-$ROS_DISTRO-interactive-markers, or rosdep key interactive_markers)')


def main(args: Optional[list[str]] = None) -> None:
    """
    Run the goal marker node until interrupted.

    :raises SystemExit: with one line naming the missing package when interactive_markers is
        not installed.
    """
    if _MISSING is not None:
        sys.exit('%s: %s' % (MISSING_PACKAGE_MESSAGE, _MISSING))
    run_node(GoalMarkerNode, args)
