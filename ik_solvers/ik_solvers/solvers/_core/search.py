# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The one search loop every heuristic runs in, compiled: starts, hand-over, polish, deadline.

A heuristic supplies one compiled ``step`` that improves a configuration in place; this module
owns the rest, once for all of them:

* every start (the seed, then restarts drawn from a seeded generator) runs the heuristic first,
  for at most ``heuristic_iterations`` steps, until it meets the tolerances or stalls (no 5 %
  lower cost within ``stall_iterations`` steps);
* with the polish on, the heuristic hands over to it (damped least squares,
  :mod:`.polish`) once its progress slows, when one step leaves more than ``handoff_ratio``
  of the cost it started from, or once within the hand-over errors: the heuristic does the
  global work, the polish the last digits (see docs/DECISIONS.md);
* alone (no polish), where the orientation counts, the search extrapolates each iteration:
  first to the fixed point its last iterations predict (the secant point, Anderson's mixing;
  the ``secant_memory`` option), then along the motion of the last two (:mod:`.extrapolation`;
  the ``extrapolation`` option), each kept only where the cost falls; and a start still
  farther than 5 % of the chain's length from its goal ends after a quarter of
  ``stall_iterations``;
* the best configuration seen anywhere is kept; the deadline is read inside the loop;
* a trust region bounds each joint's motion per heuristic step to ``trust_region`` times the
  start's cost over the chain's length, so that a warm seed's solution stays near the seed.

The outcome tells an unreachable target from a lack of time: ``STATUS_NO_SOLUTION`` when the
target lies beyond the chain's reach, or when the best cost stopped improving over the later
half of the starts; ``STATUS_TIMED_OUT`` when the deadline came while it still improved.

Heuristic modules bind their step to the loop in a compiled ``search`` function of their own::

    @compiled
    def search(chain, target, settings, options, q, report):
        return run_search(my_step, chain, target, settings, options, q, report)

