# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The goal's interactive marker message, shaped by the orientation mode.

``full``: a coloured sphere with three move arrows and three rotate rings (6-DOF).
``axis``: a coloured arrow along the target direction of the tip axis, three move arrows and
two rings that tilt the arrow; spinning about the arrow would change nothing the goal means.
``none``: a coloured sphere with three move arrows.

Only message building lives here, so that it needs visualization_msgs and not the
interactive_markers library.
"""

from __future__ import annotations

import math
from typing import Sequence

from geometry_msgs.msg import Point, Pose, Quaternion
from visualization_msgs.msg import InteractiveMarker, InteractiveMarkerControl, Marker

from .goal_marker_mode import (check_orientation_mode, check_tip_axis, DEFAULT_TIP_AXIS,
                               perpendicular_axes, rotation_taking_x_to)
from .goal_tracker import GoalPose, Reachability

__all__ = ['GOAL_MARKER_NAME', 'control_names', 'make_goal_marker', 'pose_from_message',
           'pose_to_message']

GOAL_MARKER_NAME = 'ik_goal'

_HALF_SQRT2 = math.sqrt(0.5)
# Control frames whose x axis is the base x, y and z axis: the interactive marker convention
# is that a control moves along and rotates about its own x axis.
_AXES = {
    'x': Quaternion(x=_HALF_SQRT2, y=0.0, z=0.0, w=_HALF_SQRT2),
    'y': Quaternion(x=0.0, y=0.0, z=_HALF_SQRT2, w=_HALF_SQRT2),
    'z': Quaternion(x=0.0, y=_HALF_SQRT2, z=0.0, w=_HALF_SQRT2),
}
# The arrow of axis mode, as fractions of the marker scale: long enough to read its direction
# beyond the rings' centre, thin enough not to hide the tip.
_ARROW_LENGTH = 0.75
_ARROW_SHAFT = 0.05
_ARROW_HEAD = 0.12
_ARROW_HEAD_LENGTH = 0.2
_SPHERE = 0.25


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


def control_names(orientation_mode: str) -> tuple[str, ...]:
    """
    Names of the controls the goal marker has in an orientation mode, the body first.

    :param orientation_mode: ``'full'``, ``'axis'`` or ``'none'``.
    :returns: e.g. ``('move_3d', 'move_x', 'move_y', 'move_z')`` for ``'none'``.
    :raises ValueError: unknown ``orientation_mode``.
    """
    mode = check_orientation_mode(orientation_mode)
    moves = tuple('move_' + axis for axis in _AXES)
    if mode == 'full':
        return ('move_rotate_3d',) + tuple(
            prefix + axis for axis in _AXES for prefix in ('move_', 'rotate_'))
    if mode == 'axis':
        return ('move_3d',) + moves + ('tilt_u', 'tilt_v')
    return ('move_3d',) + moves


def make_goal_marker(
    pose: GoalPose,
    *,
    frame_id: str,
    reachability: Reachability,
    colour: tuple[float, float, float, float],
    scale: float = 0.2,
    orientation_mode: str = 'full',
    tip_axis: Sequence[float] = DEFAULT_TIP_AXIS,
) -> InteractiveMarker:
    """
    Build the goal marker: 6-DOF, an arrow to tilt and move, or a point to move.

    :param pose: where it is, in ``frame_id``.
    :param frame_id: the chain's base link.
    :param reachability: shown in the marker's description.
    :param colour: red, green, blue, alpha in [0, 1] of the central sphere or the arrow.
    :param scale: size of the rings and arrows in metres; the sphere is a quarter of it, the
        axis-mode arrow three quarters.
    :param orientation_mode: ``'full'`` (6-DOF pose), ``'axis'`` (the tip axis along an arrow,
        spin free) or ``'none'`` (position only).
    :param tip_axis: in axis mode, the tip's axis in the tip frame; the arrow points along the
        marker's rotation applied to it. Any non-zero length.
    :returns: the marker, with controls named as :func:`control_names` lists them.
    :raises ValueError: ``scale`` is not a positive number, or ``orientation_mode`` or
        ``tip_axis`` is invalid.
    """
    if not (math.isfinite(scale) and scale > 0.0):
        raise ValueError('scale must be a positive number of metres, got %r' % scale)
    mode = check_orientation_mode(orientation_mode)
    axis = check_tip_axis(tip_axis)
    marker = InteractiveMarker()
    marker.header.frame_id = frame_id
    marker.name = GOAL_MARKER_NAME
    marker.description = 'IK goal (%s)' % reachability.value
    marker.scale = float(scale)
    marker.pose = pose_to_message(pose)

    body = InteractiveMarkerControl()
    body.always_visible = True
    if mode == 'axis':
        body.markers.append(_arrow(axis, scale, colour))
    else:
        body.markers.append(_sphere(scale, colour))
    if mode == 'full':
        body.name = 'move_rotate_3d'
        body.interaction_mode = InteractiveMarkerControl.MOVE_ROTATE_3D
    else:
        # Free 3-D rotation by mouse would spin the arrow, or turn what is not a goal at all.
        body.name = 'move_3d'
        body.interaction_mode = InteractiveMarkerControl.MOVE_3D
    marker.controls.append(body)

    for name, orientation in _AXES.items():
        move = _control('move_' + name, orientation, InteractiveMarkerControl.MOVE_AXIS)
        if mode != 'full':
            # Without a full orientation the marker frame's spin means nothing, so the arrows
            # move along the base axes; in full mode they follow the tool, as before.
            move.orientation_mode = InteractiveMarkerControl.FIXED
        marker.controls.append(move)
        if mode == 'full':
            marker.controls.append(
                _control('rotate_' + name, orientation, InteractiveMarkerControl.ROTATE_AXIS))
    if mode == 'axis':
        # Inherited orientation: the rings turn with the marker, so they stay perpendicular to
        # the arrow however it is tilted.
        for name, tilt_axis in zip(('tilt_u', 'tilt_v'), perpendicular_axes(axis)):
            marker.controls.append(_control(
                name, Quaternion(**dict(zip('xyzw', rotation_taking_x_to(tilt_axis)))),
                InteractiveMarkerControl.ROTATE_AXIS))
    return marker


def _control(name: str, orientation: Quaternion, interaction_mode: int
             ) -> InteractiveMarkerControl:
    control = InteractiveMarkerControl()
    control.name = name
    control.orientation = orientation
    control.interaction_mode = interaction_mode
    return control


def _sphere(scale: float, colour: tuple[float, float, float, float]) -> Marker:
    sphere = Marker()
    sphere.type = Marker.SPHERE
    sphere.scale.x = sphere.scale.y = sphere.scale.z = _SPHERE * scale
    sphere.color.r, sphere.color.g, sphere.color.b, sphere.color.a = colour
    return sphere


def _arrow(tip_axis: tuple[float, float, float], scale: float,
           colour: tuple[float, float, float, float]) -> Marker:
    """Arrow from the goal's position along ``tip_axis``, in the marker's own frame."""
    arrow = Marker()
    arrow.type = Marker.ARROW
    # With two points, scale is the shaft diameter, the head diameter and the head length.
    arrow.points = [Point(x=0.0, y=0.0, z=0.0),
                    Point(**dict(zip('xyz', (_ARROW_LENGTH * scale * c for c in tip_axis))))]
    arrow.scale.x = _ARROW_SHAFT * scale
    arrow.scale.y = _ARROW_HEAD * scale
    arrow.scale.z = _ARROW_HEAD_LENGTH * scale
    arrow.color.r, arrow.color.g, arrow.color.b, arrow.color.a = colour
    return arrow
