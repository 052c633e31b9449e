# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The polish on a tree: Levenberg–Marquardt on the stacked, weighted residual, by priority.

Every tip required (the usual case): Sugihara-damped steps on the stacked rows, each tip's rows
damped by its own residual (:func:`_balance_tips`), and the early marks judged on the tips
still short of their goals (:func:`_closest_short`), so that one arm that cannot converge
from this start (against its limits) neither slows nor stops the others: the attempt then
meets the arm it can, and the restarts keep it (:mod:`.tree_search`).

With best-effort tips, required ones come first: each step is the damped least-squares step of
their rows, plus the best-effort tips' step in the null space of the required rows (the classic
task-priority split), so best-effort goals come as close as the required ones allow and never
pull these off. While a required tip misses its tolerances, a step is kept when it lowers the
required error; once every required tip meets them, a step is kept when they still do and the
best-effort error falls. A kept step lowers the damping; a refused one raises it. The
best-effort part of a step is damped at least by 1e-2 times the length scale squared (an
unreachable goal leaves its rows near singular) and moves no variable more than 0.1 (rad or
m); limits clamp every step.
"""

import math

import numpy as np

from ._core.polish import damped_rows, DAMPING_FLOOR
from .tree_goals import MODES, tip_errors, TreeGoals
from .tree_jacobian_transpose import stacked, stacked_at_frames
from .tree_points import goal_cost, TreeKernel
from ..kinematics.jit import compiled

__all__ = ['tree_polish']

# Largest motion of one variable (rad or m) the best-effort tips' step may ask in one step: a
# far best-effort goal otherwise asks a step so long that the linearisation fails for the
# required tips and every step is refused.
_SECONDARY_STEP = 0.1
# Every tip required: multiplier of the squared residual (m^2) in the damping, as the chains'
# polish (Sugihara's rule) ...
_DAMPING = 0.1
# ... give up after this many steps without a lower cost ...
_PATIENCE = 3
# ... or when by step k the best cost (m) is still above this fraction of the length scale.
_MARKS = ((6, 0.3), (10, 0.03), (16, 1e-3))
# Least damping of the best-effort step, times the length scale squared: a best-effort goal out
# of reach leaves its rows near singular, and their undamped step is all but sideways.
_SECONDARY_DAMPING = 1e-2
# A position-only goal's mode (tree_goals.MODES): its orientation tolerance does not count.
_POSITION_ONLY = MODES['none']


@compiled
def _required_met(kernel: TreeKernel, goals: TreeGoals, frames: np.ndarray) -> bool:
    """Whether every required tip meets its tolerances in ``frames``."""
    poses = np.empty((kernel.tip_rows.shape[0], 4, 4))
    for t in range(kernel.tip_rows.shape[0]):
        poses[t] = frames[kernel.tip_rows[t]]
    errors = tip_errors(goals, poses)
    for t in range(errors.shape[0]):
        if goals.required[t] != 0.0 and (errors[t, 0] > goals.tolerances[t, 0]
                                         or errors[t, 1] > goals.tolerances[t, 1]):
            return False
    return True


@compiled
def _split(goals: TreeGoals, residual: np.ndarray, rows: np.ndarray) -> tuple:
    count = goals.weights.shape[0]
    required = 0
    for t in range(count):
        required += int(goals.required[t] != 0.0)
    n = rows.shape[1]
    e1, j1 = np.empty(6 * required), np.empty((6 * required, n))
    e2, j2 = np.empty(6 * (count - required)), np.empty((6 * (count - required), n))
    a, b = 0, 0
    for t in range(count):
        if goals.required[t] != 0.0:
            e1[a:a + 6], j1[a:a + 6] = residual[6 * t:6 * t + 6], rows[6 * t:6 * t + 6]
            a += 6
        else:
            e2[b:b + 6], j2[b:b + 6] = residual[6 * t:6 * t + 6], rows[6 * t:6 * t + 6]
            b += 6
    return e1, j1, e2, j2


@compiled
def _damped(jacobian: np.ndarray, error: np.ndarray, damping: float) -> np.ndarray:
    n = jacobian.shape[1]
    if jacobian.shape[0] == 0:
        return np.zeros(n)
    normal = jacobian.T @ jacobian + damping * np.eye(n)
    return np.linalg.solve(normal, jacobian.T @ error)


@compiled(leaf=True)
def _closest_short(goals: TreeGoals, residual: np.ndarray) -> float:
    """
    Return the least weighted squared residual (m^2) of the tips still short of their goals.

    A tip counts as there once its residual is within its tolerances (position and scaled
    orientation together; position only for a position-only goal); the marks judge the tips
    still converging, so that one arm stuck against its limits does not end the polish of the
    other. 0 when every tip is there.
    """
    closest = np.inf
    for t in range(goals.weights.shape[0]):
        squared = 0.0
        for r in range(6 * t, 6 * t + 6):
            squared += residual[r] * residual[r]
        turned = 0.0 if goals.modes[t] == _POSITION_ONLY else goals.scale * goals.tolerances[t, 1]
        there = goals.weights[t] ** 2 * (goals.tolerances[t, 0] ** 2 + turned ** 2)
        if squared > there:
            closest = min(closest, squared)
    # Every tip within reach of its tolerances: nothing is far, the polish goes on.
    return closest if closest < np.inf else 0.0


@compiled(leaf=True)
def _balance_tips(residual: np.ndarray, rows: np.ndarray, count: int) -> float:
    """
    Give every tip its own Sugihara damping; return the damping for :func:`damped_rows`.

    Tip t's rows and residual are scaled by sqrt(l_min / l_t), l_t = _DAMPING |e_t|^2 + floor;
    the uniformly damped step of the scaled rows is then the step damped by l_t on tip t's
    rows, and where the tips share no variable (two arms on a fixed torso) each tip's part is
    the step it would take alone. One damping from the summed residual instead lets a tip
    far from its goal (an arm against its limits) slow the others, so an attempt that could
    have met one arm meets none.
    """
    least = np.inf
    for t in range(count):
        squared = 0.0
        for r in range(6 * t, 6 * t + 6):
            squared += residual[r] * residual[r]
        least = min(least, _DAMPING * squared + DAMPING_FLOOR)
    total = 0.0
    for t in range(count):
        squared = 0.0
        for r in range(6 * t, 6 * t + 6):
            squared += residual[r] * residual[r]
        scale = math.sqrt(least / (_DAMPING * squared + DAMPING_FLOOR))
        for r in range(6 * t, 6 * t + 6):
            residual[r] *= scale
            total += residual[r] * residual[r]
            for v in range(rows.shape[1]):
                rows[r, v] *= scale
    # damped_rows regularises by damping * total + floor: that is least.
    return (least - DAMPING_FLOOR) / total if total > 0.0 else _DAMPING


@compiled
def _polish_required(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
                     iterations: int) -> int:
    """
    Every tip required: Sugihara-damped least-squares steps on the stacked rows.

    Each step is taken (the best configuration seen is kept) with the chains' active set at the
    limits (:func:`._core.polish.damped_rows`); the loop gives up after ``_PATIENCE`` steps
    without a lower cost, or at a mark of ``_MARKS`` still far from the goals.
    """
    n, count = kernel.gain.shape[0], kernel.tip_rows.shape[0]
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    jacobians = np.empty((count, 6, n))
    residual, rows = np.empty(6 * count), np.empty((6 * count, n))
    size = max(6 * count, n)
    normal, multipliers, step = np.empty((size, size)), np.empty(size), np.empty(n)
    best_q, best, since, mark = q.copy(), np.inf, 0, 0
    for steps in range(iterations + 1):
        cost, met = goal_cost(kernel, goals, q, frames)
        if met:
            return steps
        if cost < best * (1.0 - 1e-9):
            best, since = cost, 0
            best_q[:] = q
        else:
            since += 1
        if since >= _PATIENCE or steps == iterations:
            break
        # goal_cost() just wrote the frames of q; the marks read the residual.
        stacked_at_frames(kernel, goals, frames, jacobians, residual, rows)
        if mark < len(_MARKS) and steps >= _MARKS[mark][0]:
            if _closest_short(goals, residual) > (_MARKS[mark][1] * goals.scale) ** 2:
                break
            mark += 1
        damping = _balance_tips(residual, rows, count)
        damped_rows(rows, residual, rows.shape[0], damping, q, kernel.lower, kernel.upper,
                    step, normal, multipliers)
        for v in range(n):
            q[v] = min(max(q[v] + step[v], kernel.lower[v]), kernel.upper[v])
    q[:] = best_q
    return iterations


@compiled
def tree_polish(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, iterations: int) -> int:
    """
    Refine ``q`` in place by prioritised Levenberg–Marquardt steps.

    The steps go on until every tip is met or ``iterations`` steps were tried.

    :returns: the steps tried.
    """
    if np.all(goals.required != 0.0):
        return _polish_required(kernel, goals, q, iterations)
    n, count = kernel.gain.shape[0], kernel.tip_rows.shape[0]
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    jacobians = np.empty((count, 6, n))
    residual, rows = np.empty(6 * count), np.empty((6 * count, n))
    damping = 1e-6 * goals.scale * goals.scale
    trial = q.copy()
    stacked(kernel, goals, q, frames, jacobians, residual, rows)
    e1, j1, e2, j2 = _split(goals, residual, rows)
    errors = np.array([np.dot(e1, e1), np.dot(e2, e2)])
    settled = _required_met(kernel, goals, frames)
    for step in range(iterations):
        if goal_cost(kernel, goals, q, frames)[1]:
            return step
        dq = _damped(j1, e1, damping)
        if j2.shape[0] > 0:
            if j1.shape[0] > 0:
                projector = np.eye(n) - np.linalg.pinv(j1, rcond=1e-9) @ j1
            else:
                projector = np.eye(n)
            secondary = projector @ _damped(j2 @ projector, e2 - j2 @ dq,
                                            max(damping, _SECONDARY_DAMPING * goals.scale ** 2))
            largest = np.max(np.abs(secondary))
            if largest > _SECONDARY_STEP:
                secondary *= _SECONDARY_STEP / largest
            dq += secondary
        for v in range(n):
            trial[v] = min(max(q[v] + dq[v], kernel.lower[v]), kernel.upper[v])
        stacked(kernel, goals, trial, frames, jacobians, residual, rows)
        f1, k1, f2, k2 = _split(goals, residual, rows)
        new1, new2 = np.dot(f1, f1), np.dot(f2, f2)
        holds = _required_met(kernel, goals, frames)
        if (settled and holds and new2 < errors[1]) or (not settled and new1 < errors[0]):
            q[:] = trial
            settled = holds
            e1, j1, e2, j2 = f1, k1, f2, k2
            errors[0], errors[1] = new1, new2
            damping = max(damping * 0.3, 1e-12 * goals.scale * goals.scale)
        else:
            damping *= 10.0
            if damping > 1e6 * goals.scale * goals.scale:
                break
    return iterations
