# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The goal's interactive marker message: a coloured sphere plus three move and three rotate rings.

Only message building lives here, so that it needs visualization_msgs and not the
interactive_markers library.
"""

from __future__ import annotations

import math

from geometry_msgs.msg import Pose, Quaternion
from visualization_msgs.msg import InteractiveMarker, InteractiveMarkerControl, Marker

from .goal_tracker import GoalPose, Reachability

__all__ = ['GOAL_MARKER_NAME', 'make_goal_marker', 'pose_from_message', 'pose_to_message']

GOAL_MARKER_NAME = 'ik_goal'

_HALF_SQRT2 = math.sqrt(0.5)
# Control frames whose x axis is the base x, y and z axis: the interactive marker convention
# is that a control moves along and rotates about its own x axis.
_AXES = {
    'x': Quaternion(x=_HALF_SQRT2, y=0.0, z=0.0, w=_HALF_SQRT2),
    'y': Quaternion(x=0.0, y=0.0, z=_HALF_SQRT2, w=_HALF_SQRT2),
    'z': Quaternion(x=0.0, y=_HALF_SQRT2, z=0.0, w=_HALF_SQRT2),
}


def pose_to_message(pose: GoalPose) -> Pose:
    """Convert a :class:`GoalPose` to a geometry_msgs/Pose."""
    message = Pose()
    message.position.x, message.position.y, message.position.z = pose.position
    (message.orientation.x, message.orientation.y, message.orientation.z,
     message.orientation.w) = pose.orientation
    return message


def pose_from_message(message: Pose) -> GoalPose:
    """
    Convert a geometry_msgs/Pose to a :class:`GoalPose`, normalising the quaternion.

    :raises ValueError: a value is not finite or the quaternion is zero.
    """
    orientation = message.orientation
    return GoalPose.from_values(
        (message.position.x, message.position.y, message.position.z),
        (orientation.x, orientation.y, orientation.z, orientation.w))


def make_goal_marker(
    pose: GoalPose,
    *,
    frame_id: str,
    reachability: Reachability,
    colour: tuple[float, float, float, float],
    scale: float = 0.2,
) -> InteractiveMarker:
    """
    Build the 6-DOF goal marker.

    :param pose: where it is, in ``frame_id``.
    :param frame_id: the chain's base link.
    :param reachability: shown in the marker's description.
    :param colour: red, green, blue, alpha in [0, 1] of the central sphere.
    :param scale: size of the rings and arrows in metres; the sphere is a quarter of it.
    :raises ValueError: ``scale`` is not a positive number.
    """
    if not (math.isfinite(scale) and scale > 0.0):
        raise ValueError('scale must be a positive number of metres, got %r' % scale)
    marker = InteractiveMarker()
    marker.header.frame_id = frame_id
    marker.name = GOAL_MARKER_NAME
    marker.description = 'IK goal (%s)' % reachability.value
    marker.scale = float(scale)
    marker.pose = pose_to_message(pose)

    sphere = Marker()
    sphere.type = Marker.SPHERE
    sphere.scale.x = sphere.scale.y = sphere.scale.z = 0.25 * scale
    sphere.color.r, sphere.color.g, sphere.color.b, sphere.color.a = colour
    body = InteractiveMarkerControl()
    body.name = 'move_rotate_3d'
    body.interaction_mode = InteractiveMarkerControl.MOVE_ROTATE_3D
    body.always_visible = True
    body.markers.append(sphere)
    marker.controls.append(body)

    for axis, orientation in _AXES.items():
        for mode, prefix in ((InteractiveMarkerControl.MOVE_AXIS, 'move_'),
                             (InteractiveMarkerControl.ROTATE_AXIS, 'rotate_')):
            control = InteractiveMarkerControl()
            control.name = prefix + axis
            control.orientation = orientation
            control.interaction_mode = mode
            marker.controls.append(control)
    return marker
