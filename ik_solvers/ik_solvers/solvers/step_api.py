# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What a heuristic's compiled step may use: the one documented door into the private core.

A heuristic (in this package or outside it) is one module: a compiled ``step``, a compiled
``search`` binding it to :func:`run_search`, and a :class:`ik_solvers.solvers.base.Solver`
subclass; :func:`ik_solvers.solvers.registry.register` hands it to the core in one call (the
batch loop of :func:`ik_solvers.solve_batch` needs nothing more). The step has ten parameters::

    @compiled
    def step(chain, target, goal, settings, options, q, frames, error, radius, memory):
        ...  # improve q in place

    @compiled
    def search(chain, target, settings, options, q, report):
        run_search(step, chain, target, settings, options, q, report)

``goal`` is the pose the step aims at (:func:`effective_goal`), ``frames`` and ``error`` the
forward kinematics of ``q`` and its residual (:func:`goal_residual`), ``radius`` the trust
region (rad), ``memory`` a zeroed (max(N, 6), :data:`STEP_MEMORY_COLUMNS`) array. The step
reads the goal and the settings only through the kernels below, never a slot of ``settings``;
``options`` is what its solver class packed. The settings of a goal, for calling the kernels
outside a search (tests, measurements), come from :func:`search_settings`.
"""

from typing import Optional, TYPE_CHECKING

import numpy as np

from ._core.extrapolation import evaluate
from ._core.polish import damped_rows
from ._core.goal_kernels import (
    assess,
    effective_goal,
    goal_residual,
    ignores_orientation,
    orientation_vectors,
    weighted_system,
)
from ._core.pack import pack, pack_goal
from ._core.search import (
    may_extrapolate,
    relaxation_gain,
    run_search,
    start_gain,
    STEP_MEMORY_COLUMNS,
)

if TYPE_CHECKING:  # request.py imports the registry, which imports the heuristics
    from .request import Goal, SearchOptions

__all__ = [
    'STEP_MEMORY_COLUMNS',
    'assess',
    'damped_rows',
    'effective_goal',
    'evaluate',
    'goal_residual',
    'ignores_orientation',
    'may_extrapolate',
    'orientation_vectors',
    'relaxation_gain',
    'run_search',
    'search_settings',
    'start_gain',
    'weighted_system',
]


def search_settings(chain, goal: 'Goal', options: Optional['SearchOptions'] = None) -> np.ndarray:
    """
    Return the settings array a search of ``goal`` reads, as a prepared solver packs it.

    :param chain: the :class:`ik_solvers.Chain` (its length scales the orientation weight).
    :param goal: the checked goal.
    :param options: the search options; None packs the goal alone (the settings the
        least-squares kernels read: no caps, no hand-over).
    :returns: A new writeable C-contiguous float64 array; its deadline is 0.
    """
    from .request import SearchOptions  # see the import above
    if options is None:
        return pack_goal(goal, SearchOptions().orientation_weight(chain), 0.0)
    return pack(goal, options.heuristic, polish=options.runs_polish,
                orientation_weight=options.orientation_weight(chain),
                polish_iterations=options.polish_iterations, max_attempts=options.max_attempts,
                tuning=options.tuning)
