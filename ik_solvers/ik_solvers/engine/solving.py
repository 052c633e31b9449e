# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Stage 2: solve the aimed target, put the solution on the turn nearest the start, prefer.

``solve()`` checks the numbers it is given; its exceptions are mapped to error codes by the
engine (:func:`.refusal.refusal_for`), not anticipated here.
"""

import dataclasses
from dataclasses import dataclass
from typing import Callable, Tuple

import numpy as np

from .aim import Aim
from .approximate_tracking import accepts_approximate, exact_search_budget
from .outcome import IKRequest
from .placement import Placement
from .preferred import preferred_solutions
from .request_checks import CheckedRequest
from .settings import NodeSettings
from ..solvers import IKResult
from ..solvers.solve import nearest_turn

__all__ = ['SolveFunction', 'Solved', 'solve_aim']

#: ``solve(chain, target, **arguments) -> IKResult``, as :func:`ik_solvers.solve`.
SolveFunction = Callable[..., IKResult]


@dataclass(frozen=True)
class Solved:
    """Stage 2: the solution on the turn nearest the start, and the others wanted."""

    #: (4, 4) the target in the chain's base frame; finite (solve() refuses any other).
    target: np.ndarray
    result: IKResult
    solutions: Tuple[np.ndarray, ...]
    #: (4, 4) the tip pose of ``result.q`` by FK.
    reached: np.ndarray
    #: Whether approximate tracking may answer the request.
    approximate: bool


def solve_aim(request: IKRequest, settings: NodeSettings, checked: CheckedRequest,
              placement: Placement, aim: Aim, solve_function: SolveFunction) -> Solved:
    """
    Solve the aim, within the budget approximate tracking leaves, and apply the preference.

    :param request: The request (whether it accepts an approximate answer, its preference).
    :param settings: The node's parameters.
    :param checked: The request's checked inputs (goal, options, timeout in s).
    :param placement: Where the robot is (the chain, the start, the collision model).
    :param aim: The target in the base frame and the seed.
    :param solve_function: Solves one target, as :func:`ik_solvers.solve`.
    :returns: The solution and the other solutions the preference found.
    :raises IKError: What ``solve()`` raises.
    """
    chain, start = placement.chain, placement.start
    approximate = accepts_approximate(request, settings)
    budget = exact_search_budget(request, approximate, checked.timeout)
    result = solve_function(chain, aim.target, seed=aim.seed, goal=checked.goal,
                            options=dataclasses.replace(checked.options, **budget),
                            collision=placement.collision)
    # The one place a solution is put on the turn of each joint nearest where the command
    # starts: the report, the judges and the command all use this configuration.
    result = dataclasses.replace(result, q=nearest_turn(result.q, start, chain))
    solutions: Tuple[np.ndarray, ...] = ()
    if result.success:  # several solutions, a preference: docs/solutions.md
        result, solutions = preferred_solutions(
            chain, aim.target, result, request, settings, seed=aim.seed, start=start,
            last=aim.last, timeout=checked.timeout, collision=placement.collision,
            goal=checked.goal, options=checked.options)
    reached = np.asarray(chain.fk(result.q), dtype=float).copy()
    return Solved(target=aim.target, result=result, solutions=solutions, reached=reached,
                  approximate=approximate)
