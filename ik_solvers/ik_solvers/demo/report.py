# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The demo's console output: a progress line per solver and the results table."""

from __future__ import annotations

import math
import sys
from typing import TextIO

from .metrics import SolverSummary

__all__ = ['LEGEND', 'ProgressLine', 'format_header', 'format_row']

_COLUMNS = (
    # (title, second title line, width)
    ('solver', '', 19),
    ('solved', '/sent', 9),
    ('success', '', 8),
    ('solve ms', 'med   p95', 12),
    ('pos err mm', 'med    max', 15),
    ('ori err mrad', 'med    max', 15),
    ('max jump', 'deg', 9),
    ('path goals', 'failed', 11),
    ('far goals', 'failed', 9),
)

LEGEND = (
    'solved/sent: path goals the node solved; the others were superseded by a newer goal '
    'first (latest wins).\n'
    'success: solved path goals reached within the tolerances. Errors: path goals, by FK.\n'
    'max jump: largest change of one joint between consecutive commands along the path.\n'
    'path goals failed: path goals answered without a command: not reached within the '
    'tolerances, or refused as a jump larger than max_joint_jump.\n'
    'far goals failed: goals out of reach that the node reported as failures (it should).\n'
    'colliding commands: commands of the collision segment in collision by the demo\'s own '
    'exact check (must be 0).\n'
    'goals refused or held for collision: goals answered IN_COLLISION; the arm was not '
    'commanded and stayed where it was.')


def format_header() -> str:
    """Format the two title lines of the table and a rule."""
    first = ''.join(title.ljust(width) for title, _, width in _COLUMNS)
    second = ''.join(sub.ljust(width) for _, sub, width in _COLUMNS)
    return '\n'.join((first.rstrip(), second.rstrip(), '-' * sum(w for _, _, w in _COLUMNS)))


def _number(value: float, digits: int, width: int) -> str:
    return ('-' if math.isnan(value) else '%.*f' % (digits, value)).ljust(width)


def format_row(summary: SolverSummary) -> str:
    """Format one line of the table."""
    success = summary.success_rate
    cells = [
        summary.solver.ljust(19),
        ('%d/%d' % (summary.path_solved, summary.path_sent)).ljust(9),
        ('-' if math.isnan(success) else '%.1f%%' % (100.0 * success)).ljust(8),
        _number(1e3 * summary.solve_time_median, 1, 6),
        _number(1e3 * summary.solve_time_p95, 1, 6),
        _number(1e3 * summary.position_error_median, 3, 7),
        _number(1e3 * summary.position_error_max, 2, 8),
        _number(1e3 * summary.orientation_error_median, 2, 7),
        _number(1e3 * summary.orientation_error_max, 1, 8),
        _number(math.degrees(summary.max_joint_jump), 1, 9),
        ('%d' % (summary.path_solved - summary.path_success)).ljust(11),
        '%d/%d' % (summary.unreachable_flagged, summary.unreachable_sent),
    ]
    return ''.join(cells)


class ProgressLine:
    """A progress bar that redraws in place on a terminal and prints sparse lines elsewhere."""

    def __init__(self, label: str, *, stream: TextIO = sys.stdout, width: int = 24) -> None:
        """Start a progress line for ``label`` (a solver name)."""
        self._label = label
        self._stream = stream
        self._width = width
        self._interactive = stream.isatty()
        self._last_quarter = -1

    def update(self, done: int, total: int, solves: int) -> None:
        """Show ``done`` of ``total`` goals sent and ``solves`` answers so far."""
        fraction = done / total if total else 1.0
        bar = '#' * int(round(fraction * self._width))
        text = '  %-18s [%-*s] %3d/%d goals, %d solved' % (
            self._label, self._width, bar, done, total, solves)
        if self._interactive:
            self._stream.write('\r' + text)
            self._stream.flush()
            return
        # Logs get a line at a quarter, a half and three quarters; the row follows at the end.
        quarter = int(fraction * 4)
        if 0 < quarter < 4 and quarter > self._last_quarter:
            self._last_quarter = quarter
            self._stream.write(text + '\n')
            self._stream.flush()

    def finish(self, row: str) -> None:
        """Replace the bar by the solver's table row."""
        if self._interactive:
            self._stream.write('\r\033[K')
        self._stream.write(row + '\n')
        self._stream.flush()
