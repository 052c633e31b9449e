# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A collision-free route between two configurations, planned by OMPL (its Python bindings).

Where the straight joint-space motion to a solution collides, the node asks OMPL's RRT-Connect
(the default planner of MoveIt's OMPL pipeline) for a route within a time budget. The state
validity checker is the project's exact collision check (and the joint limits); the motion
validator is the swept check (:class:`ik_solvers.collision.sweep.SweptCheck`) at its own
resolution, so every edge OMPL keeps, and the shortcuts of its path simplifier, are checked as
densely as the node's other motions. No planning happens here beyond calling OMPL.
"""

import math
import threading
from typing import Optional, Sequence

import numpy as np

from ..collision.sweep import SweptCheck

__all__ = ['DENSE_STEP', 'PLANNING_STEP', 'route']

#: m, the farthest any point of the robot moves between two checks while OMPL explores.
PLANNING_STEP = 0.03
#: rad or m: the route's straight segments are cut into pieces no joint moves more along, so
#: that the timing's spline through the points stays close to the checked polyline.
DENSE_STEP = 0.05
# rad (the joint-space distance), the longest edge RRT-Connect adds at once.
_RANGE = 1.0
# A continuous joint (no limits) may wander this far past both ends, rad.
_FREE_MARGIN = math.pi
# s the path simplifier may take at most (it uses the whole of the time it is given).
_SIMPLIFY_TIME = 0.3
# OMPL's planner and its log level are process-wide: one plan at a time.
_LOCK = threading.Lock()


def _ompl():
    """Import OMPL once it is needed: the node without obstacles in the way never loads it."""
    from ompl import base, geometric, util
    util.setLogLevel(util.LogLevel.LOG_WARN)
    return base, geometric


def route(sweep: SweptCheck, start: Sequence[float], goal: Sequence[float], *,
          lower: Sequence[float], upper: Sequence[float],
          budget: float, other_goals: Sequence[Sequence[float]] = ()) -> Optional[np.ndarray]:
    """
    Plan a collision-free joint-space route from ``start`` to ``goal`` (or another goal).

    :param sweep: The swept check (its model is the validity checker).
    :param start: (N,) where the motion starts, rad or m; assumed collision-free.
    :param goal: (N,) the goal; assumed collision-free and within the limits.
    :param other_goals: (N,) each, other solutions of the same pose, as valid: OMPL stops at
        whichever it reaches first (an arm whose elbow turns more than a full turn may start
        on one side of its folded pose and the first solution lie on the other, out of reach
        without a collision, while another solution lies on its side).
    :param lower: (N,) joint limits (``-inf`` for a continuous joint).
    :param upper: (N,) joint limits (``inf`` for a continuous joint).
    :param budget: s for OMPL's planner; its simplifier gets at most 0.3 s more.
    :returns: (K, N) configurations from ``start`` to one of the goals (its last row is that
        goal, exactly as given), no joint moving more than
        :data:`DENSE_STEP` between two rows, every segment swept-checked at the full
        resolution; ``None`` when OMPL found no exact solution within the budget, or the one it
        found fails the full check.
    """
    base, geometric = _ompl()
    start = np.asarray(start, dtype=float)
    goal = np.asarray(goal, dtype=float)
    count = start.size
    goals = [goal] + [np.asarray(other, dtype=float) for other in other_goals]
    low = np.where(np.isfinite(lower), lower, np.minimum.reduce([start] + goals) - _FREE_MARGIN)
    high = np.where(np.isfinite(upper), upper,
                    np.maximum.reduce([start] + goals) + _FREE_MARGIN)
    # A start a hair outside its limits (joint states rounding) must not be refused by OMPL.
    low, high = np.minimum(low, start), np.maximum(high, start)
    space = base.RealVectorStateSpace(count)
    bounds = base.RealVectorBounds(count)
    for i in range(count):
        bounds.setLow(i, float(low[i]))
        bounds.setHigh(i, float(high[i]))
    space.setBounds(bounds)
    information = base.SpaceInformation(space)
    check = sweep.model.check
    # OMPL explores with a coarser look at its edges (its own checks are most of the time);
    # the route it returns is checked again at the full resolution before it is kept.
    coarse = SweptCheck(sweep.model, step=max(sweep.step, PLANNING_STEP))

    def vector(state) -> np.ndarray:
        return np.array([state[i] for i in range(count)])

    def valid(state) -> bool:
        q = vector(state)
        return bool(np.all(q >= low) and np.all(q <= high)
                    and not check(q, stop_at_first=True).colliding)

    class _SweptMotion(base.MotionValidator):
        """OMPL's motion validator: the swept check of the segment, its end included."""

        def checkMotion(self, first, second, *rest) -> bool:  # noqa: N802 - OMPL's name
            end = vector(second)
            if not valid(second):
                return False
            return coarse.check_motion(vector(first), end) is None

    information.setStateValidityChecker(valid)
    validator = _SweptMotion(information)
    information.setMotionValidator(validator)
    information.setup()
    problem = base.ProblemDefinition(information)
    begin = space.allocState()
    for i in range(count):
        begin[i] = float(start[i])
    problem.addStartState(begin)
    targets = base.GoalStates(information)
    for row in goals:
        end = space.allocState()
        for i in range(count):
            end[i] = float(row[i])
        targets.addState(end)
    problem.setGoal(targets)
    planner = geometric.RRTConnect(information)
    # Short edges: a long edge through joint space is mostly refused, after many checks.
    planner.setRange(_RANGE)
    planner.setProblemDefinition(problem)
    planner.setup()
    with _LOCK:
        planner.solve(float(budget))
        if not problem.hasExactSolution():
            return None
        path = problem.getSolutionPath()
        geometric.PathSimplifier(information).simplify(path, min(_SIMPLIFY_TIME, float(budget)))
        states = np.array([vector(path.getState(k)) for k in range(path.getStateCount())])
    # The goal reached, exactly as given (OMPL's copy of it may differ in the last bit).
    states[0] = start
    states[-1] = min(goals, key=lambda row: float(np.max(np.abs(row - states[-1]))))
    dense = _dense(states)
    return dense if sweep.check_path(dense) is None else None


def _dense(states: np.ndarray) -> np.ndarray:
    rows = [states[0]]
    for a, b in zip(states[:-1], states[1:]):
        pieces = max(1, int(math.ceil(float(np.max(np.abs(b - a))) / DENSE_STEP)))
        rows.extend(a + (b - a) * (k / pieces) for k in range(1, pieces + 1))
    return np.array(rows)
