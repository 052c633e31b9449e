# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Local polish: damped least squares that respects the joint limits.

The heuristics converge linearly at best, so the last decades down to a tolerance of 1e-5 take
them many cheap iterations. From a heuristic's near-solution a few Levenberg-Marquardt steps
converge quadratically instead. Orientation rows are scaled by the problem's orientation weight
so that the residual is in metres throughout.

Near the joint limits, clamping each joint on its own bends the step away from the direction
that reduces the error, and the clamped joints keep asking for the same impossible motion: the
polish stalls. An active set avoids that: a joint resting on a limit whose step points outward
is frozen (its Jacobian column removed) and the step is computed again for the other joints.
On panda_like, whose limits are tight, that raised the share of targets solved within 80
forward kinematics evaluations from random seeds from 87-95.5 % to 95.5-99 % (the four
heuristics, 200 targets).

The damping follows Sugihara (2011): lambda = damping * ||e||^2 plus a small floor, large far
from the target (a short, gradient-like step that behaves near singularities) and vanishing
near it (a Gauss-Newton step). Every step is taken, even one that raises the error, and the
best configuration seen is kept: measured against Levenberg-Marquardt step rejection (raise
the damping and retry), taking every step solved as many targets or more, since an uphill
step often leaves a poor basin. Shortening a step that would cross a limit, instead of
clamping the joints that cross it, made no measurable difference and costs a little more.
"""

import time
from typing import Optional, Tuple

import numpy as np

from .base import IKProblem

__all__ = ['polish']

# Keeps the damped normal matrix well conditioned once the error itself is tiny.
_DAMPING_FLOOR = 1e-12
# Iterations without a lower cost after which the polish gives up (a local minimum).
_PATIENCE = 3
# (iteration, largest cost as a fraction of the chain's length): a start still above it by
# then is abandoned, since a restart is then the better use of the time.
_PROGRESS_MARKS = ((5, 0.2), (8, 0.02), (12, 1e-3))


def polish(problem: IKProblem, q: np.ndarray, *, deadline: float,
           max_iterations: int = 20, damping: float = 0.1,
           max_step: Optional[float] = None,
           fail_fast: bool = True) -> Tuple[np.ndarray, int, bool]:
    """
    Refine ``q`` by damped least-squares steps that stay within the joint limits.

    :param problem: target and tolerances.
    :param q: start configuration within the limits, (N,); not modified.
    :param deadline: absolute time on the ``time.perf_counter`` clock, s.
    :param max_iterations: cap on the number of steps.
    :param damping: multiplier of the squared weighted error (m^2) in the damping term.
    :param max_step: largest motion of any joint in one step, rad or m; the step is shortened
        as a whole beyond it. None for no cap.
    :param fail_fast: abandon a start that misses the progress marks (see the module).

    :returns: ``(q, iterations, solved)``: the best configuration seen, the steps taken,
        and whether it meets the problem's tolerances.
    """
    chain = problem.chain
    weight = problem.orientation_weight
    position_only = problem.position_only
    lower, upper = chain.lower, chain.upper
    rows = 3 if position_only else 6
    wide = chain.num_joints >= rows
    marks = []
    if fail_fast:
        marks = [(iteration, fraction * chain.length_scale)
                 for iteration, fraction in _PROGRESS_MARKS]
    best_q = q
    best_cost = np.inf
    since_best = 0
    iterations = 0
    while True:
        poses = chain.poses(q)
        error, position_error, orientation_error = problem.residual(poses[-1])
        if problem.is_solved(position_error, orientation_error):
            return q, iterations, True
        cost = problem.cost(position_error, orientation_error)
        if cost < best_cost:
            best_q, best_cost, since_best = q, cost, 0
        else:
            since_best += 1
        if marks and iterations >= marks[0][0]:
            if best_cost > marks.pop(0)[1]:
                return best_q, iterations, False
        if (since_best >= _PATIENCE or iterations >= max_iterations
                or time.perf_counter() > deadline):
            return best_q, iterations, False
        iterations += 1
        jacobian = chain.jacobian(q)
        if position_only:
            jacobian = jacobian[:3]
            residual = np.array(error)
        else:
            jacobian[3:] *= weight
            residual = np.array(error)
            residual[3:] *= weight
        regularisation = damping * float(residual @ residual) + _DAMPING_FLOOR
        step = _damped_step(jacobian, residual, regularisation, wide)
        resting = (q <= lower) | (q >= upper)
        if resting.any():
            # Joints pressed against a limit take no part; the others share the step.
            frozen = resting & ((q <= lower) == (step < 0.0))
            if frozen.any():
                jacobian[:, frozen] = 0.0
                step = _damped_step(jacobian, residual, regularisation, wide)
                step[frozen] = 0.0
        if max_step is not None:
            largest = float(np.max(np.abs(step)))
            if largest > max_step:
                step *= max_step / largest
        q = np.minimum(np.maximum(q + step, lower), upper)


def _damped_step(jacobian: np.ndarray, residual: np.ndarray, regularisation: float,
                 wide: bool) -> np.ndarray:
    """Solve the damped normal equations through the smaller of the two normal matrices."""
    if wide:
        normal = jacobian @ jacobian.T
        normal.flat[::normal.shape[0] + 1] += regularisation
        if normal.shape[0] == 3:
            return jacobian.T @ _solve_3x3(normal, residual)
        return jacobian.T @ np.linalg.solve(normal, residual)
    normal = jacobian.T @ jacobian
    normal.flat[::normal.shape[0] + 1] += regularisation
    return np.linalg.solve(normal, jacobian.T @ residual)


def _solve_3x3(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """
    Solve a 3x3 system by its adjugate.

    Position-only steps solve one such system per iteration; scalar maths costs a fifth of
    ``np.linalg.solve``, whose time on so small a matrix is all call overhead. The damped
    normal matrix is symmetric positive definite, so its determinant is positive.
    """
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = matrix.tolist()
    b0, b1, b2 = vector.tolist()
    c00 = a11 * a22 - a12 * a21
    c01 = a02 * a21 - a01 * a22
    c02 = a01 * a12 - a02 * a11
    c10 = a12 * a20 - a10 * a22
    c11 = a00 * a22 - a02 * a20
    c12 = a02 * a10 - a00 * a12
    c20 = a10 * a21 - a11 * a20
    c21 = a01 * a20 - a00 * a21
    c22 = a00 * a11 - a01 * a10
    inverse_determinant = 1.0 / (a00 * c00 + a10 * c01 + a20 * c02)
    return np.array(((c00 * b0 + c01 * b1 + c02 * b2) * inverse_determinant,
                     (c10 * b0 + c11 * b1 + c12 * b2) * inverse_determinant,
                     (c20 * b0 + c21 * b1 + c22 * b2) * inverse_determinant))
