# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compiled placement of every collision shape and the pairs whose bounding boxes overlap.

One compiled call per check: forward kinematics of the chain, each shape's pose (a constant
offset from the frame of the last chain joint above its link), and for every pair that is
checked a test of the spheres around the shapes' oriented bounding boxes, grown by the padding,
then a separating-axis test of the boxes themselves.
Only the pairs it keeps go to the exact check (:mod:`.model`); the boxes contain the shapes, so
no contact is lost: a configuration whose pairs are all dropped here is certified free without
the exact check, which is what most configurations of an arm are.

Every array argument of a compiled call costs a fraction of a microsecond to unpack, a
fraction that adds up when the check runs after every solve: the shapes' constants are one
table, their placed poses one output array, and of the chain only the three arrays that its
forward kinematics reads are passed.

A swept line's samples go through :func:`first_overlap_on_line`: one compiled call runs this
broad phase on sample after sample (its work space allocated once) and returns at the first
that keeps a pair, where a Python loop cost three times the placement itself per sample.
"""

import math

import numpy as np

from ..kinematics.jit import compiled
from ..kinematics.kernels import ChainArrays, forward_frames

__all__ = ['boxes_overlap', 'first_overlap_on_line', 'PLACED_WIDTH', 'place_and_select',
           'shape_table', 'TABLE_WIDTH']

# Columns of the shape table: the chain frame a shape follows (-1: fixed in the base frame),
# the upper three rows of its 4x4 offset in that frame (row by row), its bounding box's centre
# in its own frame and half edge lengths (m).
_ROW = 0
_OFFSET = 1
_CENTER = 13
_HALF = 16
TABLE_WIDTH = 19
# Columns of a placed pose: the rotation row by row, then the translation (m), base frame.
_TRANSLATION = 9
PLACED_WIDTH = 12


def shape_table(rows: np.ndarray, offsets: np.ndarray, centers: np.ndarray,
                halves: np.ndarray) -> np.ndarray:
    """
    Pack the shapes' constants into the table :func:`place_and_select` reads.

    :param rows: (G,) row of the chain's forward frames each shape follows, -1 when fixed.
    :param offsets: (G, 4, 4) shape pose in the frame of its row (base frame when fixed).
    :param centers: (G, 3) bounding box centre in the shape's frame, m.
    :param halves: (G, 3) bounding box half edge lengths, m.
    :returns: (G, :data:`TABLE_WIDTH`) float array.
    """
    count = len(rows)
    table = np.zeros((count, TABLE_WIDTH))
    table[:, _ROW] = rows
    table[:, _OFFSET:_CENTER] = np.asarray(offsets, dtype=float).reshape(count, 4, 4)[
        :, :3, :].reshape(count, 12)
    table[:, _CENTER:_HALF] = np.asarray(centers, dtype=float).reshape(count, 3)
    table[:, _HALF:] = np.asarray(halves, dtype=float).reshape(count, 3)
    return table


@compiled
def boxes_overlap(table: np.ndarray, placed: np.ndarray, a: int, b: int, margin: float,
                  vectors: np.ndarray, rotations: np.ndarray) -> bool:
    """
    Whether the bounding boxes of shapes ``a`` and ``b``, each grown by ``margin`` (m), overlap.

    A separating-axis test of the two oriented boxes, as placed in ``placed`` (see
    :func:`place_and_select`); the edges of each box run along its shape frame's axes.
    ``vectors`` (4, 3) and ``rotations`` (2, 3, 3) are work space (nothing allocated per pair).
    """
    # Box centres in the base frame and their offset d, then d in a's frame (t) and b's
    # rotation in a's frame (r); abs(r) is guarded against parallel edges.
    d = vectors[0]
    for i in range(3):
        center_b = placed[b, _TRANSLATION + i]
        center_a = placed[a, _TRANSLATION + i]
        for k in range(3):
            center_b += placed[b, 3 * i + k] * table[b, _CENTER + k]
            center_a += placed[a, 3 * i + k] * table[a, _CENTER + k]
        d[i] = center_b - center_a
    t = vectors[1]
    r = rotations[0]
    absolute = rotations[1]
    for i in range(3):
        t[i] = placed[a, i] * d[0] + placed[a, 3 + i] * d[1] + placed[a, 6 + i] * d[2]
        for j in range(3):
            value = (placed[a, i] * placed[b, j] + placed[a, 3 + i] * placed[b, 3 + j]
                     + placed[a, 6 + i] * placed[b, 6 + j])
            r[i, j] = value
            absolute[i, j] = abs(value) + 1e-9
    ea = vectors[2]
    eb = vectors[3]
    for i in range(3):
        ea[i] = table[a, _HALF + i] + margin
        eb[i] = table[b, _HALF + i] + margin
    # a's three face axes, then b's.
    for i in range(3):
        if abs(t[i]) > ea[i] + eb[0] * absolute[i, 0] + eb[1] * absolute[i, 1] \
                + eb[2] * absolute[i, 2]:
            return False
    for j in range(3):
        projection = t[0] * r[0, j] + t[1] * r[1, j] + t[2] * r[2, j]
        if abs(projection) > (ea[0] * absolute[0, j] + ea[1] * absolute[1, j]
                              + ea[2] * absolute[2, j] + eb[j]):
            return False
    # The nine cross products of an edge of a with an edge of b.
    for i in range(3):
        i1 = (i + 1) % 3
        i2 = (i + 2) % 3
        for j in range(3):
            j1 = (j + 1) % 3
            j2 = (j + 2) % 3
            projection = abs(t[i2] * r[i1, j] - t[i1] * r[i2, j])
            reach = (ea[i1] * absolute[i2, j] + ea[i2] * absolute[i1, j]
                     + eb[j1] * absolute[i, j2] + eb[j2] * absolute[i, j1])
            if projection > reach:
                return False
    return True


@compiled
def place_and_select(segments: np.ndarray, segment_motion: np.ndarray,
                     segment_variable: np.ndarray, q: np.ndarray, table: np.ndarray,
                     pairs: np.ndarray, placed: np.ndarray, margin: float,
                     selected: np.ndarray) -> int:
    """
    Pose every moving shape at ``q`` and list the pairs whose grown boxes overlap.

    :param segments: the chain's ``ChainArrays.segments``.
    :param segment_motion: its ``segment_motion``.
    :param segment_variable: its ``segment_variable``.
    :param q: (N,) configuration, rad or m.
    :param table: (G, :data:`TABLE_WIDTH`) the shapes' constants (:func:`shape_table`).
    :param pairs: (P, 2) shape indices of the pairs to check.
    :param placed: (G, :data:`PLACED_WIDTH`) output (and input for the fixed shapes, which are
        left as they are): each shape's rotation, row by row, and translation (m), base frame.
    :param margin: m, how much both boxes grow (the padding).
    :param selected: (P,) output: the indices of the kept pairs come first.
    :returns: How many pairs were kept; -1, with nothing placed, when ``q`` is not finite.
    """
    # forward_frames reads only these three of the chain's arrays.
    chain = ChainArrays(segments, segment_motion, segment_variable,
                        np.empty(0, dtype=np.int64), np.empty((0, 4)), np.empty(0),
                        0.0, 0.0, False)
    return _place_and_select_in(chain, q, table, pairs, placed, margin, selected,
                                np.empty((segments.shape[0], 4, 4)),
                                np.empty((table.shape[0], 4)), np.empty((4, 3)),
                                np.empty((2, 3, 3)))


@compiled
def _place_and_select_in(chain: ChainArrays, q: np.ndarray, table: np.ndarray,
                         pairs: np.ndarray, placed: np.ndarray, margin: float,
                         selected: np.ndarray, frames: np.ndarray, spheres: np.ndarray,
                         vectors: np.ndarray, rotations: np.ndarray) -> int:
    """:func:`place_and_select` with its work space given: a line's samples allocate it once."""
    total = 0.0
    for i in range(q.shape[0]):
        total += q[i]
    # A NaN or an infinity anywhere makes the sum non-finite.
    if not math.isfinite(total):
        return -1
    forward_frames(chain, q, frames)
    for g in range(table.shape[0]):
        row = int(table[g, _ROW])
        if row < 0:
            continue
        for i in range(3):
            for j in range(4):
                value = frames[row, i, 3] if j == 3 else 0.0
                for k in range(3):
                    value += frames[row, i, k] * table[g, _OFFSET + 4 * k + j]
                if j == 3:
                    placed[g, _TRANSLATION + i] = value
                else:
                    placed[g, 3 * i + j] = value
    # The sphere around each grown box (centre in the base frame, radius): most pairs of an
    # arm are far apart, and two spheres cost a small part of the boxes' fifteen axes.
    for g in range(table.shape[0]):
        squared = 0.0
        for i in range(3):
            value = placed[g, _TRANSLATION + i]
            for k in range(3):
                value += placed[g, 3 * i + k] * table[g, _CENTER + k]
            spheres[g, i] = value
            squared += (table[g, _HALF + i] + margin) ** 2
        spheres[g, 3] = math.sqrt(squared)
    count = 0
    for p in range(pairs.shape[0]):
        a, b = pairs[p, 0], pairs[p, 1]
        reach = spheres[a, 3] + spheres[b, 3]
        dx = spheres[a, 0] - spheres[b, 0]
        dy = spheres[a, 1] - spheres[b, 1]
        dz = spheres[a, 2] - spheres[b, 2]
        if dx * dx + dy * dy + dz * dz > reach * reach:
            continue
        if boxes_overlap(table, placed, a, b, margin, vectors, rotations):
            selected[count] = p
            count += 1
    return count


