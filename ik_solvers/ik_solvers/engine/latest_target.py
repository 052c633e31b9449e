# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A one-slot mailbox: a burst of values is never queued, the newest replaces the older ones.

Subscription callbacks put targets in; one worker thread takes them out and solves only the
newest, so the work done follows the rate of solving, not the rate of publishing.
"""

import threading
from typing import Generic, Optional, TypeVar

__all__ = ['LatestSlot']

Value = TypeVar('Value')


class LatestSlot(Generic[Value]):
    """Holds at most one value; putting a new one drops the one not yet taken."""

    def __init__(self) -> None:
        """Create an empty, open slot."""
        self._condition = threading.Condition()
        self._value: Optional[Value] = None
        self._full = False
        self._closed = False
        self._received = 0
        self._dropped = 0

    @property
    def received(self) -> int:
        """Count the values put since creation."""
        with self._condition:
            return self._received

    @property
    def dropped(self) -> int:
        """Count the values replaced by a newer one before anybody took them."""
        with self._condition:
            return self._dropped

    @property
    def closed(self) -> bool:
        """Tell whether :meth:`close` was called."""
        with self._condition:
            return self._closed

    def put(self, value: Value) -> Optional[Value]:
        """
        Store ``value``, replacing a value not taken yet, and wake the taker.

        After :meth:`close` the value is counted as received and discarded.

        :param value: Anything; ``None`` is stored like any other value.
        :returns: The value replaced (dropped), or ``None`` when the slot was empty.
        """
        with self._condition:
            self._received += 1
            if self._closed:
                return None
            replaced = self._value if self._full else None
            if self._full:
                self._dropped += 1
            self._value = value
            self._full = True
            self._condition.notify()
            return replaced

    def take(self, timeout: Optional[float] = None) -> Optional[Value]:
        """
        Remove and return the newest value, waiting for one if the slot is empty.

        :param timeout: Longest wait in seconds; ``None`` waits until a value arrives or the
            slot is closed.
        :returns: The value, or ``None`` when the wait timed out or the slot is closed.
        """
        with self._condition:
            self._condition.wait_for(lambda: self._full or self._closed, timeout=timeout)
            if not self._full:
                return None
            value = self._value
            self._value = None
            self._full = False
            return value

    def close(self) -> None:
        """Discard the value not taken yet and wake every taker; :meth:`take` returns ``None``."""
        with self._condition:
            self._closed = True
            # A value taken after close would start work while its owner is shutting down.
            self._value = None
            self._full = False
            self._condition.notify_all()
