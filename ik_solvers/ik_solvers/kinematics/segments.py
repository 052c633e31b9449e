# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The numeric core of a chain: every moving joint's transform as a weighted sum of constants.

A moving joint ``i`` carries the frame of the previous one to its own by
``F_i @ motion_i(v)``, with ``F_i`` the constant transform up to the joint frame (fixed
joints folded in). Rodrigues' formula ``R(v) = I + sin(v) K + (1 - cos(v)) K^2`` makes that
product linear in the weights ``(1, sin(v), cos(v), v)``, so the transforms of all joints
come from one small batched matrix product per call instead of per-joint Python work.
Lengths are in metres, angles in radians.
"""

from typing import Sequence

import numpy as np

from .joint import skew

__all__ = ['SegmentStack', 'motion_basis']

# Up to this many moving joints a plain left-to-right product beats the pairwise tree.
_SEQUENTIAL_PRODUCT_MAX_JOINTS = 8

# tip_poses works through the configurations in blocks of this many to bound its memory.
_BATCH_BLOCK = 1024


def motion_basis(fixed_to_joint: np.ndarray, unit_axis: np.ndarray,
                 prismatic: bool) -> np.ndarray:
    """
    Return four 4x4 matrices whose weighted sum is a joint's transform for any value.

    With weights ``(1, sin(v), cos(v), v)`` the sum equals ``fixed_to_joint @ motion(v)``,
    where ``motion`` turns by ``v`` rad about ``unit_axis`` or, for a prismatic joint,
    slides ``v`` m along it.
    """
    basis = np.zeros((4, 4, 4))
    basis[0] = fixed_to_joint
    rotation = fixed_to_joint[:3, :3]
    if prismatic:
        basis[3, :3, 3] = rotation @ unit_axis
        return basis
    axis_cross = skew(unit_axis)
    axis_cross_squared = axis_cross @ axis_cross
    basis[0, :3, :3] += rotation @ axis_cross_squared
    basis[1, :3, :3] = rotation @ axis_cross
    basis[2, :3, :3] = -rotation @ axis_cross_squared
    return basis


class SegmentStack:
    """
    Poses along a chain of M moving joints from their M values (rad or m).

    Knows nothing of names, limits or mimic joints: :class:`~.chain.Chain` maps its
    variables to the M joint values. Every method allocates its own arrays, so one stack
    may serve several threads.
    """

    def __init__(self, fixed_to_joints: Sequence[np.ndarray], unit_axes: Sequence[np.ndarray],
                 prismatic: Sequence[bool], tip_offset: np.ndarray):
        """
        Precompute the motion bases.

        ``fixed_to_joints[i]`` (4x4) carries the frame of joint i-1 after its motion (the
        base frame for i = 0) to the frame of joint i before its motion; ``unit_axes[i]`` is
        the joint's axis in its own frame; ``tip_offset`` (4x4) carries the last joint frame
        to the tip.
        """
        self.num_segments = len(fixed_to_joints)
        self.prismatic = np.array(prismatic, dtype=bool)
        self.has_prismatic = bool(self.prismatic.any())
        self.unit_axes = np.array(unit_axes, dtype=float).reshape(self.num_segments, 3)
        self.tip_offset = np.array(tip_offset, dtype=float)
        self._axes_column = self.unit_axes[:, :, np.newaxis].copy()
        # Chains without prismatic joints never need the weight v.
        self._num_weights = 4 if self.has_prismatic else 3
        basis = np.array([
            motion_basis(fixed, axis, slides)
            for fixed, axis, slides in zip(fixed_to_joints, self.unit_axes, self.prismatic)
        ])[:, :self._num_weights]
        self._basis = basis.reshape(self.num_segments, self._num_weights, 16).copy()
        # The last transform times the tip offset is linear in the same weights.
        tip_basis = basis.copy()
        tip_basis[-1] = tip_basis[-1] @ self.tip_offset
        self._tip_basis = tip_basis.reshape(self.num_segments, self._num_weights, 16)
        self._weights_template = np.zeros((self.num_segments, 1, self._num_weights))
        self._weights_template[:, 0, 0] = 1.0

    def _weights(self, values: np.ndarray) -> np.ndarray:
        """Weights (..., M, 1, W) of the motion bases for joint values (..., M)."""
        if values.ndim == 1:
            weights = self._weights_template.copy()
        else:
            weights = np.broadcast_to(
                self._weights_template, values.shape[:-1] + self._weights_template.shape).copy()
        np.sin(values, out=weights[..., 0, 1])
        np.cos(values, out=weights[..., 0, 2])
        if self.has_prismatic:
            weights[..., 0, 3] = values
        return weights

    def transforms(self, values: np.ndarray, *, with_tip: bool = False) -> np.ndarray:
        """
        Return each joint's transform (M, 4, 4) from the previous joint frame after motion.

        With ``with_tip`` the last one carries on to the tip.
        """
        basis = self._tip_basis if with_tip else self._basis
        return np.matmul(self._weights(values), basis).reshape(self.num_segments, 4, 4)

    def tip_pose(self, values: np.ndarray) -> np.ndarray:
        """Return the tip pose (4x4) in the base frame."""
        transforms = self.transforms(values, with_tip=True)
        count = self.num_segments
        if count <= _SEQUENTIAL_PRODUCT_MAX_JOINTS:
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
            transforms = np.matmul(self._weights(block), self._tip_basis).reshape(
                count, self.num_segments, 4, 4)
            pose = transforms[:, 0]
            for index in range(1, self.num_segments):
                pose = pose @ transforms[:, index]
            poses[start:start + count] = pose
        return poses

    def frames(self, values: np.ndarray) -> np.ndarray:
        """Return every joint frame after its motion, (M, 4, 4), in the base frame."""
        frames = self.transforms(values)
        # Inclusive prefix products by doubling: log2(M) numpy calls instead of M.
        step = 1
        while step < self.num_segments:
            frames[step:] = frames[:-step] @ frames[step:]
            step *= 2
        return frames

    def jacobian(self, values: np.ndarray) -> np.ndarray:
        """Return the geometric Jacobian (6, M) of the tip in the base frame, linear rows first."""
        frames = self.frames(values)
        last = frames[-1]
        tip_position = last[:3, :3] @ self.tip_offset[:3, 3] + last[:3, 3]
        axes = np.matmul(frames[:, :3, :3], self._axes_column)[:, :, 0]
        lever = tip_position - frames[:, :3, 3]
        columns = np.empty((6, self.num_segments))
        wx, wy, wz = axes[:, 0], axes[:, 1], axes[:, 2]
        dx, dy, dz = lever[:, 0], lever[:, 1], lever[:, 2]
        columns[0] = wy * dz - wz * dy
        columns[1] = wz * dx - wx * dz
        columns[2] = wx * dy - wy * dx
        columns[3:] = axes.T
        if self.has_prismatic:
            columns[:3, self.prismatic] = axes[self.prismatic].T
            columns[3:, self.prismatic] = 0.0
        return columns
