# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Jacobian transpose: descent on the squared pose error along directions built from ``J^T e``.

``e`` stacks the position error (m) and the rotation vector of the orientation error scaled by
the orientation weight (m per rad), and the Jacobian's angular rows are scaled alike. The
``direction`` option chooses the step:

* ``'transpose'``, the method as Wolovich and Elliott and Buss describe it: ``dq = alpha J^T e``
  with Buss's step length, the one that best reduces the linearised error along ``J^T e``,

      alpha = <e, J J^T e> / ||J J^T e||^2,

  or a fixed ``alpha`` (rad per m^2) when the option ``alpha`` is given;
* ``'conjugate'``: nonlinear conjugate gradients. The direction is ``J^T e`` plus a multiple
  (Polak-Ribiere, restarted when negative or not a descent direction) of the previous
  direction, and the step length is the same exact line search of the linearised error along
  it (or the fixed ``alpha``).

The whole step is shrunk so that no joint moves more than ``max_step`` (rad or m), nor beyond
the trust region, in one iteration: the linearisation only holds for small motions. Each step
is clamped to the limits. Which direction is the default, and why: docs/DECISIONS.md.
"""

import numpy as np

from typing import Any, Optional

from .base import Option, positive_float, Solver
from .step_api import run_search, weighted_system
from ..exceptions import InvalidSolverOptionError
from ..kinematics.jit import compiled
from ..kinematics.kernels import jacobian_from_frames, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['JacobianTransposeSolver']

_MAX_STEP = 0
_CONJUGATE = 1
_ALPHA = 2  # rad per m^2; 0 takes Buss's step length
#: The values of the ``direction`` option.
DIRECTIONS = ('transpose', 'conjugate')
# Columns of the step's memory.
_PREVIOUS_GRADIENT = 0
_PREVIOUS_DIRECTION = 1
_PREVIOUS_NORM = 2
# First scratch column (see STEP_MEMORY_COLUMNS): two (6, N) matrices, then four vectors.
_SCRATCH = 4


@compiled(leaf=True)
def jacobian_transpose_step(chain, target, goal, settings, options, q, frames, error, radius,
                            memory) -> None:
    """One step along the gradient, or a conjugate direction; see :func:`._core.search.run_search`."""
    count = q.shape[0]
    # The scratch columns of the memory: on a chain this small allocating arrays per step
    # costs more than the arithmetic.
    full_jacobian = memory[:count, _SCRATCH:_SCRATCH + 6].T
    jacobian = memory[:count, _SCRATCH + 6:_SCRATCH + 12].T
    residual, image = memory[:, _SCRATCH + 12], memory[:, _SCRATCH + 13]
    gradient, direction = memory[:, _SCRATCH + 14], memory[:, _SCRATCH + 15]
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
    # The step that best reduces the linearised error along the direction, or a fixed one.
    scale = options[_ALPHA]
    if scale == 0.0:
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
    """Run the search loop with gradient steps; see :func:`._core.search.run_search`."""
    run_search(jacobian_transpose_step, chain, target, settings, options, q, report)


def _direction(name: str, value: Any) -> str:
    if value not in DIRECTIONS:
        raise InvalidSolverOptionError('%s must be one of %s, got %r'
                                       % (name, ', '.join(DIRECTIONS), value))
    return value


def _alpha(name: str, value: Any) -> Optional[float]:
    return None if value is None else positive_float(name, value)


class JacobianTransposeSolver(Solver):
    """Jacobian-transpose descent, plain (``direction='transpose'``) or conjugate."""

    name = 'jacobian_transpose'
    own_options = {
        'max_step': Option(0.6, positive_float,
                           'largest motion of any joint in one step, rad or m'),
        'direction': Option('conjugate', _direction,
                            "'transpose': dq = alpha J^T e (the plain method); 'conjugate': "
                            'conjugate directions built from successive J^T e '
                            '(Polak-Ribiere)'),
        'alpha': Option(None, _alpha,
                        "fixed step length, rad per m^2; None takes Buss's, the exact line "
                        'search of the linearised error'),
    }
    iterations_alone = 2000
    stall_iterations = 20
    trust_region = 1.0
    search = staticmethod(jacobian_transpose_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack ``max_step``, the direction and ``alpha``; see :meth:`Solver.pack_options`."""
        alpha = self.options['alpha']
        return np.array([self.options['max_step'],
                         float(self.options['direction'] == 'conjugate'),
                         0.0 if alpha is None else alpha])
