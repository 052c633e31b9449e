# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Cyclic coordinate descent on a tree, with Welman's objective summed over the goals below.

One iteration visits every variable from the tips inward (deepest first): each turns (or
slides) about its own axis to the closed-form optimum of the weighted sum, over the tips below
it, of the position errors and of the orientation errors (the target frame's axes, or the aimed
axis, at the goals' length scale), as :func:`.tree_turns.turn_toward` computes it. A joint
shared by several tips (a waist) so weighs all its tips at once, where a chain's CCD would
serve one.
"""

import numpy as np

from .tree_goals import TreeGoals
from .tree_points import node_positions, stalled, track, TreeKernel, trust_radius
from .tree_turns import move_frames, turn_toward
from .tree_secant import accelerate, secant_history
from ..kinematics.jit import compiled
from ..kinematics.tree_kernels import tree_frames

__all__ = ['tree_ccd']


@compiled
def tree_ccd(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, iterations: int,
             stall: int, trust_region: float, extrapolate: bool) -> int:
    """
    Run CCD on ``q`` in place; return the iterations run.

    It stops when every tip is met, ``stall`` iterations bring no gain, or ``iterations``
    ran; ``q`` ends at the best configuration seen. Each turn moves a variable at most
    :func:`.tree_points.trust_radius` (``inf``: no bound); with ``extrapolate`` each iteration
    is followed by :func:`.tree_secant.accelerate`.

    :returns: the iterations run.
    """
    n, count = kernel.gain.shape[0], kernel.tip_rows.shape[0]
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    current = np.empty((kernel.parent.shape[0], 3))
    desired = np.zeros((kernel.parent.shape[0], 3))
    use = np.zeros(kernel.parent.shape[0], dtype=np.bool_)
    for t in range(count):
        desired[n + t] = goals.targets[t, :3, 3]
        use[n + t] = True
    best, state, origin = q.copy(), np.array([np.inf, 0.0, np.inf]), q.copy()
    inputs, outputs = secant_history(q.shape[0])
    recorded = 0
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
        origin[:] = q
        tree_frames(kernel.arrays, q, frames)
        for k in range(kernel.order.shape[0] - 1, -1, -1):
            v = kernel.order[k]
            if v >= n:
                continue
            node_positions(kernel, frames, current)
            before = q[v]
            turn_toward(kernel, goals, v, frames, current, desired, use, q, radius)
            move_frames(kernel, v, q[v] - before, q, frames)
        if extrapolate:
            recorded = accelerate(kernel, goals, q, origin, frames, inputs, outputs,
                                  recorded, radius)
    track(kernel, goals, q, frames, best, state)
    q[:] = best
    return ran
