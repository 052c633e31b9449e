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
start, the end of each waypoint's segment (a corner is never cut) and, in between, points
evenly spaced at least ``min_step`` of tip motion (or ``min_angle`` of tip rotation) apart. A
path cut coarser keeps every point; a finer cut of the same line keeps about the same points,
so its timing no longer depends on how finely it was cut.
"""

from typing import Tuple

import numpy as np

from .pose_errors import pose_errors

__all__ = ['timing_knots']


def timing_knots(targets: np.ndarray, segment_of_point: np.ndarray, *, min_step: float,
                 min_angle: float) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the indices of the points the timing goes through.

    :param targets: (K, 4, 4) the tip poses of the points, in order, m.
    :param segment_of_point: (K,) the waypoint segment each point ends a step of (-1 for the
        start), as :class:`InterpolatedPath` gives it.
    :param min_step: m, > 0: least tip motion between two kept points.
    :param min_angle: rad, > 0: least tip rotation between two kept points (either suffices).
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
    segment = np.asarray(segment_of_point)[:count]
    ends = np.flatnonzero(segment[:-1] != segment[1:])
    forced = np.unique(np.concatenate(([0], ends, [count - 1])))
    kept = [forced]
    for first, last in zip(forced[:-1], forced[1:]):
        span = travel[last] - travel[first]
        parts = int(np.floor(span * (1.0 + 1e-9)))
        if parts < 2 or last - first < 2:
            continue
        wanted = travel[first] + span * np.arange(1, parts) / parts
        # The point nearest each even share of the travel.
        above = np.clip(np.searchsorted(travel, wanted), first + 1, last)
        nearer_below = wanted - travel[above - 1] < travel[above] - wanted
        kept.append(np.clip(above - nearer_below, first + 1, last - 1))
    indices = np.unique(np.concatenate(kept))
    return indices, travel[indices] / max(travel[-1], 1e-300)
