# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The constant part of a chain: every joint frame turned so that the joint moves along its z axis.

Each moving joint ``i`` gets a frame whose z axis is its own axis (a constant rotation of its
URDF frame). A constant segment ``S_i`` then carries the aligned frame of joint ``i - 1`` (the
base frame for ``i = 0``) to that of joint ``i`` before its motion, and the motion itself is
``Rz(v)`` or ``Tz(v)``: the compiled kernels of :mod:`.kernels` need nothing else to walk the
chain. A last constant segment carries the last joint frame to the tip. Lengths are in metres,
angles in radians.
"""

from typing import Sequence

import numpy as np

__all__ = ['aligned_segments', 'frame_aligning_z_with']


def frame_aligning_z_with(unit_axis: np.ndarray) -> np.ndarray:
    """Return a rotation (3x3) whose third column is the unit vector ``unit_axis``."""
    z = np.asarray(unit_axis, dtype=float)
    # Any vector far from parallel to z seeds an orthonormal completion.
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = helper - np.dot(helper, z) * z
    x /= np.linalg.norm(x)
    return np.column_stack((x, np.cross(z, x), z))


def aligned_segments(fixed_to_joints: Sequence[np.ndarray], unit_axes: np.ndarray,
                     tip_offset: np.ndarray) -> np.ndarray:
    """
    Return the constant segments (M + 1, 4, 4) between the aligned frames of M moving joints.

    :param fixed_to_joints: M transforms (4x4): entry i carries the URDF frame of joint i - 1
        after its motion (the base frame for i = 0) to the URDF frame of joint i before it.
    :param unit_axes: (M, 3) joint axes, each in its own URDF joint frame.
    :param tip_offset: (4, 4) from the last URDF joint frame to the tip.

    :returns: Row i < M carries the aligned frame of joint i - 1 (the base for i = 0) to that
        of joint i before its motion; row M carries the last aligned frame to the tip.
    """
    count = len(fixed_to_joints)
    segments = np.empty((count + 1, 4, 4))
    previous_inverse = np.eye(4)
    for index in range(count):
        aligned = np.eye(4)
        aligned[:3, :3] = frame_aligning_z_with(unit_axes[index])
        segments[index] = previous_inverse @ fixed_to_joints[index] @ aligned
        previous_inverse = aligned.T  # the inverse of a pure rotation
    segments[count] = previous_inverse @ np.asarray(tip_offset, dtype=float)
    segments[:, 3] = (0.0, 0.0, 0.0, 1.0)
    return segments
