# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Straight lines between tip poses: linear in position, the shortest rotation in orientation.

A segment from pose A to pose B is cut into the fewest equal steps such that no step moves the
tip farther than ``max_step`` (m) nor turns it by more than ``max_angle_step`` (rad). Along a
segment the orientation turns about one fixed axis by a share of the angle proportional to the
step, the spherical linear interpolation of the two quaternions (the shorter of the two ways).
"""

from dataclasses import dataclass
import math
from typing import Any, List, Sequence

import numpy as np

from ..exceptions import InvalidPathError, InvalidStepError, TooManyPointsError
from ..solvers.pose_error import rotation_vector

__all__ = ['InterpolatedPath', 'check_pose', 'interpolate_path', 'RIGID_TOLERANCE']

#: Largest deviation of a waypoint's rotation block from an orthonormal matrix, and of its last
#: row from (0, 0, 0, 1).
RIGID_TOLERANCE = 1e-6
# A distance over a step that is a whole number up to rounding needs no extra step.
_STEP_ROUNDING = 1e-9
# Ends closer than this (m and rad) are one pose: a waypoint at the start's pose adds no point.
_COINCIDING = 1e-12
# Steps counted for one segment at most; any count this large is refused by max_points.
_MOST_STEPS = 2 ** 53


@dataclass(frozen=True)
class InterpolatedPath:
    """
    The tip poses of a path, start included.

    :ivar targets: (K, 4, 4) poses in the chain's base frame (m); ``targets[0]`` is the start.
    :ivar progress: (K,) the path's fraction achieved once point k is reached, by the rule of
        MoveIt's GetCartesianPath: each of the W waypoints' segments counts 1/W, a segment
        partly done counts the share of its steps reached.
    :ivar segment_steps: (W,) number of steps of each segment (0 when its ends coincide).
    :ivar segment_of_point: (K,) the segment each point ends a step of (-1 for the start).
    """

    targets: np.ndarray
    progress: np.ndarray
    segment_steps: np.ndarray
    segment_of_point: np.ndarray

    @property
    def num_points(self) -> int:
        """K, the number of poses, the start included."""
        return int(self.targets.shape[0])


def check_pose(pose: Any, name: str) -> np.ndarray:
    """
    Return ``pose`` as a (4, 4) float array after checking that it is a finite rigid transform.

    :param pose: Anything numpy turns into a 4x4 array.
    :param name: How the error message names it, e.g. ``'waypoint 3'``.
    :returns: A new (4, 4) array.
    :raises InvalidPathError: It has another shape, non-finite values, a last row other than
        (0, 0, 0, 1), or a rotation block that is not a proper rotation.
    """
    try:
        array = np.array(pose, dtype=float)
    except (TypeError, ValueError):
        raise InvalidPathError('%s must be a 4x4 array of numbers' % name) from None
    if array.shape != (4, 4):
        raise InvalidPathError('%s must be a 4x4 homogeneous transform, got shape %s'
                               % (name, array.shape))
    if not np.isfinite(array).all():
        raise InvalidPathError('%s has non-finite values' % name)
    if np.abs(array[3] - (0.0, 0.0, 0.0, 1.0)).max() > RIGID_TOLERANCE:
        raise InvalidPathError('the last row of %s must be [0, 0, 0, 1]' % name)
    rotation = array[:3, :3]
    if (np.abs(rotation.T @ rotation - np.eye(3)).max() > RIGID_TOLERANCE
            or np.linalg.det(rotation) < 0.0):
        raise InvalidPathError('the rotation block of %s is not a rotation' % name)
    return array


def _step_count(distance: float, angle: float, max_step: float, max_angle_step: float) -> int:
    if distance <= _COINCIDING and angle <= _COINCIDING:
        return 0  # the same pose up to rounding
    needed = max(distance / max_step, angle / max_angle_step)
    if not needed < _MOST_STEPS:  # a step of 5e-324 m: more than any path may have, not inf
        return _MOST_STEPS
    # Ends apart take one step at least, however long a step may be: the waypoint is a point.
    return max(1, int(math.ceil(needed - _STEP_ROUNDING)))


def _segment(start: np.ndarray, end: np.ndarray):
    """Return (distance m, rotation axis, angle rad) of the straight move start -> end."""
    distance = float(np.linalg.norm(end[:3, 3] - start[:3, 3]))
    # The rotation from start to end in the start's frame; its logarithm is the shorter way
    # round (an angle in [0, pi]).
    vector = rotation_vector(start[:3, :3].T @ end[:3, :3])
    angle = float(np.linalg.norm(vector))
    if angle == 0.0:
        return distance, np.array([1.0, 0.0, 0.0]), 0.0
    return distance, vector / angle, angle


def _segment_poses(start: np.ndarray, end: np.ndarray, axis: np.ndarray, angle: float,
                   steps: int) -> np.ndarray:
    """Return the (steps, 4, 4) poses after each step of the segment (start excluded)."""
    shares = np.arange(1, steps + 1, dtype=float) / steps
    poses = np.zeros((steps, 4, 4))
    poses[:, 3, 3] = 1.0
    poses[:, :3, 3] = start[:3, 3] + shares[:, None] * (end[:3, 3] - start[:3, 3])
    if angle == 0.0:
        poses[:, :3, :3] = start[:3, :3]
    else:
        cross = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]],
                          [-axis[1], axis[0], 0.0]])
        turns = shares * angle
        # Rodrigues' formula for a rotation by each share of the angle about the fixed axis,
        # applied to the start: R0 (I + sin t K + (1 - cos t) K^2), the products taken once.
        first = start[:3, :3] @ cross
        second = first @ cross
        poses[:, :3, :3] = (start[:3, :3] + np.sin(turns)[:, None, None] * first
                            + (1.0 - np.cos(turns))[:, None, None] * second)
    poses[-1] = end  # exactly the waypoint, not a rounded version of it
    return poses


def interpolate_path(start: np.ndarray, waypoints: Sequence[Any], *, max_step: float,
                     max_angle_step: float, max_points: int) -> InterpolatedPath:
    """
    Cut the straight lines start -> waypoint 0 -> waypoint 1 ... into steps.

    :param start: (4, 4) pose the path begins at (the tip's pose at the start configuration).
    :param waypoints: W >= 1 poses (4x4 each) in the same frame as ``start``.
    :param max_step: Largest distance of the tip between two points, m, > 0.
    :param max_angle_step: Largest rotation of the tip between two points, rad, > 0.
    :param max_points: Largest accepted number of points, the start included.
    :returns: The :class:`InterpolatedPath`.
    :raises InvalidPathError: No waypoints or a waypoint that is not a finite rigid transform;
        :class:`InvalidStepError` for a step that is not a finite positive number,
        :class:`TooManyPointsError` for more than ``max_points`` points.
    """
    for name, value in (('max_step', max_step), ('max_angle_step', max_angle_step)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not (
                math.isfinite(value) and value > 0.0):
            raise InvalidStepError('%s must be a finite positive number, got %r'
                                   % (name, value))
    if isinstance(waypoints, np.ndarray) and waypoints.ndim == 2:
        raise InvalidPathError('waypoints must be a sequence of 4x4 poses, not one pose')
    poses = [check_pose(pose, 'waypoint %d' % index) for index, pose in enumerate(waypoints)]
    if not poses:
        raise InvalidPathError('a path needs at least one waypoint')
    previous = check_pose(start, 'the start pose')
    segments = []
    for pose in poses:
        distance, axis, angle = _segment(previous, pose)
        segments.append((previous, pose, axis, angle,
                         _step_count(distance, angle, float(max_step), float(max_angle_step))))
        previous = pose
    total = 1 + sum(segment[4] for segment in segments)  # Python integers: no overflow
    if total > max_points:
        raise TooManyPointsError('the path would take %d points at max_step %g m and '
                                 'max_angle_step %g rad, more than max_points (%d)'
                                 % (total, max_step, max_angle_step, max_points))
    steps = np.array([segment[4] for segment in segments], dtype=int)
    targets: List[np.ndarray] = [segments[0][0][None]]
    progress: List[np.ndarray] = [np.zeros(1)]
    owner: List[np.ndarray] = [np.full(1, -1)]
    count = len(segments)
    for index, (begin, end, axis, angle, step_count) in enumerate(segments):
        if step_count == 0:  # coinciding ends: done as soon as the previous point is
            progress[-1][-1] = (index + 1.0) / count
            continue
        targets.append(_segment_poses(begin, end, axis, angle, step_count))
        progress.append((index + np.arange(1, step_count + 1) / step_count) / count)
        owner.append(np.full(step_count, index))
    progress_array = np.concatenate(progress)
    progress_array[-1] = 1.0  # the last point completes the path exactly, not up to rounding
    return InterpolatedPath(targets=np.concatenate(targets), progress=progress_array,
                            segment_steps=steps, segment_of_point=np.concatenate(owner))
