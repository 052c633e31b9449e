# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What the tree heuristics share.

The tree as compiled arrays, its points, the sub-base passes of FABRIK, Welman's turn of one
joint toward several goals, and the stall-aware loop's checks.

The point tree has one node per variable (its joint's origin, on its axis), one per tip and a
root (the base frame's origin); a node's parent is the previous variable on its tip's path.
A node with several children is a sub-base. Lengths in metres, angles in radians.
"""

import math
from typing import NamedTuple

import numpy as np

from .tree_goals import tip_errors, TreeGoals
from ..kinematics.jit import compiled
from ..kinematics.tree import KinematicTree
from ..kinematics.tree_kernels import tree_frames, TreeArrays

__all__ = ['TreeKernel', 'tree_kernel', 'node_positions', 'fabrik_passes', 'turn_toward',
           'goal_cost', 'pin_wrists', 'track', 'stalled', 'extrapolate', 'move_frames']

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
        if fixed[node]:
            backward[node] = fixed_at[node]
        elif proposals[node] > 0:
            backward[node] = sums[node] / proposals[node]
        else:
            backward[node] = points[node]
        length = np.linalg.norm(points[node] - points[up])
        _place(backward[node], points[up], length, proposal)
        sums[up] += proposal
        proposals[up] += 1.0
    for k in range(count):
        node = order[k]
        up = parent[node]
        if up < 0:
            forward[node] = points[node]
            continue
        length = np.linalg.norm(points[node] - points[up])
        _place(forward[up], backward[node], length, forward[node])


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
        rotation = np.ascontiguousarray(pose[:3, :3])
        local = rotation.T @ (points[wrist] - pose[:3, 3])
        fixed[wrist] = True
        fixed_at[wrist] = np.ascontiguousarray(target[:3, :3]) @ local + target[:3, 3]


@compiled(leaf=True)
def move_frames(kernel: TreeKernel, v: int, change: float, q: np.ndarray,
                frames: np.ndarray) -> None:
    """
    Update ``frames`` after variable v moved by ``change`` (rad or m) to ``q[v]``.

    Every frame from v's joint outward on each tip's path turns rigidly about v's axis (or
    slides along it) instead of a forward kinematics of the whole tree: O(rows below v), not
    O(rows). A path where v drives several joints (a mimic) is recomputed whole.
    """
    arrays = kernel.arrays
    for t in range(arrays.starts.shape[0] - 1):
        first, last = arrays.starts[t], arrays.starts[t + 1] - 1
        count, at = 0, -1
        for j in range(first, last):
            if arrays.variable[j] == v:
                count += 1
                if at < 0:
                    at = j
        if count > 1:
            tree_frames(arrays, q, frames)
            return
    if change == 0.0:
        return
    for t in range(arrays.starts.shape[0] - 1):
        first, last = arrays.starts[t], arrays.starts[t + 1] - 1
        at = -1
        for j in range(first, last):
            if arrays.variable[j] == v:
                at = j
                break
        if at < 0:
            continue
        angle = change * arrays.motion[at, 0]
        ux, uy, uz = frames[at, 0, 2], frames[at, 1, 2], frames[at, 2, 2]
        ox, oy, oz = frames[at, 0, 3], frames[at, 1, 3], frames[at, 2, 3]
        if arrays.motion[at, 2] != 0.0:
            for j in range(at, last + 1):
                frames[j, 0, 3] += angle * ux
                frames[j, 1, 3] += angle * uy
                frames[j, 2, 3] += angle * uz
            continue
        cosine, sine = math.cos(angle), math.sin(angle)
        versine = 1.0 - cosine
        # Rodrigues' rotation about u through o.
        r00, r01, r02 = cosine + versine * ux * ux, versine * ux * uy - sine * uz, \
            versine * ux * uz + sine * uy
        r10, r11, r12 = versine * uy * ux + sine * uz, cosine + versine * uy * uy, \
            versine * uy * uz - sine * ux
        r20, r21, r22 = versine * uz * ux - sine * uy, versine * uz * uy + sine * ux, \
            cosine + versine * uz * uz
        for j in range(at, last + 1):
            for c in range(4):
                x, y, z = frames[j, 0, c], frames[j, 1, c], frames[j, 2, c]
                if c == 3:
                    x, y, z = x - ox, y - oy, z - oz
                nx = r00 * x + r01 * y + r02 * z
                ny = r10 * x + r11 * y + r12 * z
                nz = r20 * x + r21 * y + r22 * z
                if c == 3:
                    nx, ny, nz = nx + ox, ny + oy, nz + oz
                frames[j, 0, c], frames[j, 1, c], frames[j, 2, c] = nx, ny, nz


@compiled(leaf=True)
def _triple(ux: float, uy: float, uz: float, cx: float, cy: float, cz: float, dx: float,
            dy: float, dz: float) -> float:
    """Return u . (c x d)."""
    return ux * (cy * dz - cz * dy) + uy * (cz * dx - cx * dz) + uz * (cx * dy - cy * dx)


@compiled
def turn_toward(kernel: TreeKernel, goals: TreeGoals, v: int, frames: np.ndarray,
                current: np.ndarray, desired: np.ndarray, use: np.ndarray,
                q: np.ndarray) -> None:
    """
    Move variable v to Welman's optimum.

    That is the turn (or slide) about its own axis that best
    brings the used nodes below it from ``current`` to ``desired`` (tips weighted by their
    goal's weight) and the tips' frames below it toward their targets' orientations (scaled
    by the goals' length scale); clamped to the limits.
    """
    # Scalars only: this runs once per variable per iteration.
    n = kernel.gain.shape[0]
    row = kernel.arrays.joint_row[v]
    ux, uy, uz = frames[row, 0, 2], frames[row, 1, 2], frames[row, 2, 2]
    ox, oy, oz = frames[row, 0, 3], frames[row, 1, 3], frames[row, 2, 3]
    numerator, denominator, slide, weights = 0.0, 0.0, 0.0, 0.0
    for node in range(current.shape[0]):
        if not kernel.below[v, node] or not use[node]:
            continue
        weight = goals.weights[node - n] if node >= n else 1.0
        cx, cy, cz = current[node, 0] - ox, current[node, 1] - oy, current[node, 2] - oz
        dx, dy, dz = desired[node, 0] - ox, desired[node, 1] - oy, desired[node, 2] - oz
        numerator += weight * _triple(ux, uy, uz, cx, cy, cz, dx, dy, dz)
        denominator += weight * ((cx * dx + cy * dy + cz * dz)
                                 - (ux * cx + uy * cy + uz * cz) * (ux * dx + uy * dy + uz * dz))
        slide += weight * (ux * (dx - cx) + uy * (dy - cy) + uz * (dz - cz))
        weights += weight
    if kernel.prismatic[v] != 0.0:
        if weights > 0.0:
            q[v] += slide / weights / kernel.gain[v]
    else:
        for t in range(kernel.tip_rows.shape[0]):
            mode = goals.modes[t]
            if not kernel.below[v, n + t] or mode == 2:
                continue
            weight = goals.weights[t] * goals.scale * goals.scale
            pose, target = frames[kernel.tip_rows[t]], goals.targets[t]
            for k in range(3 if mode == 0 else 1):
                if mode == 1:
                    ax, ay, az = goals.axes[t, 0], goals.axes[t, 1], goals.axes[t, 2]
                    cx = pose[0, 0] * ax + pose[0, 1] * ay + pose[0, 2] * az
                    cy = pose[1, 0] * ax + pose[1, 1] * ay + pose[1, 2] * az
                    cz = pose[2, 0] * ax + pose[2, 1] * ay + pose[2, 2] * az
                    dx = target[0, 0] * ax + target[0, 1] * ay + target[0, 2] * az
                    dy = target[1, 0] * ax + target[1, 1] * ay + target[1, 2] * az
                    dz = target[2, 0] * ax + target[2, 1] * ay + target[2, 2] * az
                else:
                    cx, cy, cz = pose[0, k], pose[1, k], pose[2, k]
                    dx, dy, dz = target[0, k], target[1, k], target[2, k]
                numerator += weight * _triple(ux, uy, uz, cx, cy, cz, dx, dy, dz)
                denominator += weight * ((cx * dx + cy * dy + cz * dz)
                                         - (ux * cx + uy * cy + uz * cz)
                                         * (ux * dx + uy * dy + uz * dz))
        q[v] += math.atan2(numerator, denominator) / kernel.gain[v]
    q[v] = min(max(q[v], kernel.lower[v]), kernel.upper[v])


@compiled
def goal_cost(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
              frames: np.ndarray) -> tuple:
    """
    Return the weighted squared error (m^2) of every tip at ``q`` and whether all are met.

    Writes the frames of ``q`` into ``frames``.
    """
    tree_frames(kernel.arrays, q, frames)
    poses = np.empty((kernel.tip_rows.shape[0], 4, 4))
    for t in range(kernel.tip_rows.shape[0]):
        poses[t] = frames[kernel.tip_rows[t]]
    errors = tip_errors(goals, poses)
    cost, met = 0.0, True
    for t in range(errors.shape[0]):
        w = goals.weights[t]
        cost += w * w * (errors[t, 0] ** 2 + (goals.scale * errors[t, 1]) ** 2)
        if errors[t, 0] > goals.tolerances[t, 0] or errors[t, 1] > goals.tolerances[t, 1]:
            met = False
    return cost, met


@compiled
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
        best[:] = q
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


@compiled
def extrapolate(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, origin: np.ndarray,
                frames: np.ndarray) -> None:
    """
    Go on along the motion of the last iteration while the cost falls, as the chains do.

    A heuristic alone converges linearly, and slowly where the orientation narrows the cost's
    valleys; its iterates then advance by nearly the same motion again and again. ``q`` moved
    1, 3, 7, ... 63 times its motion from ``origin`` further on (within the limits) replaces
    ``q`` while the cost keeps falling. The direction is the heuristic's own.
    """
    n = q.shape[0]
    trial, kept = np.empty(n), q.copy()
    cost, _ = goal_cost(kernel, goals, q, frames)
    extra = 1.0
    for _ in range(6):
        for v in range(n):
            trial[v] = min(max(q[v] + extra * (q[v] - origin[v]), kernel.lower[v]),
                           kernel.upper[v])
        trial_cost, _ = goal_cost(kernel, goals, trial, frames)
        if trial_cost >= cost:
            break
        cost = trial_cost
        kept[:] = trial
        extra = 2.0 * extra + 1.0
    q[:] = kept
