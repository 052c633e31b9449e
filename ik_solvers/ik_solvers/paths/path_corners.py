# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Which waypoints of a path are corners: the ends the timing must pass through exactly.

A path given densely (a toolpath exported from CAD, a traced contour) puts a waypoint every few
micrometres along what is a straight line or a gentle curve. Every waypoint ends a segment, and
if each were a point the timing has to go through, a line cut into 2,000 waypoints 10 um apart
would be timed through its solved points' noise (each solved only to within the tolerances):
the joint path bends at every one of them and its timing crawls or fails.

A waypoint whose removal leaves the straight move between the neighbours kept around it within
the path's tolerances of it is no corner: the line between those neighbours passes it already.
The corners are found as Ramer, Douglas and Peucker simplify a polyline: the two ends first,
then, between two kept ends, the waypoint farthest from the straight move between them (position
in m against ``position_tolerance``, rotation against ``orientation_tolerance``, each waypoint
compared with the pose at its share of the travel between the two), kept when it lies outside
either tolerance, until every dropped waypoint lies within both.
"""

from typing import List, Tuple

import numpy as np

from ..solvers.pose_error import rotation_vector
from .pose_errors import pose_errors

__all__ = ['path_corners']


def _between(start: np.ndarray, end: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """Return the (S, 4, 4) poses at ``shares`` of the straight move start -> end."""
    poses = np.zeros((shares.size, 4, 4))
    poses[:, 3, 3] = 1.0
    poses[:, :3, 3] = start[:3, 3] + shares[:, None] * (end[:3, 3] - start[:3, 3])
    vector = rotation_vector(start[:3, :3].T @ end[:3, :3])
    angle = float(np.linalg.norm(vector))
    if angle == 0.0:
        poses[:, :3, :3] = start[:3, :3]
        return poses
    axis = vector / angle
    cross = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]],
                      [-axis[1], axis[0], 0.0]])
    first = start[:3, :3] @ cross
    second = first @ cross
    turns = shares * angle
    poses[:, :3, :3] = (start[:3, :3] + np.sin(turns)[:, None, None] * first
                        + (1.0 - np.cos(turns))[:, None, None] * second)
    return poses


def path_corners(poses: np.ndarray, travel: np.ndarray, *, position_tolerance: float,
                 orientation_tolerance: float) -> np.ndarray:
    """
    Return the indices of the poses a simplified path keeps: its ends and its corners.

    :param poses: (E, 4, 4) the path's start and its segments' end poses, in order, m.
    :param travel: (E,) the tip's travel to each of them along the path, non-decreasing, in
        any unit (the share of it between two kept poses places a pose on their straight move).
    :param position_tolerance: m, >= 0: a pose farther from the straight move is a corner.
    :param orientation_tolerance: rad, >= 0: a pose turned farther from it is a corner.
    :returns: (C,) increasing indices, 0 and E - 1 among them (just 0 when E == 1).
    """
    count = poses.shape[0]
    if count <= 2:
        return np.arange(count)
    kept = np.zeros(count, dtype=bool)
    kept[0] = kept[-1] = True
    spans: List[Tuple[int, int]] = [(0, count - 1)]
    while spans:
        first, last = spans.pop()
        if last - first < 2:
            continue
        span = travel[last] - travel[first]
        inner = np.arange(first + 1, last)
        shares = (travel[inner] - travel[first]) / span if span > 0.0 else np.zeros(inner.size)
        expected = _between(poses[first], poses[last], np.clip(shares, 0.0, 1.0))
        moved, turned = pose_errors(poses[inner], expected)
        outside = np.maximum(moved / max(position_tolerance, 1e-300),
                             turned / max(orientation_tolerance, 1e-300))
        worst = int(np.argmax(outside))
        if outside[worst] <= 1.0:
            continue
        middle = int(inner[worst])
        kept[middle] = True
        spans.append((first, middle))
        spans.append((middle, last))
    return np.flatnonzero(kept)
