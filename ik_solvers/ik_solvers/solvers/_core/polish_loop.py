# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The polish's loop within one start of the search: damped least-squares steps to the last digits.

:mod:`.search` hands a start over to it once the heuristic's progress slows; each step is
:func:`.polish.damped_rows` on the goal's weighted rows, clamped to the joint limits. It
gives up early where a restart is the better use of the time.
"""

import math

import numpy as np

from .extrapolation import evaluate
from .polish import damped_rows
from .goal_kernels import weighted_system
from .layout import DEADLINE, POLISH_ITERATIONS
from ...kinematics.jit import compiled, past_deadline
from ...kinematics.kernels import ChainArrays, jacobian_from_frames, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['finish']

# The polish gives up after this many steps without a lower cost (a local minimum) ...
_POLISH_PATIENCE = 3
# ... or when by step k its best cost is still above this fraction of the chain's length: a
# restart is then the better use of the time.
_POLISH_MARKS = ((5, 0.2), (8, 0.02), (12, 1e-3))
# Multiplier of the squared residual (m^2) in the polish's damping.
_POLISH_DAMPING = 0.1


@compiled
def finish(chain: ChainArrays, target: np.ndarray, settings: np.ndarray, q: np.ndarray,
           frames: np.ndarray, error: np.ndarray, best_q: np.ndarray, best: np.ndarray,
           cost: float) -> tuple:
    """
    Damped least-squares steps from q (changed in place); return (steps, solved, cost).

    :param cost: q's cost (m) as the caller last measured it (:func:`.extrapolation.evaluate`),
        not solved; ``frames`` and ``error`` are still that measurement's. Measuring q again
        here would give the same numbers, at the price of one more forward kinematics per start.
    """
    count = q.shape[0]
    lower = chain.joint_limits[:, LIMIT_LOWER]
    upper = chain.joint_limits[:, LIMIT_UPPER]
    full_jacobian = np.empty((6, count))
    system = np.empty((6, count))
    residual = np.empty(6)
    step = np.empty(count)
    # Scratch of the linear solve, once per start rather than per step.
    normal = np.empty((max(6, count), max(6, count)))
    multipliers = np.empty(max(6, count))
    own_best = math.inf
    since_best = 0
    mark = 0
    steps = 0
    while True:
        if cost < own_best:
            own_best, since_best = cost, 0
        else:
            since_best += 1
        if mark < len(_POLISH_MARKS) and steps >= _POLISH_MARKS[mark][0]:
            if own_best > _POLISH_MARKS[mark][1] * chain.length_scale:
                return steps, False, cost
            mark += 1
        if (since_best >= _POLISH_PATIENCE or steps >= settings[POLISH_ITERATIONS]
                or past_deadline(settings[DEADLINE])):
            return steps, False, cost
        steps += 1
        jacobian_from_frames(chain, frames, full_jacobian)
        rows = weighted_system(target, frames[-1], settings, error, full_jacobian, system,
                               residual)
        damped_rows(system, residual, rows, _POLISH_DAMPING, q, lower, upper, step, normal,
                    multipliers)
        for i in range(count):
            q[i] = min(max(q[i] + step[i], lower[i]), upper[i])
        cost, solved, _ = evaluate(chain, target, settings, q, frames, error, best_q, best)
        if solved:
            return steps, True, cost
