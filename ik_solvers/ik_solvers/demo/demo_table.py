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
    ('exact', '', 7),
    ('approx', '', 7),
    ('none', '', 6),
    ('max jump', 'deg', 9),
    ('approx err mm', 'med    max', 15),
    ('solve ms', 'med   p95', 12),
    ('first', 'exact', 7),
    ('far goals', 'approx', 9),
)

LEGEND = (
    'solved/sent: path goals the node answered; the others were superseded by a newer goal '
    'first (latest wins).\n'
    'exact: answered path goals commanded with a solution within the tolerances (by FK); '
    'approx: commanded APPROXIMATE, the closest configuration within max_joint_jump of the '
    'last command; none: answered without a command.\n'
    'max jump: largest change of one joint between consecutive commands along the path.\n'
    'approx err: position error of the approximate commands on the path, by FK.\n'
    'first exact: path goals sent before the first exact command.\n'
    'far goals approx: goals out of reach commanded approximately (none may be a success).\n'
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
    cells = [
        summary.solver.ljust(19),
        ('%d/%d' % (summary.path_solved, summary.path_sent)).ljust(9),
        ('%d' % summary.path_exact).ljust(7),
        ('%d' % summary.path_approximate).ljust(7),
        ('%d' % summary.path_uncommanded).ljust(6),
        _number(math.degrees(summary.max_joint_jump), 2, 9),
        _number(1e3 * summary.approximate_error_median, 1, 7),
        _number(1e3 * summary.approximate_error_max, 1, 8),
        _number(1e3 * summary.solve_time_median, 2, 6),
        _number(1e3 * summary.solve_time_p95, 2, 6),
        ('%d' % summary.before_first_exact).ljust(7),
        '%d/%d%s' % (summary.unreachable_approximate, summary.unreachable_sent,
                     '' if summary.unreachable_flagged == summary.unreachable_sent
                     else ' (%d reached?)' % (summary.unreachable_sent
                                              - summary.unreachable_flagged)),
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
