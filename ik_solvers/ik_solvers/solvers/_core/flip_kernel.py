# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The branch flips of one solution (elbow, wrist, shoulder), compiled.

The geometry is described in :mod:`ik_solvers.solvers.branch_flips`, which finds the chain's
structure once and calls :func:`flip_starts`. Plain float maths per solution: in Python the
flips cost about half of a ``solve_many`` call on a UR, compiled a few microseconds. Vectors
are (3,) arrays in the base frame, lengths in m, angles in rad.
"""

import math

import numpy as np

from ...kinematics.jit import compiled
from ...kinematics.kernels import ChainArrays, forward_frames

__all__ = ['flip_starts']

_TURN = 2.0 * math.pi


@compiled
def _axes_points(chain: ChainArrays, q: np.ndarray):
    """Return the joints' axes and points (N + 1, 3), the tip's last, and the tip pose."""
    frames = np.empty((chain.segments.shape[0], 4, 4))
    forward_frames(chain, q, frames)
    size = q.shape[0]
    tip = frames.shape[0] - 1
    axes = np.empty((size + 1, 3))
    points = np.empty((size + 1, 3))
    for i in range(size + 1):
        row = chain.joint_segment[i] if i < size else tip
        for k in range(3):
            axes[i, k] = frames[row, k, 2]
            points[i, k] = frames[row, k, 3]
    return axes, points, frames[tip].copy()


@compiled
def _dot(a: np.ndarray, b: np.ndarray) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@compiled
def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.array((a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]))


@compiled
def _signed_angle(first: np.ndarray, second: np.ndarray, axis: np.ndarray) -> float:
    """Return the angle (rad) turning ``first`` onto ``second`` about the unit ``axis``."""
    return math.atan2(_dot(axis, _cross(first, second)), _dot(first, second))


@compiled
def _flat(vector: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """Return ``vector`` less its component along the unit ``normal``."""
    return vector - _dot(normal, vector) * normal


@compiled
def _rotated(vector: np.ndarray, axis: np.ndarray, angle: float) -> np.ndarray:
    """Return ``vector`` turned by ``angle`` (rad) about the unit ``axis``."""
    cosine, sine = math.cos(angle), math.sin(angle)
    along = _dot(axis, vector) * (1.0 - cosine)
    return vector * cosine + _cross(axis, vector) * sine + axis * along


@compiled
def _planar(seed: np.ndarray, axes: np.ndarray, points: np.ndarray, index: int,
            goal: np.ndarray, mirror: bool) -> np.ndarray:
    """Move the parallel pair ``index``, ``index + 1`` so that the pair's end reaches ``goal``."""
    size = seed.shape[0]
    normal = axes[index]
    upper_arm = _flat(points[index + 1] - points[index], normal)
    forearm = _flat(points[index + 2] - points[index + 1], normal)
    reach = _flat(goal - points[index], normal)
    upper = math.sqrt(_dot(upper_arm, upper_arm))
    lower = math.sqrt(_dot(forearm, forearm))
    distance = math.sqrt(_dot(reach, reach))
    result = seed.copy()
    if min(upper, lower, distance) < 1e-12:
        return result
    bend = _signed_angle(upper_arm, forearm, normal)
    cosine = (distance * distance - upper * upper - lower * lower) / (2.0 * upper * lower)
    new_bend = math.copysign(math.acos(max(-1.0, min(1.0, cosine))), -bend if mirror else bend)
    # The upper arm's angle from the reach line, then the turn from where it is.
    wanted = -math.atan2(lower * math.sin(new_bend), upper + lower * math.cos(new_bend))
    turn = wanted - _signed_angle(reach, upper_arm, normal)
    change = new_bend - bend
    result[index] += turn * _dot(axes[index], normal)
    result[index + 1] += change * _dot(axes[index + 1], normal)
    if index + 2 < size:
        third = _dot(axes[index + 2], normal)
        if abs(abs(third) - 1.0) < 1e-9:
            # About the common axis the turns add up: the third takes back the other two.
            result[index + 2] -= (turn + change) * third
    return result


@compiled
def _replanar(chain: ChainArrays, seed: np.ndarray, points: np.ndarray,
              index: int) -> np.ndarray:
    """Move the pair ``index`` of ``seed`` so that the tip is where ``points`` has it again."""
    moved_axes, moved, _ = _axes_points(chain, seed)
    goal = moved[index + 2] + points[-1] - moved[-1]
    return _planar(seed, moved_axes, moved, index, goal, False)


