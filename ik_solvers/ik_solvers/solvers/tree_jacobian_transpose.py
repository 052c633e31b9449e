# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Jacobian transpose on a tree: the transpose of the stacked, weighted Jacobian of every tip.

One iteration stacks each tip's 6 residual rows and Jacobian rows
(:func:`.tree_goals.tip_residual`: weighted, orientation at the goals' length scale, aimed axes
projected) into e (6T,) and
J (6T, N), and steps ``dq = a J^T e`` with Buss's step length ``a = <e, J J^T e> / |J J^T e|^2``,
clamped to the limits. Where a chain's step serves one tip, a shared joint here sums the pulls
of all the tips it moves.
"""

import numpy as np

from .tree_goals import tip_residual, TreeGoals
from .tree_points import stalled, track, TreeKernel
from ..kinematics.jit import compiled
from ..kinematics.tree_kernels import tree_frames, tree_jacobians

__all__ = ['tree_jacobian_transpose', 'stacked']


@compiled
def stacked(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, frames: np.ndarray,
            jacobians: np.ndarray, residual: np.ndarray, rows: np.ndarray) -> None:
    """Write the stacked weighted residual (6T,) and Jacobian (6T, N) at ``q``."""
    tree_frames(kernel.arrays, q, frames)
    tree_jacobians(kernel.arrays, frames, jacobians)
    for t in range(kernel.tip_rows.shape[0]):
        tip_residual(goals, t, frames[kernel.tip_rows[t]], jacobians[t],
                     residual[6 * t:6 * t + 6], rows[6 * t:6 * t + 6])


@compiled
def tree_jacobian_transpose(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
                            iterations: int, stall: int) -> int:
    """
    Run the Jacobian transpose on ``q`` in place; return the iterations run.

    It stops when every tip is met, ``stall`` iterations bring no gain, or ``iterations``
    ran; ``q`` ends at the best configuration seen.

    :returns: the iterations run.
    """
    n, count = kernel.gain.shape[0], kernel.tip_rows.shape[0]
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    jacobians = np.empty((count, 6, n))
    residual, rows = np.empty(6 * count), np.empty((6 * count, n))
    best, state = q.copy(), np.array([np.inf, 0.0, np.inf])
    ran = iterations
    for iteration in range(iterations):
        if track(kernel, goals, q, frames, best, state):
            return iteration
        if stalled(goals, state, stall):
            ran = iteration
            break
        stacked(kernel, goals, q, frames, jacobians, residual, rows)
        step = rows.T @ residual
        image = rows @ step
        norm = np.dot(image, image)
        if norm <= 0.0:
            break
        q += np.dot(residual, image) / norm * step
        for v in range(n):
            q[v] = min(max(q[v], kernel.lower[v]), kernel.upper[v])
    track(kernel, goals, q, frames, best, state)
    q[:] = best
    return ran
