# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
One goal per tip of a tree: the request's types, their packing, and the compiled residual.

Each tip's :class:`TipGoal` holds a target pose and a :class:`.request.Goal` (full pose, aimed
axis or position only, with its own tolerances), a weight and whether it is required. A tip
given no goal holds its pose at the start configuration (a required full-pose goal).

The residual of tip t is 6 rows: the position error (m), then the orientation error as a
rotation vector (rad) times the tree's length scale, both times the tip's weight. For an
aimed axis the rotation is the one taking the current axis onto the target's, and the angular
Jacobian rows lose their component about the current axis; a position-only tip has zero
orientation rows.
"""

import math
from dataclasses import dataclass, field
from typing import NamedTuple, Optional, Sequence

import numpy as np

from .request import Goal
from ._core.rotations import rotation_vector_of
from ..exceptions import InvalidTargetError
from ..kinematics.jit import compiled
from ..kinematics.tree import KinematicTree

__all__ = ['TipGoal', 'TreeGoals', 'pack_goals', 'tip_residual', 'tip_error', 'tip_errors',
           'MODES']

#: Goal.mode to the packed integer.
MODES = {'full': 0, 'axis': 1, 'none': 2}
_IDENTITY = np.eye(3)
_LAST_ROW = np.array([0.0, 0.0, 0.0, 1.0])


@dataclass(frozen=True)
class TipGoal:
    """
    The target of one tip.

    :ivar tip: the tip link's name (one of the tree's).
    :ivar target: (4, 4) pose in the tree's base frame (m).
    :ivar goal: what of the pose counts and how closely.
    :ivar weight: the tip's weight in the heuristics and the polish, > 0.
    :ivar required: met before any best-effort tip; best-effort tips come as close as the
        required ones allow.
    :raises InvalidTargetError: a target that is not a finite rigid transform, a weight that is
        not positive, or a goal with bounds or the orientation fallback (not offered on trees).
    """

    tip: str
    target: np.ndarray = field(compare=False)
    goal: Goal = Goal()
    weight: float = 1.0
    required: bool = True

    def __post_init__(self) -> None:
        target = np.array(self.target, dtype=float)
        if target.shape != (4, 4) or not np.all(np.isfinite(target)):
            raise InvalidTargetError('the target of tip %r is not a finite 4x4 pose' % self.tip)
        rotation = target[:3, :3]
        # np.allclose's test (atol, and rtol 1e-5 of the reference) written out: the library
        # call costs some 15 us, and the node packs a goal per tip and target.
        if (not (np.abs(rotation @ rotation.T - _IDENTITY) <= 1e-6 + 1e-5 * _IDENTITY).all()
                or _determinant(rotation.tolist()) < 0
                or not (np.abs(target[3] - _LAST_ROW) <= 1e-8 + 1e-5 * _LAST_ROW).all()):
            raise InvalidTargetError('the target of tip %r is not a rigid transform' % self.tip)
        if not (math.isfinite(self.weight) and self.weight > 0):
            raise InvalidTargetError('the weight of tip %r must be positive, got %r'
                                     % (self.tip, self.weight))
        if (self.goal.position_bounds is not None or self.goal.rotation_bounds is not None
                or self.goal.orientation_fallback):
            raise InvalidTargetError('tip %r: bounds and the orientation fallback are not '
                                     'offered on trees; give tolerances' % self.tip)
        object.__setattr__(self, 'target', target)


def _determinant(r: list) -> float:
    """Return the determinant of the 3x3 nested list ``r`` (a library call costs more)."""
    return (r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1])
            - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
            + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]))


class TreeGoals(NamedTuple):
    """
    Every tip's goal as the arrays the compiled kernels read (T tips, tree order).

    :ivar targets: (T, 4, 4) target poses.
    :ivar modes: (T,) int64, :data:`MODES`.
    :ivar axes: (T, 3) the aimed axis in the tip frame.
    :ivar weights: (T,) weights.
    :ivar required: (T,) 1.0 for a required tip, 0.0 for a best-effort one.
    :ivar tolerances: (T, 2) position (m) and orientation (rad) tolerances.
    :ivar scale: m per rad of orientation error in the residual.
    """

    targets: np.ndarray
    modes: np.ndarray
    axes: np.ndarray
    weights: np.ndarray
    required: np.ndarray
    tolerances: np.ndarray
    scale: float


def pack_goals(tree: KinematicTree, goals: Sequence[TipGoal],
               start: Optional[np.ndarray]) -> TreeGoals:
    """
    Pack the goals, a held full pose at ``start`` for every tip given none.

    :raises InvalidTargetError: a goal for a link that is not a tip of the tree, a tip given
        twice, or a tip without a goal and no ``start`` to hold it at.
    """
    by_tip = {}
    for goal in goals:
        if goal.tip not in tree.tip_links:
            raise InvalidTargetError('%r is not a tip of the tree (tips: %s)'
                                     % (goal.tip, ', '.join(tree.tip_links)))
        if goal.tip in by_tip:
            raise InvalidTargetError('tip %r has two goals' % goal.tip)
        by_tip[goal.tip] = goal
    held = [tip for tip in tree.tip_links if tip not in by_tip]
    if held and start is None:
        raise InvalidTargetError('tip(s) %s have no goal: give a seed, where they hold'
                                 % ', '.join(held))
    poses = tree.fk(start) if held else None
    # Lists first, one array each: element-wise array assignments cost more than the solve's
    # search on an easy goal.
    targets, modes, axes, weights, required, tolerances = [], [], [], [], [], []
    for t, tip in enumerate(tree.tip_links):
        goal = by_tip.get(tip)
        if goal is None:
            targets.append(poses[t])
            modes.append(MODES['full'])
            axes.append((0.0, 0.0, 1.0))
            weights.append(1.0)
            required.append(1.0)
            tolerances.append((1e-5, 1e-5))
            continue
        targets.append(goal.target)
        modes.append(MODES[goal.goal.mode])
        axes.append(goal.goal.tip_axis)
        weights.append(goal.weight)
        required.append(float(goal.required))
        tolerances.append((goal.goal.position_tolerance, goal.goal.orientation_tolerance))
    return TreeGoals(np.array(targets, dtype=float), np.array(modes, dtype=np.int64),
                     np.array(axes, dtype=float), np.array(weights, dtype=float),
                     np.array(required, dtype=float), np.array(tolerances, dtype=float),
                     tree.length_scale)


@compiled(inline=True)
def _row_dot(a: np.ndarray, i: int, b: np.ndarray, j: int) -> float:
    """Return row ``i`` of ``a``'s rotation dotted with row ``j`` of ``b``'s."""
    return a[i, 0] * b[j, 0] + a[i, 1] * b[j, 1] + a[i, 2] * b[j, 2]


@compiled(leaf=True)
def _relative_rotation_vector(target: np.ndarray, pose: np.ndarray, out: np.ndarray,
                              start: int) -> float:
    """
    Write the rotation vector of ``target``'s rotation times ``pose``'s transposed.

    Both are (4, 4) poses; the vector goes into ``out[start:start + 3]`` and its angle (rad) is
    returned. The products are summed in scalars: a 3x3 array product per tip and iterate (a
    library call and two copies) cost more than the arithmetic.
    """
    return rotation_vector_of(
        _row_dot(target, 0, pose, 0), _row_dot(target, 0, pose, 1), _row_dot(target, 0, pose, 2),
        _row_dot(target, 1, pose, 0), _row_dot(target, 1, pose, 1), _row_dot(target, 1, pose, 2),
        _row_dot(target, 2, pose, 0), _row_dot(target, 2, pose, 1), _row_dot(target, 2, pose, 2),
        out, start)


@compiled(inline=True)
def _turned(pose: np.ndarray, i: int, axis: np.ndarray) -> float:
    """Return component ``i`` of ``axis`` turned by ``pose``'s rotation."""
    return pose[i, 0] * axis[0] + pose[i, 1] * axis[1] + pose[i, 2] * axis[2]