@compiled
def first_overlap_on_line(segments: np.ndarray, segment_motion: np.ndarray,
                          segment_variable: np.ndarray, start: np.ndarray, end: np.ndarray,
                          count: int, last: int, resume: np.ndarray, table: np.ndarray,
                          pairs: np.ndarray, placed: np.ndarray, margin: float,
                          selected: np.ndarray, q: np.ndarray) -> int:
    """
    Run :func:`place_and_select` on samples of a straight line until one keeps a pair.

    Sample ``i`` is ``start + (end - start) * (i / count)``, the arithmetic of numpy on the
    arrays, so that it is bit for bit the configuration a caller computes in Python. The
    samples ``1..last`` go coarse to fine: every 64th first, then the ones halfway between
    those, and so on down to every one, as the swept check orders them.

    :param segments: the chain's ``ChainArrays.segments``.
    :param segment_motion: its ``segment_motion``.
    :param segment_variable: its ``segment_variable``.
    :param start: (N,) the line's start, rad or m.
    :param end: (N,) its end.
    :param count: samples per line (> 0): sample ``count`` is ``end``.
    :param last: the last sample checked (``count`` or ``count - 1``).
    :param resume: (2,) int64, in and out: the stride and the sample to go on from (64 and 64
        for a new line); on a hit, the hit's stride and sample; the stride is 0 when no sample
        is left.
    :param table: the shapes' constants (:func:`shape_table`).
    :param pairs: (P, 2) shape indices of the pairs to check.
    :param placed: (G, :data:`PLACED_WIDTH`) output: the shapes placed at the hit.
    :param margin: m, how much both boxes grow (the padding).
    :param selected: (P,) output: the indices of the pairs kept at the hit come first.
    :param q: (N,) output: the hit's configuration.
    :returns: How many pairs the hit kept (0 when no sample keeps one, or -1 when a sample
        is not finite).
    """
    chain = ChainArrays(segments, segment_motion, segment_variable,
                        np.empty(0, dtype=np.int64), np.empty((0, 4)), np.empty(0),
                        0.0, 0.0, False)
    frames = np.empty((segments.shape[0], 4, 4))
    spheres = np.empty((table.shape[0], 4))
    vectors = np.empty((4, 3))
    rotations = np.empty((2, 3, 3))
    stride = resume[0]
    i = resume[1]
    while stride >= 1:
        while i <= last:
            # At stride 64 every multiple, below it only the ones not given by a coarser pass.
            if stride == 64 or i % (2 * stride) != 0:
                fraction = i / count
                for j in range(q.shape[0]):
                    q[j] = start[j] + (end[j] - start[j]) * fraction
                kept = _place_and_select_in(chain, q, table, pairs, placed, margin, selected,
                                            frames, spheres, vectors, rotations)
                if kept != 0:
                    resume[0] = stride
                    resume[1] = i
                    return kept
            i += stride
        stride //= 2
        i = stride
    resume[0] = 0
    resume[1] = 0
    return 0
