# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compiled forward kinematics and Jacobians of every tip of a tree, in one pass.

A :class:`TreeArrays` holds the serial path of each tip one after another, in the layout of
:class:`.kernels.ChainArrays` (constant segments between frames whose z axis is each joint's
axis), with one difference: the variable index of every moving joint is the tree's, so a joint
shared by several tips moves all of them. Poses are 4x4 homogeneous matrices in the base
frame; lengths in metres, angles in radians. Nothing here allocates.
"""

import math
from typing import NamedTuple

import numpy as np

from .jit import compiled

__all__ = ['TreeArrays', 'tree_frames', 'tree_jacobians']


class TreeArrays(NamedTuple):
    """
    A tree as the flat arrays its kernels read.

    :ivar segments: (K, 4, 4) the segments of tip 0's path (its M_0 moving joints and the tip:
        M_0 + 1 rows, as ``ChainArrays.segments``), then tip 1's, and so on.
    :ivar motion: (K, 3) per row: mimic multiplier, offset (rad or m) and 1.0 for a prismatic
        joint; the last row of each tip is unused.
    :ivar variable: (K,) int64 tree variable driving each row's joint (0 on the tip rows).
    :ivar starts: (T + 1,) int64 first row of each tip's path, and K.
    :ivar joint_row: (N,) int64 a row whose frame is each variable's own (the first path
        holding it).
    """

    segments: np.ndarray
    motion: np.ndarray
    variable: np.ndarray
    starts: np.ndarray
    joint_row: np.ndarray


@compiled(leaf=True)
def tree_frames(tree: TreeArrays, q: np.ndarray, frames: np.ndarray) -> None:
    """
    Write every joint frame of every tip's path, and each tip's pose, into ``frames``.

    :param tree: the tree.
    :param q: (N,) configuration, rad or m.
    :param frames: (K, 4, 4) output, base frame: row ``starts[t] + j`` is joint j of tip t's
        path after its motion (its axis the z axis), row ``starts[t + 1] - 1`` is tip t's pose.
    """
    segments, motion = tree.segments, tree.motion
    for t in range(tree.starts.shape[0] - 1):
        first, last = tree.starts[t], tree.starts[t + 1] - 1
        for row in range(4):
            for column in range(4):
                frames[first, row, column] = segments[first, row, column]
        for j in range(first, last + 1):
            if j > first:
                for row in range(3):
                    a0, a1 = frames[j - 1, row, 0], frames[j - 1, row, 1]
                    a2 = frames[j - 1, row, 2]
                    for column in range(4):
                        frames[j, row, column] = (a0 * segments[j, 0, column]
                                                  + a1 * segments[j, 1, column]
                                                  + a2 * segments[j, 2, column])
                    frames[j, row, 3] += frames[j - 1, row, 3]
                frames[j, 3, 0] = 0.0
                frames[j, 3, 1] = 0.0
                frames[j, 3, 2] = 0.0
                frames[j, 3, 3] = 1.0
            if j == last:
                break
            value = q[tree.variable[j]] * motion[j, 0] + motion[j, 1]
            if motion[j, 2] != 0.0:
                for row in range(3):
                    frames[j, row, 3] += value * frames[j, row, 2]
            else:
                cosine, sine = math.cos(value), math.sin(value)
                for row in range(3):
                    x, y = frames[j, row, 0], frames[j, row, 1]
                    frames[j, row, 0] = cosine * x + sine * y
                    frames[j, row, 1] = cosine * y - sine * x


@compiled(leaf=True)
def tree_jacobians(tree: TreeArrays, frames: np.ndarray, out: np.ndarray) -> None:
    """
    Write the geometric Jacobian of every tip, (T, 6, N), linear rows first, base frame.

    :param tree: the tree.
    :param frames: the output of :func:`tree_frames` for the configuration.
    :param out: (T, 6, N) output; column i of tip t is zero where variable i does not move it.
    """
    out[:, :, :] = 0.0
    for t in range(tree.starts.shape[0] - 1):
        first, last = tree.starts[t], tree.starts[t + 1] - 1
        tip_x, tip_y, tip_z = frames[last, 0, 3], frames[last, 1, 3], frames[last, 2, 3]
        for j in range(first, last):
            column = tree.variable[j]
            gain = tree.motion[j, 0]
            ux, uy, uz = frames[j, 0, 2], frames[j, 1, 2], frames[j, 2, 2]
            if tree.motion[j, 2] != 0.0:
                out[t, 0, column] += gain * ux
                out[t, 1, column] += gain * uy
                out[t, 2, column] += gain * uz
                continue
            dx, dy, dz = tip_x - frames[j, 0, 3], tip_y - frames[j, 1, 3], tip_z - frames[j, 2, 3]
            out[t, 0, column] += gain * (uy * dz - uz * dy)
            out[t, 1, column] += gain * (uz * dx - ux * dz)
            out[t, 2, column] += gain * (ux * dy - uy * dx)
            out[t, 3, column] += gain * ux
            out[t, 4, column] += gain * uy
            out[t, 5, column] += gain * uz
