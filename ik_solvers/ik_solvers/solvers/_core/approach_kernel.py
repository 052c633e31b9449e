# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The compiled kernel of approximate tracking (see :mod:`ik_solvers.solvers.approximate`).

Levenberg-Marquardt steps kept inside a per-joint box around the start, each kept only if it
lowers the weighted pose error; stalls far from the goal try the direction of most negative
curvature.
"""

import math

import numpy as np

from .curvature import lowest_curvature
from .polish import damped_step
from .goal_kernels import assess, goal_residual, weighted_system
from .input_checks import refusal
from .layout import (
    DEADLINE,
    REPORT_ATTEMPTS,
    REPORT_POLISH_ITERATIONS,
    REPORT_HEURISTIC_ITERATIONS,
    REPORT_MET,
    REPORT_ORIENTATION_ERROR,
    REPORT_POSITION_ERROR,
    REPORT_STATUS,
    STATUS_NO_SOLUTION,
    STATUS_SUCCESS,
)
from ...kinematics.jit import compiled, monotonic_seconds
from ...kinematics.kernels import ChainArrays, forward_frames, jacobian_from_frames
from ...kinematics.kernels import LIMIT_LOWER, LIMIT_UPPER

__all__ = ['approach_search']

# Multiplier of the squared residual (m^2) in the damping: the first value, and its range.
_DAMPING = 0.1
_DAMPING_LOWEST = 1e-3
_DAMPING_HIGHEST = 1e3
# An accepted step that lowers the error by less than this fraction counts as a stall.
_PROGRESS = 0.01
# Tries along the direction of most negative curvature per call.
_ESCAPES = 3
# Fractions of the box that escape tries go along that direction, each way.
_ESCAPE_FRACTIONS = (1.0, 0.5, 0.25)
# Eigenvalues above minus this (times the squared chain length, m^2 per rad^2) are flat.
_FLAT_CURVATURE = 1e-9


@compiled
def _measure(chain: ChainArrays, target: np.ndarray, settings: np.ndarray, q: np.ndarray,
             frames: np.ndarray, error: np.ndarray) -> tuple:
    """Return the weighted pose error (m) of ``q`` and whether it meets the tolerances."""
    forward_frames(chain, q, frames)
    position_error, orientation_error = goal_residual(target, frames[-1], settings, error)
    _, solved, _ = assess(target, settings, position_error, orientation_error, error)
    # The norm of the rows the least-squares steps reduce: with no joint columns the system
    # holds only the residual.
    residual = np.empty(6)
    rows = weighted_system(target, frames[-1], settings, error, np.empty((6, 0)),
                           np.empty((6, 0)), residual)
    squared = 0.0
    for r in range(rows):
        squared += residual[r] * residual[r]
    return math.sqrt(squared), solved


@compiled
def _escape(chain: ChainArrays, target: np.ndarray, settings: np.ndarray, q: np.ndarray,
            cost: float, lower: np.ndarray, upper: np.ndarray, bounds: np.ndarray,
            frames: np.ndarray, error: np.ndarray) -> tuple:
    """
    Try the direction of most negative curvature from ``q``; move ``q`` if it lowers the error.

    :returns: ``(error, solved, moved)`` for the configuration ``q`` holds on return.
    """
    count = q.shape[0]
    direction = np.empty(count)
    curvature = lowest_curvature(chain, target, settings, q, frames, error, direction)
    if curvature >= -_FLAT_CURVATURE * chain.length_scale * chain.length_scale:
        return cost, False, False
    # The longest step along the direction that moves no joint more than its box half-width.
    scale = math.inf
    for i in range(count):
        if direction[i] != 0.0:
            scale = min(scale, bounds[i] / abs(direction[i]))
    best = q.copy()
    best_cost, best_solved = cost, False
    trial = np.empty(count)
    for fraction in _ESCAPE_FRACTIONS:
        for sign in (1.0, -1.0):
            for i in range(count):
                trial[i] = min(max(q[i] + sign * fraction * scale * direction[i], lower[i]),
                               upper[i])
            trial_cost, trial_solved = _measure(chain, target, settings, trial, frames, error)
            if trial_cost < best_cost:
                best[:] = trial
                best_cost, best_solved = trial_cost, trial_solved
    if best_cost < cost:
        q[:] = best
        return best_cost, best_solved, True
    return cost, False, False


@compiled
def approach_search(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
                    q: np.ndarray, bounds: np.ndarray, max_iterations: int,
                    report: np.ndarray) -> None:
    """
    Lower the weighted pose error from ``q`` within the box ``q +- bounds`` and the limits.

    :param chain: the chain's arrays.
    :param target: (4, 4) target pose in the base frame, m.
    :param settings: (SETTINGS_SIZE,) see :mod:`.layout`: the goal's entries and the deadline.
    :param q: (N,) the start on entry (clamped into the limits); the result on return.
    :param bounds: (N,) largest motion of each joint from the start, rad or m, positive.
    :param max_iterations: cap on least-squares steps.
    :param report: (REPORT_SIZE,) output, see :mod:`.layout`; its status is
        ``STATUS_SUCCESS`` when the result meets the tolerances, else ``STATUS_NO_SOLUTION``,
        or a refusal of the inputs (see :func:`.input_checks.refusal`) and nothing else.
    """
    refused = refusal(chain, target, q)
    if refused >= 0:
        report[REPORT_STATUS] = refused
        return
    count = q.shape[0]
    lower = np.empty(count)
    upper = np.empty(count)
    for i in range(count):
        lower[i] = max(chain.joint_limits[i, LIMIT_LOWER], q[i] - bounds[i])
        upper[i] = min(chain.joint_limits[i, LIMIT_UPPER], q[i] + bounds[i])
    frames = np.empty((chain.segments.shape[0], 4, 4))
    error = np.empty(6)
    jacobian = np.empty((6, count))
    system = np.empty((6, count))
    residual = np.empty(6)
    step = np.empty(count)
    trial = np.empty(count)
    cost, solved = _measure(chain, target, settings, q, frames, error)
    damping = _DAMPING
    iterations = 0
    escapes = 0
    while not solved and iterations < max_iterations and monotonic_seconds() <= settings[DEADLINE]:
        iterations += 1
        forward_frames(chain, q, frames)
        goal_residual(target, frames[-1], settings, error)
        jacobian_from_frames(chain, frames, jacobian)
        rows = weighted_system(target, frames[-1], settings, error, jacobian, system, residual)
        if rows == 0:
            break
        damped_step(system[:rows].copy(), residual[:rows].copy(), damping, q, lower, upper,
                    step)
        for i in range(count):
            trial[i] = min(max(q[i] + step[i], lower[i]), upper[i])
        trial_cost, trial_solved = _measure(chain, target, settings, trial, frames, error)
        accepted = trial_cost < cost
        progressing = accepted and trial_cost < cost * (1.0 - _PROGRESS)
        if accepted:
            q[:] = trial
            cost, solved = trial_cost, trial_solved
            damping = max(0.5 * damping, _DAMPING_LOWEST)
        else:
            damping *= 4.0
        if progressing or solved or (not accepted and damping <= _DAMPING_HIGHEST):
            continue
        # Stalled: small steps, or steps the linearisation no longer predicts.
        if escapes >= _ESCAPES:
            if accepted:
                continue
            break
        escapes += 1
        cost, solved, moved = _escape(chain, target, settings, q, cost, lower, upper, bounds,
                                      frames, error)
        if moved:
            damping = _DAMPING
        elif not accepted:
            break
    forward_frames(chain, q, frames)
    position_error, orientation_error = goal_residual(target, frames[-1], settings, error)
    _, met, _ = assess(target, settings, position_error, orientation_error, error)
    report[REPORT_STATUS] = STATUS_SUCCESS if met else STATUS_NO_SOLUTION
    report[REPORT_ATTEMPTS] = 1.0
    report[REPORT_HEURISTIC_ITERATIONS] = 0.0
    report[REPORT_POLISH_ITERATIONS] = iterations
    report[REPORT_POSITION_ERROR] = position_error
    report[REPORT_ORIENTATION_ERROR] = orientation_error
    report[REPORT_MET] = 1.0 if met else 0.0
