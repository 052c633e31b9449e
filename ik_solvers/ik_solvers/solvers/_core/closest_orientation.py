# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The fallback for a pose the arm cannot take: the position met, the orientation as close as it gets.

An arm with fewer than six joints (a 5-DOF desktop arm) reaches a position with a family of
orientations; a full pose outside that family has no solution. Rather than the search's
compromise between position and orientation, a user may want the position exact and the
orientation closest. Task-priority least squares (Nakamura, Hanafusa and Yoshikawa 1987) gives
that: each step reaches for the position with the position rows alone, and turns toward the
orientation only within the motions that leave the position unchanged (the null space of the
position rows).

The result is never a success: its orientation misses the tolerance, and ``solve()`` says so.
"""

import math

import numpy as np

from .polish import solve_positive_definite
from .goal_kernels import goal_residual
from .layout import (
    DEADLINE,
    POSITION_TOLERANCE,
    REPORT_MET,
    REPORT_ORIENTATION_ERROR,
    REPORT_POSITION_ERROR,
    REPORT_STATUS,
    STATUS_NO_SOLUTION,
    STATUS_SUCCESS,
)
from ...kinematics.jit import compiled, monotonic_seconds
from ...kinematics.kernels import (
    ChainArrays,
    forward_frames,
    jacobian_from_frames,
    LIMIT_LOWER,
    LIMIT_UPPER,
)

__all__ = ['closest_orientation']

_MAX_STEPS = 200
# Steps without a better orientation (by this fraction) that end the search: a minimum.
_PATIENCE = 8
_IMPROVEMENT = 1e-9
# Damping of the position rows (times the squared position error, m^2) and of the orientation
# rows (rad^2): the orientation is usually unreachable, so its rows must not dominate a step.
_POSITION_DAMPING = 0.1
_ORIENTATION_DAMPING = 1e-2
_FLOOR = 1e-12
# Largest joint motion in one step, rad or m: the linearisation holds only for small motions.
_MAX_STEP = 0.2


@compiled
def _product(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    # Plain loops: numba's matrix product needs a BLAS binding the package does not declare.
    rows, inner = first.shape
    columns = second.shape[1]
    result = np.zeros((rows, columns))
    for i in range(rows):
        for k in range(inner):
            for j in range(columns):
                result[i, j] += first[i, k] * second[k, j]
    return result


@compiled
def _damped_inverse(rows: np.ndarray, regularisation: float) -> np.ndarray:
    """Return ``rows^T (rows rows^T + regularisation I)^-1``, (N, R)."""
    count, columns = rows.shape
    result = np.empty((columns, count))
    normal = _product(rows, rows.T.copy())
    for i in range(count):
        normal[i, i] += regularisation
    for unit in range(count):
        factor = normal.copy()  # the solve overwrites its matrix with the factor
        column = np.zeros(count)
        column[unit] = 1.0
        solve_positive_definite(factor, column)
        for c in range(columns):
            total = 0.0
            for i in range(count):
                total += rows[i, c] * column[i]
            result[c, unit] = total
    return result


@compiled
def _prioritised_step(jacobian: np.ndarray, error: np.ndarray) -> np.ndarray:
    """Return a step toward the position, and toward the orientation within what keeps it."""
    count = jacobian.shape[1]
    position_rows = jacobian[:3].copy()
    squared = error[0] ** 2 + error[1] ** 2 + error[2] ** 2
    pseudo_inverse = _damped_inverse(position_rows, _POSITION_DAMPING * squared + _FLOOR)
    primary = _product(pseudo_inverse, error[:3].copy().reshape(3, 1))
    # Motions that leave the position unchanged, to first order.
    null_space = np.eye(count) - _product(pseudo_inverse, position_rows)
    orientation_rows = jacobian[3:].copy()
    projected = _product(orientation_rows, null_space)
    remaining = error[3:].copy().reshape(3, 1) - _product(orientation_rows, primary)
    secondary = _product(_damped_inverse(projected, _ORIENTATION_DAMPING), remaining)
    step = (primary + _product(null_space, secondary))[:, 0]
    for i in range(count):
        if not np.any(jacobian[:, i]):  # a frozen joint
            step[i] = 0.0
    return step


@compiled
def closest_orientation(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
                        q: np.ndarray, report: np.ndarray) -> None:
    """
    From ``q``, reach the target position and turn as close to its orientation as the arm can.

    :param chain: the chain's arrays.
    :param target: (4, 4) target pose, base frame, m.
    :param settings: search settings (full orientation mode; position tolerance, deadline).
    :param q: (N,) start, within the limits; on return, the configuration with the smallest
        orientation error among those within the position tolerance (the start if none was).
    :param report: (REPORT_SIZE,) its status becomes ``STATUS_SUCCESS`` when the position was
        met (the orientation is then the closest found; the caller decides what that means),
        ``STATUS_NO_SOLUTION`` otherwise; the errors are measured on the returned ``q``.
    """
    count = q.shape[0]
    frames = np.empty((chain.segments.shape[0], 4, 4))
    error = np.empty(6)
    jacobian = np.empty((6, count))
    start = q.copy()
    best_q = q.copy()
    best = math.inf
    since_best = 0
    for _ in range(_MAX_STEPS):
        forward_frames(chain, q, frames)
        position_error, orientation_error = goal_residual(target, frames[-1], settings, error)
        if position_error <= settings[POSITION_TOLERANCE]:
            if orientation_error < best * (1.0 - _IMPROVEMENT):
                best, since_best = orientation_error, 0
                best_q[:] = q
            else:
                since_best += 1
        if since_best >= _PATIENCE or monotonic_seconds() > settings[DEADLINE]:
            break
        jacobian_from_frames(chain, frames, jacobian)
        step = _prioritised_step(jacobian, error)
        # A joint resting on a limit that the step pushes outward is frozen and the step taken
        # again without it: clamping it instead would spoil the position the step keeps.
        frozen = False
        for i in range(count):
            if ((q[i] <= chain.joint_limits[i, LIMIT_LOWER] and step[i] < 0.0)
                    or (q[i] >= chain.joint_limits[i, LIMIT_UPPER] and step[i] > 0.0)):
                jacobian[:, i] = 0.0
                frozen = True
        if frozen:
            step = _prioritised_step(jacobian, error)
        largest = np.max(np.abs(step))
        if largest > _MAX_STEP:
            step *= _MAX_STEP / largest
        for i in range(count):
            q[i] = min(max(q[i] + step[i], chain.joint_limits[i, LIMIT_LOWER]),
                       chain.joint_limits[i, LIMIT_UPPER])
    met = best < math.inf
    q[:] = best_q if met else start
    forward_frames(chain, q, frames)
    position_error, orientation_error = goal_residual(target, frames[-1], settings, error)
    report[REPORT_STATUS] = STATUS_SUCCESS if met else STATUS_NO_SOLUTION
    report[REPORT_POSITION_ERROR] = position_error
    report[REPORT_ORIENTATION_ERROR] = orientation_error
    report[REPORT_MET] = 0.0
