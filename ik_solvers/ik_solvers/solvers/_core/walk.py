# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A warm walk along a sequence of nearby targets: a few damped least-squares steps per target.

Consecutive points of a Cartesian path lie a millimetre or so apart, so the previous point's
answer is within a Gauss-Newton step or two of the next one. The full search (restarts, the
heuristic, the trust region) is not needed there, and calling it once per point from Python
costs more than the arithmetic. :func:`walk_targets` runs the whole sequence in one compiled
call: each target starts from the answer before it and takes at most a few steps of the
polish's limit-respecting damped least squares (:func:`.polish.damped_step`); the goal, the
tolerances and their test are the search's own (:mod:`.goal_kernels`), judged by forward kinematics of
the configuration kept.

The walk stops at the first target it does not settle within its steps, or whose answer moves
a joint farther than ``max_joint_motion`` from the previous one (least squares near a
singularity can travel far). The caller hands that target to the full search, which knows how
to restart and how to tell an unreachable target from a hard one, and walks on from its answer.
"""

import numpy as np

from .polish import damped_step
from .goal_kernels import assess, goal_residual, weighted_system
from ...kinematics.jit import compiled, monotonic_seconds
from ...kinematics.kernels import (
    ChainArrays,
    forward_frames,
    jacobian_from_frames,
    LIMIT_LOWER,
    LIMIT_UPPER,
)

__all__ = ['WALK_DAMPING', 'walk_targets']

#: Multiplier of the squared residual (m^2) in the damping, as the polish's: a Gauss-Newton
#: step once the residual is small.
WALK_DAMPING = 0.1


@compiled
def walk_targets(chain: ChainArrays, targets: np.ndarray, settings: np.ndarray,
                 out: np.ndarray, first: int, last: int, max_steps: int,
                 max_joint_motion: float, deadline: float) -> int:
    """
    Solve ``targets[first..last]`` in order, each warm from the answer before it, into ``out``.

    :param chain: the chain's arrays.
    :param targets: (K, 4, 4) target poses in the base frame, m.
    :param settings: (SETTINGS_SIZE,) search settings (see :mod:`.layout`): the goal's mode,
        tolerances, bounds and orientation weight are read; the deadline slot is not.
    :param out: (K, N) joint path, rad or m: row ``first - 1`` is the start (within the
        limits); rows ``first`` up to the returned index (excluded) are written.
    :param first: first index to solve, >= 1.
    :param last: last index to solve, inclusive.
    :param max_steps: damped least-squares steps per target before it is handed back, >= 0.
    :param max_joint_motion: largest motion of any joint from the previous answer, rad or m,
        that the walk accepts; an answer moving farther is handed back.
    :param deadline: value of the monotonic clock (``time.perf_counter``), s, after which no
        further target is started.
    :returns: the index of the first target not settled (handed back, or not started because
        of the deadline), or ``last + 1`` when every target met the goal.
    """
    count = out.shape[1]
    lower = chain.joint_limits[:, LIMIT_LOWER]
    upper = chain.joint_limits[:, LIMIT_UPPER]
    frames = np.empty((chain.segments.shape[0], 4, 4))
    error = np.empty(6)
    jacobian = np.empty((6, count))
    system = np.empty((6, count))
    residual = np.empty(6)
    step = np.empty(count)
    q = np.empty(count)
    for index in range(first, last + 1):
        if monotonic_seconds() > deadline:
            return index
        target = targets[index]
        q[:] = out[index - 1]
        met = False
        for iteration in range(max_steps + 1):
            forward_frames(chain, q, frames)
            position_error, orientation_error = goal_residual(target, frames[-1], settings,
                                                              error)
            _, met, _ = assess(target, settings, position_error, orientation_error, error)
            if met or iteration == max_steps:
                break
            jacobian_from_frames(chain, frames, jacobian)
            rows = weighted_system(target, frames[-1], settings, error, jacobian, system,
                                   residual)
            damped_step(system[:rows].copy(), residual[:rows].copy(), WALK_DAMPING, q, lower,
                        upper, step)
            for i in range(count):
                q[i] = min(max(q[i] + step[i], lower[i]), upper[i])
        if not met:
            return index
        for i in range(count):
            if abs(q[i] - out[index - 1, i]) > max_joint_motion:
                return index
        out[index, :] = q
    return last + 1
