# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compiled forward kinematics and Jacobian of a chain held as flat arrays.

A :class:`ChainArrays` is what every kernel of the package reads: the chain of M moving joints
(mimic followers included) as constant segments between frames whose z axis is each joint's
axis (see :mod:`.segments`), the map from the N independent variables to the M joint values,
and the limits. Joint ``j`` moves its frame by ``Rz(v)`` (revolute) or ``Tz(v)`` (prismatic)
with ``v = multiplier * q[variable] + offset``. Poses are 4x4 homogeneous matrices in the base
frame; lengths in metres, angles in radians.

All functions here run compiled (see :mod:`.jit`); they allocate nothing unless they say so.
"""

import math
from typing import NamedTuple

import numpy as np

from .jit import compiled

__all__ = [
    'ChainArrays',
    'LIMIT_LOWER',
    'LIMIT_SAMPLE_LOW',
    'LIMIT_SAMPLE_WIDTH',
    'LIMIT_UPPER',
    'forward_frames',
    'jacobian_from_frames',
    'segment_value',
    'tip_poses',
]

# Columns of ChainArrays.joint_limits.
LIMIT_LOWER = 0
LIMIT_UPPER = 1
LIMIT_SAMPLE_LOW = 2
LIMIT_SAMPLE_WIDTH = 3


class ChainArrays(NamedTuple):
    """
    A chain as the flat arrays the compiled kernels read.

    Few arrays on purpose: every argument of a compiled call costs time to unpack.

    :ivar segments: (M + 1, 4, 4) constant transforms: row j carries the aligned frame of joint
        j - 1 after its motion (the base for j = 0) to that of joint j before it; row M carries
        the last joint's aligned frame to the tip.
    :ivar segment_motion: (M, 3) per moving joint: mimic multiplier, mimic offset (rad or m),
        and 1.0 for a prismatic joint, 0.0 for a revolute one.
    :ivar segment_variable: (M,) int64 index of the independent variable that drives each
        moving joint.
    :ivar joint_segment: (N,) int64 row of ``segments`` of each independent joint's own frame.
    :ivar joint_limits: (N, 4) lower and upper limit (infinite for continuous joints), and the
        low end and width of the range restarts sample from (a turn for continuous joints).
    :ivar joint_prismatic: (N,) 1.0 for a prismatic joint, 0.0 for a revolute one.
    :ivar length_scale: m, a characteristic length of the chain (see ``Chain.length_scale``).
    :ivar reach: m, an upper bound of the distance from the first joint's origin to the tip
        over all configurations; infinite when a prismatic joint makes it unbounded.
    :ivar tip_follows_last_joint: whether the last moving joint is an independent one, so
        that the tip is a constant offset from that joint's frame.
    """

    segments: np.ndarray
    segment_motion: np.ndarray
    segment_variable: np.ndarray
    joint_segment: np.ndarray
    joint_limits: np.ndarray
    joint_prismatic: np.ndarray
    length_scale: float
    reach: float
    tip_follows_last_joint: bool


@compiled(leaf=True)
def segment_value(chain: ChainArrays, q: np.ndarray, segment: int) -> float:
    """Return the value (rad or m) of moving joint ``segment`` at configuration ``q``."""
    motion = chain.segment_motion
    return q[chain.segment_variable[segment]] * motion[segment, 0] + motion[segment, 1]


@compiled(leaf=True)
def forward_frames(chain: ChainArrays, q: np.ndarray, frames: np.ndarray) -> None:
    """
    Write every moving joint's aligned frame after its motion, and the tip pose, into ``frames``.

    :param chain: the chain.
    :param q: (N,) configuration, rad or m.
    :param frames: (M + 1, 4, 4) output in the base frame: row j < M is joint j's frame, its
        axis the z axis (column 2) through the origin (column 3); row M is the tip pose.
    """
    segments = chain.segments
    motion = chain.segment_motion
    count = segments.shape[0] - 1
    # Indexing the 3-D arrays directly, not through per-frame views, saves a third of the time.
    for row in range(4):
        for column in range(4):
            frames[0, row, column] = segments[0, row, column]
    for j in range(count + 1):
        if j > 0:
            for row in range(3):
                a0, a1, a2 = frames[j - 1, row, 0], frames[j - 1, row, 1], frames[j - 1, row, 2]
                for column in range(4):
                    frames[j, row, column] = (a0 * segments[j, 0, column]
                                              + a1 * segments[j, 1, column]
                                              + a2 * segments[j, 2, column])
                frames[j, row, 3] += frames[j - 1, row, 3]
            frames[j, 3, 0] = 0.0
            frames[j, 3, 1] = 0.0
            frames[j, 3, 2] = 0.0
            frames[j, 3, 3] = 1.0
        if j == count:
            break
        value = q[chain.segment_variable[j]] * motion[j, 0] + motion[j, 1]
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
def jacobian_from_frames(chain: ChainArrays, frames: np.ndarray, out: np.ndarray) -> None:
    """
    Write the geometric Jacobian (6, N) of the tip into ``out``, linear rows first, base frame.

    Column i maps the velocity of variable i to the tip's linear velocity (of its origin) and
    angular velocity; a mimic follower adds its multiplier times its own column to its
    leader's.

    :param chain: the chain.
    :param frames: the output of :func:`forward_frames` for the configuration.
    :param out: (6, N) output.
    """
    out[:, :] = 0.0
    count = frames.shape[0] - 1
    tip_x, tip_y, tip_z = frames[count, 0, 3], frames[count, 1, 3], frames[count, 2, 3]
    for j in range(count):
        column = chain.segment_variable[j]
        gain = chain.segment_motion[j, 0]
        ux, uy, uz = frames[j, 0, 2], frames[j, 1, 2], frames[j, 2, 2]
        if chain.segment_motion[j, 2] != 0.0:
            out[0, column] += gain * ux
            out[1, column] += gain * uy
            out[2, column] += gain * uz
            continue
        dx, dy, dz = tip_x - frames[j, 0, 3], tip_y - frames[j, 1, 3], tip_z - frames[j, 2, 3]
        out[0, column] += gain * (uy * dz - uz * dy)
        out[1, column] += gain * (uz * dx - ux * dz)
        out[2, column] += gain * (ux * dy - uy * dx)
        out[3, column] += gain * ux
        out[4, column] += gain * uy
        out[5, column] += gain * uz


@compiled
def tip_poses(chain: ChainArrays, configurations: np.ndarray) -> np.ndarray:
    """Return the tip poses, (K, 4, 4), of K configurations given as a (K, N) array."""
    count = configurations.shape[0]
    frames = np.empty((chain.segments.shape[0], 4, 4))
    tips = np.empty((count, 4, 4))
    for k in range(count):
        forward_frames(chain, configurations[k], frames)
        tips[k] = frames[-1]
    return tips
