# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The secant point of a tree heuristic's last iterations, tried after each iteration alone.

Near a solution FABRIK, CCD and length relaxation converge linearly, and slowly where the
orientation narrows the cost's valleys: alone, their attempts slowed within a few 1e-4 m of
the goals and the stall rule ended them there. As the chains' search does
(``secant_memory``, ``solvers/_core/extrapolation.py``), each iteration ``x -> g(x)`` is
recorded and the fixed point the record predicts (Anderson's mixing, 1965) replaces the
iterate when it costs less; otherwise the iterate goes on along the iteration's own motion
(:func:`.tree_points.extrapolate`). The points tried are mixtures of the heuristic's own
outputs; its passes and turns are unchanged. Lengths in metres, angles in radians.
"""

import math

import numpy as np

from .tree_goals import TreeGoals
from .tree_points import extrapolate, goal_cost, TreeKernel
from ..kinematics.jit import compiled

__all__ = ['SECANT_MEMORY', 'secant_history', 'accelerate']

#: Alone, each iteration also tries the fixed point that the last ``SECANT_MEMORY + 1``
#: iterations predict (Anderson mixing, as the chains' ``secant_memory``); 0 turns it off.
SECANT_MEMORY = 5
# Tikhonov term of the secant least squares, relative to its largest diagonal entry.
_SECANT_REGULARISATION = 1e-10
# A secant point moves each variable at most this far (rad or m) from the last iterate.
_SECANT_RADIUS = 0.5


@compiled
def secant_history(count: int) -> tuple:
    """Return empty ``(inputs, outputs)`` for :func:`accelerate`: (SECANT_MEMORY + 1, count)."""
    return (np.zeros((SECANT_MEMORY + 1, count)), np.zeros((SECANT_MEMORY + 1, count)))


@compiled
def _secant_point(kernel: TreeKernel, inputs: np.ndarray, outputs: np.ndarray, recorded: int,
                  radius: float, scale: float, out: np.ndarray) -> bool:
    """
    Write the fixed point of the iteration x_k -> g_k that the recorded iterations predict.

    Anderson's mixing: with the residuals f_k = g_k - x_k, the weights that make the
    combination of the last residuals smallest (least squares over their differences), and
    the same combination of the outputs; within ``_SECANT_RADIUS`` and the trust ``radius``
    of the last output (rad; a slide ``radius`` times the length ``scale``, m), and within the
    limits.

    :returns: whether a point was written.
    """
    columns = recorded - 1
    if columns < 1:
        return False
    count, last = inputs.shape[1], recorded - 1
    differences = np.empty((count, columns))
    for a in range(columns):
        for i in range(count):
            differences[i, a] = ((outputs[a + 1, i] - inputs[a + 1, i])
                                 - (outputs[a, i] - inputs[a, i]))
    normal = differences.T @ differences
    largest = 0.0
    for a in range(columns):
        largest = max(largest, normal[a, a])
    if not largest > 0.0:
        return False
    for a in range(columns):
        normal[a, a] += _SECANT_REGULARISATION * largest
    weights = np.linalg.solve(normal, differences.T @ (outputs[last] - inputs[last]))
    for i in range(count):
        shift = 0.0
        for a in range(columns):
            shift -= weights[a] * (outputs[a + 1, i] - outputs[a, i])
        if not math.isfinite(shift):
            return False
        bound = min(_SECANT_RADIUS,
                    radius * scale if kernel.prismatic[i] != 0.0 else radius)
        shift = min(max(shift, -bound), bound)
        out[i] = min(max(outputs[last, i] + shift, kernel.lower[i]), kernel.upper[i])
    return True


@compiled
def accelerate(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, origin: np.ndarray,
               frames: np.ndarray, inputs: np.ndarray, outputs: np.ndarray,
               recorded: int, radius: float) -> int:
    """
    Speed up a heuristic alone after its iteration ``origin -> q``, as the chains' search does.

    The iteration is recorded (the last ``SECANT_MEMORY + 1`` are kept, oldest first); the
    secant point of the record (:func:`_secant_point`) replaces ``q`` when it costs less;
    otherwise ``q`` goes on along the iteration's motion (:func:`extrapolate`). Either way
    the points tried are mixtures of the heuristic's own outputs, or its own motion, and move
    no variable more than the trust ``radius`` beyond ``q``.

    :returns: the iterations now recorded.
    """
    size = inputs.shape[0]
    if size < 2:
        extrapolate(kernel, goals, q, origin, frames, radius)
        return 0
    if recorded == size:
        for k in range(size - 1):
            inputs[k] = inputs[k + 1]
            outputs[k] = outputs[k + 1]
        recorded -= 1
    inputs[recorded] = origin
    outputs[recorded] = q
    recorded += 1
    trial = np.empty(q.shape[0])
    if _secant_point(kernel, inputs, outputs, recorded, radius, goals.scale, trial):
        cost, _ = goal_cost(kernel, goals, q, frames)
        trial_cost, _ = goal_cost(kernel, goals, trial, frames)
        if trial_cost < cost:
            q[:] = trial
            return recorded
    extrapolate(kernel, goals, q, origin, frames, radius)
    return recorded
