# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The one pack of a goal and search options into a settings array, and the one unpack of a report.

A compiled call takes a few plain float arrays rather than objects (numba unboxes them in
nanoseconds); their slots are named in :mod:`.layout`, which only this package reads.
"""

import math
from typing import NamedTuple, Optional, Tuple

import numpy as np

from .layout import (
    DEADLINE,
    EXTRAPOLATION,
    POLISH_ITERATIONS,
    HANDOFF_ORIENTATION,
    HANDOFF_POSITION,
    HANDOFF_RATIO,
    HEURISTIC_ITERATIONS,
    MAX_ATTEMPTS,
    MODE_AXIS,
    MODE_FULL,
    MODE_NONE,
    ORIENTATION_MODE,
    ORIENTATION_TOLERANCE,
    POSITION_BOUNDED,
    POSITION_TOLERANCE,
    ORIENTATION_WEIGHT,
    REPORT_ATTEMPTS,
    REPORT_FINAL_COST,
    REPORT_POLISH_ITERATIONS,
    REPORT_HANDOFF_COST,
    REPORT_HEURISTIC_ITERATIONS,
    REPORT_MET,
    REPORT_ORIENTATION_ERROR,
    REPORT_POSITION_ERROR,
    REPORT_SIZE,
    REPORT_START_COST,
    REPORT_STATUS,
    ROTATION_BOUNDED,
    SECANT_MEMORY,
    SETTINGS_SIZE,
    STALL_ITERATIONS,
    TIP_AXIS,
    TRUST_REGION,
)

__all__ = ['Outcome', 'deadline_of', 'new_report', 'new_reports', 'pack', 'pack_goal',
           'position_only', 'read_report', 'set_deadline', 'single_start', 'unpack',
           'unpack_rows']

# The search's own outcomes are 0-2; higher values are refusals (see .input_checks).
_LAST_SEARCH_STATUS = 2
_MODES = {'full': MODE_FULL, 'axis': MODE_AXIS, 'none': MODE_NONE}


class Outcome(NamedTuple):
    """A search's report, read: ``status`` is the search's integer (see ``Status``)."""

    status: int
    met: bool
    attempts: int
    iterations: int
    position_error: float
    orientation_error: float
    costs: Tuple[float, float, float]


def pack(goal, heuristic, *, polish: bool, orientation_weight: float,
         polish_iterations: int, max_attempts: Optional[int], tuning=None,
         deadline: float = 0.0) -> np.ndarray:
    """
    Return the settings array of a search.

    :param goal: a checked :class:`ik_solvers.solvers.request.Goal`.
    :param heuristic: the :class:`ik_solvers.solvers.base.Solver` instance, for its own caps
        and hand-over errors.
    :param polish: whether the polish runs.
    :param orientation_weight: m per rad.
    :param polish_iterations: polish steps per start.
    :param max_attempts: cap on starts, or None.
    :param tuning: the search's :class:`ik_solvers.solvers.tuning.SearchTuning`, or None for
        the heuristic's own defaults.
    :param deadline: s on the ``time.perf_counter`` clock (set per call with
        :func:`set_deadline`).
    :returns: (SETTINGS_SIZE,) a new writeable C-contiguous float64 array.
    """
    settings = pack_goal(goal, orientation_weight, deadline)
    # A looser tolerance raises the heuristic's hand-over errors.
    settings[HANDOFF_POSITION] = max(settings[HANDOFF_POSITION],
                                     heuristic.handoff_position_tolerance)
    settings[HANDOFF_ORIENTATION] = max(settings[HANDOFF_ORIENTATION],
                                        heuristic.handoff_orientation_tolerance)
    settings[HEURISTIC_ITERATIONS] = heuristic.heuristic_iterations(polish)
    settings[STALL_ITERATIONS] = heuristic.stall_limit()
    settings[TRUST_REGION] = heuristic.trust_gain(tuning)
    settings[MAX_ATTEMPTS] = math.inf if max_attempts is None else max_attempts
    settings[POLISH_ITERATIONS] = polish_iterations if polish else 0.0
    settings[HANDOFF_RATIO] = heuristic.handoff(tuning)
    settings[EXTRAPOLATION] = heuristic.extrapolation_setting(tuning)
    settings[SECANT_MEMORY] = heuristic.secant_setting(tuning)
    return settings


def pack_goal(goal, orientation_weight: float, deadline: float) -> np.ndarray:
    """
    Return a settings array holding the goal alone (the least-squares kernels' settings).

    The hand-over errors are the goal's finite tolerances (0 for an infinite one).

    :returns: (SETTINGS_SIZE,) a new writeable C-contiguous float64 array.
    """
    settings = np.zeros(SETTINGS_SIZE)
    settings[POSITION_TOLERANCE] = goal.position_tolerance
    settings[ORIENTATION_TOLERANCE] = goal.orientation_tolerance
    settings[ORIENTATION_WEIGHT] = orientation_weight
    settings[ORIENTATION_MODE] = _MODES[goal.mode]
    settings[DEADLINE] = deadline
    settings[TIP_AXIS:TIP_AXIS + 3] = goal.tip_axis
    for flag, bounds in ((POSITION_BOUNDED, goal.position_bounds),
                         (ROTATION_BOUNDED, goal.rotation_bounds)):
        if bounds is not None:
            settings[flag] = 1.0
            settings[flag + 1:flag + 4] = bounds
    settings[HANDOFF_POSITION] = (goal.position_tolerance
                                  if math.isfinite(goal.position_tolerance) else 0.0)
    settings[HANDOFF_ORIENTATION] = (goal.orientation_tolerance
                                     if math.isfinite(goal.orientation_tolerance) else 0.0)
    return settings


def set_deadline(settings: np.ndarray, deadline: float) -> None:
    """Set the deadline of ``settings``, s on the ``time.perf_counter`` clock."""
    settings[DEADLINE] = deadline


def deadline_of(settings: np.ndarray) -> float:
    """Return the deadline of ``settings``, s on the ``time.perf_counter`` clock."""
    return float(settings[DEADLINE])


def position_only(settings: np.ndarray) -> np.ndarray:
    """Return a copy of ``settings`` that judges the position alone."""
    copy = settings.copy()
    copy[ORIENTATION_MODE] = MODE_NONE
    return copy


def single_start(settings: np.ndarray) -> np.ndarray:
    """Return a copy of ``settings`` allowing one start."""
    copy = settings.copy()
    copy[MAX_ATTEMPTS] = 1.0
    return copy


def new_report() -> np.ndarray:
    """Return a fresh report array for one search to fill."""
    return np.empty(REPORT_SIZE)


def read_report(report: np.ndarray) -> tuple:
    """
    Read a search's report as a plain tuple, the fields of :class:`Outcome` in its order.

    What :func:`ik_solvers.solve` reads on every call: building the named tuple costs a
    quarter of a microsecond more.
    """
    values = report.tolist()  # Python floats: cheaper to read than numpy scalars
    status = int(values[REPORT_STATUS])
    if status > _LAST_SEARCH_STATUS:  # a refusal of the inputs: nothing else was written
        return status, False, 0, 0, math.nan, math.nan, (math.nan,) * 3
    return (status, values[REPORT_MET] != 0.0, int(values[REPORT_ATTEMPTS]),
            int(values[REPORT_HEURISTIC_ITERATIONS] + values[REPORT_POLISH_ITERATIONS]),
            values[REPORT_POSITION_ERROR], values[REPORT_ORIENTATION_ERROR],
            (values[REPORT_START_COST], values[REPORT_HANDOFF_COST], values[REPORT_FINAL_COST]))


def unpack(report: np.ndarray) -> Outcome:
    """Read a search's report (status, errors measured by forward kinematics, counts, costs)."""
    return Outcome(*read_report(report))


def new_reports(count: int) -> np.ndarray:
    """Return zeroed report rows, (count, REPORT_SIZE), for a batch to fill."""
    return np.zeros((count, REPORT_SIZE))


def unpack_rows(reports: np.ndarray) -> Tuple[np.ndarray, ...]:
    """
    Read a batch's reports, (K, REPORT_SIZE).

    :returns: ``(status int8, met bool, attempts int64, iterations int64, position_error,
        orientation_error)``, each (K,), new arrays.
    """
    return (reports[:, REPORT_STATUS].astype(np.int8), reports[:, REPORT_MET] != 0.0,
            reports[:, REPORT_ATTEMPTS].astype(np.int64),
            (reports[:, REPORT_HEURISTIC_ITERATIONS]
             + reports[:, REPORT_POLISH_ITERATIONS]).astype(np.int64),
            reports[:, REPORT_POSITION_ERROR].copy(), reports[:, REPORT_ORIENTATION_ERROR].copy())
