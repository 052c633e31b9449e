# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compiled placement of every collision shape and the pairs whose bounding boxes overlap.

One compiled call per check: forward kinematics of the chain, each shape's pose (a constant
offset from the frame of the last chain joint above its link), and a separating-axis test of
the shapes' oriented bounding boxes, grown by the padding, for every pair that is checked.
Only the pairs it keeps go to the exact check (:mod:`.model`); the boxes contain the shapes, so
no contact is lost. Most pairs of an arm are far apart at most configurations: the exact check
then runs on a handful of pairs instead of every one.
"""

import numpy as np

from ..kinematics.jit import compiled
from ..kinematics.kernels import ChainArrays, forward_frames

__all__ = ['place_and_select', 'boxes_overlap']


@compiled
def boxes_overlap(pose_a: np.ndarray, center_a: np.ndarray, half_a: np.ndarray,
                  pose_b: np.ndarray, center_b: np.ndarray, half_b: np.ndarray,
                  margin: float, scratch: np.ndarray) -> bool:
    """
    Whether two oriented boxes, each grown by ``margin`` (m), overlap (separating axes).

    Box k is centred at ``center_k`` in the frame ``pose_k`` (4x4, base frame), its edges
    along that frame's axes, half lengths ``half_k`` (m). ``scratch`` is a (2, 3, 3) work array
    (no allocation per pair).
    """
    r = scratch[0]
    absolute = scratch[1]
    # Centres in the base frame, their offset d, then t = d in a's frame; r is b's rotation in
    # a's frame; its absolute value is guarded against parallel edges.
    d0 = d1 = d2 = 0.0
    for i in range(3):
        cb = (pose_b[i, 0] * center_b[0] + pose_b[i, 1] * center_b[1]
              + pose_b[i, 2] * center_b[2] + pose_b[i, 3])
        ca = (pose_a[i, 0] * center_a[0] + pose_a[i, 1] * center_a[1]
              + pose_a[i, 2] * center_a[2] + pose_a[i, 3])
        if i == 0:
            d0 = cb - ca
        elif i == 1:
            d1 = cb - ca
        else:
            d2 = cb - ca
    t0 = pose_a[0, 0] * d0 + pose_a[1, 0] * d1 + pose_a[2, 0] * d2
    t1 = pose_a[0, 1] * d0 + pose_a[1, 1] * d1 + pose_a[2, 1] * d2
    t2 = pose_a[0, 2] * d0 + pose_a[1, 2] * d1 + pose_a[2, 2] * d2
    for i in range(3):
        for j in range(3):
            value = (pose_a[0, i] * pose_b[0, j] + pose_a[1, i] * pose_b[1, j]
                     + pose_a[2, i] * pose_b[2, j])
            r[i, j] = value
            absolute[i, j] = abs(value) + 1e-9
    ea0, ea1, ea2 = half_a[0] + margin, half_a[1] + margin, half_a[2] + margin
    eb0, eb1, eb2 = half_b[0] + margin, half_b[1] + margin, half_b[2] + margin
    # a's three face axes.
    if abs(t0) > ea0 + eb0 * absolute[0, 0] + eb1 * absolute[0, 1] + eb2 * absolute[0, 2]:
        return False
    if abs(t1) > ea1 + eb0 * absolute[1, 0] + eb1 * absolute[1, 1] + eb2 * absolute[1, 2]:
        return False
    if abs(t2) > ea2 + eb0 * absolute[2, 0] + eb1 * absolute[2, 1] + eb2 * absolute[2, 2]:
        return False
    # b's three face axes.
    for j in range(3):
        eb = eb0 if j == 0 else (eb1 if j == 1 else eb2)
        projection = t0 * r[0, j] + t1 * r[1, j] + t2 * r[2, j]
        if abs(projection) > (ea0 * absolute[0, j] + ea1 * absolute[1, j]
                              + ea2 * absolute[2, j] + eb):
            return False
    # The nine cross products of an edge of a with an edge of b.
    for i in range(3):
        i1 = (i + 1) % 3
        i2 = (i + 2) % 3
        ta1 = t0 if i1 == 0 else (t1 if i1 == 1 else t2)
        ta2 = t0 if i2 == 0 else (t1 if i2 == 1 else t2)
        ea_1 = ea0 if i1 == 0 else (ea1 if i1 == 1 else ea2)
        ea_2 = ea0 if i2 == 0 else (ea1 if i2 == 1 else ea2)
        for j in range(3):
            j1 = (j + 1) % 3
            j2 = (j + 2) % 3
            eb_1 = eb0 if j1 == 0 else (eb1 if j1 == 1 else eb2)
            eb_2 = eb0 if j2 == 0 else (eb1 if j2 == 1 else eb2)
            projection = abs(ta2 * r[i1, j] - ta1 * r[i2, j])
            reach = (ea_1 * absolute[i2, j] + ea_2 * absolute[i1, j]
                     + eb_1 * absolute[i, j2] + eb_2 * absolute[i, j1])
            if projection > reach:
                return False
    return True


@compiled
def place_and_select(chain: ChainArrays, q: np.ndarray, frames: np.ndarray, rows: np.ndarray,
                     offsets: np.ndarray, centers: np.ndarray, halves: np.ndarray,
                     pairs: np.ndarray, margin: float, poses: np.ndarray,
                     rotations: np.ndarray, translations: np.ndarray,
                     selected: np.ndarray) -> int:
    """
    Pose every moving shape at ``q`` and list the pairs whose grown boxes overlap.

    :param chain: the chain's arrays.
    :param q: (N,) configuration, rad or m.
    :param frames: (M + 1, 4, 4) work space for :func:`forward_frames`.
    :param rows: (G,) row of ``frames`` each shape follows; -1 for a shape fixed in the base
        frame, whose pose in ``poses`` is left as it is.
    :param offsets: (G, 4, 4) shape pose in the frame of its row.
    :param centers: (G, 3) centre of each shape's bounding box, in the shape's frame, m.
    :param halves: (G, 3) half lengths of the box, m.
    :param pairs: (P, 2) shape indices of the pairs to check.
    :param margin: m, how much both boxes grow (the padding).
    :param poses: (G, 4, 4) output (and input for fixed shapes): shape poses, base frame.
    :param rotations: (G, 3, 3) output: the rotations of the moving shapes' poses, each one
        contiguous (handed to coal without a copy).
    :param translations: (G, 3) output: their translations, m.
    :param selected: (P,) output: the indices of the kept pairs come first.
    :returns: How many pairs were kept.
    """
    forward_frames(chain, q, frames)
    for g in range(rows.shape[0]):
        row = rows[g]
        if row < 0:
            continue
        for i in range(3):
            for j in range(4):
                value = 0.0
                for k in range(4):
                    value += frames[row, i, k] * offsets[g, k, j]
                poses[g, i, j] = value
        poses[g, 3, 0] = 0.0
        poses[g, 3, 1] = 0.0
        poses[g, 3, 2] = 0.0
        poses[g, 3, 3] = 1.0
        for i in range(3):
            for j in range(3):
                rotations[g, i, j] = poses[g, i, j]
            translations[g, i] = poses[g, i, 3]
    scratch = np.empty((2, 3, 3))
    count = 0
    for p in range(pairs.shape[0]):
        a = pairs[p, 0]
        b = pairs[p, 1]
        if boxes_overlap(poses[a], centers[a], halves[a], poses[b], centers[b], halves[b],
                         margin, scratch):
            selected[count] = p
            count += 1
    return count
