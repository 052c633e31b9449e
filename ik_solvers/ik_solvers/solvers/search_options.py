# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The options of a search besides its goal, checked and packed once for every entry point.

:func:`ik_solvers.solve` and :class:`ik_solvers.solvers.prepared.PreparedSolver` take the same
step counts, orientation weight and solver options; both check them here, and both get their
settings array from the same cache. :func:`ik_solvers.approach` shares the orientation weight.
"""

from typing import Any, Dict, Optional, Tuple

import numpy as np

from ..exceptions import InvalidSolverOptionError
from .base import Solver
from .goal_options import GoalOptions, is_positive_number
from .layout import FINISHER_ITERATIONS, MAX_ATTEMPTS

__all__ = ['ORIENTATION_WEIGHT_PER_LENGTH', 'check_counts', 'checked_orientation_weight',
           'heuristic_and_options', 'search_settings']

#: An orientation error of 1 rad weighs as much as this fraction of the chain's length.
ORIENTATION_WEIGHT_PER_LENGTH = 0.2
# Solvers built without options, kept: building one checks every option each time.
_DEFAULT_SOLVERS: Dict[type, Solver] = {}
# Settings arrays but for the deadline, by everything they are made of: filling one costs
# microseconds, a look-up a fraction of one.
_SETTINGS: Dict[tuple, np.ndarray] = {}
_SETTINGS_CAPACITY = 256


def _is_count(value: Any) -> bool:
    return (not isinstance(value, bool) and isinstance(value, (int, np.integer))
            and value >= 1)


def check_counts(polish_iterations: Any, max_attempts: Any) -> None:
    """
    Check the finisher's step cap and the cap on starts.

    :param polish_iterations: finisher steps per start, a positive integer.
    :param max_attempts: starts per search, a positive integer or None (no cap).
    :raises InvalidSolverOptionError: either is out of range or not an integer.
    """
    if not _is_count(polish_iterations):
        raise InvalidSolverOptionError('polish_iterations must be a positive integer, got %r'
                                       % (polish_iterations,))
    if max_attempts is not None and not _is_count(max_attempts):
        raise InvalidSolverOptionError('max_attempts must be None or a positive integer, '
                                       'got %r' % (max_attempts,))


def checked_orientation_weight(chain, weight: Any) -> float:
    """
    Check an orientation weight given as an option, or give the chain's default.

    :param chain: the chain; the default is :data:`ORIENTATION_WEIGHT_PER_LENGTH` times its
        length scale.
    :param weight: m per rad, or None for the default.
    :returns: The weight, m per rad.
    :raises InvalidSolverOptionError: ``weight`` is not None nor a finite positive number.
    """
    if weight is None:
        return ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale
    if not is_positive_number(weight):
        raise InvalidSolverOptionError('orientation_weight must be a finite positive number, '
                                       'got %r' % (weight,))
    return float(weight)


def heuristic_and_options(implementation: type, chain,
                          solver_options: Dict[str, Any]) -> Tuple[Solver, np.ndarray]:
    """
    Build the heuristic with its options (kept when there are none) and pack them.

    :raises InvalidSolverOptionError: an option is unknown, out of range, or does not fit the
        chain.
    """
    if solver_options:
        heuristic = implementation(**solver_options)
    else:
        heuristic = _DEFAULT_SOLVERS.get(implementation)
        if heuristic is None:
            heuristic = _DEFAULT_SOLVERS[implementation] = implementation()
    return heuristic, heuristic.packed_options(chain)


def search_settings(heuristic: Solver, finisher: bool, goal: GoalOptions,
                    orientation_weight: float, polish_iterations: int,
                    max_attempts: Optional[int]) -> np.ndarray:
    """
    Return the settings array of a search, but for its deadline (a shared array: copy it).

    :param heuristic: the heuristic, for its own settings and hand-over errors.
    :param finisher: whether the finisher runs.
    :param goal: the checked goal.
    :param orientation_weight: m per rad.
    :param polish_iterations: finisher steps per start.
    :param max_attempts: cap on starts, or None.
    :returns: (SETTINGS_SIZE,) float array, see :mod:`.layout`.
    """
    key = (heuristic, finisher, goal, orientation_weight, polish_iterations, max_attempts)
    settings = _SETTINGS.get(key)
    if settings is None:
        settings = heuristic.settings_template(finisher).copy()
        goal.pack(settings, orientation_weight, 0.0, heuristic.handoff_position_tolerance,
                  heuristic.handoff_orientation_tolerance)
        if finisher:
            settings[FINISHER_ITERATIONS] = polish_iterations
        if max_attempts is not None:
            settings[MAX_ATTEMPTS] = max_attempts
        if len(_SETTINGS) >= _SETTINGS_CAPACITY:
            _SETTINGS.clear()
        _SETTINGS[key] = settings
    return settings
