# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The attempt loop of :func:`.tree_solve.solve_tree`, compiled, with the deadline read inside.

One call runs every attempt of a tree solve: the start (the seed, then restarts drawn within
the limits by Park and Miller's generator, seeded by the caller), the heuristic, the polish,
the forward-kinematics check of every tip and the score, until every tip is met, the required
ones are met and the rest stopped improving, the attempts run out or the deadline passes.
Calling the heuristic, the polish and the check from Python cost about 0.1 ms per attempt on
the two-arm trees, more than the work itself; one call costs a few microseconds.

The loop is compiled into one function per heuristic (:data:`TREE_SEARCHES`), as the chains'
search is: numba caches a function only when the functions it calls are fixed in its source.
"""

import math

import numpy as np

from .tree_ccd import tree_ccd
from .tree_fabrik import tree_fabrik
from .tree_goals import tip_errors, TreeGoals
from .tree_jacobian_transpose import tree_jacobian_transpose
from .tree_length_relaxation import tree_length_relaxation
from .tree_points import TreeKernel
from .tree_polish import tree_polish
from ..kinematics.jit import compiled, monotonic_seconds, past_deadline
from ..kinematics.tree_kernels import tree_frames

__all__ = ['TREE_SEARCHES', 'SETTINGS_SIZE', 'REPORT_SIZE', 'STATUS_SUCCESS',
           'STATUS_TIMED_OUT', 'STATUS_NO_SOLUTION', 'settings_array']

# Slots of the settings array.
(_ITERATIONS, _STALL, _POLISH, _POLISH_ITERATIONS, _MAX_ATTEMPTS, _DEADLINE, _SEED,
 _TRUST_REGION, _EXTRAPOLATE) = range(9)
#: Length of the settings array (:func:`settings_array`).
SETTINGS_SIZE = 9
# Slots of the report array.
_STATUS, _ATTEMPTS, _HEURISTIC_ITERATIONS, _HEURISTIC_SECONDS = range(4)
#: Length of the report array: status, attempts, heuristic iterations, heuristic seconds.
REPORT_SIZE = 4
#: Status codes of the report.
STATUS_SUCCESS, STATUS_TIMED_OUT, STATUS_NO_SOLUTION = 0, 1, 2

# Attempts without a better answer, once the required tips are met, before the search stops.
_PATIENCE = 3
_PARK_MILLER_MODULUS = 2147483647


def settings_array(iterations: int, stall: int, polish: bool, polish_iterations: int,
                   max_attempts: int, deadline: float, seed: int,
                   trust_region: float = math.inf, extrapolate: bool = True) -> np.ndarray:
    """
    Pack a search's settings.

    :param max_attempts: cap on the attempts, 0 for none.
    :param deadline: the monotonic clock's time (s, ``time.perf_counter``) to stop at.
    :param seed: the restart generator's seed, in [1, 2^31 - 2].
    :param trust_region: the heuristics' trust region (:func:`.tree_points.trust_radius`),
        ``inf`` for none.
    :param extrapolate: whether the heuristics extrapolate their iterates
        (:func:`.tree_secant.accelerate`).
    """
    return np.array([iterations, stall, 1.0 if polish else 0.0, polish_iterations,
                     max_attempts, deadline, seed, trust_region,
                     1.0 if extrapolate else 0.0], dtype=float)


@compiled(leaf=True)
def _next_uniform(state: np.ndarray) -> float:
    """Park and Miller's minimal standard generator, in [0, 1)."""
    state[0] = (state[0] * 48271) % _PARK_MILLER_MODULUS
    return (state[0] - 1) / (_PARK_MILLER_MODULUS - 1)


@compiled(inline=True)
def run_tree_search(heuristic, kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
                    sampling: np.ndarray, settings: np.ndarray, best_met: np.ndarray,
                    best_errors: np.ndarray, report: np.ndarray) -> None:
    """
    Run the attempts of one tree solve; see the module.

    :param heuristic: a tree heuristic,
        ``heuristic(kernel, goals, q, iterations, stall, trust_region, extrapolate)``.
    :param q: (N,) the first start on entry; the best answer on return.
    :param sampling: (2, N) low end and width of each variable's restart range.
    :param settings: (SETTINGS_SIZE,) :func:`settings_array`.
    :param best_met: (T,) output, per tip whether the best answer meets its goal.
    :param best_errors: (T, 2) output, the best answer's position (m) and orientation (rad)
        error per tip.
    :param report: (REPORT_SIZE,) output.
    """
    n, count = q.shape[0], goals.weights.shape[0]
    iterations, stall = int(settings[_ITERATIONS]), int(settings[_STALL])
    polish_iterations = int(settings[_POLISH_ITERATIONS])
    max_attempts = int(settings[_MAX_ATTEMPTS])
    deadline, trust_region = settings[_DEADLINE], settings[_TRUST_REGION]
    extrapolate = settings[_EXTRAPOLATE] != 0.0
    state = np.full(1, int(settings[_SEED]), dtype=np.int64)
    first, best, trial = q.copy(), q.copy(), np.empty(n)
    frames = np.empty((kernel.arrays.segments.shape[0], 4, 4))
    poses = np.empty((count, 4, 4))
    met = np.zeros(count, dtype=np.bool_)
    have_best, best_key, best_cost, since = False, 0, math.inf, 0
    attempts, ran, heuristic_seconds, timed_out = 0, 0, 0.0, False
    while True:
        if attempts == 0:
            trial[:] = first
        else:
            for v in range(n):
                trial[v] = sampling[0, v] + sampling[1, v] * _next_uniform(state)
        if attempts % 2 == 1 and have_best and np.any(best_met):
            # A restart keeps the joints that move met tips only (an arm on a fixed torso
            # that reached its goal), every other one: only the rest of the tree starts anew.
            for v in range(n):
                keep = True
                for t in range(count):
                    if kernel.below[v, n + t] and not best_met[t]:
                        keep = False
                        break
                if keep:
                    trial[v] = best[v]
        attempts += 1
        began = monotonic_seconds()
        ran += heuristic(kernel, goals, trial, iterations, stall, trust_region, extrapolate)
        heuristic_seconds += monotonic_seconds() - began
        if polish_iterations > 0 and settings[_POLISH] != 0.0:
            tree_polish(kernel, goals, trial, polish_iterations)
        tree_frames(kernel.arrays, trial, frames)
        for t in range(count):
            poses[t] = frames[kernel.tip_rows[t]]
        errors = tip_errors(goals, poses)
        every, key, all_required, required_cost, other_cost = True, 0, True, 0.0, 0.0
        for t in range(count):
            met[t] = (errors[t, 0] <= goals.tolerances[t, 0]
                      and errors[t, 1] <= goals.tolerances[t, 1])
            every = every and met[t]
            weighted = goals.weights[t] ** 2 * (errors[t, 0] ** 2
                                                + (goals.scale * errors[t, 1]) ** 2)
            if goals.required[t] != 0.0:
                required_cost += weighted
                if met[t]:
                    key -= 1
                else:
                    all_required = False
            else:
                other_cost += weighted
        cost = other_cost if all_required else required_cost
        if not have_best or key < best_key or (key == best_key and cost < best_cost):
            improved = (not have_best or key < best_key or cost < best_cost * (1 - 1e-6))
            best[:] = trial
            best_met[:] = met
            best_errors[:, :] = errors
            best_key, best_cost, have_best = key, cost, True
            since = 0 if improved else since + 1
        else:
            since += 1
        if every:
            break
        settled = True
        for t in range(count):
            if goals.required[t] != 0.0 and not best_met[t]:
                settled = False
        if settled and since >= _PATIENCE:
            break
        if max_attempts > 0 and attempts >= max_attempts:
            break
        if past_deadline(deadline):
            timed_out = True
            break
    q[:] = best
    every = True
    for t in range(count):
        every = every and best_met[t]
    report[_STATUS] = (STATUS_SUCCESS if every
                       else STATUS_TIMED_OUT if timed_out else STATUS_NO_SOLUTION)
    report[_ATTEMPTS] = attempts
    report[_HEURISTIC_ITERATIONS] = ran
    report[_HEURISTIC_SECONDS] = heuristic_seconds


@compiled
def _search_fabrik(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, sampling: np.ndarray,
                   settings: np.ndarray, best_met: np.ndarray, best_errors: np.ndarray,
                   report: np.ndarray) -> None:
    run_tree_search(tree_fabrik, kernel, goals, q, sampling, settings, best_met, best_errors,
                    report)


@compiled
def _search_ccd(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray, sampling: np.ndarray,
                settings: np.ndarray, best_met: np.ndarray, best_errors: np.ndarray,
                report: np.ndarray) -> None:
    run_tree_search(tree_ccd, kernel, goals, q, sampling, settings, best_met, best_errors,
                    report)


@compiled
def _search_jacobian_transpose(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
                               sampling: np.ndarray, settings: np.ndarray,
                               best_met: np.ndarray, best_errors: np.ndarray,
                               report: np.ndarray) -> None:
    run_tree_search(tree_jacobian_transpose, kernel, goals, q, sampling, settings, best_met,
                    best_errors, report)


@compiled
def _search_length_relaxation(kernel: TreeKernel, goals: TreeGoals, q: np.ndarray,
                              sampling: np.ndarray, settings: np.ndarray,
                              best_met: np.ndarray, best_errors: np.ndarray,
                              report: np.ndarray) -> None:
    run_tree_search(tree_length_relaxation, kernel, goals, q, sampling, settings, best_met,
                    best_errors, report)


#: The compiled attempt loop of each tree heuristic, by the chain solvers' names:
#: ``search(kernel, goals, q, sampling, settings, best_met, best_errors, report)``.
TREE_SEARCHES = {
    'fabrik': _search_fabrik,
    'ccd': _search_ccd,
    'jacobian_transpose': _search_jacobian_transpose,
    'length_relaxation': _search_length_relaxation,
}
