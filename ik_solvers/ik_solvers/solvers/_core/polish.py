# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The polish: damped least squares that respects the joint limits, as a compiled kernel.

The heuristics converge linearly at best, so the last decades down to a tolerance of 1e-5 take
them many iterations. From a heuristic's near-solution a few Levenberg-Marquardt steps converge
quadratically instead. Orientation rows are scaled by the orientation weight so that the
residual is in metres throughout.

Near the joint limits, clamping each joint on its own bends the step away from the direction
that reduces the error, and the clamped joints keep asking for the same impossible motion: the
polish would stall. An active set avoids that: a joint resting on a limit whose step points
outward is frozen (its Jacobian column removed) and the step is computed again for the others.

The damping follows Sugihara (2011): lambda = damping * ||e||^2 plus a small floor, large far
from the target (a short, gradient-like step that behaves near singularities) and vanishing
near it (a Gauss-Newton step). Every step is taken, even one that raises the error; the caller
keeps the best configuration seen. Measurements behind these choices: docs/DECISIONS.md.
"""

import math

import numpy as np

from ...kinematics.jit import compiled

__all__ = ['damped_rows', 'damped_step', 'solve_positive_definite']

# Keeps the damped normal matrix well conditioned once the error itself is tiny.
DAMPING_FLOOR = 1e-12


@compiled(leaf=True)
def solve_positive_definite(matrix: np.ndarray, vector: np.ndarray) -> None:
    """
    Solve ``matrix x = vector`` in place by Cholesky: ``vector`` becomes ``x``.

    ``matrix`` (K, K) must be symmetric positive definite; it is overwritten by its factor.
    Small systems: a library call would cost more than the arithmetic.
    """
    _cholesky_solve(matrix, vector, vector.shape[0])


@compiled(leaf=True)
def _cholesky_solve(matrix: np.ndarray, vector: np.ndarray, size: int) -> None:
    """Solve with the leading ``size`` x ``size`` block of ``matrix`` and ``vector[:size]``."""
    for j in range(size):
        diagonal = matrix[j, j]
        for k in range(j):
            diagonal -= matrix[j, k] * matrix[j, k]
        diagonal = math.sqrt(max(diagonal, 1e-300))
        matrix[j, j] = diagonal
        for i in range(j + 1, size):
            total = matrix[i, j]
            for k in range(j):
                total -= matrix[i, k] * matrix[j, k]
            matrix[i, j] = total / diagonal
    for i in range(size):
        total = vector[i]
        for k in range(i):
            total -= matrix[i, k] * vector[k]
        vector[i] = total / matrix[i, i]
    for i in range(size - 1, -1, -1):
        total = vector[i]
        for k in range(i + 1, size):
            total -= matrix[k, i] * vector[k]
        vector[i] = total / matrix[i, i]


@compiled(leaf=True)
def _least_squares(jacobian: np.ndarray, rows: int, residual: np.ndarray,
                   regularisation: float, step: np.ndarray, normal: np.ndarray,
                   multipliers: np.ndarray) -> None:
    # Plain loops: on matrices this small a BLAS call costs more than its arithmetic. The
    # first ``rows`` rows of ``jacobian`` and ``residual`` count; ``normal`` and
    # ``multipliers`` are scratch of at least max(rows, columns) entries a side.
    columns = jacobian.shape[1]
    if columns >= rows:  # through the (rows x rows) normal matrix: step = J^T (J J^T + l I)^-1 e
        for i in range(rows):
            for j in range(i + 1):
                total = 0.0
                for k in range(columns):
                    total += jacobian[i, k] * jacobian[j, k]
                normal[i, j] = total
                normal[j, i] = total
            normal[i, i] += regularisation
        for i in range(rows):
            multipliers[i] = residual[i]
        _cholesky_solve(normal, multipliers, rows)
        for k in range(columns):
            total = 0.0
            for i in range(rows):
                total += jacobian[i, k] * multipliers[i]
            step[k] = total
    else:  # through the (columns x columns) one: step = (J^T J + l I)^-1 J^T e
        for i in range(columns):
            for j in range(i + 1):
                total = 0.0
                for k in range(rows):
                    total += jacobian[k, i] * jacobian[k, j]
                normal[i, j] = total
                normal[j, i] = total
            normal[i, i] += regularisation
            total = 0.0
            for k in range(rows):
                total += jacobian[k, i] * residual[k]
            step[i] = total
        _cholesky_solve(normal, step, columns)


@compiled
def damped_step(jacobian: np.ndarray, residual: np.ndarray, damping: float, q: np.ndarray,
                lower: np.ndarray, upper: np.ndarray, step: np.ndarray) -> None:
    """
    Write a damped least-squares step that keeps joints resting on a limit there.

    :param jacobian: (R, N) Jacobian of the weighted residual; columns of frozen joints are
        zeroed in place.
    :param residual: (R,) weighted residual, m.
    :param damping: multiplier of the squared residual (m^2) in the damping term.
    :param q: (N,) current configuration within the limits.
    :param lower: (N,) lower limits (``upper`` likewise).
    :param step: (N,) output, rad or m.
    """
    size = max(jacobian.shape[0], jacobian.shape[1])
    damped_rows(jacobian, residual, jacobian.shape[0], damping, q, lower, upper, step,
                np.empty((size, size)), np.empty(size))


@compiled(leaf=True)
def damped_rows(jacobian: np.ndarray, residual: np.ndarray, rows: int, damping: float,
                q: np.ndarray, lower: np.ndarray, upper: np.ndarray, step: np.ndarray,
                normal: np.ndarray, multipliers: np.ndarray) -> None:
    """
    :func:`damped_step` on the first ``rows`` rows of ``jacobian`` and ``residual``, in place.

    For a loop: it allocates nothing. ``normal`` (S, S) and ``multipliers`` (S,) are scratch,
    S at least the larger of ``rows`` and N; the first ``rows`` rows of ``jacobian`` are
    changed as :func:`damped_step` changes its argument.
    """
    squared = 0.0
    for i in range(rows):
        squared += residual[i] * residual[i]
    regularisation = damping * squared + DAMPING_FLOOR
    _least_squares(jacobian, rows, residual, regularisation, step, normal, multipliers)
    frozen = False
    for i in range(q.shape[0]):
        # A joint pressed against a limit whose step points outward takes no part.
        if (q[i] <= lower[i] and step[i] < 0.0) or (q[i] >= upper[i] and step[i] > 0.0):
            for r in range(rows):
                jacobian[r, i] = 0.0
            frozen = True
    if not frozen:
        return
    _least_squares(jacobian, rows, residual, regularisation, step, normal, multipliers)
    for i in range(q.shape[0]):
        moves = False
        for r in range(rows):
            if jacobian[r, i] != 0.0:
                moves = True
        if not moves:
            step[i] = 0.0
