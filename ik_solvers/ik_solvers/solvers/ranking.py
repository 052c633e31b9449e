# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The last stage of :func:`.solutions.solve_many`: each solution on its best turn, then climbed.

**Turn copies.** A joint whose limits span more than a turn (or a continuous one) reaches the
same pose a whole turn away; every in-limit copy of every solution is weighed by the
preference (:meth:`ik_solvers.preferences.Preference.best_turn`), before and after the climb.

**Climb, and when it stops** (a redundant chain only). Each solution can move along its
self-motion toward what the preference wants (:mod:`.null_space`); that climb costs far more
than the search that found the solution. Solutions are climbed best first. A climb that ends
no better than the best climbed so far, or that ends on it, is a *miss*: the solution lay on
the self-motion of a branch already climbed, or on a branch whose optimum is worse. After
:data:`CLIMB_CLOSURE` misses in a row the remaining solutions, each scoring below the ones
already climbed, are kept as found: the branches are closed under the climb, as the search's
``closure_starts`` rule closes them under the flips. A solution at the preference's
:meth:`~ik_solvers.preferences.Preference.upper_bound` is never climbed, and once the best
reaches it nothing is (no climb can beat it).
"""

from typing import Any, List, Mapping, Optional

import numpy as np

from .null_space import null_space_improve
from .request import Goal
from .result import IKResult
from .status import Status

__all__ = ['CLIMB_CLOSURE', 'CLIMB_STOP_GAIN', 'at_bound', 'climbed', 'goal_fields', 'moved',
           'on_best_turns']

#: Climbs in a row that end no better than the best climbed (a known branch's optimum, or a
#: worse one) before the rest are kept unclimbed.
CLIMB_CLOSURE = 2
#: A climb ends once a step gains, or is expected to gain, less than this share of the score
#: (:func:`.null_space.null_space_improve`'s ``stop_gain``): solutions whose scores differ by
#: more rank the same whether it goes on or not.
CLIMB_STOP_GAIN = 1e-3
# A climb beats the best when it scores higher by more than this share of |best| + 1e-9.
_GAIN = 1e-6
# A score this close to the upper bound (relative) counts as at it.
_AT_BOUND = 1e-9


def moved(result: IKResult, q: np.ndarray, position_error: Optional[float] = None,
          orientation_error: Optional[float] = None) -> IKResult:
    """Return ``result`` with another configuration of the same (or the given) errors."""
    return IKResult(q=q, success=True,
                    position_error=(result.position_error if position_error is None
                                    else position_error),
                    orientation_error=(result.orientation_error if orientation_error is None
                                       else orientation_error),
                    iterations=result.iterations, elapsed=result.elapsed,
                    status=Status.SUCCESS, solver=result.solver, attempts=result.attempts,
                    polished=result.polished, collision_checked=result.collision_checked,
                    unchecked_links=result.unchecked_links, costs=result.costs)


def goal_fields(goal: Optional[Goal], solve_options: Mapping[str, Any]) -> Mapping[str, Any]:
    """Return the goal's fields the null-space steps read, by their ``solve()`` names."""
    if goal is None:
        return solve_options
    return dict(orientation_mode=goal.mode, position_bounds=goal.position_bounds,
                rotation_bounds=goal.rotation_bounds,
                position_tolerance=goal.position_tolerance,
                orientation_tolerance=goal.orientation_tolerance)


def at_bound(ranking, score: float) -> bool:
    """Return whether ``score`` reaches ``ranking``'s upper bound (nothing can beat it)."""
    bound = ranking.upper_bound()
    return bool(np.isfinite(bound) and score >= bound - _AT_BOUND * (abs(bound) + 1.0))


def on_best_turns(found: List[IKResult], ranking) -> List[IKResult]:
    """Return each solution on its best-scoring in-limit turn copy."""
    result = []
    for item in found:
        q = ranking.best_turn(item.q)
        result.append(item if np.array_equal(q, item.q) else moved(item, q))
    return result


def _climbable(chain, fields: Mapping[str, Any]) -> Optional[bool]:
    """Return position_only when a climb can run (more joints than rows), else None."""
    position_only = (bool(fields.get('position_only'))
                     or fields.get('orientation_mode') == 'none')
    if (chain.num_joints <= (3 if position_only else 6)
            or fields.get('orientation_mode') == 'axis'
            or fields.get('position_bounds') is not None
            or fields.get('rotation_bounds') is not None):
        return None
    return position_only


def climbed(chain, target: np.ndarray, found: List[IKResult], ranking, distinct, *,
            deadline: float, enabled: bool, steps: int, collision,
            fields: Mapping[str, Any]) -> List[IKResult]:
    """
    Return ``found`` on their best turns, climbed by the rule of the module, met ones once.

    :param distinct: ``distinct(q, others)``: whether ``q`` differs from every one of
        ``others`` (the caller's distinctness rule).
    :param deadline: ``time.perf_counter()`` value after which no climb step starts.
    :param enabled: whether to climb at all (the preference has a gradient, the caller asks).
    :param steps: cap on null-space steps per solution.
    :param fields: the goal's fields by their ``solve()`` names (:func:`goal_fields`).
    """
    found = on_best_turns(found, ranking)
    position_only = _climbable(chain, fields) if enabled else None
    if position_only is None or not found:
        return found
    tolerances = dict(position_tolerance=fields.get('position_tolerance', 1e-5),
                      orientation_tolerance=fields.get('orientation_tolerance', 1e-5))
    target = np.asarray(target, dtype=float)
    kept: List[IKResult] = []
    best: Optional[float] = None
    misses = 0
    for result in sorted(found, key=lambda item: -ranking.score(item.q)):
        start = ranking.score(result.q)
        if misses >= CLIMB_CLOSURE or at_bound(ranking, start) or (
                best is not None and at_bound(ranking, best)):
            if distinct(result.q, [other.q for other in kept]):
                kept.append(result)
            continue
        outcome = null_space_improve(chain, result.q, target, ranking,
                                     position_only=position_only, max_steps=steps,
                                     deadline=deadline, stop_gain=CLIMB_STOP_GAIN,
                                     **tolerances)
        candidate = result
        if outcome.steps and chain.within_limits(outcome.q) and (
                collision is None
                or not collision.check(outcome.q, stop_at_first=True).colliding):
            q = ranking.best_turn(outcome.q)
            candidate = moved(result, q, outcome.position_error, outcome.orientation_error)
        score = ranking.score(candidate.q)
        new = distinct(candidate.q, [other.q for other in kept])
        if new and (best is None or score > best + _GAIN * (abs(best) + 1e-9)):
            best, misses = score, 0
        else:
            misses += 1
        if new:
            kept.append(candidate)
    return kept
