# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The headless demo: the goal-dragging pipeline of the RViz launch file, without a display.

Run it with ``bash tools/demo.sh`` (or ``ik_solvers_demo`` in a built workspace); the entry
point is :func:`ik_solvers.demo.demo_cli.main`.
"""

from .metrics import DragRecording, SolveRecord, SolverSummary, summarise
from .scripted_drag import figure_eight, out_of_reach, scripted_drag, ScriptedGoal

__all__ = [
    'DragRecording',
    'ScriptedGoal',
    'SolveRecord',
    'SolverSummary',
    'figure_eight',
    'out_of_reach',
    'scripted_drag',
    'summarise',
]