@compiled(leaf=True)
def _axis_angle(target: np.ndarray, pose: np.ndarray, axis: np.ndarray) -> float:
    """Return the angle (rad) between ``axis`` turned by ``pose`` and by ``target``."""
    dot = 0.0
    for i in range(3):
        dot += _turned(pose, i, axis) * _turned(target, i, axis)
    return math.acos(min(1.0, max(-1.0, dot)))


@compiled
def tip_residual(goals: TreeGoals, t: int, pose: np.ndarray, jacobian: np.ndarray,
                 residual: np.ndarray, rows: np.ndarray) -> None:
    """
    Write tip t's weighted residual (6,) and its Jacobian rows (6, N).

    :param pose: (4, 4) the tip's pose; :param jacobian: (6, N) its geometric Jacobian.
    """
    weight, scale = goals.weights[t], goals.scale
    target = goals.targets[t]
    for i in range(3):
        residual[i] = weight * (target[i, 3] - pose[i, 3])
        for c in range(rows.shape[1]):
            rows[i, c] = weight * jacobian[i, c]
            rows[i + 3, c] = 0.0
        residual[i + 3] = 0.0
    mode = goals.modes[t]
    if mode == 2:
        return
    if mode == 0:
        _relative_rotation_vector(target, pose, residual, 3)
        for i in range(3):
            residual[i + 3] *= weight * scale
            for c in range(rows.shape[1]):
                rows[i + 3, c] = weight * scale * jacobian[i + 3, c]
        return
    axis = goals.axes[t]
    ux, uy, uz = _turned(pose, 0, axis), _turned(pose, 1, axis), _turned(pose, 2, axis)
    wx, wy, wz = _turned(target, 0, axis), _turned(target, 1, axis), _turned(target, 2, axis)
    cx, cy, cz = uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx
    norm = math.sqrt(cx * cx + cy * cy + cz * cz)
    angle = math.atan2(norm, ux * wx + uy * wy + uz * wz)
    gain = weight * scale * angle / norm if norm > 1e-15 else 0.0
    residual[3], residual[4], residual[5] = gain * cx, gain * cy, gain * cz
    for c in range(rows.shape[1]):
        jx, jy, jz = jacobian[3, c], jacobian[4, c], jacobian[5, c]
        along = jx * ux + jy * uy + jz * uz
        rows[3, c] = weight * scale * (jx - along * ux)
        rows[4, c] = weight * scale * (jy - along * uy)
        rows[5, c] = weight * scale * (jz - along * uz)


