# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A fifth heuristic from outside the package, in one module (no tests here): a random direction.

Each step draws a direction in joint space from a generator kept in the step's memory, turns
it downhill (against the gradient of the weighted error), and moves along it by the exact line
search of the linearised error, within the trust region and the limits. It is no good as a
heuristic; it shows that a heuristic is one module and one :func:`register` call, which
its test makes (at import it would change ``SOLVERS`` for every test collected after it).
"""

import numpy as np

from ik_solvers.kinematics.jit import compiled
from ik_solvers.kinematics.kernels import jacobian_from_frames, LIMIT_LOWER, LIMIT_UPPER
from ik_solvers.solvers import Solver
from ik_solvers.solvers.step_api import run_search, weighted_system

__all__ = ['NAME', 'RandomDirectionSolver']

NAME = 'random_direction'
_MODULUS = 2147483647.0


@compiled
def random_direction_step(chain, target, goal, settings, options, q, frames, error, radius,
                          memory) -> None:
    """One step along a random downhill direction; see ``step_api``'s description."""
    count = q.shape[0]
    jacobian = np.empty((6, count))
    rows_out = np.empty((6, count))
    residual = np.empty(6)
    jacobian_from_frames(chain, frames, jacobian)
    rows = weighted_system(target, frames[-1], settings, error, jacobian, rows_out, residual)
    state = memory[0, 0] if memory[0, 0] > 0.0 else options[0]
    direction = np.empty(count)
    along = 0.0
    for i in range(count):
        state = (state * 48271.0) % _MODULUS
        direction[i] = state / _MODULUS - 0.5
        gradient = 0.0
        for r in range(rows):
            gradient += rows_out[r, i] * residual[r]
        along += direction[i] * gradient
    memory[0, 0] = state
    sign = 1.0 if along >= 0.0 else -1.0
    numerator = 0.0
    denominator = 0.0
    for r in range(rows):
        moved = 0.0
        for i in range(count):
            moved += rows_out[r, i] * direction[i] * sign
        numerator += residual[r] * moved
        denominator += moved * moved
    if denominator == 0.0:
        return
    length = numerator / denominator
    for i in range(count):
        change = min(max(length * sign * direction[i], -radius), radius)
        q[i] = min(max(q[i] + change, chain.joint_limits[i, LIMIT_LOWER]),
                   chain.joint_limits[i, LIMIT_UPPER])


@compiled
def random_direction_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with random-direction steps."""
    run_search(random_direction_step, chain, target, settings, options, q, report)


class RandomDirectionSolver(Solver):
    """Random downhill directions; its one option seeds the directions' generator."""

    name = NAME
    search = staticmethod(random_direction_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack the generator's first state."""
        return np.array([20260101.0])
