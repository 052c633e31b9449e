# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Names of the available heuristics, mapped to their implementations.

Each heuristic lives in its own module (see :mod:`ik_solvers.solvers.step_api`) and is handed
to the core by one call, :func:`register`: the package's own four by the ``_register`` lines
below, any other (a module of your own) by calling :func:`register` with its class. The batch
loop of :func:`ik_solvers.solve_batch` runs any registered search; nothing else is written by
hand. A heuristic whose optional dependency is missing is left out of :data:`SOLVERS` instead
of breaking ``import ik_solvers``.
"""

from importlib import import_module
from typing import Dict, Iterable, Iterator, Sequence, Type

from ..exceptions import InvalidSolverOptionError, UnknownSolverError
from .base import Solver

__all__ = ['SOLVERS', 'SOLVER_CLASSES', 'check_solver_names', 'register', 'solver_class']

SOLVER_CLASSES: Dict[str, Type[Solver]] = {}


def register(solver: Type[Solver]) -> Type[Solver]:
    """
    Make a heuristic available by its name to :func:`ik_solvers.solve` and every other entry.

    One call: the class names the heuristic (``name``), declares its options and carries its
    compiled ``search`` (its step bound to :func:`ik_solvers.solvers.step_api.run_search`);
    :func:`ik_solvers.solve`, :func:`ik_solvers.solve_batch`, ``solve_many``,
    :func:`ik_solvers.warm_up` and the node's ``solver`` parameter all take the name from then
    on. Registering the same class again does nothing.

    :param solver: a :class:`Solver` subclass.
    :returns: ``solver``, so that it can decorate the class.
    :raises InvalidSolverOptionError: ``solver`` is not a :class:`Solver` subclass with a name
        and a ``search``, or its name is taken by another class.
    """
    if not (isinstance(solver, type) and issubclass(solver, Solver)):
        raise InvalidSolverOptionError('register takes a Solver subclass, got %r' % (solver,))
    name = solver.name
    if not isinstance(name, str) or not name.isidentifier() or not callable(
            getattr(solver, 'search', None)):
        raise InvalidSolverOptionError('%s needs a name (an identifier) and a compiled search'
                                       % solver.__name__)
    taken = SOLVER_CLASSES.get(name)
    if taken is not None and taken is not solver:
        raise InvalidSolverOptionError('the solver name %r is taken by %s'
                                       % (name, taken.__name__))
    SOLVER_CLASSES[name] = solver
    return solver


class _Names(Sequence):
    """The registered names, in order of registration: a live, read-only sequence."""

    def __getitem__(self, index):
        return tuple(SOLVER_CLASSES)[index]

    def __len__(self) -> int:
        return len(SOLVER_CLASSES)

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(SOLVER_CLASSES))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in SOLVER_CLASSES

    def __repr__(self) -> str:
        return repr(tuple(SOLVER_CLASSES))


def _register(module_name: str, class_name: str) -> None:
    try:
        module = import_module('.' + module_name, __package__)
    except ModuleNotFoundError as error:
        # A missing optional dependency makes the solver unavailable; a missing module of
        # this package is a bug and must show.
        if (error.name or '').split('.')[0] == __package__.split('.')[0]:
            raise
        return
    register(getattr(module, class_name))


_register('ccd', 'CCDSolver')
_register('fabrik', 'FABRIKSolver')
_register('jacobian_transpose', 'JacobianTransposeSolver')
_register('length_relaxation', 'LengthRelaxationSolver')

#: Names of the available solvers, in order of registration (the package's four first); a
#: read-only sequence that follows :func:`register`, so ``name in SOLVERS`` holds for a
#: heuristic registered later.
SOLVERS: Sequence[str] = _Names()


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
