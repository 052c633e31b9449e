# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Turning one variable of a tree: Welman's closed-form turn and the frames it carries along.

CCD turns each variable in turn, and FABRIK and length relaxation set the variables from the
root outward toward their points the same way; after each turn the frames below the joint
move rigidly (:func:`move_frames`) rather than by a forward kinematics of the whole tree.
"""

import math

import numpy as np

from .tree_goals import TreeGoals
from .tree_points import TreeKernel
from ..kinematics.jit import compiled
from ..kinematics.tree_kernels import tree_frames

__all__ = ['move_frames', 'turn_toward']


@compiled(leaf=True)
def move_frames(kernel: TreeKernel, v: int, change: float, q: np.ndarray,
                frames: np.ndarray) -> None:
    """
    Update ``frames`` after variable v moved by ``change`` (rad or m) to ``q[v]``.

    Every frame from v's joint outward on each tip's path turns rigidly about v's axis (or
    slides along it) instead of a forward kinematics of the whole tree: O(rows below v), not
    O(rows). A path where v drives several joints (a mimic) is recomputed whole.
    """
    arrays = kernel.arrays
    for t in range(arrays.starts.shape[0] - 1):
        first, last = arrays.starts[t], arrays.starts[t + 1] - 1
        count, at = 0, -1
        for j in range(first, last):
            if arrays.variable[j] == v:
                count += 1
                if at < 0:
                    at = j
        if count > 1:
            tree_frames(arrays, q, frames)
            return
    if change == 0.0:
        return
    for t in range(arrays.starts.shape[0] - 1):
        first, last = arrays.starts[t], arrays.starts[t + 1] - 1
        at = -1
        for j in range(first, last):
            if arrays.variable[j] == v:
                at = j
                break
        if at < 0:
            continue
        angle = change * arrays.motion[at, 0]
        ux, uy, uz = frames[at, 0, 2], frames[at, 1, 2], frames[at, 2, 2]
        ox, oy, oz = frames[at, 0, 3], frames[at, 1, 3], frames[at, 2, 3]
        if arrays.motion[at, 2] != 0.0:
            for j in range(at, last + 1):
                frames[j, 0, 3] += angle * ux
                frames[j, 1, 3] += angle * uy
                frames[j, 2, 3] += angle * uz
            continue
        cosine, sine = math.cos(angle), math.sin(angle)
        versine = 1.0 - cosine
        # Rodrigues' rotation about u through o.
        r00, r01, r02 = cosine + versine * ux * ux, versine * ux * uy - sine * uz, \
            versine * ux * uz + sine * uy
        r10, r11, r12 = versine * uy * ux + sine * uz, cosine + versine * uy * uy, \
            versine * uy * uz - sine * ux
        r20, r21, r22 = versine * uz * ux - sine * uy, versine * uz * uy + sine * ux, \
            cosine + versine * uz * uz
        for j in range(at, last + 1):
            for c in range(4):
                x, y, z = frames[j, 0, c], frames[j, 1, c], frames[j, 2, c]
                if c == 3:
                    x, y, z = x - ox, y - oy, z - oz
                nx = r00 * x + r01 * y + r02 * z
                ny = r10 * x + r11 * y + r12 * z
                nz = r20 * x + r21 * y + r22 * z
                if c == 3:
                    nx, ny, nz = nx + ox, ny + oy, nz + oz
                frames[j, 0, c], frames[j, 1, c], frames[j, 2, c] = nx, ny, nz


@compiled(leaf=True)
def _triple(ux: float, uy: float, uz: float, cx: float, cy: float, cz: float, dx: float,
            dy: float, dz: float) -> float:
    """Return u . (c x d)."""
    return ux * (cy * dz - cz * dy) + uy * (cz * dx - cx * dz) + uz * (cx * dy - cy * dx)


@compiled(leaf=True)
def turn_toward(kernel: TreeKernel, goals: TreeGoals, v: int, frames: np.ndarray,
                current: np.ndarray, desired: np.ndarray, use: np.ndarray,
                q: np.ndarray, radius: float) -> None:
    """
    Move variable v to Welman's optimum.

    That is the turn (or slide) about its own axis that best
    brings the used nodes below it from ``current`` to ``desired`` (tips weighted by their
    goal's weight) and the tips' frames below it toward their targets' orientations (scaled
    by the goals' length scale); the motion at most ``radius`` (rad; times the length scale
    for a slide, m), then clamped to the limits.
    """
    # Scalars only: this runs once per variable per iteration.
    n = kernel.gain.shape[0]
    row = kernel.arrays.joint_row[v]
    ux, uy, uz = frames[row, 0, 2], frames[row, 1, 2], frames[row, 2, 2]
    ox, oy, oz = frames[row, 0, 3], frames[row, 1, 3], frames[row, 2, 3]
    numerator, denominator, slide, weights = 0.0, 0.0, 0.0, 0.0
    for node in range(current.shape[0]):
        if not kernel.below[v, node] or not use[node]:
            continue
        weight = goals.weights[node - n] if node >= n else 1.0
        cx, cy, cz = current[node, 0] - ox, current[node, 1] - oy, current[node, 2] - oz
        dx, dy, dz = desired[node, 0] - ox, desired[node, 1] - oy, desired[node, 2] - oz
        numerator += weight * _triple(ux, uy, uz, cx, cy, cz, dx, dy, dz)
        denominator += weight * ((cx * dx + cy * dy + cz * dz)
                                 - (ux * cx + uy * cy + uz * cz) * (ux * dx + uy * dy + uz * dz))
        slide += weight * (ux * (dx - cx) + uy * (dy - cy) + uz * (dz - cz))
        weights += weight
    if kernel.prismatic[v] != 0.0:
        if weights > 0.0:
            reach = radius * goals.scale
            q[v] += min(max(slide / weights / kernel.gain[v], -reach), reach)
    else:
        for t in range(kernel.tip_rows.shape[0]):
            mode = goals.modes[t]
            if not kernel.below[v, n + t] or mode == 2:
                continue
            weight = goals.weights[t] * goals.scale * goals.scale
            pose, target = frames[kernel.tip_rows[t]], goals.targets[t]
            for k in range(3 if mode == 0 else 1):
                if mode == 1:
                    ax, ay, az = goals.axes[t, 0], goals.axes[t, 1], goals.axes[t, 2]
                    cx = pose[0, 0] * ax + pose[0, 1] * ay + pose[0, 2] * az
                    cy = pose[1, 0] * ax + pose[1, 1] * ay + pose[1, 2] * az
                    cz = pose[2, 0] * ax + pose[2, 1] * ay + pose[2, 2] * az
                    dx = target[0, 0] * ax + target[0, 1] * ay + target[0, 2] * az
                    dy = target[1, 0] * ax + target[1, 1] * ay + target[1, 2] * az
                    dz = target[2, 0] * ax + target[2, 1] * ay + target[2, 2] * az
                else:
                    cx, cy, cz = pose[0, k], pose[1, k], pose[2, k]
                    dx, dy, dz = target[0, k], target[1, k], target[2, k]
                numerator += weight * _triple(ux, uy, uz, cx, cy, cz, dx, dy, dz)
                denominator += weight * ((cx * dx + cy * dy + cz * dz)
                                         - (ux * cx + uy * cy + uz * cz)
                                         * (ux * dx + uy * dy + uz * dz))
        q[v] += min(max(math.atan2(numerator, denominator) / kernel.gain[v], -radius), radius)
    q[v] = min(max(q[v], kernel.lower[v]), kernel.upper[v])
