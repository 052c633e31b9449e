# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Jacobian transpose: gradient descent on the squared pose error.

Each iteration steps ``dq = alpha J^T e``, where ``e`` stacks the position error (m) and the
rotation vector of the orientation error scaled by the orientation weight (m per rad), and the
Jacobian's angular rows are scaled alike. The step length is the one that best reduces the
linearised error along that direction,

    alpha = <e, J J^T e> / ||J J^T e||^2,

and the whole step is shrunk so that no joint moves more than ``max_step`` (rad or m), nor
beyond the trust region, in one iteration: the linearisation only holds for small motions.
Each step is clamped to the limits.
"""

import numpy as np

from .base import boolean, Option, positive_float, Solver
from .goal import weighted_system
from .search import run_search
from ..kinematics.jit import compiled
from ..kinematics.kernels import jacobian_from_frames, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['JacobianTransposeSolver']

_MAX_STEP = 0
_CONJUGATE = 1
# Columns of the step's memory.
_PREVIOUS_GRADIENT = 0
_PREVIOUS_DIRECTION = 1
_PREVIOUS_NORM = 2


@compiled
def jacobian_transpose_step(chain, target, goal, settings, options, q, frames, error, radius,
                            memory) -> None:
    """One step along the gradient, or a conjugate direction; see :func:`.search.run_search`."""
    count = q.shape[0]
    # Two scratch arrays per step instead of one per quantity: on a chain this small the
    # allocations cost more than the arithmetic.
    matrices = np.empty((2, 6, count))
    full_jacobian, jacobian = matrices[0], matrices[1]
    vectors = np.empty((4, max(count, 6)))
    residual, image, gradient, direction = vectors[0], vectors[1], vectors[2], vectors[3]
    jacobian_from_frames(chain, frames, full_jacobian)
    rows = weighted_system(target, frames[-1], settings, error, full_jacobian, jacobian,
                           residual)
    # Plain loops: on matrices this small a BLAS call costs more than its arithmetic.
    gradient_norm = 0.0
    for i in range(count):
        total = 0.0
        for k in range(rows):
            total += jacobian[k, i] * residual[k]
        gradient[i] = total
        direction[i] = total
        gradient_norm += total * total
    previous_norm = memory[0, _PREVIOUS_NORM]
    if options[_CONJUGATE] != 0.0 and previous_norm > 0.0:
        # Polak-Ribiere: beta = g.(g - g_previous) / |g_previous|^2, restarted when negative.
        overlap = 0.0
        for i in range(count):
            overlap += gradient[i] * memory[i, _PREVIOUS_GRADIENT]
        beta = max(0.0, (gradient_norm - overlap) / previous_norm)
        descent = 0.0
        for i in range(count):
            direction[i] += beta * memory[i, _PREVIOUS_DIRECTION]
            descent += direction[i] * gradient[i]
        if descent <= 0.0:  # not a descent direction: start afresh
            for i in range(count):
                direction[i] = gradient[i]
    image_norm = 0.0
    for k in range(rows):
        total = 0.0
        for i in range(count):
            total += jacobian[k, i] * direction[i]
        image[k] = total
        image_norm += total * total
    if image_norm == 0.0:  # no joint can reduce the error: a stationary point
        return
    # The step that best reduces the linearised error along the direction.
    along = 0.0
    for k in range(rows):
        along += residual[k] * image[k]
    scale = along / image_norm
    largest = 0.0
    for i in range(count):
        largest = max(largest, abs(scale * direction[i]))
        memory[i, _PREVIOUS_GRADIENT] = gradient[i]
        memory[i, _PREVIOUS_DIRECTION] = direction[i]
    memory[0, _PREVIOUS_NORM] = gradient_norm
    limit = min(options[_MAX_STEP], radius)
    shrink = limit / largest if largest > limit else 1.0
    for i in range(count):
        step = scale * direction[i]
        if largest > limit:
            step *= shrink
        q[i] = min(max(q[i] + step, chain.joint_limits[i, LIMIT_LOWER]),
                   chain.joint_limits[i, LIMIT_UPPER])


@compiled
def jacobian_transpose_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with gradient steps; see :func:`.search.run_search`."""
    run_search(jacobian_transpose_step, chain, target, settings, options, q, report)


class JacobianTransposeSolver(Solver):
    """Jacobian-transpose gradient descent with an adaptive step."""

    name = 'jacobian_transpose'
    own_options = {
        'max_step': Option(0.6, positive_float,
                           'largest motion of any joint in one step, rad or m'),
        'conjugate': Option(True, boolean,
                            'step along conjugate directions built from successive '
                            'gradients J^T e (Polak-Ribiere) instead of the gradient alone'),
    }
    iterations_alone = 2000
    stall_iterations = 20
    trust_region = 1.0
    search = staticmethod(jacobian_transpose_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack ``max_step``; see :meth:`Solver.pack_options`."""
        return np.array([self.options['max_step'], float(self.options['conjugate'])])
