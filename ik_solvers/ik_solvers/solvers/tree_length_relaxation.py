# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Length relaxation (after Čejka) on a tree's points, with FABRIK's passes.

One iteration: forward kinematics gives the points; the tips (and, for a full pose, the joint
before each) are fixed from their goals as in :mod:`.tree_fabrik`; then ``sweeps`` times, a
sweep outward from the root restores each segment's length by moving its far point (fixed
points stay), and a sweep inward from the tips moves each parent point to its segment's length
from its child in FABRIK's way: **the sub-base rule** places a joint where branches meet at
the centroid of the positions its branches propose. The joints are then set from the root
outward toward the
relaxed points (:func:`.tree_fabrik.realise`); there is no outward pass on the points, the
realisation plays its part, as the chain version's backward pass does.
"""

import numpy as np

from .tree_fabrik import realise
from .tree_goals import TreeGoals
from .tree_points import (node_positions, pin_wrists, point_distance, stalled, track,
                          TreeKernel, trust_radius)
from .tree_secant import accelerate, secant_history
from ..kinematics.jit import compiled

__all__ = ['tree_length_relaxation', 'relax_points']


@compiled
def relax_points(parent: np.ndarray, order: np.ndarray, points: np.ndarray,
                 fixed: np.ndarray, fixed_at: np.ndarray, sweeps: int,
                 out: np.ndarray) -> None:
    """
    Relax the point tree: ``sweeps`` sweeps out then in, lengths from ``points``; see the module.

    :param out: (P, 3) the relaxed points.
    """
    # Scalars throughout: a temporary 3-vector per node and sweep cost more than the
    # arithmetic.
    count = points.shape[0]
    lengths = np.zeros(count)
    for node in range(count):
        if parent[node] >= 0:
            lengths[node] = point_distance(points, node, parent[node])
        for i in range(3):
            out[node, i] = fixed_at[node, i] if fixed[node] else points[node, i]
    sums = np.zeros((count, 3))
    proposals = np.zeros(count)
    for _ in range(sweeps):
        for k in range(count):
            node = order[k]
            up = parent[node]
            if up < 0 or fixed[node]:
                continue
            norm = point_distance(out, node, up)
            if norm > 1e-12:
                gain = lengths[node] / norm
                for i in range(3):
                    out[node, i] = out[up, i] + gain * (out[node, i] - out[up, i])
        sums[:, :] = 0.0
        proposals[:] = 0.0
        for k in range(count - 1, -1, -1):
            node = order[k]
            up = parent[node]
            if up < 0:
                continue
            if proposals[node] > 0 and not fixed[node]:
                for i in range(3):
                    out[node, i] = sums[node, i] / proposals[node]
            norm = point_distance(out, up, node)
            gain = lengths[node] / norm if norm > 1e-12 else 0.0
            for i in range(3):
                sums[up, i] += out[node, i] + gain * (out[up, i] - out[node, i])
            proposals[up] += 1.0


@compiled
def tree_length_relaxation(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
                           iterations: int, stall: int, trust_region: float,
                           extrapolate: bool) -> int:
    """
    Run length relaxation on ``q`` in place; return the iterations run.

    It stops when every tip is met, ``stall`` iterations bring no gain, or ``iterations``
    ran; ``q`` ends at the best configuration seen. Setting the joints moves each at most
    :func:`.tree_points.trust_radius` per iteration (``inf``: no bound); with ``extrapolate``
    each iteration is followed by :func:`.tree_secant.accelerate`.

    :returns: the iterations run.
    """
    nodes = kernel.parent.shape[0]
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    points, current, relaxed = np.empty((nodes, 3)), np.empty((nodes, 3)), np.empty((nodes, 3))
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
        relax_points(kernel.parent, kernel.order, points, fixed, fixed_at, 1, relaxed)
        origin[:] = q
        realise(kernel, goals, q, frames, current, relaxed, use, radius)
        if extrapolate:
            recorded = accelerate(kernel, goals, q, origin, frames, inputs, outputs,
                                  recorded, radius)
    track(kernel, goals, q, frames, best, state)
    q[:] = best
    return ran
