# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A first-in first-out queue with a worker thread of its own, that counts every refusal.

Obstacles are orders: each ADD, MOVE and REMOVE counts, in the order sent, unlike targets where
only the newest matters (:mod:`ik_solvers.engine.latest_target`). The subscription's callback only appends (a
few microseconds, so the executor drains the middleware's queue as fast as messages come); the
worker applies them one by one. The queue holds at most ``capacity`` items: one beyond is
refused, counted and reported to ``on_refused``, never dropped without a word.
"""

import collections
import threading
from typing import Callable, Deque, Generic, Optional, TypeVar

__all__ = ['OrderedQueue']

Item = TypeVar('Item')


class OrderedQueue(Generic[Item]):
    """Items handled in order on a worker thread; a full queue refuses and counts."""

    def __init__(self, handle: Callable[[Item], None], *, capacity: int,
                 on_refused: Callable[[Item, int], None],
                 on_error: Callable[[Item, Exception], None], name: str) -> None:
        """
        Start the worker.

        :param handle: Called on the worker for each item, in order; its exceptions are passed
            to ``on_error`` and the worker goes on.
        :param capacity: Most items waiting at once, >= 1.
        :param on_refused: Called with an item refused for a full queue and the refusals so far.
        :param on_error: Called on the worker with an item whose handler raised, and the error.
        :param name: The worker thread's name.
        :raises ValueError: If ``capacity`` < 1.
        """
        if capacity < 1:
            raise ValueError('capacity must be at least 1, got %r' % capacity)
        self._handle = handle
        self._capacity = capacity
        self._on_refused = on_refused
        self._on_error = on_error
        self._items: Deque[Item] = collections.deque()
        self._condition = threading.Condition()
        self._closed = False
        self._busy = False
        #: Items put, refused for a full queue, and handled (the handler returned or raised).
        self.received = 0
        self.refused = 0
        self.handled = 0
        self._worker = threading.Thread(target=self._work, name=name, daemon=True)
        self._worker.start()

    def put(self, item: Item) -> bool:
        """Queue an item; return False (and report it) if the queue is full or closed."""
        with self._condition:
            self.received += 1
            if len(self._items) >= self._capacity or self._closed:
                self.refused += 1
                refused = self.refused
            else:
                self._items.append(item)
                self._condition.notify()
                return True
        self._on_refused(item, refused)
        return False

    @property
    def pending(self) -> int:
        """Items waiting or being handled."""
        with self._condition:
            return len(self._items) + int(self._busy)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every queued item was handled; tell whether that happened in time."""
        with self._condition:
            return self._condition.wait_for(lambda: not self._items and not self._busy,
                                            timeout)

    def close(self, timeout: float) -> None:
        """Refuse new items, drop the waiting ones, wait at most ``timeout`` s for the worker."""
        with self._condition:
            self._closed = True
            self._items.clear()
            self._condition.notify_all()
        self._worker.join(timeout)

    def _work(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: self._items or self._closed)
                if self._closed:
                    return
                item: Optional[Item] = self._items.popleft()
                self._busy = True
            try:
                self._handle(item)
            except Exception as error:  # noqa: B902 - the worker outlives any one item
                self._on_error(item, error)
            finally:
                with self._condition:
                    self._busy = False
                    self.handled += 1
                    self._condition.notify_all()
