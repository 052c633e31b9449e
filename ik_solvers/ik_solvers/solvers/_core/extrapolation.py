# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Measuring an iterate, and extrapolating a heuristic's iterations when it runs alone.

Alone, a heuristic converges linearly, and slowly where the orientation narrows the cost's
valleys: FABRIK and length relaxation took a median of 120 iterations for a full pose at 1e-5 on
a UR5, plain CCD sweeps 80, most of them spent advancing by nearly the same motion again and
again, or zig-zagging about it. :func:`extrapolate` goes on along the motion of the last two
iterations (which averages a zig-zag out) while the cost falls; the direction stays the
heuristic's own, and the heuristic's step itself is unchanged (see docs/DECISIONS.md).
"""

import numpy as np

from .goal_kernels import assess, goal_residual
from ...kinematics.jit import compiled
from ...kinematics.kernels import ChainArrays, forward_frames, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['evaluate', 'extrapolate']

# The trials go 1, 3, 7, ... 63 times the motion of the last two iterations beyond the
# iterate, while the cost keeps falling.
_DOUBLINGS = 6


@compiled(leaf=True)
def evaluate(chain: ChainArrays, target: np.ndarray, settings: np.ndarray, q: np.ndarray,
             frames: np.ndarray, error: np.ndarray, best_q: np.ndarray,
             best: np.ndarray) -> tuple:
    """
    Measure q by forward kinematics and keep it in ``best_q`` if it is the best so far.

    :returns: ``(cost, solved, near)``: the cost (m), whether the tolerances are met, and
        whether the errors are within the hand-over errors.
    """
    forward_frames(chain, q, frames)
    position_error, orientation_error = goal_residual(target, frames[-1], settings, error)
    cost, solved, near = assess(target, settings, position_error, orientation_error, error)
    # A solution wins even over a lower cost that misses one of the tolerances.
    if solved or cost < best[0]:
        best[0] = min(cost, best[0])
        for i in range(q.shape[0]):  # by element: a slice copy needs numba's reference counts
            best_q[i] = q[i]
    return cost, solved, near


@compiled(inline=True)
def _moved(chain: ChainArrays, q: np.ndarray, origin: np.ndarray, extra: float, radius: float,
           out: np.ndarray) -> None:
    """Write q moved ``extra`` times its motion from ``origin`` on, within radius and limits."""
    for i in range(q.shape[0]):
        motion = min(max(extra * (q[i] - origin[i]), -radius), radius)
        out[i] = min(max(q[i] + motion, chain.joint_limits[i, LIMIT_LOWER]),
                     chain.joint_limits[i, LIMIT_UPPER])


@compiled
def extrapolate(chain: ChainArrays, target: np.ndarray, settings: np.ndarray, q: np.ndarray,
                origin: np.ndarray, radius: float, cost: float, frames: np.ndarray,
                error: np.ndarray, best_q: np.ndarray, best: np.ndarray,
                scratch: np.ndarray, trial_frames: np.ndarray,
                trial_error: np.ndarray) -> tuple:
    """
    Try q moved 1, 3, 7, ... times its motion from ``origin`` further on; keep the best.

    A heuristic alone converges linearly, and slowly where the orientation makes the cost's
    valleys narrow: its iterates then advance by nearly the same motion, again and again (or
    zig-zag about it, which the motion over two iterations averages out). Going on along that
    motion, while the cost falls, skips those iterations; the direction is the heuristic's own.
    Each joint goes at most ``radius`` (the trust region) beyond q, and stays in its limits.
    ``frames`` and ``error`` are left those of the q returned.

    :returns: ``(cost, solved)`` of q on return.
    """
    solved = False
    extra = 0.0
    accepted = 0.0
    for _ in range(_DOUBLINGS):
        extra = 2.0 * extra + 1.0
        _moved(chain, q, origin, extra, radius, scratch)
        trial_cost, trial_solved, _ = evaluate(chain, target, settings, scratch, trial_frames,
                                               trial_error, best_q, best)
        if not (trial_cost < cost or trial_solved):
            break
        cost, solved, accepted = trial_cost, trial_solved, extra
        frames[:, :, :] = trial_frames
        error[:] = trial_error
        if solved:
            break
    if accepted > 0.0:
        _moved(chain, q, origin, accepted, radius, scratch)
        q[:] = scratch
    return cost, solved
