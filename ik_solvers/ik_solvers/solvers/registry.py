# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Names of the available heuristics, mapped to their implementations.

Each heuristic lives in its own module; adding one means writing that module and one
``_register`` line below. A heuristic whose optional dependency is missing is left out of
:data:`SOLVERS` instead of breaking ``import ik_solvers``.
"""

from importlib import import_module
from typing import Dict, Type

from ..exceptions import UnknownSolverError
from .base import Solver

__all__ = ['SOLVERS', 'SOLVER_CLASSES', 'solver_class']

SOLVER_CLASSES: Dict[str, Type[Solver]] = {}


def _register(module_name: str, class_name: str) -> None:
    try:
        module = import_module('.' + module_name, __package__)
    except ModuleNotFoundError as error:
        # A missing optional dependency makes the solver unavailable; a missing module of
        # this package is a bug and must show.
        if (error.name or '').split('.')[0] == __package__.split('.')[0]:
            raise
        return
    solver = getattr(module, class_name)
    SOLVER_CLASSES[solver.name] = solver


_register('ccd', 'CCDSolver')
_register('fabrik', 'FABRIKSolver')
_register('jacobian_transpose', 'JacobianTransposeSolver')
_register('length_relaxation', 'LengthRelaxationSolver')

#: Names of the available solvers, in a fixed order; supports ``name in SOLVERS``.
SOLVERS = tuple(SOLVER_CLASSES)


def solver_class(name: str) -> Type[Solver]:
    """
    Return the implementation registered under ``name``.

    :raises UnknownSolverError: no solver has that name.
    """
    try:
        return SOLVER_CLASSES[name]
    except (KeyError, TypeError):
        raise UnknownSolverError('unknown solver %r; available: %s'
                                 % (name, ', '.join(SOLVERS))) from None