@compiled(leaf=True)
def tip_error(goals: TreeGoals, t: int, pose: np.ndarray) -> tuple:
    """Return tip t's position error (m) and orientation error (rad) at ``pose`` (4, 4)."""
    target = goals.targets[t]
    dx, dy = target[0, 3] - pose[0, 3], target[1, 3] - pose[1, 3]
    dz = target[2, 3] - pose[2, 3]
    position = math.sqrt(dx * dx + dy * dy + dz * dz)
    mode = goals.modes[t]
    if mode == 0:
        # The angle of the rotation vector (_core.rotations), from the relative rotation's
        # trace and skew part only: no vector is needed here.
        sx = 0.5 * (_row_dot(target, 2, pose, 1) - _row_dot(target, 1, pose, 2))
        sy = 0.5 * (_row_dot(target, 0, pose, 2) - _row_dot(target, 2, pose, 0))
        sz = 0.5 * (_row_dot(target, 1, pose, 0) - _row_dot(target, 0, pose, 1))
        cosine = 0.5 * (_row_dot(target, 0, pose, 0) + _row_dot(target, 1, pose, 1)
                        + _row_dot(target, 2, pose, 2) - 1.0)
        return position, math.atan2(math.sqrt(sx * sx + sy * sy + sz * sz), cosine)
    if mode == 1:
        return position, _axis_angle(target, pose, goals.axes[t])
    return position, 0.0


@compiled
def tip_errors(goals: TreeGoals, poses: np.ndarray) -> np.ndarray:
    """Return each tip's position error (m) and orientation error (rad), (T, 2)."""
    count = poses.shape[0]
    out = np.zeros((count, 2))
    for t in range(count):
        out[t, 0], out[t, 1] = tip_error(goals, t, poses[t])
    return out
