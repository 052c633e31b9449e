# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
RViz markers of a solve: the requested pose, the reached pose and what collides.

Each pose is an arrow along the frame's x axis, so both position and orientation show. The
reached pose shows one of three states: green when the target is reached (a verified solution),
yellow when the arm follows it approximately (``APPROXIMATE``: the closest configuration within
``max_joint_jump``), red when nothing was commanded for it (no solution, or one refused); when
there is no solution at all, the reached marker is deleted so that a stale one does not linger.
When the answer collides, a red sphere marks the frame of each link (or obstacle) in contact and
a red text names the pairs; the slots of a later answer without contact are deleted.
"""

import copy
import functools
from typing import List, Optional, Tuple

from geometry_msgs.msg import Pose, Vector3
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from .conversions import matrix_to_pose
from ..engine.error_codes import ErrorCode
from ..engine.outcome import CollisionVerdict, IKOutcome

__all__ = ['COLLISION_NAMESPACE', 'REACHED_NAMESPACE', 'TARGET_NAMESPACE', 'outcome_colour',
           'solve_markers']

TARGET_NAMESPACE = 'ik_target'
REACHED_NAMESPACE = 'ik_reached'
COLLISION_NAMESPACE = 'ik_collision'
#: Parts in contact drawn at most; always this many slots (added or deleted), plus the text.
MAX_COLLISION_MARKERS = 8
_COLLISION_SCALE = Vector3(x=0.08, y=0.08, z=0.08)
_TEXT_SCALE = Vector3(x=0.0, y=0.0, z=0.04)

_TARGET_COLOUR = ColorRGBA(r=0.2, g=0.4, b=1.0, a=0.6)
_REACHED_COLOUR = ColorRGBA(r=0.1, g=0.8, b=0.1, a=1.0)
_APPROXIMATE_COLOUR = ColorRGBA(r=0.95, g=0.8, b=0.1, a=1.0)
_MISSED_COLOUR = ColorRGBA(r=0.9, g=0.1, b=0.1, a=1.0)
# Metres: a 10 cm arrow is visible next to an arm without hiding the gripper.
_TARGET_SCALE = Vector3(x=0.10, y=0.012, z=0.012)
_REACHED_SCALE = Vector3(x=0.08, y=0.008, z=0.008)


def _arrow(namespace: str, frame_id: str, pose: Pose, colour: ColorRGBA,
           scale: Vector3) -> Marker:
    marker = Marker()
    marker.header.frame_id = frame_id
    marker.ns = namespace
    marker.id = 0
    marker.type = Marker.ARROW
    marker.action = Marker.ADD
    marker.pose = pose
    marker.scale = scale
    marker.color = colour
    return marker


def outcome_colour(outcome: IKOutcome) -> ColorRGBA:
    """
    Give the colour of the reached pose of an outcome.

    :param outcome: The outcome of a solve.
    :returns: Green for a verified solution, yellow for an approximate answer, red otherwise.
    """
    if outcome.success:
        return _REACHED_COLOUR
    if outcome.error_code == ErrorCode.APPROXIMATE:
        return _APPROXIMATE_COLOUR
    return _MISSED_COLOUR


@functools.lru_cache(maxsize=8)
def _deleted_slots(frame_id: str) -> Tuple[Marker, ...]:
    """
    Return the DELETE marker of every collision slot in ``frame_id``, built once.

    A streamed target's markers go out with every command (hundreds a second), almost always
    without contact: building the nine DELETE markers took most of the markers' time. They are
    never modified; a publication serialises them as they are.
    """
    slots = []
    for index in range(MAX_COLLISION_MARKERS + 1):
        marker = Marker(ns=COLLISION_NAMESPACE, id=index, action=Marker.DELETE)
        marker.header.frame_id = frame_id
        slots.append(marker)
    return tuple(slots)


def _collision_markers(frame_id: str, collision: CollisionVerdict,
                       reached: Optional[Pose]) -> List[Marker]:
    poses = collision.poses[:MAX_COLLISION_MARKERS] if collision.pairs else ()
    if not poses:
        return list(_deleted_slots(frame_id))
    markers = []
    for index in range(MAX_COLLISION_MARKERS + 1):
        marker = Marker(ns=COLLISION_NAMESPACE, id=index, action=Marker.DELETE)
        marker.header.frame_id = frame_id
        if index < len(poses):
            marker.type, marker.action = Marker.SPHERE, Marker.ADD
            marker.pose = matrix_to_pose(poses[index][1])
            marker.scale, marker.color = _COLLISION_SCALE, _MISSED_COLOUR
            marker.text = poses[index][0]
        elif index == MAX_COLLISION_MARKERS and poses and reached is not None:
            marker.type, marker.action = Marker.TEXT_VIEW_FACING, Marker.ADD
            marker.pose = copy.deepcopy(reached)
            marker.pose.position.z += 0.1  # above the tip, clear of the arrows
            marker.scale, marker.color = _TEXT_SCALE, _MISSED_COLOUR
            marker.text = 'collision: ' + ', '.join('%s - %s' % pair for pair in collision.pairs)
        markers.append(marker)
    return markers


def solve_markers(frame_id: str, target: Optional[Pose], reached: Optional[Pose],
                  success: bool, collision: CollisionVerdict = CollisionVerdict(), *,
                  colour: Optional[ColorRGBA] = None) -> MarkerArray:
    """
    Markers of one solve, in the chain's base frame.

    :param frame_id: The chain's base link.
    :param target: Requested tip pose, or ``None`` when the target was unusable.
    :param reached: Tip pose of the solution by FK, or ``None`` without a solution.
    :param success: Whether the solution is verified; picks green or red when ``colour`` is
        not given.
    :param collision: The collision check of the solution: the parts in contact are drawn.
    :param colour: The reached pose's colour (:func:`outcome_colour`), overriding ``success``.
    :returns: The two arrows and the collision slots (each added or deleted), stamped with zero
        time ("latest available").
    """
    if colour is None:
        colour = _REACHED_COLOUR if success else _MISSED_COLOUR
    markers = MarkerArray()
    for namespace, pose, pose_colour, scale in (
            (TARGET_NAMESPACE, target, _TARGET_COLOUR, _TARGET_SCALE),
            (REACHED_NAMESPACE, reached, colour, _REACHED_SCALE)):
        if pose is None:
            marker = Marker(ns=namespace, id=0, action=Marker.DELETE)
            marker.header.frame_id = frame_id
        else:
            marker = _arrow(namespace, frame_id, pose, pose_colour, scale)
        markers.markers.append(marker)
    markers.markers.extend(_collision_markers(frame_id, collision, reached))
    return markers
