# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Exact solutions of one pose to rounding level, for the rest-posture bound.

Batched damped Newton steps on a chosen set of joints (the others locked), forward-difference
Jacobians, and an SLSQP refinement towards a rest configuration along the pose's solutions:
the oracle's own method, independent of the library's solvers that
:mod:`.rest_bound` measures.
"""

from typing import Optional

import numpy as np
from scipy.optimize import minimize

from ik_solvers.kinematics.jit import compiled
from ik_solvers.solvers.pose_error import rotation_vector_into

__all__ = ['exact_rows', 'into_limits', 'locked_newton', 'pose_errors', 'refine_to_rest']

# Newton steps of the locked sub-chain, their damping, and the largest joint step (rad).
_NEWTON_STEPS = 40
_DAMPING = 1e-10
_LARGEST_STEP = 0.5
# Forward-difference step of the batched Jacobian, rad.
_DIFFERENCE = 1e-7
# A candidate has converged when both errors are below this (m and rad): far below 1e-5.
_CONVERGED = 1e-9
_TURN = 2.0 * np.pi
# A row of the Newton batch stops once every error is below this, m or rad.
_SETTLED = 1e-13


@compiled
def _errors_into(reached: np.ndarray, target: np.ndarray, out: np.ndarray) -> None:
    """Write target minus reached (position, rotation vector) of every reached pose."""
    rotation = np.empty((3, 3))
    for row in range(reached.shape[0]):
        for i in range(3):
            out[row, i] = target[i, 3] - reached[row, i, 3]
            for j in range(3):
                rotation[i, j] = (target[i, 0] * reached[row, j, 0]
                                  + target[i, 1] * reached[row, j, 1]
                                  + target[i, 2] * reached[row, j, 2])
        rotation_vector_into(rotation, out[row, 3:])


def pose_errors(chain, configurations: np.ndarray, target: np.ndarray) -> np.ndarray:
    """
    Return the (K, 6) pose errors of K configurations: position (m), rotation vector (rad).

    Both in the base frame, target minus reached (the rotation vector of ``R_target R^T``).
    """
    reached = chain.fk_batch(configurations)
    out = np.empty((reached.shape[0], 6))
    _errors_into(reached, np.ascontiguousarray(target, dtype=float), out)
    return out


def locked_newton(chain, target: np.ndarray, q: np.ndarray, free: np.ndarray,
                  steps: int = _NEWTON_STEPS) -> np.ndarray:
    """Run damped Newton steps on the ``free`` joints of every row of ``q``; return them."""
    q = q.copy()
    columns = np.flatnonzero(free)
    identity = _DAMPING * np.eye(columns.size)
    active = np.arange(q.shape[0])
    for _ in range(steps):
        current = q[active]
        error = pose_errors(chain, current, target)
        # A row whose error is at rounding level needs no further step.
        moving = np.max(np.abs(error), axis=1) > _SETTLED
        active, current, error = active[moving], current[moving], error[moving]
        if not active.size:
            break
        jacobian = np.empty((active.size, 6, columns.size))
        for index, column in enumerate(columns):
            moved = current.copy()
            moved[:, column] += _DIFFERENCE
            jacobian[:, :, index] = (pose_errors(chain, moved, target) - error) / _DIFFERENCE
        transposed = np.transpose(jacobian, (0, 2, 1))
        normal = transposed @ jacobian + identity
        rhs = transposed @ error[:, :, None]
        try:
            step = -np.linalg.solve(normal, rhs)[:, :, 0]
        except np.linalg.LinAlgError:  # a singular row: its pseudo-inverse step
            step = -(np.linalg.pinv(normal) @ rhs)[:, :, 0]
        step = np.nan_to_num(step)
        largest = np.max(np.abs(step), axis=1, keepdims=True)
        step *= np.minimum(1.0, _LARGEST_STEP / np.maximum(largest, 1e-300))
        q[active[:, None], columns[None, :]] += step
    return q


def into_limits(chain, q: np.ndarray) -> np.ndarray:
    """Move every joint by whole turns to the representative at or above its lower limit."""
    lower = np.asarray(chain.lower)
    return lower + np.mod(q - lower, _TURN)


def exact_rows(chain, q: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Return which rows of ``q`` meet ``target`` within _CONVERGED and lie within the limits."""
    error = pose_errors(chain, q, target)
    inside = np.all((q >= chain.lower) & (q <= chain.upper), axis=1)
    return (inside & (np.linalg.norm(error[:, :3], axis=1) <= _CONVERGED)
            & (np.linalg.norm(error[:, 3:], axis=1) <= _CONVERGED))


def refine_to_rest(chain, target: np.ndarray, rest: np.ndarray,
                   q: np.ndarray) -> Optional[np.ndarray]:
    """Minimise the distance to ``rest`` from ``q`` along the pose's solutions; None if lost."""
    bounds = list(zip(chain.lower, chain.upper))
    constraint = dict(type='eq', fun=lambda x: pose_errors(chain, x[None, :], target)[0])
    outcome = minimize(lambda x: float(np.sum((x - rest) ** 2)), q,
                       jac=lambda x: 2.0 * (x - rest), method='SLSQP', bounds=bounds,
                       constraints=[constraint], options=dict(maxiter=200, ftol=1e-12))
    # The polish moves every joint (least-norm Newton steps): with the swept joint locked it
    # would stall where the minimum sits at a turn of the self-motion in that joint.
    free = np.ones(chain.num_joints, dtype=bool)
    polished = into_limits(chain, locked_newton(chain, target, outcome.x[None, :], free, 8))
    return polished[0] if exact_rows(chain, polished, target)[0] else None
