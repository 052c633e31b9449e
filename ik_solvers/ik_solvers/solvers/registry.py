# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Names of the available heuristics, mapped to their implementations.

Each heuristic lives in its own module; adding one means writing that module and one
``_register`` line below. A heuristic whose optional dependency is missing is left out of
:data:`SOLVERS` instead of breaking ``import ik_solvers``.
"""

from importlib import import_module
from typing import Dict, Iterable, Type

from ..exceptions import UnknownSolverError
from .base import Solver

__all__ = ['SOLVERS', 'SOLVER_CLASSES', 'check_solver_names', 'solver_class']

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


def check_solver_names(names: Iterable[str]) -> None:
    """
    Check that every name is a registered solver: the one check of solver names.

    :param names: Names asked for (a parameter, a request, a command line).
    :raises UnknownSolverError: If any is not registered; the message lists them all and
        the available ones.
    """
    unknown = [name for name in names if not isinstance(name, str) or name not in SOLVER_CLASSES]
    if unknown:
        raise UnknownSolverError('unknown solver%s %s; available: %s' % (
            's' if len(unknown) > 1 else '', ', '.join(repr(name) for name in unknown),
            ', '.join(SOLVERS)))


def solver_class(name: str) -> Type[Solver]:
    """
    Return the implementation registered under ``name``.

    :param name: One of :data:`SOLVERS`.
    :returns: The :class:`Solver` subclass.
    :raises UnknownSolverError: If no solver has that name.
    """
    # The common case in one look-up; solve() asks on every call.
    implementation = SOLVER_CLASSES.get(name) if isinstance(name, str) else None
    if implementation is None:
        check_solver_names([name])
    return implementation