(numba caches a compiled function only when the functions it calls are fixed in its source; the
loop is compiled into each of them.)
"""

import math

import numpy as np

from .extrapolation import (
    evaluate as _evaluate,
    extrapolate as _extrapolate,
    record_iteration,
    secant as _secant,
)
from .polish_loop import finish as _finish
from .goal_kernels import assess, effective_goal, goal_residual
from .input_checks import beyond_reach as _beyond_reach, refusal
from .full_turns import settle_turns, settled_distance
from .nearest_turn import nearest_turn
from .layout import (
    DEADLINE,
    EXTRAPOLATION,
    POLISH_ITERATIONS,
    HANDOFF_RATIO,
    HEURISTIC_ITERATIONS,
    MAX_ATTEMPTS,
    MODE_NONE,
    ORIENTATION_MODE,
    POSITION_TOLERANCE,
    REPORT_ATTEMPTS,
    REPORT_FINAL_COST,
    REPORT_POLISH_ITERATIONS,
    REPORT_HANDOFF_COST,
    REPORT_HEURISTIC_ITERATIONS,
    REPORT_MET,
    REPORT_ORIENTATION_ERROR,
    REPORT_POSITION_ERROR,
    REPORT_START_COST,
    REPORT_STATUS,
    SECANT_MEMORY,
    STALL_ITERATIONS,
    START_NEAR,
    STATUS_NO_SOLUTION,
    STATUS_SUCCESS,
    STATUS_TIMED_OUT,
    TRUST_REGION,
)
from ...kinematics.jit import compiled, past_deadline
from ...kinematics.kernels import (
    ChainArrays,
    forward_frames,
    LIMIT_LOWER,
    LIMIT_SAMPLE_LOW,
    LIMIT_SAMPLE_WIDTH,
    LIMIT_UPPER,
)

__all__ = ['STEP_MEMORY_COLUMNS', 'may_extrapolate', 'nearest_turn', 'relaxation_gain',
           'run_search', 'start_gain']

#: Columns of a step's ``memory``: 4 of state, then scratch for two (6, N) matrices (as
#: columns of N rows) and four vectors of max(N, 6), so that no step allocates per iteration
#: (two small arrays per Jacobian-transpose step cost 0.2-0.4 us, see docs/batch.md).
STEP_MEMORY_COLUMNS = 20

# Seed of the restart generator: the same inputs give the same restarts, run after run.
RESTART_SEED = 20260101
# A start whose cost does not drop by this fraction within STALL_ITERATIONS steps has stalled.
_STALL_DECREASE = 0.05
# Across restarts, the best cost "improves" when it drops by this fraction, and by more than
# this fraction of the chain's length (below it, differences are rounding noise).
_IMPROVEMENT = 0.01
_IMPROVEMENT_FLOOR = 1e-12
_PARK_MILLER_MODULUS = 2147483647
# A seed whose error is below this fraction of the chain's length is taken as a warm seed (a
# drag's previous solution): its first restarts stay near it, at growing distances (rad or,
# for prismatic joints, that times the chain's length), before any restart drawn from the
# whole range, so that a solution on the seed's branch is preferred to a far one.
_WARM_SEED_COST = 0.05
_NEAR_RESTART_RADII = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
# A warm seed's solution farther than this from the seed (rad, largest joint motion) is kept
# only as a fallback while up to _NEARER_SEARCH_STARTS more starts look for a nearer one: a
# drag must not flip to another branch when its own is within reach.
_FAR_SOLUTION = 0.5
_NEARER_SEARCH_STARTS = 24
# A warm seed (and its near restarts) has no global work left: its heuristic hands over after
# this many steps, as every start did before the hand-over by slowing progress. Running on, the
# heuristics drifted along the redundant joints: 9-20 % of FABRIK's and length relaxation's
# position-only solutions ended more than 0.1 rad from a warm seed (see docs/DECISIONS.md).
_WARM_HEURISTIC_ITERATIONS = 2
_BEYOND_REACH_ITERATIONS = 200
# A start that begins within this fraction of the chain's length of its goal takes plain
# heuristic steps before the polish (start_gain): seeds 0.05 rad from a solution start at
# 0.01-0.10 of the length on the bundled arms, random ones at 0.4-2.2 (docs/DECISIONS.md).
_PLAIN_START_COST = 0.25
# Extrapolating (alone), a start still farther than this fraction of the chain's length from
# the goal ends after a quarter of the stall iterations: there a stall is a local minimum,
# while a start near its goal may crawl through a plateau and still converge.
_FAR_STALL_COST = 0.05


@compiled
def relaxation_gain(settings: np.ndarray, over_relaxation: float) -> float:
    """
    Return the over-relaxation a step takes: its option alone, 1 when the polish follows.

    Over-relaxing speeds up the long linear convergence of a heuristic that must reach the
    tolerances by itself; before the polish it only overshoots, and from a warm seed it
    carried 3-5 % of the solutions of FABRIK and length relaxation past 0.1 rad from the seed
    (see docs/DECISIONS.md).
    """
    return 1.0 if settings[POLISH_ITERATIONS] > 0.0 else over_relaxation


@compiled
def start_gain(settings: np.ndarray, alone: float, cold_before_polish: float) -> float:
    """
    Return the over-relaxation a step takes, by how its start runs.

    Alone (no polish): ``alone``. Before the polish: 1 from a start near its goal (one that
    began within a quarter of the chain's length of it, a warm seed, or a warm seed's near
    restart: its solution must stay near the seed, see :func:`relaxation_gain`), and
    ``cold_before_polish`` from any other start, where the heuristic does the global work and
    over-relaxing it only speeds that up (CCD, see docs/DECISIONS.md).
    """
    if settings[POLISH_ITERATIONS] <= 0.0:
        return alone
    return 1.0 if settings[START_NEAR] != 0.0 else cold_before_polish


@compiled(inline=True)
def may_extrapolate(settings: np.ndarray) -> bool:
    """
    Whether the search may extrapolate the heuristic's iterations (its setting is not 'never').

    A step that would otherwise speed itself up (CCD's over-relaxation) leaves that to the
    search when this holds.
    """
    return settings[EXTRAPOLATION] != 0.0


@compiled
def _next_uniform(state: np.ndarray) -> float:
    # Park and Miller's minimal standard generator: exact in int64 and in Python ints, so the
    # restarts are the same compiled or not.
    state[0] = (state[0] * 48271) % _PARK_MILLER_MODULUS
    return state[0] / _PARK_MILLER_MODULUS


@compiled(inline=True)
def run_search(step, chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
               options: np.ndarray, q: np.ndarray, report: np.ndarray) -> None:
    """
    Search from the seed ``q`` until solved, out of starts, or past the deadline.

    :param step: the heuristic's compiled step,
        ``step(chain, target, goal, settings, options, q, frames, error, radius, memory)``:
        it changes ``q`` in place, given the effective ``goal`` (see
        :func:`.goal_kernels.effective_goal`), ``frames`` (forward kinematics of ``q``), ``error`` (its
        residual, :func:`.goal_kernels.goal_residual`) and the trust ``radius`` (rad); ``memory`` is a
        (max(N, 6), STEP_MEMORY_COLUMNS) array zeroed at every start, its first 4 columns
        state the step may keep, the others scratch (a step then allocates nothing).
    :param chain: the chain's arrays.
    :param target: (4, 4) target pose in the base frame, m.
    :param settings: (SETTINGS_SIZE,) see :mod:`.layout`; the search writes its START_NEAR
        entry at every start (:func:`start_gain`).
    :param options: the heuristic's own options, packed by its solver class.
    :param q: (N,) seed on entry (clamped into the limits); the best configuration found on
        return, on the turn nearest the seed.
    :param report: (REPORT_SIZE,) output, see :mod:`.layout`; its status is a refusal
        (see :func:`refusal`), and nothing else is filled, when the inputs are invalid.
    """
    refused = refusal(chain, target, q)
    if refused >= 0:
        report[REPORT_STATUS] = refused
        return
    count = q.shape[0]
    seed = q.copy()
    frames = np.empty((chain.segments.shape[0], 4, 4))
    error = np.empty(6)
    goal = np.empty((4, 4))
    best_q = q.copy()
    best = np.full(1, math.inf)
    memory = np.zeros((max(count, 6), STEP_MEMORY_COLUMNS))
    state = np.full(1, RESTART_SEED, dtype=np.int64)
    beyond_reach = _beyond_reach(chain, target, settings[POSITION_TOLERANCE])
    # Beyond reach, the one start runs its heuristic until it stalls, so that the pose
    # returned is the closest the chain can get, not whatever the hand-over left.
    iteration_cap = settings[HEURISTIC_ITERATIONS]
    if beyond_reach:
        iteration_cap = max(iteration_cap, _BEYOND_REACH_ITERATIONS)
    heuristic_steps = 0
    polish_steps = 0
    attempts = 0
    status = STATUS_TIMED_OUT
    improved_at = 0
    recorded = math.inf
    warm_seed = False
    fallback = q.copy()
    fallback_distance = math.inf
    far_found_at = 0
    polish = settings[POLISH_ITERATIONS] > 0.0
    # Alone, the heuristic may extrapolate its iterations (see _extrapolate).
    extrapolate = not polish and (settings[EXTRAPOLATION] > 1.0 or (
        settings[EXTRAPOLATION] > 0.0 and settings[ORIENTATION_MODE] != MODE_NONE))
    # The iterates one and two iterations back, the trial and its kinematics.
    back = np.empty((3, count))
    far_stall = max(1.0, settings[STALL_ITERATIONS] // 4)
    trial_frames = np.empty_like(frames)
    trial_error = np.empty(6)
    # The secant point (Anderson mixing) of the last iterations, x -> step(x), when extrapolating.
    secant_size = int(settings[SECANT_MEMORY]) if extrapolate else 0
    inputs = np.empty((secant_size + 1, count))
    outputs = np.empty((secant_size + 1, count))
    secant_trial = np.empty(count)
    recorded = 0
    # Beyond reach the heuristic runs on until it stalls (see above), slow or not.
    handoff_ratio = math.inf if beyond_reach else settings[HANDOFF_RATIO]
    start_cost = math.inf
    cost = math.inf
    handoff_cost = math.inf
    before_secant = math.inf
    while True:
        attempts += 1
        stall_reference = math.inf
        since_decrease = 0
        radius = math.inf
        solved = False
        previous = math.inf
        memory[:, :] = 0.0
        recorded = 0
        for iteration in range(int(iteration_cap) + 1):
            cost, solved, near = _evaluate(chain, target, settings, q, frames, error, best_q,
                                           best)
            if iteration == 0:
                start_cost = cost
            elif extrapolate and not solved:
                # Where the secant point was taken the motion of the last two iterations is
                # stale: going on along it again cost time and solved fewer (docs/DECISIONS.md).
                before_secant = cost
                cost, solved = _secant(chain, target, settings, q, radius, cost, frames, error,
                                       best_q, best, inputs, outputs, recorded, secant_trial,
                                       trial_frames, trial_error)
            if extrapolate and iteration > 0 and not solved and not cost < before_secant:
                cost, solved = _extrapolate(chain, target, settings, q,
                                            back[1] if iteration >= 2 else back[0], radius,
                                            cost, frames, error, best_q, best, back[2],
                                            trial_frames, trial_error)
            if solved:
                break
            if iteration == 0:
                radius = settings[TRUST_REGION] * cost / chain.length_scale
                if attempts == 1:
                    warm_seed = cost < _WARM_SEED_COST * chain.length_scale
                # Told to the steps (start_gain): a start near its goal is not over-relaxed.
                settings[START_NEAR] = 1.0 if (
                    cost < _PLAIN_START_COST * chain.length_scale
                    or (warm_seed and attempts <= len(_NEAR_RESTART_RADII) + 1)) else 0.0
            if cost < stall_reference * (1.0 - _STALL_DECREASE):
                stall_reference, since_decrease = cost, 0
            else:
                since_decrease += 1
            # Progress per step has slowed: the polish's quadratic steps do the rest faster.
            slowed = cost > handoff_ratio * previous or (
                warm_seed and not beyond_reach and attempts <= len(_NEAR_RESTART_RADII) + 1
                and iteration >= _WARM_HEURISTIC_ITERATIONS)
            previous = cost
            if ((polish and (near or slowed))
                    or iteration == iteration_cap
                    or since_decrease >= settings[STALL_ITERATIONS]
                    or (extrapolate and since_decrease >= far_stall
                        and cost > _FAR_STALL_COST * chain.length_scale)
                    or past_deadline(settings[DEADLINE])):
                break
            if extrapolate:
                back[1] = back[0]
                back[0] = q
            effective_goal(target, frames[-1], settings, error, goal)
            step(chain, target, goal, settings, options, q, frames, error, radius, memory)
            heuristic_steps += 1
            if secant_size > 0:
                recorded = record_iteration(back[0], q, inputs, outputs, recorded)
        handoff_cost = cost
        if not solved and polish:
            used, solved, cost = _finish(chain, target, settings, q, frames, error, best_q,
                                         best, cost)
            polish_steps += used
        if (best[0] < recorded * (1.0 - _IMPROVEMENT)
                and recorded - best[0] > _IMPROVEMENT_FLOOR * chain.length_scale):
            recorded, improved_at = best[0], attempts
        if solved:
            distance = settled_distance(best_q, seed, chain) if warm_seed else 0.0
            if distance <= _FAR_SOLUTION:
                status = STATUS_SUCCESS
                break
            # A far solution of a warm seed: keep the nearest such, look for a nearer one.
            if distance < fallback_distance:
                fallback[:] = best_q
                fallback_distance = distance
            if far_found_at == 0:
                far_found_at = attempts
            best[0] = math.inf
        late = past_deadline(settings[DEADLINE])
        out_of_starts = beyond_reach or attempts >= settings[MAX_ATTEMPTS]
        if (late or out_of_starts or (
                far_found_at > 0 and attempts - far_found_at >= _NEARER_SEARCH_STARTS)):
            if fallback_distance < math.inf:
                best_q[:] = fallback
                status = STATUS_SUCCESS
            elif out_of_starts:
                status = STATUS_NO_SOLUTION
            elif attempts >= 8 and attempts - improved_at >= attempts // 2:
                # Nothing better in the later half of the starts: more time would not help.
                status = STATUS_NO_SOLUTION
            break
        near = warm_seed and attempts <= len(_NEAR_RESTART_RADII)
        for i in range(count):
            if near:
                spread = _NEAR_RESTART_RADII[attempts - 1]
                if chain.joint_prismatic[i] != 0.0:
                    spread *= chain.length_scale
                q[i] = min(max(seed[i] + spread * (2.0 * _next_uniform(state) - 1.0),
                               chain.joint_limits[i, LIMIT_LOWER]),
                           chain.joint_limits[i, LIMIT_UPPER])
            else:
                q[i] = (chain.joint_limits[i, LIMIT_SAMPLE_LOW]
                        + chain.joint_limits[i, LIMIT_SAMPLE_WIDTH] * _next_uniform(state))

    q[:] = best_q
    settle_turns(q, seed, chain)
    # The errors reported are measured afresh on the very configuration returned.
    forward_frames(chain, q, frames)
    position_error, orientation_error = goal_residual(target, frames[-1], settings, error)
    _, met, _ = assess(target, settings, position_error, orientation_error, error)
    report[REPORT_STATUS] = status
    report[REPORT_ATTEMPTS] = attempts
    report[REPORT_HEURISTIC_ITERATIONS] = heuristic_steps
    report[REPORT_POLISH_ITERATIONS] = polish_steps
    report[REPORT_POSITION_ERROR] = position_error
    report[REPORT_ORIENTATION_ERROR] = orientation_error
    report[REPORT_MET] = 1.0 if met else 0.0
    report[REPORT_START_COST] = start_cost
    report[REPORT_HANDOFF_COST] = handoff_cost
    report[REPORT_FINAL_COST] = cost
