# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
RViz markers of a solve: the requested pose and the reached pose.

Each pose is an arrow along the frame's x axis, so both position and orientation show. The
reached pose is green when the solution is verified and red when it is not; when there is no
solution at all, the reached marker is deleted so that a stale one does not linger.
"""

from typing import Optional

from geometry_msgs.msg import Vector3
import numpy as np
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from .conversions import matrix_to_pose

__all__ = ['REACHED_NAMESPACE', 'TARGET_NAMESPACE', 'solve_markers']

TARGET_NAMESPACE = 'ik_target'
REACHED_NAMESPACE = 'ik_reached'

_TARGET_COLOUR = ColorRGBA(r=0.2, g=0.4, b=1.0, a=0.6)
_REACHED_COLOUR = ColorRGBA(r=0.1, g=0.8, b=0.1, a=1.0)
_MISSED_COLOUR = ColorRGBA(r=0.9, g=0.1, b=0.1, a=1.0)
# Metres: a 10 cm arrow is visible next to an arm without hiding the gripper.
_TARGET_SCALE = Vector3(x=0.10, y=0.012, z=0.012)
_REACHED_SCALE = Vector3(x=0.08, y=0.008, z=0.008)


def _arrow(namespace: str, frame_id: str, pose: np.ndarray, colour: ColorRGBA,
           scale: Vector3) -> Marker:
    marker = Marker()
    marker.header.frame_id = frame_id
    marker.ns = namespace
    marker.id = 0
    marker.type = Marker.ARROW
    marker.action = Marker.ADD
    marker.pose = matrix_to_pose(pose)
    marker.scale = scale
    marker.color = colour
    return marker


def solve_markers(frame_id: str, target: Optional[np.ndarray], reached: Optional[np.ndarray],
                  success: bool) -> MarkerArray:
    """
    Markers of one solve, in the chain's base frame.

    :param frame_id: The chain's base link.
    :param target: Requested tip pose (4, 4), or ``None`` when the target was unusable.
    :param reached: Tip pose of the solution by FK (4, 4), or ``None`` without a solution.
    :param success: Whether the solution is verified; picks green or red.
    :returns: Two markers (added or deleted), stamped with zero time ("latest available").
    """
    markers = MarkerArray()
    for namespace, pose, colour, scale in (
            (TARGET_NAMESPACE, target, _TARGET_COLOUR, _TARGET_SCALE),
            (REACHED_NAMESPACE, reached, _REACHED_COLOUR if success else _MISSED_COLOUR,
             _REACHED_SCALE)):
        if pose is None:
            marker = Marker(ns=namespace, id=0, action=Marker.DELETE)
            marker.header.frame_id = frame_id
        else:
            marker = _arrow(namespace, frame_id, pose, colour, scale)
        markers.markers.append(marker)
    return markers
