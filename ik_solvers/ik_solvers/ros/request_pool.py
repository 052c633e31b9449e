# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A few worker threads and a bound on the requests they hold: the SolveIK service's back end.

The service callback only hands a request over and returns to the executor, so a burst of
requests is taken off the middleware's queue at once instead of overflowing it. Several
workers mean one slow solve (up to its own timeout) does not hold up the requests behind it.
Beyond the bound a request is not queued at all: the caller answers it at once (BUSY).
"""

from concurrent.futures import Future
import queue
import threading
import time
from typing import Callable, Optional, TypeVar

__all__ = ['RequestPool']

Result = TypeVar('Result')


class RequestPool:
    """Runs work on a fixed number of threads, holding at most a given number of requests."""

    def __init__(self, workers: int, *, name: str = 'request') -> None:
        """
        Start the pool.

        :param workers: Number of worker threads, at least 1.
        :param name: Prefix of the worker threads' names.
        :raises ValueError: If ``workers`` is less than 1.
        """
        if workers < 1:
            raise ValueError('a pool needs at least one worker, not %d' % workers)
        self._lock = threading.Lock()
        self._pending = 0
        self._closed = False
        self._futures: 'set[Future]' = set()
        self._queue: 'queue.SimpleQueue[Optional[Callable[[], None]]]' = queue.SimpleQueue()
        # Daemon threads, not a ThreadPoolExecutor: the interpreter joins an executor's workers
        # at exit, so Ctrl-C during a solve would keep the process alive until that solve's
        # deadline (up to 10 s). A solve in flight holds nothing that must be finished.
        self._workers = [threading.Thread(target=self._serve, name='%s_%d' % (name, index),
                                          daemon=True) for index in range(workers)]
        for worker in self._workers:
            worker.start()

    def _serve(self) -> None:
        while True:
            task = self._queue.get()
            if task is None:
                return
            task()

    @property
    def pending(self) -> int:
        """Count the requests submitted and not yet finished (running or waiting)."""
        with self._lock:
            return self._pending

    def try_submit(self, work: Callable[[], Result], limit: int,
                   on_done: Optional[Callable[[], None]] = None) -> Optional['Future[Result]']:
        """
        Run ``work`` on a worker, unless ``limit`` requests are already pending.

        :param work: The request's work; its result or exception ends up in the future.
        :param limit: Largest number of pending requests, this one included.
        :param on_done: Called on the worker thread once the future is done, e.g. to wake the
            thread that waits for it.
        :returns: The future of ``work``, or ``None`` when the pool is full or closed.
        """
        future: 'Future[Result]' = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return  # dropped by close() before it started
            try:
                future.set_result(work())
            except BaseException as error:  # noqa: B902 - the caller reads it from the future
                future.set_exception(error)

        with self._lock:
            if self._closed or self._pending >= limit:
                return None
            self._pending += 1
            self._futures.add(future)
            self._queue.put(run)
        # Added after queueing: a future already done runs the callback at once.
        future.add_done_callback(lambda _: self._finished(future, on_done))
        return future

    def _finished(self, future: Future, on_done: Optional[Callable[[], None]]) -> None:
        with self._lock:
            self._pending -= 1
            self._futures.discard(future)
        if on_done is not None:
            on_done()

    def close(self, timeout: float) -> None:
        """
        Refuse new work, drop the work not started, and wait for the running work.

        :param timeout: Longest wait in seconds; threads still running after it are left to
            end on their own (each solve ends by its deadline).
        """
        with self._lock:
            self._closed = True
            waiting = list(self._futures)
        for future in waiting:
            future.cancel()  # only work not started yet can be cancelled
        for _ in self._workers:
            self._queue.put(None)
        deadline = time.monotonic() + timeout
        for worker in self._workers:
            worker.join(max(0.0, deadline - time.monotonic()))
