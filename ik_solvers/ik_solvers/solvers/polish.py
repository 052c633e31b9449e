# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Local polish: damped least squares with an error-dependent damping.

The heuristics converge linearly at best, so the last decades down to a tolerance of 1e-5 take
them many cheap iterations. From a heuristic's near-solution a few Levenberg-Marquardt steps
converge quadratically instead. The damping follows Sugihara (2011): lambda = damping * ||e||^2
plus a small floor, large far from the target (a short, gradient-like step that behaves near
singularities) and vanishing near it (a Gauss-Newton step). Orientation rows are scaled by the
problem's orientation weight so that the residual is in metres throughout.

The default damping factor 0.1 was chosen by measurement: from random starts on ur5_like and
panda_like, it converges in a median of 8 steps against 17 for a factor of 1, with the same
share of starts converging.
"""

import time
from typing import Tuple

import numpy as np

from .base import IKProblem

__all__ = ['polish']

# Keeps the damped normal matrix well conditioned once the error itself is tiny.
_DAMPING_FLOOR = 1e-12
# Iterations without a lower cost after which the polish gives up (limits or a local minimum).
_PATIENCE = 3
# (iteration, largest cost as a fraction of the chain's length): a start still above it by
# then is abandoned. Measured on ur5_like and panda_like from random starts: starts that go
# on to converge are below these marks in 90 % of cases or more, while most of those that
# never converge are far above, so a restart is the better use of the time.
_PROGRESS_MARKS = ((5, 0.2), (8, 0.02), (12, 1e-3))


def polish(problem: IKProblem, q: np.ndarray, *, deadline: float,
           max_iterations: int = 20, damping: float = 0.1) -> Tuple[np.ndarray, int, bool]:
    """
    Refine ``q`` by damped least-squares steps, clamping every step into the limits.

    :param problem: target and tolerances.
    :param q: start configuration within the limits, (N,); not modified.
    :param deadline: absolute time on the ``time.perf_counter`` clock, s.
    :param max_iterations: cap on the number of steps.
    :param damping: multiplier of the squared weighted error (m^2) in the damping term.

    :returns: ``(q, iterations, solved)``: the best configuration seen, the steps taken,
        and whether it meets the problem's tolerances.
    """
    kernel = problem.kernel
    weight = problem.orientation_weight
    position_only = problem.position_only
    lower, upper = kernel.lower, kernel.upper
    num_joints = kernel.num_joints
    best_q = q
    best_cost = np.inf
    marks = [(iteration, fraction * kernel.length_scale)
             for iteration, fraction in _PROGRESS_MARKS]
    since_best = 0
    iterations = 0
    while True:
        poses = kernel.poses(q)
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
        jacobian = kernel.jacobian(poses)
        if position_only:
            jacobian = jacobian[:3]
        else:
            jacobian[3:] *= weight
            error[3] *= weight
            error[4] *= weight
            error[5] *= weight
        residual = np.array(error)
        regularisation = damping * float(residual @ residual) + _DAMPING_FLOOR
        rows = residual.shape[0]
        if num_joints >= rows:
            normal = jacobian @ jacobian.T
            normal.flat[::rows + 1] += regularisation
            step = jacobian.T @ np.linalg.solve(normal, residual)
        else:
            normal = jacobian.T @ jacobian
            normal.flat[::num_joints + 1] += regularisation
            step = np.linalg.solve(normal, jacobian.T @ residual)
        q = np.minimum(np.maximum(q + step, lower), upper)
