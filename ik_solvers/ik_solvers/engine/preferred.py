# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The node's hook into several solutions and preferences, after the normal search succeeded.

A one-shot request that asks for several solutions, or names a preference other than
``nearest``, gets :func:`ik_solvers.solvers.solutions.solve_many` with the search's own result
as the first solution and what is left of its timeout: the answer is the best solution by the
preference, and the outcome lists every one. A streamed target keeps its continuity: its
solution stays the one found from the last command, and only a null-space step of the
preference (a redundant arm) may move it, by at most ``max_joint_jump`` from the last command
and never out of the tolerances, so a closed loop of goals returns to where it started.
"""

from typing import Optional, Tuple

import numpy as np

from .outcome import IKRequest
from .settings import NodeSettings
from ..preferences import make_preference
from ..solvers import Goal, IKResult, SearchOptions
from ..solvers.null_space import null_space_improve
from ..solvers.solutions import solve_many
from ..solvers.solve import nearest_turn

__all__ = ['preferred_solutions']

# Null-space steps per streamed goal: a drag sends a goal every few milliseconds, so each
# goal takes a few steps and the next goal continues the climb.
_STREAMED_STEPS = 4
# Smallest time left for the further searches of a one-shot request, s.
_SMALLEST_BUDGET = 1e-3


def preferred_solutions(chain, target: np.ndarray, result: IKResult, request: IKRequest,
                        settings: NodeSettings, *, seed: np.ndarray, start: np.ndarray,
                        last: Optional[np.ndarray], timeout: float, collision, goal: Goal,
                        options: SearchOptions) -> Tuple[IKResult, Tuple[np.ndarray, ...]]:
    """
    Return the preferred solution and, for a request of several, all of them (best first).

    :param result: the search's successful result, on the turn nearest ``start``.
    :param seed: the search's seed; ``start``: where the chain is (rad or m); ``last``: the
        last command of a streamed target, or None.
    :param timeout: the request's timeout, s; the further searches get what is left of it.
    :param collision: the request's collision model, or None.
    :param goal: the search's goal; ``options``: its search options (the solver).
    :raises InvalidSolverOptionError: an unknown preference or a bad rest posture.
    """
    name = request.preference or settings.preference
    wanted = max(1, int(request.max_solutions))
    # The request's rest posture, else the node's parameter, else the middle of the limits.
    rest_values = request.rest_posture if len(request.rest_posture) else settings.rest_posture
    rest = np.asarray(rest_values, dtype=float) if len(rest_values) else None
    if request.streamed:
        if name == 'nearest':
            return result, ()
        ranking = make_preference(name, chain, seed=seed, rest_posture=rest,
                                  collision=collision)
        position_only = goal.mode == 'none'
        if not ranking.has_gradient or chain.num_joints <= (3 if position_only else 6) \
                or goal.mode == 'axis' or goal.position_bounds is not None \
                or goal.rotation_bounds is not None:
            return result, ()
        anchor = start if last is None else last
        tolerances = dict(position_tolerance=goal.position_tolerance,
                          orientation_tolerance=goal.orientation_tolerance)
        q, outcome = result.q, None
        if np.max(np.abs(q - anchor)) > settings.max_joint_jump:
            # The search's answer left the step bound: back toward the last command along the
            # self-motion first (a rest posture at the last command), then the preference.
            back = make_preference('rest_posture', chain, rest_posture=anchor)
            outcome = null_space_improve(chain, q, target, back, position_only=position_only,
                                         max_steps=2 * _STREAMED_STEPS, **tolerances)
            q = outcome.q
        moved = null_space_improve(
            chain, q, target, ranking, position_only=position_only,
            max_steps=_STREAMED_STEPS, max_change=settings.max_joint_jump, anchor=anchor,
            **tolerances)
        if not moved.steps:
            moved = outcome  # the way back alone, or nothing
        if moved is None or not moved.steps or not chain.within_limits(moved.q) or (
                collision is not None
                and collision.check(moved.q, stop_at_first=True).colliding):
            return result, ()
        return _with(result, moved.q, moved.position_error, moved.orientation_error), ()
    if wanted == 1 and name == 'nearest':
        return result, ()
    answer = solve_many(chain, target, max_solutions=wanted, preference=name,
                        rest_posture=rest, seed=seed, first=result,
                        timeout=max(timeout - result.elapsed, _SMALLEST_BUDGET),
                        collision=collision, goal=goal, options=options)
    if not answer.success:
        return result, ()
    # A preference's solutions come on the whole turn it scores best (solve_many weighs every
    # in-limit copy); only nearest's are put on the turn nearest the start.
    turned = [nearest_turn(item.q, start, chain) if name == 'nearest' else item.q
              for item in answer.results]
    best = answer.results[0]
    return (_with(best, turned[0], best.position_error, best.orientation_error),
            tuple(turned) if wanted > 1 else ())


def _with(result: IKResult, q: np.ndarray, position_error: float,
          orientation_error: float) -> IKResult:
    return IKResult(q=q, success=True, position_error=float(position_error),
                    orientation_error=float(orientation_error), iterations=result.iterations,
                    elapsed=result.elapsed, status=result.status, solver=result.solver,
                    attempts=result.attempts, polished=result.polished,
                    collision_checked=result.collision_checked,
                    unchecked_links=result.unchecked_links, costs=result.costs)
