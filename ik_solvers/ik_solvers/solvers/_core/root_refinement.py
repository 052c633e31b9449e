# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Newton steps from a solution of a full pose to the exact root it lies near, compiled.

A search stops once the tolerances are met. Near a singularity the pose hardly changes along
one direction of the joints, so a solution within 1e-5 m may lie milliradians from the exact
root of its branch, and another branch lies as close: several solutions of one pose are told
apart, and matched to a closed form, only once each sits on its root.
"""

import numpy as np

from .polish import damped_rows
from .rotations import rotation_vector_into
from ...kinematics.jit import compiled
from ...kinematics.kernels import ChainArrays, forward_frames, jacobian_from_frames

__all__ = ['refine_root']


@compiled(leaf=True)
def _pose_residual(chain: ChainArrays, target: np.ndarray, q: np.ndarray, frames: np.ndarray,
                   rotation: np.ndarray, residual: np.ndarray) -> float:
    """Write the tip's error (target minus tip: m, then the rotation vector in rad); return
    the squared norm of the position part plus that of the rotation part."""
    forward_frames(chain, q, frames)
    tip = frames.shape[0] - 1
    for i in range(3):
        residual[i] = target[i, 3] - frames[tip, i, 3]
        for j in range(3):
            total = 0.0
            for k in range(3):
                total += target[i, k] * frames[tip, j, k]
            rotation[i, j] = total
    rotation_vector_into(rotation, residual[3:])
    total = 0.0
    for i in range(6):
        total += residual[i] * residual[i]
    return total


@compiled
def refine_root(chain: ChainArrays, target: np.ndarray, q: np.ndarray, lower: np.ndarray,
                upper: np.ndarray, steps: int) -> np.ndarray:
    """
    Take up to ``steps`` least-squares steps on the full pose from ``q``, in place.

    A step is kept only when it lowers the error; the joints stay within ``lower`` and
    ``upper``. Returns ``[position error (m), orientation error (rad)]`` at ``q`` on return.
    """
    n = q.shape[0]
    frames = np.empty((chain.segments.shape[0], 4, 4))
    rotation, residual = np.empty((3, 3)), np.empty(6)
    jacobian, step, trial = np.empty((6, n)), np.empty(n), np.empty(n)
    size = max(6, n)
    normal, multipliers = np.empty((size, size)), np.empty(size)
    error = _pose_residual(chain, target, q, frames, rotation, residual)
    for _ in range(steps):
        if error < 1e-28:
            break
        jacobian_from_frames(chain, frames, jacobian)
        damped_rows(jacobian, residual, 6, 0.0, q, lower, upper, step, normal, multipliers)
        for i in range(n):
            trial[i] = min(max(q[i] + step[i], lower[i]), upper[i])
        trial_error = _pose_residual(chain, target, trial, frames, rotation, residual)
        if not trial_error < error:
            break
        q[:] = trial
        error = trial_error
    _pose_residual(chain, target, q, frames, rotation, residual)
    return np.array([np.sqrt(residual[0] ** 2 + residual[1] ** 2 + residual[2] ** 2),
                     np.sqrt(residual[3] ** 2 + residual[4] ** 2 + residual[5] ** 2)])
