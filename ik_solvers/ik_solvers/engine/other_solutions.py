# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Other solutions of a one-shot goal, for when the straight motion to the first one collides.

A 6-joint arm reaches most poses in up to eight ways (shoulder, elbow and wrist branches), a
redundant arm in a continuum of them. The solver returns the one its seed leads to, and the
straight joint-space motion there may fold the arm into itself while another branch is one free
straight motion away. Before OMPL is asked for a route (seconds, and it may find none), the
engine asks the solver for other solutions from spread seeds (about a millisecond each); every
judge must accept each, as it accepts the first. The caller takes the nearest whose straight
motion is free (:meth:`ik_solvers.engine.pipeline.IKEngine`).

The seeds are the same every time (a fixed generator): the same request gives the same answer.
"""

import dataclasses
import time
from typing import Callable, List, Sequence

import numpy as np

from .candidate import Candidate
from .error_codes import ErrorCode
from .judges import first_refusal, Judge
from ..collision.sweep import SweptCheck
from ..solvers import SearchOptions
from ..solvers.solve import nearest_turn

__all__ = ['OTHER_SEEDS', 'OTHER_SOLUTIONS_BUDGET', 'other_solutions']

#: Seeds tried at most: with eight branches of a 6-joint arm, 24 random seeds miss a branch of
#: a reachable pose rarely.
OTHER_SEEDS = 24
#: s all the solves may take together (each is given at most a tenth of it).
OTHER_SOLUTIONS_BUDGET = 0.25
# rad or m: two solutions closer than this in every joint are the same one.
_SAME = 1e-3


def other_solutions(candidate: Candidate, solve_function: Callable, judges: Sequence[Judge], *,
                    seeds: int = OTHER_SEEDS,
                    budget: float = OTHER_SOLUTIONS_BUDGET) -> List[Candidate]:
    """
    Find other accepted solutions of the candidate's target, nearest (by sweep) first.

    :param candidate: An accepted one-shot candidate whose straight motion collides.
    :param solve_function: ``solve(chain, target, seed=, goal=, options=, collision=)``, as
        the engine solves.
    :param judges: The engine's judges; a solution any of them refuses is left out.
    :param seeds: Seeds tried at most.
    :param budget: s for all of them.
    :returns: Distinct solutions other than ``candidate.q``, on the turn nearest the start,
        ordered by how far the robot's points move on the straight line from the start
        (:meth:`ik_solvers.collision.sweep.SweptCheck.sweep_length`); empty without a
        collision model.
    """
    if candidate.collision is None or candidate.claim != ErrorCode.SUCCESS:
        return []
    chain, start = candidate.chain, np.asarray(candidate.start, dtype=float)
    sweep = SweptCheck(candidate.collision)
    rng = np.random.default_rng(0)
    deadline = time.monotonic() + budget
    known = [np.asarray(candidate.q, dtype=float)]
    found: List[Candidate] = []
    for _ in range(seeds):
        left = deadline - time.monotonic()
        if left <= 0.0:
            break
        options = SearchOptions(solver=candidate.solver, timeout=min(left, budget / 10.0),
                                max_attempts=1)
        result = solve_function(chain, candidate.target, seed=chain.random_configuration(rng),
                                goal=candidate.goal, options=options,
                                collision=candidate.collision)
        if not result.success:
            continue
        q = nearest_turn(result.q, start, chain)
        if any(float(np.max(np.abs(q - other))) < _SAME for other in known):
            continue
        known.append(q)
        other = dataclasses.replace(
            candidate, q=q, reached=np.asarray(chain.fk(q), dtype=float).copy(),
            result=dataclasses.replace(result, q=q))
        if first_refusal(judges, other) is None:
            found.append(other)
    return sorted(found, key=lambda other: sweep.sweep_length(start, other.q))
