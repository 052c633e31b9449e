# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compact forward kinematics used inside the solvers' hot loops.

A :class:`ChainKernel` is distilled once from a chain's public contract (its joint frames at
the zero configuration) into one constant transform per joint, re-expressed so that every joint
moves along or about its local z axis. The pose of every joint frame then follows from a
prefix product of ``N + 1`` small matrices, which numpy computes in ``log2(N + 1)`` batched
matrix products instead of ``N`` Python-level ones: the cost hardly grows with the chain length,
and that is what keeps a 100-joint snake cheap.

The kernel is an internal accelerator: the final verdict on every result still comes from the
chain's own forward kinematics in :func:`ik_solvers.solvers.solve`.
"""

import weakref

import numpy as np

__all__ = ['ChainKernel', 'kernel_for']

# A kernel whose poses differ from the chain's own FK by more than this is not trusted.
_CONSISTENCY_TOLERANCE = 1e-9


def _frame_aligning_z_with(axis: np.ndarray) -> np.ndarray:
    """Return a rotation whose third column is the unit vector ``axis``."""
    z = axis / np.linalg.norm(axis)
    # Any vector not parallel to z seeds an orthonormal completion.
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = helper - np.dot(helper, z) * z
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return np.column_stack((x, y, z))


class ChainKernel:
    """
    Joint frames and tip pose of a serial chain, fast.

    :ivar num_joints: number of independent joints N.
    :ivar lower, upper: joint limits, (N,), rad or m, infinite for continuous joints.
    :ivar is_prismatic: (N,) bool.
    :ivar tip_offset: constant (4, 4) transform from the z-aligned frame of the last joint to the
        tip; a target pose times its inverse is the pose the last joint frame must take.
    :ivar length_scale: a characteristic length of the chain, m (sum of the distances between
        consecutive joint origins and the tip, at least 1 mm); used to weigh orientation
        errors against position errors.
    """

    def __init__(self, chain) -> None:
        """
        Distil the kernel from ``chain``.

        :raises ValueError: the chain's poses cannot be reproduced by constant segments, for
            example because of mimic joints between the independent ones.
        """
        n = int(chain.num_joints)
        self.num_joints = n
        self.lower = np.asarray(chain.lower, dtype=float).copy()
        self.upper = np.asarray(chain.upper, dtype=float).copy()
        self.is_prismatic = np.asarray(chain.is_prismatic, dtype=bool).copy()
        axes = np.asarray(chain.axes, dtype=float)
        frames, tip = chain.joint_frames(np.zeros(n))
        aligned = np.empty((n, 4, 4))
        for i in range(n):
            aligned[i] = frames[i]
            aligned[i, :3, :3] = frames[i, :3, :3] @ _frame_aligning_z_with(axes[i])
        # segments[i] carries the z-aligned frame of joint i-1 (or the base) to the z-aligned
        # frame of joint i before its own motion; segments[n] carries the last one to the tip.
        segments = np.empty((n + 1, 4, 4))
        previous = np.eye(4)
        for i in range(n):
            segments[i] = np.linalg.solve(previous, aligned[i])
            previous = aligned[i]
        segments[n] = np.linalg.solve(previous, tip)
        segments[:, 3, :] = (0.0, 0.0, 0.0, 1.0)
        # Each moving segment is linear in (1, sin q, cos q, q): S Rz(q) = S A + sin q S B +
        # cos q S C for a revolute joint, S Tz(q) = S + q S E for a prismatic one. One batched
        # product of the weights with this basis then builds every segment at once.
        has_prismatic = bool(self.is_prismatic.any())
        basis = np.zeros((n + 1, 4 if has_prismatic else 3, 4, 4))
        basis[n, 0] = segments[n]
        for i in range(n):
            segment = segments[i]
            if self.is_prismatic[i]:
                basis[i, 0] = segment
                basis[i, 3, :, 3] = segment[:, 2]
            else:
                basis[i, 0, :, 2:] = segment[:, 2:]
                basis[i, 1, :, 0] = segment[:, 1]
                basis[i, 1, :, 1] = -segment[:, 0]
                basis[i, 2, :, :2] = segment[:, :2]
        self._basis = basis.reshape(n + 1, basis.shape[1], 16)
        self._weights = np.zeros((n + 1, 1, basis.shape[1]))
        self._weights[:, 0, 0] = 1.0
        self._has_prismatic = has_prismatic
        self._prismatic = np.flatnonzero(self.is_prismatic)
        self._last = (b'', None)
        self.tip_offset = segments[n].copy()
        origins = np.concatenate((aligned[:, :3, 3], tip[None, :3, 3]))
        self.length_scale = max(float(np.sum(np.linalg.norm(np.diff(origins, axis=0), axis=1))),
                                1e-3)
        self._check_against(chain)

    def _check_against(self, chain) -> None:
        rng = np.random.default_rng(0)
        lower = np.where(np.isfinite(self.lower), self.lower, -np.pi)
        upper = np.where(np.isfinite(self.upper), self.upper, np.pi)
        q = rng.uniform(lower, upper)
        frames, tip = chain.joint_frames(q)
        poses = self.poses(q)
        if (np.max(np.abs(poses[-1] - tip)) > _CONSISTENCY_TOLERANCE
                or np.max(np.abs(poses[:-1, :3, 3] - frames[:, :3, 3]))
                > _CONSISTENCY_TOLERANCE):
            raise ValueError('the chain cannot be reduced to constant segments')

    def poses(self, q: np.ndarray) -> np.ndarray:
        """
        Pose of every z-aligned joint frame and of the tip.

        :param q: joint configuration, (N,), rad or m.

        :returns: (N + 1, 4, 4) read-only array: rows 0..N-1 are the joint frames after their own
            motion (the joint axis is column 2, a point on it column 3), row N is the tip pose;
            all in the base frame.
        """
        # A heuristic's last configuration is evaluated again by the polish that follows, and
        # the polish's by solve(): remembering the last answer saves those evaluations. One
        # tuple is swapped at once, so threads sharing the kernel never see a torn pair.
        key = q.tobytes()
        last = self._last
        if last[0] == key:
            return last[1]
        poses = self._compute_poses(q)
        poses.flags.writeable = False
        self._last = (key, poses)
        return poses

    def _compute_poses(self, q: np.ndarray) -> np.ndarray:
        n = self.num_joints
        weights = self._weights.copy()
        np.sin(q, out=weights[:n, 0, 1])
        np.cos(q, out=weights[:n, 0, 2])
        if self._has_prismatic:
            weights[:n, 0, 3] = q
        local = np.matmul(weights, self._basis).reshape(n + 1, 4, 4)
        count = local.shape[0]
        step = 1
        while step < count:
            local[step:] = local[:-step] @ local[step:]
            step *= 2
        return local

    def tip_pose(self, q: np.ndarray) -> np.ndarray:
        """Return the (4, 4) tip pose in the base frame for configuration ``q``."""
        return self.poses(q)[-1]

    def jacobian(self, poses: np.ndarray) -> np.ndarray:
        """
        Geometric Jacobian from the output of :meth:`poses`.

        :returns: (6, N) array, linear rows first, in the base frame.
        """
        axes = poses[:-1, :3, 2]
        lever = poses[-1, :3, 3] - poses[:-1, :3, 3]
        jacobian = np.empty((6, self.num_joints))
        ax, ay, az = axes[:, 0], axes[:, 1], axes[:, 2]
        lx, ly, lz = lever[:, 0], lever[:, 1], lever[:, 2]
        jacobian[0] = ay * lz - az * ly
        jacobian[1] = az * lx - ax * lz
        jacobian[2] = ax * ly - ay * lx
        jacobian[3:] = axes.T
        prismatic = self._prismatic
        if prismatic.size:
            jacobian[:3, prismatic] = axes[prismatic].T
            jacobian[3:, prismatic] = 0.0
        return jacobian

    def clip(self, q: np.ndarray) -> np.ndarray:
        """Return ``q`` clamped into the joint limits (a new array)."""
        return np.minimum(np.maximum(q, self.lower), self.upper)


class _GenericKernel(ChainKernel):
    """Kernel that asks the chain for every pose; used when segments are not constant."""

    def __init__(self, chain) -> None:
        n = int(chain.num_joints)
        self.num_joints = n
        self.lower = np.asarray(chain.lower, dtype=float).copy()
        self.upper = np.asarray(chain.upper, dtype=float).copy()
        self.is_prismatic = np.asarray(chain.is_prismatic, dtype=bool).copy()
        self._prismatic = np.flatnonzero(self.is_prismatic)
        self._axes = np.asarray(chain.axes, dtype=float)
        self._alignments = np.array([_frame_aligning_z_with(a) for a in self._axes])
        self._chain = chain
        self._last = (b'', None)
        frames, tip = chain.joint_frames(np.zeros(n))
        poses = self.poses(np.zeros(n))
        self.tip_offset = np.linalg.solve(poses[-2], tip)
        origins = poses[:, :3, 3]
        self.length_scale = max(float(np.sum(np.linalg.norm(np.diff(origins, axis=0), axis=1))),
                                1e-3)

    def _compute_poses(self, q: np.ndarray) -> np.ndarray:
        frames, tip = self._chain.joint_frames(q)
        poses = np.empty((self.num_joints + 1, 4, 4))
        poses[:-1] = frames
        poses[:-1, :3, :3] = frames[:, :3, :3] @ self._alignments
        poses[-1] = tip
        return poses


_KERNELS: 'weakref.WeakKeyDictionary' = weakref.WeakKeyDictionary()


def kernel_for(chain) -> ChainKernel:
    """
    Return the kernel of ``chain``, built on first use and cached while the chain lives.

    Chains that cannot be reduced to constant segments get a slower kernel that asks the chain
    for every pose, so that solving still works.
    """
    try:
        cached = _KERNELS.get(chain)
    except TypeError:  # an unhashable chain type cannot be cached
        cached = None
    if cached is not None:
        return cached
    try:
        kernel = ChainKernel(chain)
    except (ValueError, np.linalg.LinAlgError):
        kernel = _GenericKernel(chain)
    try:
        _KERNELS[chain] = kernel
    except TypeError:
        pass
    return kernel
