# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A single-threaded executor that runs the callbacks of chosen callback groups on a thread aside.

rclpy turns a request into Python objects while the executor takes it, before any callback of
the node runs: for a CartesianPath request of 100,000 waypoints that is 600,000 message objects
and seconds of work. On a :class:`~rclpy.executors.SingleThreadedExecutor` nothing else is
taken meanwhile, so a valid SolveIK call, a streamed target or a small path waited for a
request that was then refused in microseconds. The conversion runs Python code (the message
classes' constructors and setters), so it hands the interpreter lock over every switch interval:
on a thread of its own it leaves the spinning thread free.

Only the first run of a handler of a group named aside moves (the take, and its coroutine up
to its first ``await``); a coroutine resumed later (a service's callback awaiting its pool)
runs on the spinning thread, as every other callback does, without the thread hand-offs and
polling of rclpy's multi-threaded executor. Each aside group gets one thread, so its first runs
never overlap each other; they do overlap the spinning thread's callbacks, so a group may only
be put aside when its callbacks are thread-safe. The exception of a first run aside is raised
on the spinning thread by a later :meth:`AsideExecutor.spin_once`, as the single-threaded
executor raises its own.
"""

import queue
import threading
from typing import Any, Dict, Optional, Set
import weakref

from rclpy.callback_groups import CallbackGroup
from rclpy.context import Context
from rclpy.executors import ShutdownException, SingleThreadedExecutor, TimeoutException

__all__ = ['AsideExecutor']


class _AsideThread:
    """One daemon thread that gives handlers their first run (the take), in order."""

    def __init__(self, name: str) -> None:
        self._handlers: 'queue.SimpleQueue[Any]' = queue.SimpleQueue()
        self._failures: 'queue.SimpleQueue[BaseException]' = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._waiting: Set[Any] = set()  # handed over, first run not finished
        self._taken: 'weakref.WeakSet[Any]' = weakref.WeakSet()  # first run finished
        # A daemon: at exit the process does not wait for a request still being converted.
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def claim(self, handler: Any) -> bool:
        """
        Take ``handler`` over unless its first run is over; return whether the caller runs it.

        A handler seen again before its first run ended is neither run nor handed over twice.
        """
        with self._lock:
            if handler in self._taken:
                return True
            if handler not in self._waiting:
                self._waiting.add(handler)
                self._handlers.put(handler)
            return False

    def stop(self) -> None:
        self._handlers.put(None)

    def failure(self) -> Optional[BaseException]:
        """Return the exception of a handler that failed since the last call, or None."""
        try:
            return self._failures.get_nowait()
        except queue.Empty:
            return None

    def _run(self) -> None:
        while True:
            handler = self._handlers.get()
            if handler is None:
                return
            # A task keeps what its coroutine raised.
            handler()
            with self._lock:
                self._waiting.discard(handler)
                if not handler.done():
                    self._taken.add(handler)
            if handler.done() and handler.exception() is not None:
                self._failures.put(handler.exception())


class AsideExecutor(SingleThreadedExecutor):
    """Spins on the calling thread; the callbacks of :meth:`run_aside` groups run elsewhere."""

    def __init__(self, *, context: Optional[Context] = None) -> None:
        """Create the executor (``context``: rclpy's default one when None)."""
        super().__init__(context=context)
        self._aside: Dict[CallbackGroup, _AsideThread] = {}

    def run_aside(self, group: CallbackGroup, name: str = 'executor_aside') -> None:
        """
        Give the handlers of ``group`` their first run (the take) on a thread of their own.

        :param group: A callback group whose callbacks are thread-safe.
        :param name: Name of the thread.
        """
        if group not in self._aside:
            self._aside[group] = _AsideThread(name)

    def spin_once(self, timeout_sec: Optional[float] = None) -> None:
        """
        Wait for one ready callback and run it here, or hand it to its group's thread.

        :param timeout_sec: Longest wait in s; None waits for work.
        :raises BaseException: What a callback raised (one of an aside group may surface on a
            later call).
        """
        for aside in self._aside.values():
            error = aside.failure()
            if error is not None:
                raise error
        try:
            handler, entity, _node = self.wait_for_ready_callbacks(timeout_sec)
        except (ShutdownException, TimeoutException):
            return
        group = getattr(entity, 'callback_group', None)
        aside = self._aside.get(group) if group is not None else None
        if aside is not None and not aside.claim(handler):
            return
        # A callback of the spinning thread, or a coroutine resumed after its take aside (it
        # awaits a pool's answer; resuming it is cheap).
        handler()
        error = handler.exception()
        if error is not None:
            raise error
        handler.result()

    def shutdown(self, timeout_sec: Optional[float] = None) -> bool:
        """Stop taking work and end the aside threads (a take in progress is not waited for)."""
        for aside in self._aside.values():
            aside.stop()
        return super().shutdown(timeout_sec)