@compiled
def _shoulder_flip(chain: ChainArrays, first: int, shoulder_joint: bool, has_wrist: bool,
                   wrist_point: np.ndarray, run_end: int, values: np.ndarray,
                   axes: np.ndarray, points: np.ndarray, tip: np.ndarray) -> np.ndarray:
    """Return the shoulder flip of ``values`` (see :mod:`ik_solvers.solvers.branch_flips`)."""
    size = values.shape[0]
    seed = values.copy()
    if first == 0 or not shoulder_joint or not has_wrist:
        if first > 0:
            seed[first - 1] += math.pi
        seed[first] = -math.pi - values[first]
        for i in range(first + 1, size):
            seed[i] = -values[i]
        return seed
    axis = axes[first - 1]
    wrist = np.empty(3)
    for k in range(3):
        wrist[k] = (tip[k, 0] * wrist_point[0] + tip[k, 1] * wrist_point[1]
                    + tip[k, 2] * wrist_point[2] + tip[k, 3] - points[first - 1, k])
    wrist = _flat(wrist, axis)
    if _dot(wrist, wrist) < 1e-18:
        seed[first - 1] += math.pi
        return seed
    # The run's normal mirrored across the wrist's direction keeps the wrist's distance from
    # the run's plane.
    shoulder = -2.0 * _signed_angle(wrist, axes[first], axis)
    seed[first - 1] += shoulder
    if run_end + 3 != size:
        return seed
    normal = _rotated(axes[first], axis, shoulder)
    middle, last = axes[size - 2], axes[size - 1]
    # Turning the wrist's first joint by d gives the last axis' cosine to the run's normal
    # cosine * cos(d) + sine * sin(d) + fixed; the mirrored normal must see it unchanged.
    current = axes[first]
    fixed = _dot(middle, current) * _dot(middle, last)
    cosine = _dot(current, last) - fixed
    sine = _dot(current, _cross(middle, last))
    wanted = _dot(normal, last) - fixed
    amplitude = math.hypot(cosine, sine)
    if amplitude < 1e-12:
        return seed
    phase = math.atan2(sine, cosine)
    spread = math.acos(max(-1.0, min(1.0, wanted / amplitude)))
    # Of the two wrist angles, the one farther from the current (the other is its wrist flip
    # after the shoulder's, found by the flips of that solution).
    turn = phase + spread if abs(phase + spread) >= abs(phase - spread) else phase - spread
    seed[size - 2] += turn
    # The joints' turns, in the current base-frame axes, the downstream one first.
    tip_x = tip[:3, 0].copy()
    moved_last = _rotated(_rotated(last, middle, turn), axis, shoulder)
    moved_x = _rotated(_rotated(tip_x, middle, turn), axis, shoulder)
    run = _signed_angle(_flat(moved_last, normal), _flat(last, normal), normal)
    seed[run_end] += run * _dot(axes[run_end], axes[first])
    moved_x = _rotated(moved_x, normal, run)
    seed[size - 1] += _signed_angle(moved_x, tip_x, last) * _dot(axes[size - 1], last)
    return _replanar(chain, seed, points, first)


@compiled
def flip_starts(chain: ChainArrays, q: np.ndarray, pairs: np.ndarray, has_wrist: bool,
                wrist_point: np.ndarray, shoulder_joint: bool, run_end: int, skip: int,
                lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """
    Return the flips of ``q`` (K, N): each pair's elbow, the wrist, the shoulder, in order.

    :param chain: the chain.
    :param q: (N,) a solution, rad or m.
    :param pairs: (P,) int64 first joint of each run of parallel revolute axes.
    :param has_wrist: whether the last two axes meet (``wrist_point`` is that point in the tip
        frame, (3,) m).
    :param shoulder_joint: whether the joint before the first run is a revolute perpendicular
        to it; ``run_end`` the last joint of the first run (-1: none).
    :param skip: index of a flip (in the order above) not to make; -1 makes all.
    :param lower: (N,) lower limits; ``upper`` (N,) upper ones: each flip is moved into them
        by whole turns where that suffices, else clamped.
    """
    size = q.shape[0]
    values = q.astype(np.float64)
    axes, points, tip = _axes_points(chain, values)
    kinds = pairs.shape[0] + (1 if size >= 3 else 0) + (1 if pairs.shape[0] > 0 else 0)
    seeds = np.empty((kinds, size))
    count = 0
    kind = 0
    for p in range(pairs.shape[0]):
        if kind != skip:
            index = pairs[p]
            seeds[count] = _planar(values, axes, points, index, points[index + 2], True)
            count += 1
        kind += 1
    if size >= 3:
        if kind != skip:
            seed = values.copy()
            seed[size - 3] += math.pi
            seed[size - 2] = -seed[size - 2]
            seed[size - 1] += math.pi
            if pairs.shape[0] > 0:
                # The orientation is kept; the flipped wrist moved the tip: the planar pair
                # takes it back (the links after the pair move along).
                seed = _replanar(chain, seed, points, pairs[pairs.shape[0] - 1])
            seeds[count] = seed
            count += 1
        kind += 1
    if pairs.shape[0] > 0 and kind != skip:
        seeds[count] = _shoulder_flip(chain, pairs[0], shoulder_joint, has_wrist, wrist_point,
                                      run_end, values, axes, points, tip)
        count += 1
    seeds = seeds[:count]
    for row in range(count):
        for i in range(size):
            value = seeds[row, i]
            if value > upper[i]:
                value -= _TURN
            if value < lower[i]:
                value += _TURN
            seeds[row, i] = min(max(value, lower[i]), upper[i])
    return seeds
