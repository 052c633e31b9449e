# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
FABRIK on a tree: Aristidou and Lasenby's procedure for several end effectors.

One iteration:

1. forward kinematics gives the points of the point tree (:mod:`.tree_points`);
2. every tip is fixed at its target, and for a full pose the joint before it where the target
   puts it (the paper fixes the end effector's orientation so);
3. the backward pass runs from every end effector inward; a sub-base (a joint where branches
   meet) is placed at the centroid of the positions its branches propose, and the pass goes on
   to the root (:func:`.tree_points.fabrik_passes`);
4. the forward pass runs outward along every branch separately from the root, sub-bases of
   sub-bases alike;
5. the joints are set from the root outward, each turning about its own axis (Welman's closed
   form) to bring the points below it onto the forward pass's points, and the tips' frames
   toward their targets' orientations.

Step 5 differs from the chain version, which sets each joint from its own segment: on a tree
a sub-base joint has one segment per branch, so it weighs all the points below it.
"""

import numpy as np

from .tree_goals import TreeGoals
from .tree_points import (fabrik_passes, node_positions, pin_wrists, stalled, track,
                          TreeKernel, trust_radius)
from .tree_turns import move_frames, turn_toward
from .tree_secant import accelerate, secant_history
from ..kinematics.jit import compiled
from ..kinematics.tree_kernels import tree_frames

__all__ = ['tree_fabrik', 'realise']


@compiled
def realise(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, frames: np.ndarray,
            current: np.ndarray, desired: np.ndarray, use: np.ndarray, radius: float) -> None:
    """
    Set every variable from the root outward toward the points ``desired``.

    Each moves at most ``radius`` (rad; times the length scale for a slide, m).

    The frames are computed once; after each turn only the frames below the turned joint move
    (:func:`.tree_turns.move_frames`).
    """
    n = kernel.gain.shape[0]
    tree_frames(kernel.arrays, q, frames)
    for k in range(kernel.order.shape[0]):
        v = kernel.order[k]
        if v >= n:
            continue
        node_positions(kernel, frames, current)
        before = q[v]
        turn_toward(kernel, goals, v, frames, current, desired, use, q, radius)
        move_frames(kernel, v, q[v] - before, q, frames)


@compiled
def tree_fabrik(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, iterations: int,
                stall: int, trust_region: float, extrapolate: bool) -> int:
    """
    Run FABRIK on ``q`` in place; return the iterations run.

    It stops when every tip is met, ``stall`` iterations bring no gain, or ``iterations``
    ran; ``q`` ends at the best configuration seen. Setting the joints moves each at most
    :func:`.tree_points.trust_radius` per iteration (``inf``: no bound); with ``extrapolate``
    each iteration is followed by :func:`.tree_secant.accelerate`.

    :returns: the iterations run.
    """
    nodes = kernel.parent.shape[0]
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    points, current = np.empty((nodes, 3)), np.empty((nodes, 3))
    backward, forward = np.empty((nodes, 3)), np.empty((nodes, 3))
    fixed, fixed_at = np.zeros(nodes, dtype=np.bool_), np.zeros((nodes, 3))
    use = np.ones(nodes, dtype=np.bool_)
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
        node_positions(kernel, frames, points)
        pin_wrists(kernel, goals, frames, points, fixed, fixed_at)
        fabrik_passes(kernel.parent, kernel.order, points, fixed, fixed_at, backward, forward)
        origin[:] = q
        realise(kernel, goals, q, frames, current, forward, use, radius)
        if extrapolate:
            recorded = accelerate(kernel, goals, q, origin, frames, inputs, outputs,
                                  recorded, radius)
    track(kernel, goals, q, frames, best, state)
    q[:] = best
    return ran
