# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What a goal asks of the tip, by orientation mode and per-axis bounds, as compiled kernels.

Every goal is a 4x4 target pose; the settings say how much of it counts:

* ``MODE_FULL``: the whole pose; the orientation residual is the rotation vector carrying the
  reached orientation onto the target's (rad, base frame);
* ``MODE_AXIS``: the position, and the tip axis ``TIP_AXIS`` (tip frame) pointing along the
  same axis of the target frame; spin about it is free. The residual is the rotation vector of
  the shortest rotation carrying the reached axis onto the target direction, and the error is
  the angle between them;
* ``MODE_NONE``: the position alone.

Per-axis bounds (optional, as TRAC-IK's): the position error per axis of the base frame and,
for a full pose, the rotation vector per axis of the target frame must each stay within its
bound; an infinite bound leaves that axis free. A component within its bound is left out of
the cost and out of the least-squares rows, as if already met, so that a free axis never holds
a joint back.

The heuristics aim at an *effective goal* (:func:`effective_goal`): the target with every
freedom the goal allows taken from the current tip pose. Their own geometry then needs no case
for modes or bounds beyond which tip vectors count (:func:`orientation_vectors`).
"""

import math

import numpy as np

from .layout import (
    HANDOFF_ORIENTATION,
    HANDOFF_POSITION,
    MODE_AXIS,
    MODE_FULL,
    MODE_NONE,
    ORIENTATION_MODE,
    ORIENTATION_TOLERANCE,
    ORIENTATION_WEIGHT,
    POSITION_BOUNDED,
    POSITION_TOLERANCE,
    ROTATION_BOUNDED,
    TIP_AXIS,
)
from .rotations import rotation_vector_of
from ...kinematics.jit import compiled

__all__ = ['assess', 'effective_goal', 'goal_residual', 'ignores_orientation',
           'orientation_vectors', 'weighted_system']

# Below this sine the reached and target axes are taken as parallel or opposite.
_PARALLEL = 1e-12


# The helpers below work on scalars and are compiled into their callers: an array per call, or
# a call that takes arrays, costs more than their arithmetic (numba counts references to every
# array an outlined call is given).
@compiled(inline=True)
def _aimed_axis(pose: np.ndarray, settings: np.ndarray) -> tuple:
    """Return the tip axis of the settings carried by the rotation of ``pose``, (x, y, z)."""
    return (pose[0, 0] * settings[TIP_AXIS] + pose[0, 1] * settings[TIP_AXIS + 1]
            + pose[0, 2] * settings[TIP_AXIS + 2],
            pose[1, 0] * settings[TIP_AXIS] + pose[1, 1] * settings[TIP_AXIS + 1]
            + pose[1, 2] * settings[TIP_AXIS + 2],
            pose[2, 0] * settings[TIP_AXIS] + pose[2, 1] * settings[TIP_AXIS + 1]
            + pose[2, 2] * settings[TIP_AXIS + 2])


@compiled(inline=True)
def _unit_perpendicular(ax: float, ay: float, az: float) -> tuple:
    """Return a unit vector perpendicular to the unit axis (ax, ay, az), (x, y, z)."""
    # Crossing with the base axis least aligned with it keeps the result well conditioned.
    k = 0
    if abs(ay) < abs(ax):
        k = 1
    if abs(az) < abs((ax, ay, az)[k]):
        k = 2
    ox = 1.0 if k == 0 else 0.0
    oy = 1.0 if k == 1 else 0.0
    oz = 1.0 if k == 2 else 0.0
    px, py, pz = ay * oz - az * oy, az * ox - ax * oz, ax * oy - ay * ox
    norm = math.sqrt(px ** 2 + py ** 2 + pz ** 2)
    return px / norm, py / norm, pz / norm


@compiled(leaf=True)
def _axis_residual(target: np.ndarray, tip: np.ndarray, settings: np.ndarray,
                   error: np.ndarray) -> float:
    """Rotation vector carrying the reached tip axis onto the target's into ``error[3:]``."""
    rx, ry, rz = _aimed_axis(tip, settings)
    wx, wy, wz = _aimed_axis(target, settings)
    cx = ry * wz - rz * wy
    cy = rz * wx - rx * wz
    cz = rx * wy - ry * wx
    sine = math.sqrt(cx * cx + cy * cy + cz * cz)
    cosine = rx * wx + ry * wy + rz * wz
    angle = math.atan2(sine, cosine)
    if sine > _PARALLEL:
        scale = angle / sine
        error[3], error[4], error[5] = cx * scale, cy * scale, cz * scale
        return angle
    if cosine > 0.0:
        error[3], error[4], error[5] = 0.0, 0.0, 0.0
        return 0.0
    # Opposite: any axis perpendicular to the reached one turns it over.
    tx, ty, tz = _unit_perpendicular(rx, ry, rz)
    error[3], error[4], error[5] = tx * angle, ty * angle, tz * angle
    return angle


@compiled(inline=True)
def _row_dot(a: np.ndarray, i: int, b: np.ndarray, j: int) -> float:
    """Return the product of row i of the rotation of ``a`` with row j of that of ``b``."""
    return a[i, 0] * b[j, 0] + a[i, 1] * b[j, 1] + a[i, 2] * b[j, 2]


@compiled(leaf=True)
def goal_residual(target: np.ndarray, tip: np.ndarray, settings: np.ndarray,
                  error: np.ndarray) -> tuple:
    """
    Error of a reached tip pose against the goal, by the goal's orientation mode.

    :param target: (4, 4) target pose, base frame, m.
    :param tip: (4, 4) reached tip pose, base frame, m.
    :param settings: the search settings (mode, tip axis).
    :param error: (6,) output: the position error (m, target minus reached), then the
        orientation residual as a rotation vector in the base frame (rad; zeros in MODE_NONE).
    :returns: ``(position_error, orientation_error)``: the position error's norm (m) and the
        mode's orientation error (rad): the rotation angle, the angle between the tip axis and
        the target direction, or 0.
    """
    for i in range(3):
        error[i] = target[i, 3] - tip[i, 3]
    position_error = math.sqrt(error[0] * error[0] + error[1] * error[1] + error[2] * error[2])
    mode = settings[ORIENTATION_MODE]
    if mode == MODE_NONE:
        error[3], error[4], error[5] = 0.0, 0.0, 0.0
        return position_error, 0.0
    if mode == MODE_AXIS:
        return position_error, _axis_residual(target, tip, settings, error)
    # The rotation R_target R_tip^T, entry by entry.
    return position_error, rotation_vector_of(
        _row_dot(target, 0, tip, 0), _row_dot(target, 0, tip, 1), _row_dot(target, 0, tip, 2),
        _row_dot(target, 1, tip, 0), _row_dot(target, 1, tip, 1), _row_dot(target, 1, tip, 2),
        _row_dot(target, 2, tip, 0), _row_dot(target, 2, tip, 1), _row_dot(target, 2, tip, 2),
        error, 3)


@compiled(inline=True)
def _counts(value: float, settings: np.ndarray, bounded: int, axis: int) -> bool:
    """Whether a residual component counts: always, unless within its per-axis bound."""
    return settings[bounded] == 0.0 or abs(value) > settings[bounded + 1 + axis]


@compiled(inline=True)
def _beyond_bounds(x: float, y: float, z: float, settings: np.ndarray, bounded: int) -> tuple:
    """Return the norm of the components of (x, y, z) that count, and whether none do."""
    squared = 0.0
    within = True
    if _counts(x, settings, bounded, 0):
        squared += x * x
        within = False
    if _counts(y, settings, bounded, 1):
        squared += y * y
        within = False
    if _counts(z, settings, bounded, 2):
        squared += z * z
        within = False
    # Without per-axis bounds every component counts, but the tolerance judges the norm.
    return math.sqrt(squared), within or settings[bounded] == 0.0


@compiled(leaf=True)
def assess(target: np.ndarray, settings: np.ndarray, position_error: float,
           orientation_error: float, error: np.ndarray) -> tuple:
    """
    Judge a residual from :func:`goal_residual`: its cost, and whether it meets the goal.

    :returns: ``(cost, solved, near)``: the cost (m; the errors outside their bounds, the
        orientation's times the orientation weight), whether the tolerances and bounds are all
        met, and whether the errors are within the hand-over errors.
    """
    weight = settings[ORIENTATION_WEIGHT]
    counts_orientation = settings[ORIENTATION_MODE] != MODE_NONE
    solved = (position_error <= settings[POSITION_TOLERANCE]
              and (not counts_orientation
                   or orientation_error <= settings[ORIENTATION_TOLERANCE]))
    if settings[POSITION_BOUNDED] == 0.0 and settings[ROTATION_BOUNDED] == 0.0:
        near = (position_error <= settings[HANDOFF_POSITION]
                and (not counts_orientation
                     or orientation_error <= settings[HANDOFF_ORIENTATION]))
        return position_error + weight * orientation_error, solved, near
    position_cost, within = _beyond_bounds(error[0], error[1], error[2], settings,
                                           POSITION_BOUNDED)
    solved = solved and within
    orientation_cost = orientation_error
    if settings[ORIENTATION_MODE] == MODE_FULL:
        # The rotation bounds are per axis of the target frame: R_target^T r.
        orientation_cost, within = _beyond_bounds(
            target[0, 0] * error[3] + target[1, 0] * error[4] + target[2, 0] * error[5],
            target[0, 1] * error[3] + target[1, 1] * error[4] + target[2, 1] * error[5],
            target[0, 2] * error[3] + target[1, 2] * error[4] + target[2, 2] * error[5],
            settings, ROTATION_BOUNDED)
        solved = solved and within
    near = (position_cost <= settings[HANDOFF_POSITION]
            and orientation_cost <= settings[HANDOFF_ORIENTATION])
    return position_cost + weight * orientation_cost, solved, near


@compiled(leaf=True)
def _exponential_times(vx: float, vy: float, vz: float, rotation: np.ndarray,
                       out: np.ndarray) -> None:
    """Write ``exp([v]x) @ rotation[:3, :3]`` into ``out[:3, :3]`` (Rodrigues)."""
    angle = math.sqrt(vx * vx + vy * vy + vz * vz)
    if angle == 0.0:
        for r in range(3):
            for c in range(3):
                out[r, c] = rotation[r, c]
        return
    ux, uy, uz = vx / angle, vy / angle, vz / angle
    cosine, sine = math.cos(angle), math.sin(angle)
    for c in range(3):
        x, y, z = rotation[0, c], rotation[1, c], rotation[2, c]
        along = (ux * x + uy * y + uz * z) * (1.0 - cosine)
        out[0, c] = x * cosine + (uy * z - uz * y) * sine + ux * along
        out[1, c] = y * cosine + (uz * x - ux * z) * sine + uy * along
        out[2, c] = z * cosine + (ux * y - uy * x) * sine + uz * along


@compiled(leaf=True)
def effective_goal(target: np.ndarray, tip: np.ndarray, settings: np.ndarray,
                   error: np.ndarray, goal: np.ndarray) -> None:
    """
    Write into ``goal`` (4x4) the pose a heuristic step aims at from the reached ``tip``.

    It is the target, except that what the goal leaves free is taken from the tip: a position
    component within its bound stays where the tip is, a rotation component within its bound
    is not corrected, and in MODE_AXIS the tip turns by the shortest rotation that aims its
    axis (its spin stays). ``error`` is the residual of ``tip`` (:func:`goal_residual`).
    """
    # Element loops and scalars, compiled without reference counts (a leaf): this runs before
    # every heuristic step, and temporary arrays or counted references would cost more than the
    # arithmetic.
    for r in range(4):
        for c in range(4):
            goal[r, c] = target[r, c]
    mode = settings[ORIENTATION_MODE]
    bounded = settings[POSITION_BOUNDED] != 0.0 or settings[ROTATION_BOUNDED] != 0.0
    if mode != MODE_AXIS and not bounded:
        return
    for i in range(3):
        if not _counts(error[i], settings, POSITION_BOUNDED, i):
            goal[i, 3] = tip[i, 3]
    cx, cy, cz = error[3], error[4], error[5]
    if mode == MODE_FULL:
        # The rotation bounds are per axis of the target frame: R_target^T r, cleared where
        # within its bound, then back to the base frame.
        rx = target[0, 0] * error[3] + target[1, 0] * error[4] + target[2, 0] * error[5]
        ry = target[0, 1] * error[3] + target[1, 1] * error[4] + target[2, 1] * error[5]
        rz = target[0, 2] * error[3] + target[1, 2] * error[4] + target[2, 2] * error[5]
        if not _counts(rx, settings, ROTATION_BOUNDED, 0):
            rx = 0.0
        if not _counts(ry, settings, ROTATION_BOUNDED, 1):
            ry = 0.0
        if not _counts(rz, settings, ROTATION_BOUNDED, 2):
            rz = 0.0
        cx = target[0, 0] * rx + target[0, 1] * ry + target[0, 2] * rz
        cy = target[1, 0] * rx + target[1, 1] * ry + target[1, 2] * rz
        cz = target[2, 0] * rx + target[2, 1] * ry + target[2, 2] * rz
    if mode != MODE_NONE:
        _exponential_times(cx, cy, cz, tip, goal)


@compiled(inline=True)
def orientation_vectors(settings: np.ndarray, tip: np.ndarray, goal: np.ndarray,
                        tip_vectors: np.ndarray, goal_vectors: np.ndarray) -> tuple:
    """
    Write the tip vectors a heuristic aligns with goal vectors; return their count and weight.

    For small errors, ``weight * sum_k goal_k . tip_k`` is a constant minus half the squared
    weighted orientation error (m^2), comparable with the squared position error: CCD and the
    point methods add these alignments to the position term of their one-joint optimum.

    :param settings: the search settings (mode, tip axis, orientation weight).
    :param tip: (4, 4) reached tip pose.
    :param goal: (4, 4) the effective goal (:func:`effective_goal`).
    :param tip_vectors: (3, 3) output: the tip vectors in its first K rows (unit, base frame).
    :param goal_vectors: (3, 3) output: the goal vectors in its first K rows.
    :returns: ``(K, weight)``: K = 3 (the frame's axes) for a full pose, 1 (the tip axis) for
        MODE_AXIS, 0 for MODE_NONE; the weight of each alignment, m^2.
    """
    mode = settings[ORIENTATION_MODE]
    squared_weight = settings[ORIENTATION_WEIGHT] ** 2
    if mode == MODE_FULL:
        for k in range(3):
            for r in range(3):
                tip_vectors[k, r] = tip[r, k]
                goal_vectors[k, r] = goal[r, k]
        return 3, 0.5 * squared_weight
    if mode != MODE_AXIS:
        return 0, squared_weight
    for r in range(3):
        tip_vectors[0, r] = (tip[r, 0] * settings[TIP_AXIS] + tip[r, 1] * settings[TIP_AXIS + 1]
                             + tip[r, 2] * settings[TIP_AXIS + 2])
        goal_vectors[0, r] = (goal[r, 0] * settings[TIP_AXIS]
                              + goal[r, 1] * settings[TIP_AXIS + 1]
                              + goal[r, 2] * settings[TIP_AXIS + 2])
    return 1, squared_weight


@compiled(leaf=True)
def weighted_system(target: np.ndarray, tip: np.ndarray, settings: np.ndarray,
                    error: np.ndarray, jacobian: np.ndarray, rows_out: np.ndarray,
                    residual_out: np.ndarray) -> int:
    """
    Build the rows of the weighted least-squares system the goal asks for.

    Position rows are in metres; orientation rows are scaled by the orientation weight (m per
    rad). MODE_AXIS keeps the two angular rows perpendicular to the reached tip axis (the spin
    about it is free); bounded components within their bounds are left out.

    :param target: (4, 4) target pose.
    :param tip: (4, 4) reached tip pose.
    :param settings: the search settings.
    :param error: (6,) residual from :func:`goal_residual`.
    :param jacobian: (6, N) geometric Jacobian at the tip, base frame.
    :param rows_out: (6, N) output: the rows, first ``rows`` filled.
    :param residual_out: (6,) output: the residual of each row.
    :returns: The number of rows.
    """
    # Element loops and scalars, no temporary arrays: this runs at every step of the polish
    # and of the Jacobian heuristics.
    count = jacobian.shape[1]
    rows = 0
    for i in range(3):
        if not _counts(error[i], settings, POSITION_BOUNDED, i):
            continue
        for c in range(count):
            rows_out[rows, c] = jacobian[i, c]
        residual_out[rows] = error[i]
        rows += 1
    mode = settings[ORIENTATION_MODE]
    if mode == MODE_NONE:
        return rows
    weight = settings[ORIENTATION_WEIGHT]
    if mode == MODE_AXIS:
        # Two unit vectors perpendicular to the reached axis.
        ax, ay, az = _aimed_axis(tip, settings)
        fx, fy, fz = _unit_perpendicular(ax, ay, az)
        rows = _angular_row(jacobian, error, weight, fx, fy, fz, rows_out, residual_out, rows)
        return _angular_row(jacobian, error, weight, ay * fz - az * fy, az * fx - ax * fz,
                            ax * fy - ay * fx, rows_out, residual_out, rows)
    # The target frame's axes, so that bounds apply per axis.
    for d in range(3):
        component = (target[0, d] * error[3] + target[1, d] * error[4]
                     + target[2, d] * error[5])
        if _counts(component, settings, ROTATION_BOUNDED, d):
            rows = _angular_row(jacobian, error, weight, target[0, d], target[1, d],
                                target[2, d], rows_out, residual_out, rows)
    return rows


@compiled(inline=True)
def _angular_row(jacobian: np.ndarray, error: np.ndarray, weight: float, dx: float, dy: float,
                 dz: float, rows_out: np.ndarray, residual_out: np.ndarray, rows: int) -> int:
    """Append the weighted angular row along the unit (dx, dy, dz); return the rows now."""
    for c in range(jacobian.shape[1]):
        rows_out[rows, c] = weight * (dx * jacobian[3, c] + dy * jacobian[4, c]
                                      + dz * jacobian[5, c])
    residual_out[rows] = weight * (dx * error[3] + dy * error[4] + dz * error[5])
    return rows + 1


@compiled(inline=True)
def ignores_orientation(settings: np.ndarray) -> bool:
    """Whether the goal of ``settings`` is the position alone (its orientation mode is none)."""
    return settings[ORIENTATION_MODE] == MODE_NONE
