# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The numeric core of a chain: every joint frame turned so that the joint moves along its z axis.

Each moving joint ``i`` gets a frame whose z axis is its own axis (a constant rotation of its
URDF frame). A constant segment ``S_i`` then carries the aligned frame of joint ``i - 1`` (the
base frame for ``i = 0``) to that of joint ``i`` before its motion, and the motion itself is
``Rz(v)`` or ``Tz(v)``. ``S_i Rz(v) = S_i A + sin(v) S_i B + cos(v) S_i C`` and
``S_i Tz(v) = S_i + v S_i E`` make every segment linear in the weights ``(1, sin(v), cos(v),
v)``, so all segments come from one small batched matrix product, and all the joint frames
from a prefix product that numpy computes in ``log2(M + 1)`` batched calls: the cost hardly
grows with the chain's length. A last constant segment carries the last joint frame to the tip.
Lengths are in metres, angles in radians.
"""

from typing import Sequence

import numpy as np

__all__ = ['SegmentStack', 'frame_aligning_z_with']

# Up to this many segments a plain left-to-right product beats the pairwise tree.
_SEQUENTIAL_PRODUCT_MAX_SEGMENTS = 8

# fk_batch works through the configurations in blocks of this many to bound its memory.
_BATCH_BLOCK = 1024


def frame_aligning_z_with(unit_axis: np.ndarray) -> np.ndarray:
    """Return a rotation (3x3) whose third column is the unit vector ``unit_axis``."""
    z = np.asarray(unit_axis, dtype=float)
    # Any vector far from parallel to z seeds an orthonormal completion.
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = helper - np.dot(helper, z) * z
    x /= np.linalg.norm(x)
    return np.column_stack((x, np.cross(z, x), z))


class SegmentStack:
    """
    Poses along a chain of M moving joints from their M values (rad or m).

    Knows nothing of names, limits or mimic joints: :class:`~.chain.Chain` maps its
    variables to the M joint values. :meth:`poses` remembers its last answer and returns it
    read-only; every other method allocates its own arrays.

    :ivar num_segments: M.
    :ivar unit_axes: (M, 3) joint axes, each in its own URDF joint frame.
    :ivar alignments: (M, 3, 3) rotations from each URDF joint frame to its aligned frame
        (their third columns are ``unit_axes``).
    :ivar tip_offset: (4, 4) constant transform from the aligned frame of the last joint to
        the tip.
    """

    def __init__(self, fixed_to_joints: Sequence[np.ndarray], unit_axes: Sequence[np.ndarray],
                 prismatic: Sequence[bool], tip_offset: np.ndarray):
        """
        Precompute the segments and their motion bases.

        ``fixed_to_joints[i]`` (4x4) carries the URDF frame of joint i-1 after its motion (the
        base frame for i = 0) to the URDF frame of joint i before its motion;
        ``unit_axes[i]`` is the joint's axis in its own frame; ``tip_offset`` (4x4) carries
        the last URDF joint frame to the tip.
        """
        count = len(fixed_to_joints)
        self.num_segments = count
        self.prismatic = np.array(prismatic, dtype=bool)
        self.has_prismatic = bool(self.prismatic.any())
        self.unit_axes = np.array(unit_axes, dtype=float).reshape(count, 3)
        self.alignments = np.array([frame_aligning_z_with(axis) for axis in self.unit_axes])
        aligned = np.tile(np.eye(4), (count, 1, 1))
        aligned[:, :3, :3] = self.alignments
        segments = np.empty((count + 1, 4, 4))
        previous_inverse = np.eye(4)
        for index in range(count):
            segments[index] = previous_inverse @ fixed_to_joints[index] @ aligned[index]
            previous_inverse = aligned[index].T  # the inverse of a pure rotation
        segments[count] = previous_inverse @ np.asarray(tip_offset, dtype=float)
        segments[:, 3] = (0.0, 0.0, 0.0, 1.0)
        self.tip_offset = segments[count].copy()
        self.tip_offset.setflags(write=False)

        # Chains without prismatic joints never need the weight v.
        num_weights = 4 if self.has_prismatic else 3
        basis = np.zeros((count + 1, num_weights, 4, 4))
        basis[count, 0] = segments[count]
        for index in range(count):
            segment = segments[index]
            if self.prismatic[index]:
                basis[index, 0] = segment
                basis[index, 3, :, 3] = segment[:, 2]
            else:
                basis[index, 0, :, 2:] = segment[:, 2:]
                basis[index, 1, :, 0] = segment[:, 1]
                basis[index, 1, :, 1] = -segment[:, 0]
                basis[index, 2, :, :2] = segment[:, :2]
        self._basis = basis.reshape(count + 1, num_weights, 16)
        # The tip alone needs no frame after the last joint's: folding the constant last
        # segment into the last joint's basis saves one product per tip pose.
        tip_basis = basis[:count].copy()
        tip_basis[-1] = tip_basis[-1] @ segments[count]
        self._tip_basis = tip_basis.reshape(count, num_weights, 16)
        self._weights_template = np.zeros((count + 1, 1, num_weights))
        self._weights_template[:, 0, 0] = 1.0
        self._prismatic_indices = np.flatnonzero(self.prismatic)
        self._last = (b'', None)

    def _weights(self, values: np.ndarray) -> np.ndarray:
        """Weights (..., M + 1, 1, W) of the motion bases for joint values (..., M)."""
        if values.ndim == 1:
            weights = self._weights_template.copy()
        else:
            weights = np.broadcast_to(
                self._weights_template, values.shape[:-1] + self._weights_template.shape).copy()
        count = self.num_segments
        np.sin(values, out=weights[..., :count, 0, 1])
        np.cos(values, out=weights[..., :count, 0, 2])
        if self.has_prismatic:
            weights[..., :count, 0, 3] = values
        return weights

    def poses(self, values: np.ndarray) -> np.ndarray:
        """
        Return the aligned frame of every joint after its motion, and the tip, in the base frame.

        :param values: the M joint values, rad or m.

        :returns: (M + 1, 4, 4) read-only array: rows 0..M-1 are the aligned joint frames (the
            joint axis is column 2, a point on it column 3), row M is the tip pose.
        """
        # Solvers evaluate one configuration several times in a row (a heuristic's result
        # again in the polish, the polish's in solve): remembering the last answer saves
        # those passes. One tuple is swapped at once, so threads never see a torn pair.
        key = values.tobytes()
        last = self._last
        if last[0] == key:
            return last[1]
        poses = np.matmul(self._weights(values), self._basis).reshape(self.num_segments + 1,
                                                                      4, 4)
        # Inclusive prefix products by doubling: log2(M + 1) numpy calls instead of M.
        step = 1
        while step <= self.num_segments:
            poses[step:] = poses[:-step] @ poses[step:]
            step *= 2
        poses.setflags(write=False)
        self._last = (key, poses)
        return poses

    def tip_pose(self, values: np.ndarray) -> np.ndarray:
        """Return the tip pose (4, 4, read-only when remembered) for the M joint values."""
        last = self._last
        if last[0] == values.tobytes():
            return last[1][-1]
        # The joint frames are not needed: a product of the segments alone is cheaper than
        # the prefix products of :meth:`poses` on long chains.
        count = self.num_segments
        transforms = np.matmul(self._weights(values)[:count], self._tip_basis).reshape(
            count, 4, 4)
        if count <= _SEQUENTIAL_PRODUCT_MAX_SEGMENTS:
            pose = transforms[0]
            dot = np.dot
            for index in range(1, count):
                pose = dot(pose, transforms[index])
            return pose
        # Pairwise products keep the number of numpy calls logarithmic in the chain length.
        while count > 1:
            if count % 2:
                transforms[count - 2] = transforms[count - 2] @ transforms[count - 1]
                count -= 1
            transforms = transforms[0:count:2] @ transforms[1:count:2]
            count //= 2
        return transforms[0]

    def tip_poses(self, values: np.ndarray) -> np.ndarray:
        """Return the tip poses (K, 4, 4) for joint values (K, M)."""
        poses = np.empty((values.shape[0], 4, 4))
        for start in range(0, values.shape[0], _BATCH_BLOCK):
            block = values[start:start + _BATCH_BLOCK]
            count = block.shape[0]
            transforms = np.matmul(self._weights(block)[:, :self.num_segments],
                                   self._tip_basis).reshape(count, self.num_segments, 4, 4)
            pose = transforms[:, 0]
            for index in range(1, self.num_segments):
                pose = pose @ transforms[:, index]
            poses[start:start + count] = pose
        return poses

    def jacobian_from_poses(self, poses: np.ndarray) -> np.ndarray:
        """
        Return the geometric Jacobian (6, M) of the tip from the output of :meth:`poses`.

        Linear rows first, all in the base frame; column i is joint i's own contribution.
        """
        axes = poses[:-1, :3, 2]
        lever = poses[-1, :3, 3] - poses[:-1, :3, 3]
        columns = np.empty((6, self.num_segments))
        wx, wy, wz = axes[:, 0], axes[:, 1], axes[:, 2]
        dx, dy, dz = lever[:, 0], lever[:, 1], lever[:, 2]
        columns[0] = wy * dz - wz * dy
        columns[1] = wz * dx - wx * dz
        columns[2] = wx * dy - wy * dx
        columns[3:] = axes.T
        prismatic = self._prismatic_indices
        if prismatic.size:
            columns[:3, prismatic] = axes[prismatic].T
            columns[3:, prismatic] = 0.0
        return columns
