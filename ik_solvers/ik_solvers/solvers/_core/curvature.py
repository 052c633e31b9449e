# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The direction of most negative curvature of the goal's squared error, as compiled kernels.

At a singular configuration (a UR arm stretched out, or its wrist with two axes aligned) a goal
may lie where no joint velocity moves the tip: the gradient of the error vanishes there, and a
damped least-squares step does not move, however long it runs. The error still falls along some
joint motion, but only at second order (folding the elbow while the shoulder leans back brings a
stretched arm's tip straight in). That motion is the eigenvector of the error's Hessian with the
most negative eigenvalue. The Hessian is measured by finite differences of the gradient (N extra
Jacobians, microseconds on a small chain) and decomposed by cyclic Jacobi rotations, so that no
LAPACK binding is needed.
"""

import math

import numpy as np

from .goal_kernels import goal_residual, weighted_system
from ...kinematics.jit import compiled
from ...kinematics.kernels import ChainArrays, forward_frames, jacobian_from_frames

__all__ = ['error_gradient', 'lowest_curvature']

# Finite-difference step of a joint, rad (times the chain's length for a prismatic joint, m).
_DIFFERENCE_STEP = 1e-5
# Jacobi sweeps; a 7x7 matrix converges in well under ten.
_MAX_SWEEPS = 30
# Off-diagonal mass below this fraction of the diagonal's ends the sweeps.
_CONVERGED = 1e-14


@compiled
def error_gradient(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
                   q: np.ndarray, frames: np.ndarray, error: np.ndarray,
                   gradient: np.ndarray) -> None:
    """
    Write the gradient of half the squared weighted residual at ``q`` into ``gradient``.

    :param q: (N,) configuration, rad or m.
    :param frames: scratch for forward kinematics, (M + 1, 4, 4).
    :param error: scratch, (6,).
    :param gradient: (N,) output, m^2 per rad (or per m).
    """
    count = q.shape[0]
    jacobian = np.empty((6, count))
    system = np.empty((6, count))
    residual = np.empty(6)
    forward_frames(chain, q, frames)
    goal_residual(target, frames[-1], settings, error)
    jacobian_from_frames(chain, frames, jacobian)
    rows = weighted_system(target, frames[-1], settings, error, jacobian, system, residual)
    for c in range(count):
        total = 0.0
        for r in range(rows):
            total -= system[r, c] * residual[r]
        gradient[c] = total


@compiled
def _symmetric_eigen(matrix: np.ndarray, vectors: np.ndarray) -> None:
    """Diagonalise the symmetric ``matrix`` in place; its eigenvectors go into ``vectors``."""
    size = matrix.shape[0]
    vectors[:, :] = 0.0
    for i in range(size):
        vectors[i, i] = 1.0
    for _ in range(_MAX_SWEEPS):
        off, diagonal = 0.0, 0.0
        for i in range(size):
            diagonal += matrix[i, i] * matrix[i, i]
            for j in range(i + 1, size):
                off += matrix[i, j] * matrix[i, j]
        if off <= _CONVERGED * diagonal or off == 0.0:
            return
        for p in range(size - 1):
            for r in range(p + 1, size):
                if matrix[p, r] == 0.0:
                    continue
                theta = 0.5 * (matrix[r, r] - matrix[p, p]) / matrix[p, r]
                tangent = (1.0 if theta >= 0.0 else -1.0) / (
                    abs(theta) + math.sqrt(theta * theta + 1.0))
                cosine = 1.0 / math.sqrt(tangent * tangent + 1.0)
                sine = tangent * cosine
                for k in range(size):  # columns p and r
                    kp, kr = matrix[k, p], matrix[k, r]
                    matrix[k, p] = cosine * kp - sine * kr
                    matrix[k, r] = sine * kp + cosine * kr
                for k in range(size):  # rows p and r
                    pk, rk = matrix[p, k], matrix[r, k]
                    matrix[p, k] = cosine * pk - sine * rk
                    matrix[r, k] = sine * pk + cosine * rk
                for k in range(size):
                    kp, kr = vectors[k, p], vectors[k, r]
                    vectors[k, p] = cosine * kp - sine * kr
                    vectors[k, r] = sine * kp + cosine * kr


@compiled
def lowest_curvature(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
                     q: np.ndarray, frames: np.ndarray, error: np.ndarray,
                     direction: np.ndarray) -> float:
    """
    Find the joint motion along which the squared residual curves down most steeply.

    :param q: (N,) configuration, rad or m.
    :param frames: scratch for forward kinematics, (M + 1, 4, 4).
    :param error: scratch, (6,).
    :param direction: (N,) output: the unit eigenvector of the lowest eigenvalue.
    :returns: That eigenvalue of the Hessian of half the squared weighted residual, m^2 per
        rad^2; negative where a second-order motion lowers the error.
    """
    count = q.shape[0]
    base = np.empty(count)
    moved = np.empty(count)
    shifted = q.copy()
    hessian = np.empty((count, count))
    error_gradient(chain, target, settings, q, frames, error, base)
    for j in range(count):
        step = _DIFFERENCE_STEP
        if chain.joint_prismatic[j] != 0.0:
            step *= chain.length_scale
        shifted[j] = q[j] + step
        error_gradient(chain, target, settings, shifted, frames, error, moved)
        shifted[j] = q[j]
        for i in range(count):
            hessian[i, j] = (moved[i] - base[i]) / step
    for i in range(count):
        for j in range(i + 1, count):
            mean = 0.5 * (hessian[i, j] + hessian[j, i])
            hessian[i, j] = mean
            hessian[j, i] = mean
    vectors = np.empty((count, count))
    _symmetric_eigen(hessian, vectors)
    lowest = 0
    for i in range(1, count):
        if hessian[i, i] < hessian[lowest, lowest]:
            lowest = i
    direction[:] = vectors[:, lowest]
    return hessian[lowest, lowest]
