# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Jacobian transpose on a tree: the transpose of the stacked, weighted Jacobian of every tip.

One iteration stacks each tip's 6 residual rows and Jacobian rows
(:func:`.tree_goals.tip_residual`: weighted, orientation at the goals' length scale, aimed axes
projected) into e (6T,) and
J (6T, N). The direction is the chain version's default, the conjugate variant: ``J^T e``
plus a Polak-Ribiere multiple of the previous direction (restarted when negative or not a
descent direction); the step length is Buss's exact line search of the linearised error along
it, ``a = <e, J d> / |J d|^2``; no variable moves more than 0.6 (rad or m) in one step, and the
step is clamped to the limits. Where a chain's step serves one tip, a shared joint here sums
the pulls of all the tips it moves.
"""

import numpy as np

from .tree_goals import tip_residual, TreeGoals
from .tree_points import stalled, track, TreeKernel, trust_radius
from ..kinematics.jit import compiled
from ..kinematics.tree_kernels import tree_frames, tree_jacobians

__all__ = ['tree_jacobian_transpose', 'stacked', 'stacked_at_frames']

# Largest motion of one variable in one step (rad or m), the chain version's default
# ``max_step``: the linearisation holds for small motions only.
_MAX_STEP = 0.6


@compiled
def stacked(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, frames: np.ndarray,
            jacobians: np.ndarray, residual: np.ndarray, rows: np.ndarray) -> None:
    """Write the stacked weighted residual (6T,) and Jacobian (6T, N) at ``q``."""
    tree_frames(kernel.arrays, q, frames)
    stacked_at_frames(kernel, goals, frames, jacobians, residual, rows)


@compiled
def stacked_at_frames(kernel: TreeKernel, goals: TreeGoals, frames: np.ndarray,
                      jacobians: np.ndarray, residual: np.ndarray, rows: np.ndarray) -> None:
    """
    Write what :func:`stacked` writes, from the frames of the configuration already in ``frames``.

    A loop that has just measured its iterate (:func:`.tree_points.goal_cost` writes the
    frames) need not run the forward kinematics again.
    """
    tree_jacobians(kernel.arrays, frames, jacobians)
    for t in range(kernel.tip_rows.shape[0]):
        tip_residual(goals, t, frames[kernel.tip_rows[t]], jacobians[t],
                     residual[6 * t:6 * t + 6], rows[6 * t:6 * t + 6])


@compiled
def tree_jacobian_transpose(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
                            iterations: int, stall: int, trust_region: float,
                            extrapolate: bool) -> int:
    """
    Run the Jacobian transpose on ``q`` in place; return the iterations run.

    It stops when every tip is met, ``stall`` iterations bring no gain, or ``iterations``
    ran; ``q`` ends at the best configuration seen. A step moves each variable at most
    :func:`.tree_points.trust_radius` (``inf``: no bound). ``extrapolate`` is not read: the
    conjugate directions already carry the last steps on, as the chain version's do.

    :returns: the iterations run.
    """
    n, count = kernel.gain.shape[0], kernel.tip_rows.shape[0]
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    jacobians = np.empty((count, 6, n))
    residual, rows = np.empty(6 * count), np.empty((6 * count, n))
    best, state = q.copy(), np.array([np.inf, 0.0, np.inf])
    previous_gradient, previous_direction = np.zeros(n), np.zeros(n)
    previous_norm = 0.0
    ran = iterations
    radius = np.inf
    for iteration in range(iterations):
        if track(kernel, goals, q, frames, best, state):
            return iteration
        if stalled(goals, state, stall):
            ran = iteration
            break
        if iteration == 0:
            radius = trust_radius(goals, state, trust_region)
        # track() just wrote the frames of q.
        stacked_at_frames(kernel, goals, frames, jacobians, residual, rows)
        gradient = rows.T @ residual
        norm = np.dot(gradient, gradient)
        direction = gradient.copy()
        if previous_norm > 0.0:
            # Polak-Ribiere, restarted when negative or not a descent direction.
            beta = max(0.0, (norm - np.dot(gradient, previous_gradient)) / previous_norm)
            direction += beta * previous_direction
            if np.dot(direction, gradient) <= 0.0:
                direction[:] = gradient
        image = rows @ direction
        image_norm = np.dot(image, image)
        if image_norm <= 0.0:
            break
        step = np.dot(residual, image) / image_norm * direction
        largest = np.max(np.abs(step))
        if largest > _MAX_STEP:
            step *= _MAX_STEP / largest
        previous_gradient[:], previous_direction[:], previous_norm = gradient, direction, norm
        for v in range(n):
            reach = radius * goals.scale if kernel.prismatic[v] != 0.0 else radius
            q[v] = min(max(q[v] + min(max(step[v], -reach), reach), kernel.lower[v]),
                       kernel.upper[v])
    track(kernel, goals, q, frames, best, state)
    q[:] = best
    return ran
