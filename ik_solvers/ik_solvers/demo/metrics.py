# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""What one scripted drag recorded, and the figures the demo prints for it."""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from typing import Sequence

import numpy as np

from .scripted_drag import ScriptedGoal

__all__ = ['APPROXIMATE_CODE', 'DragRecording', 'SolveRecord', 'SolverSummary', 'max_joint_jump',
           'summarise']

#: The error code of an approximate command (SolveIK and IKStatus ``APPROXIMATE``).
APPROXIMATE_CODE = 12


@dataclass(frozen=True)
class SolveRecord:
    """One IKStatus of the node, matched to the goal it answers (``goal_index``)."""

    goal_index: int
    success: bool
    error_code: int
    #: Seconds, as measured by the node.
    solve_time: float
    #: Metres and radians, by forward kinematics of the solution.
    position_error: float
    orientation_error: float
    commanded: bool
    #: Tip position of the solution in the base frame, metres.
    reached_position: tuple[float, float, float]


@dataclass
class DragRecording:
    """Everything one drag with one solver produced."""

    solver: str
    goals: Sequence[ScriptedGoal]
    solves: list[SolveRecord] = field(default_factory=list)
    #: Final joint positions of each command received while following the reachable path.
    path_commands: list[np.ndarray] = field(default_factory=list)
    #: Status messages that matched no goal sent (should stay 0).
    unmatched: int = 0
    #: Wall-clock seconds the drag took.
    elapsed: float = 0.0


@dataclass(frozen=True)
class SolverSummary:
    """The row of the demo's table for one solver."""

    solver: str
    #: Reachable goals sent, and how many of them the node solved (the others were superseded
    #: by a newer goal before the node got to them: latest wins).
    path_sent: int
    path_solved: int
    path_success: int
    unreachable_sent: int
    unreachable_solved: int
    #: Unreachable goals the node reported as failures, as it should.
    unreachable_flagged: int
    #: Seconds, over the solves of reachable goals.
    solve_time_median: float
    solve_time_p95: float
    #: Over the solves of reachable goals: metres and radians.
    position_error_median: float
    position_error_max: float
    orientation_error_median: float
    orientation_error_max: float
    #: Largest change of one joint between consecutive commands on the path, rad or m.
    max_joint_jump: float
    path_commands: int
    #: Solved path goals commanded exactly (verified), approximately (``APPROXIMATE``), and
    #: answered without a command.
    path_exact: int = 0
    path_approximate: int = 0
    path_uncommanded: int = 0
    #: Metres: median and largest position error of the approximate commands on the path.
    approximate_error_median: float = math.nan
    approximate_error_max: float = math.nan
    #: Path goals sent before the first exact command (all of them when there was none).
    before_first_exact: int = 0
    #: Far goals commanded approximately.
    unreachable_approximate: int = 0

    @property
    def success_rate(self) -> float:
        """Fraction of the solved reachable goals that succeeded; NaN when none was solved."""
        return self.path_success / self.path_solved if self.path_solved else math.nan


def max_joint_jump(commands: Sequence[np.ndarray]) -> float:
    """Largest absolute change of one joint between consecutive commands; 0 for fewer than 2."""
    if len(commands) < 2:
        return 0.0
    stacked = np.vstack(commands)
    return float(np.max(np.abs(np.diff(stacked, axis=0))))


def _median(values: Sequence[float]) -> float:
    return float(np.median(values)) if len(values) else math.nan


def _percentile(values: Sequence[float], percent: float) -> float:
    return float(np.percentile(values, percent)) if len(values) else math.nan


def _max(values: Sequence[float]) -> float:
    return float(np.max(values)) if len(values) else math.nan


def summarise(recording: DragRecording) -> SolverSummary:
    """Reduce a recording to its table row."""
    reachable = [goal.reachable for goal in recording.goals]
    on_path = [s for s in recording.solves if reachable[s.goal_index]]
    off_path = [s for s in recording.solves if not reachable[s.goal_index]]
    # Far goals run to the deadline by design; the timing of interest is along the path.
    times = [s.solve_time for s in on_path]
    exact = {s.goal_index for s in on_path if s.success and s.commanded}
    approximate = [s for s in on_path if s.error_code == APPROXIMATE_CODE and s.commanded]
    approximate_goals = {s.goal_index for s in approximate}
    return SolverSummary(
        solver=recording.solver,
        path_sent=sum(reachable),
        path_solved=len({s.goal_index for s in on_path}),
        path_success=len({s.goal_index for s in on_path if s.success}),
        unreachable_sent=len(reachable) - sum(reachable),
        unreachable_solved=len({s.goal_index for s in off_path}),
        unreachable_flagged=len({s.goal_index for s in off_path if not s.success}),
        solve_time_median=_median(times),
        solve_time_p95=_percentile(times, 95.0),
        position_error_median=_median([s.position_error for s in on_path]),
        position_error_max=_max([s.position_error for s in on_path]),
        orientation_error_median=_median([s.orientation_error for s in on_path]),
        orientation_error_max=_max([s.orientation_error for s in on_path]),
        max_joint_jump=max_joint_jump(recording.path_commands),
        path_commands=len(recording.path_commands),
        path_exact=len(exact),
        path_approximate=len(approximate_goals - exact),
        path_uncommanded=len({s.goal_index for s in on_path} - exact - approximate_goals),
        approximate_error_median=_median([s.position_error for s in approximate]),
        approximate_error_max=_max([s.position_error for s in approximate]),
        before_first_exact=min(exact) if exact else sum(reachable),
        unreachable_approximate=len({s.goal_index for s in off_path
                                     if s.error_code == APPROXIMATE_CODE and s.commanded}),
    )
