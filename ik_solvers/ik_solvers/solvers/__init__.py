# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Inverse kinematics heuristics behind one entry point, :func:`solve`.

Each heuristic is a :class:`Solver` in its own module, registered by name in
:mod:`ik_solvers.solvers.registry` (:func:`register` adds one of your own, see
:mod:`ik_solvers.solvers.step_api`); :data:`SOLVERS` lists the available names.
"""

from ..exceptions import InvalidSolverOptionError
from .approximate import approach
from .base import Solver
from .batch import BatchResult, solve_batch
from ._core.collision_avoidance import CollisionCheck, CollisionFinding
from .registry import check_solver_names, register, SOLVERS, solver_class
from .prepared import PreparedSolver
from .request import Goal, ORIENTATION_MODES, SearchOptions
from .result import IKResult
from .solve import solve
from .status import Status
from .tuning import SearchTuning
from .warm_up import warm_up

__all__ = [
    'BatchResult',
    'CollisionCheck',
    'CollisionFinding',
    'Goal',
    'IKResult',
    'InvalidSolverOptionError',
    'ORIENTATION_MODES',
    'PreparedSolver',
    'SOLVERS',
    'SearchOptions',
    'SearchTuning',
    'Solver',
    'Status',
    'approach',
    'check_solver_names',
    'register',
    'solve',
    'solve_batch',
    'solver_class',
    'warm_up',
]
