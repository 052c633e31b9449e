# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A plain-text progress bar on stderr, so that a long benchmark shows it is alive."""

import sys
import time
from typing import Optional, TextIO

__all__ = ['ProgressBar']


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return '%d:%02d' % divmod(seconds, 60) if seconds < 3600 else \
        '%d:%02d:%02d' % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)


class ProgressBar:
    """
    A bar counting units of work, with the elapsed time and an estimate of what remains.

    On a terminal it redraws one line; elsewhere (a log file, CI) it prints a line at most
    every ``log_interval`` seconds so that the log stays short.
    """

    def __init__(self, total: int, *, stream: Optional[TextIO] = None, width: int = 30,
                 refresh_interval: float = 0.2, log_interval: float = 10.0):
        """
        Start counting.

        :param total: Units of work expected, at least 1 is assumed.
        :param stream: Where to draw; stderr by default.
        :param width: Characters of the bar itself.
        :param refresh_interval: Shortest time between two redraws on a terminal, in s.
        :param log_interval: Shortest time between two lines when not on a terminal, in s.
        """
        self.total = max(1, int(total))
        self.done = 0
        self._stream = sys.stderr if stream is None else stream
        self._width = width
        self._interactive = bool(getattr(self._stream, 'isatty', lambda: False)())
        self._interval = refresh_interval if self._interactive else log_interval
        self._start = time.monotonic()
        self._last_draw = -float('inf')
        self._label = ''
        self._drawn = -1

    def update(self, count: int = 1, *, label: Optional[str] = None) -> None:
        """
        Count finished work and redraw when it is time.

        :param count: Units just finished.
        :param label: What is running now, shown after the bar.
        """
        self.done = min(self.total, self.done + count)
        if label is not None:
            self._label = label
        now = time.monotonic()
        if now - self._last_draw >= self._interval or self.done == self.total:
            self._last_draw = now
            self._draw(now)

    def close(self) -> None:
        """Draw the final state unless it is drawn already, and end the line."""
        if self._drawn != self.done:
            self._draw(time.monotonic())
        if self._interactive:
            self._stream.write('\n')
        self._stream.flush()

    def _draw(self, now: float) -> None:
        self._drawn = self.done
        fraction = self.done / self.total
        filled = int(round(fraction * self._width))
        elapsed = now - self._start
        remaining = elapsed * (1.0 - fraction) / fraction if fraction > 0 else 0.0
        text = '[%s%s] %3d%% %d/%d %s<%s %s' % (
            '#' * filled, '.' * (self._width - filled), int(100 * fraction), self.done,
            self.total, _clock(elapsed), _clock(remaining), self._label)
        if self._interactive:
            # Pad over the remains of a longer previous line.
            self._stream.write('\r' + text[:120].ljust(120))
        else:
            self._stream.write(text + '\n')
        self._stream.flush()
