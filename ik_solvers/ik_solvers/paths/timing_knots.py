# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Which points of a finely cut Cartesian path carry its timing: evenly spaced, at least a step apart.

Every point of a path is solved only to within the tolerances. Cut finer than a few tolerances,
a path's joint values no longer change smoothly from point to point (a point already within
tolerance of the next target stays where it is, and the next one catches up): the spline
through them bends hard at every point, and a timing that keeps the accelerations along it
crawls (a 9 cm line at 1,000 points took 17 s where 100 points took 0.45 s) or finds no timing
at all. The timing, and the trajectory sent, therefore go through a subset of the points: the
start, the end, each corner of the path (a waypoint its neighbours' straight move misses by more
than the tolerances, see :mod:`.path_corners`: a corner is never cut) and, in between, points
evenly spaced at least ``min_step`` of tip motion (or ``min_angle`` of tip rotation) apart. A
path cut coarser keeps every point; a finer cut of the same line, or the same line given as
more waypoints, keeps about the same points, so its timing depends neither on how finely it
was cut nor on how densely its waypoints were given.
"""

from typing import Optional, Tuple

import numpy as np

from .path_corners import path_corners
from .pose_errors import pose_errors

__all__ = ['timing_knots']


def timing_knots(targets: np.ndarray, segment_of_point: np.ndarray, *, min_step: float,
                 min_angle: float, position_tolerance: float = 0.0,
                 orientation_tolerance: float = 0.0, max_step: Optional[float] = None,
                 max_angle_step: Optional[float] = None) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the indices of the points the timing goes through.

    :param targets: (K, 4, 4) the tip poses of the points, in order, m.
    :param segment_of_point: (K,) the waypoint segment each point ends a step of (-1 for the
        start), as :class:`InterpolatedPath` gives it.
    :param min_step: m, > 0: least tip motion between two kept points.
    :param min_angle: rad, > 0: least tip rotation between two kept points (either suffices).
    :param position_tolerance: m, >= 0: a waypoint (a segment's end) within this distance of
        the straight move between the corners around it is not kept for being a waypoint.
    :param orientation_tolerance: rad, >= 0: the same for the tip's rotation; 0 and 0 keep
        every waypoint off the straight move by rounding.
    :param max_step: m, > 0, or None: the path's interpolation step. Between two corners the
        kept points are then no closer than the cut of that stretch into steps of at most
        ``max_step`` (and ``max_angle_step``, rad) would put them, however many waypoints
        the user gave along it: the same stretch given as two waypoints is cut into those
        steps. None: only ``min_step`` and ``min_angle`` bound the spacing.
    :param max_angle_step: rad, > 0: used with ``max_step``.
    :returns: ``(indices, parameters)``: (J,) increasing indices, the first and the last
        point always among them, and the share of the tip's travel (in those units) at each,
        from 0 to 1, strictly increasing when the tip moves between every two of them.
    """
    count = targets.shape[0]
    if count <= 2:
        return np.arange(count), np.linspace(0.0, 1.0, count)
    moved, turned = pose_errors(targets[1:], targets[:-1])
    # Travel in units of the least spacing; the points of one straight segment are evenly cut.
    travel = np.concatenate(([0.0], np.cumsum(np.maximum(moved / min_step,
                                                         turned / min_angle))))
    steps = None
    if max_step is not None and max_angle_step is not None:
        steps = np.concatenate(([0.0], np.cumsum(np.maximum(moved / max_step,
                                                            turned / max_angle_step))))
    segment = np.asarray(segment_of_point)[:count]
    ends = np.flatnonzero(segment[:-1] != segment[1:])
    ends = np.unique(np.concatenate(([0], ends, [count - 1])))
    corners = path_corners(targets[ends], travel[ends], position_tolerance=position_tolerance,
                           orientation_tolerance=orientation_tolerance)
    forced = ends[corners]
    kept = [forced]
    for first, last in zip(forced[:-1], forced[1:]):
        span = travel[last] - travel[first]
        parts = int(np.floor(span * (1.0 + 1e-9)))
        if steps is not None:  # as interpolate_path cuts a segment: the fewest steps
            parts = min(parts, int(np.ceil((steps[last] - steps[first]) * (1.0 - 1e-9))))
        if parts < 2 or last - first < 2:
            continue
        wanted = travel[first] + span * np.arange(1, parts) / parts
        # The point nearest each even share of the travel.
        above = np.clip(np.searchsorted(travel, wanted), first + 1, last)
        nearer_below = wanted - travel[above - 1] < travel[above] - wanted
        kept.append(np.clip(above - nearer_below, first + 1, last - 1))
    indices = np.unique(np.concatenate(kept))
    return indices, travel[indices] / max(travel[-1], 1e-300)
