# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What the tree heuristics share.

The tree as compiled arrays, its points, the sub-base passes of FABRIK, and the stall-aware
loop's checks (Welman's turn of one joint toward several goals is :mod:`.tree_turns`).

The point tree has one node per variable (its joint's origin, on its axis), one per tip and a
root (the base frame's origin); a node's parent is the previous variable on its tip's path.
A node with several children is a sub-base. Lengths in metres, angles in radians.
"""

import math
from typing import NamedTuple

import numpy as np

from .tree_goals import tip_error, TreeGoals
from ..kinematics.jit import compiled
from ..kinematics.tree import KinematicTree
from ..kinematics.tree_kernels import tree_frames, TreeArrays

__all__ = ['TreeKernel', 'tree_kernel', 'node_positions', 'fabrik_passes', 'goal_cost',
           'pin_wrists', 'point_distance', 'track', 'stalled', 'trust_radius', 'extrapolate']

# An attempt progresses while its best cost falls by this fraction within ``stall`` iterations
# (the chains' rule); a lower cost by less only replaces the best configuration.
_PROGRESS = 0.05
# An attempt whose best cost is still above this fraction of the length scale (squared) after a
# quarter of ``stall`` iterations gives up: a restart is the better use of the time.
_FAR = 0.05
# Within this fraction of the length scale any gain is progress: there a heuristic alone
# converges slowly but surely to the last digits, and a restart would lose that.
_NEAR = 1e-3


class TreeKernel(NamedTuple):
    """
    A tree as its heuristics read it.

    :ivar arrays: the kinematic arrays.
    :ivar parent: (P,) int64 parent node of each node (-1 for the root, the last node).
    :ivar order: (P,) int64 nodes root first, each after its parent.
    :ivar below: (N, P) bool: node p lies below (is moved by) variable v.
    :ivar gain: (N,) multiplier of each variable's own frame.
    :ivar lower: (N,) lower limits; :ivar upper: (N,) upper limits.
    :ivar prismatic: (N,) 1.0 for a prismatic variable.
    :ivar tip_rows: (T,) frame row of each tip.
    """

    arrays: TreeArrays
    parent: np.ndarray
    order: np.ndarray
    below: np.ndarray
    gain: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    prismatic: np.ndarray
    tip_rows: np.ndarray


def tree_kernel(tree: KinematicTree) -> TreeKernel:
    """Return the compiled kernels' view of ``tree``."""
    return TreeKernel(tree.arrays, tree.node_parent, tree.node_order, tree.node_below,
                      tree.joint_gain, np.array(tree.lower), np.array(tree.upper),
                      tree.is_prismatic.astype(float), tree.arrays.starts[1:] - 1)


@compiled(leaf=True)
def node_positions(kernel: TreeKernel, frames: np.ndarray, out: np.ndarray) -> None:
    """Write every node's position (P, 3) from the frames of :func:`tree_frames`."""
    n, count = kernel.gain.shape[0], kernel.tip_rows.shape[0]
    for v in range(n):
        for i in range(3):
            out[v, i] = frames[kernel.arrays.joint_row[v], i, 3]
    for t in range(count):
        for i in range(3):
            out[n + t, i] = frames[kernel.tip_rows[t], i, 3]
    out[n + count, :] = 0.0


@compiled(leaf=True)
def _place(anchor: np.ndarray, toward: np.ndarray, length: float, out: np.ndarray) -> None:
    """Put ``out`` at ``length`` from ``anchor`` on the line toward ``toward``."""
    dx, dy, dz = toward[0] - anchor[0], toward[1] - anchor[1], toward[2] - anchor[2]
    norm = math.sqrt(dx * dx + dy * dy + dz * dz)
    gain = length / norm if norm > 1e-12 else 0.0
    out[0], out[1], out[2] = anchor[0] + gain * dx, anchor[1] + gain * dy, anchor[2] + gain * dz


@compiled(leaf=True)
def point_distance(points: np.ndarray, a: int, b: int) -> float:
    """Return the distance between points ``a`` and ``b`` (m)."""
    dx, dy, dz = points[a, 0] - points[b, 0], points[a, 1] - points[b, 1], \
        points[a, 2] - points[b, 2]
    return math.sqrt(dx * dx + dy * dy + dz * dz)


@compiled
def fabrik_passes(parent: np.ndarray, order: np.ndarray, points: np.ndarray,
                  fixed: np.ndarray, fixed_at: np.ndarray, backward: np.ndarray,
                  forward: np.ndarray) -> None:
    """
    One FABRIK iteration on a tree of points, the paper's sub-base procedure.

    Backward pass, from every end effector inward: a fixed node (a tip with a target, a
    wrist pinned by an orientation) is put at ``fixed_at``; every other node at the centroid of
    what its children propose, each child proposing the point at its segment's length from its
    own new place on the line toward the node's former place. The root stays. Forward pass,
    outward along every branch: each node at its segment's length from its parent's new place
    on the line toward its backward-pass place.

    :param parent: (P,) parent of each node, -1 for the root.
    :param order: (P,) nodes root first, each after its parent.
    :param points: (P, 3) the current points; segment lengths are taken from them.
    :param fixed: (P,) bool; :param fixed_at: (P, 3) where fixed nodes go.
    :param backward: (P, 3) output of the backward pass; :param forward: (P, 3) the iterate.
    """
    count = points.shape[0]
    sums = np.zeros((count, 3))
    proposals = np.zeros(count)
    proposal = np.empty(3)
    for k in range(count - 1, -1, -1):
        node = order[k]
        up = parent[node]
        if up < 0:
            backward[node] = points[node]
            continue
        for i in range(3):
            if fixed[node]:
                backward[node, i] = fixed_at[node, i]
            elif proposals[node] > 0:
                backward[node, i] = sums[node, i] / proposals[node]
            else:
                backward[node, i] = points[node, i]
        _place(backward[node], points[up], point_distance(points, node, up), proposal)
        for i in range(3):
            sums[up, i] += proposal[i]
        proposals[up] += 1.0
    for k in range(count):
        node = order[k]
        up = parent[node]
        if up < 0:
            forward[node] = points[node]
            continue
        _place(forward[up], backward[node], point_distance(points, node, up), forward[node])


@compiled
def pin_wrists(kernel: TreeKernel, goals: TreeGoals, frames: np.ndarray, points: np.ndarray,
               fixed: np.ndarray, fixed_at: np.ndarray) -> None:
    """
    Fix every tip node at its target.

    For a full pose the tip's parent joint is fixed too, at the place the target puts it (the
    goal times the inverse of the constant offset), as the paper fixes an end effector's
    orientation.
    """
    n = kernel.gain.shape[0]
    fixed[:] = False
    for t in range(kernel.tip_rows.shape[0]):
        node = n + t
        fixed[node] = True
        pose = frames[kernel.tip_rows[t]]
        target = goals.targets[t]
        fixed_at[node] = target[:3, 3]
        wrist = kernel.parent[node]
        if goals.modes[t] != 0 or wrist >= n:
            continue
        # The wrist in the tip's frame (the tip's rotation transposed), then placed by the
        # target: scalars, as a 3x3 product per tip costs more than its arithmetic.
        dx, dy, dz = (points[wrist, 0] - pose[0, 3], points[wrist, 1] - pose[1, 3],
                      points[wrist, 2] - pose[2, 3])
        lx = pose[0, 0] * dx + pose[1, 0] * dy + pose[2, 0] * dz
        ly = pose[0, 1] * dx + pose[1, 1] * dy + pose[2, 1] * dz
        lz = pose[0, 2] * dx + pose[1, 2] * dy + pose[2, 2] * dz
        fixed[wrist] = True
        for i in range(3):
            fixed_at[wrist, i] = (target[i, 0] * lx + target[i, 1] * ly + target[i, 2] * lz
                                  + target[i, 3])


@compiled(leaf=True)
def goal_cost(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
              frames: np.ndarray) -> tuple:
    """
    Return the weighted squared error (m^2) of every tip at ``q`` and whether all are met.

    Writes the frames of ``q`` into ``frames``.
    """
    tree_frames(kernel.arrays, q, frames)
    cost, met = 0.0, True
    for t in range(kernel.tip_rows.shape[0]):
        position, orientation = tip_error(goals, t, frames[kernel.tip_rows[t]])
        w = goals.weights[t]
        cost += w * w * (position ** 2 + (goals.scale * orientation) ** 2)
        if position > goals.tolerances[t, 0] or orientation > goals.tolerances[t, 1]:
            met = False
    return cost, met


@compiled(leaf=True)
def track(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, frames: np.ndarray,
          best: np.ndarray, state: np.ndarray) -> bool:
    """
    Check ``q`` in a heuristic's loop.

    Keeps the best configuration in ``best`` and, in ``state`` ([best cost, iterations since
    progress, cost at the last progress]), counts the iterations since the best cost last fell
    by ``_PROGRESS`` of its value (by anything within ``_NEAR`` of the goals).

    :returns: whether every tip meets its goal at ``q``.
    """
    cost, met = goal_cost(kernel, goals, q, frames)
    if cost < state[0] * (1.0 - 1e-9):
        state[0] = cost
        for v in range(q.shape[0]):
            best[v] = q[v]
    near = state[0] < (_NEAR * goals.scale) ** 2
    if cost < state[2] * (1.0 - (1e-9 if near else _PROGRESS)):
        state[2] = cost
        state[1] = 0.0
    else:
        state[1] += 1.0
    return met


@compiled(leaf=True)
def stalled(goals: TreeGoals, state: np.ndarray, stall: int) -> bool:
    """
    Whether an attempt tracked in ``state`` (:func:`track`) should give up.

    It gives up after ``stall`` iterations without progress, or after a quarter of them while
    its best cost is still above ``_FAR`` times the length scale, squared.
    """
    if state[1] > stall:
        return True
    return state[1] > 0.25 * stall and state[0] > (_FAR * goals.scale) ** 2


@compiled(leaf=True)
def trust_radius(goals: TreeGoals, state: np.ndarray, trust_region: float) -> float:
    """
    Return the largest motion of a variable per iteration, rad (times the length scale, m).

    That is ``trust_region`` times the start's error over the goals' length scale, read from
    ``state`` after the first :func:`track`, as the chains' search bounds a step; ``inf``
    for ``trust_region = inf``.
    """
    if not math.isfinite(trust_region):
        return math.inf
    return trust_region * math.sqrt(state[0]) / goals.scale


@compiled
def extrapolate(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, origin: np.ndarray,
                frames: np.ndarray, radius: float) -> None:
    """
    Go on along the motion of the last iteration while the cost falls, as the chains do.

    A heuristic alone converges linearly, and slowly where the orientation narrows the cost's
    valleys; its iterates then advance by nearly the same motion again and again. ``q`` moved
    1, 3, 7, ... 63 times its motion from ``origin`` further on (within the limits) replaces
    ``q`` while the cost keeps falling, no variable more than ``radius`` beyond ``q`` (rad;
    times the length scale for a slide, m). The direction is the heuristic's own.
    """
    n = q.shape[0]
    trial, kept = np.empty(n), q.copy()
    cost, _ = goal_cost(kernel, goals, q, frames)
    extra = 1.0
    for _ in range(6):
        for v in range(n):
            reach = radius * goals.scale if kernel.prismatic[v] != 0.0 else radius
            motion = min(max(extra * (q[v] - origin[v]), -reach), reach)
            trial[v] = min(max(q[v] + motion, kernel.lower[v]), kernel.upper[v])
        trial_cost, _ = goal_cost(kernel, goals, trial, frames)
        if trial_cost >= cost:
            break
        cost = trial_cost
        kept[:] = trial
        extra = 2.0 * extra + 1.0
    q[:] = kept
