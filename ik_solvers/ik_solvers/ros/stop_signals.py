# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
SIGINT and SIGTERM as a stop request that always reaches the spinning thread.

rclpy's own handling of these signals stops a node by two things that race each other: a
``KeyboardInterrupt`` raised at whatever bytecode the main thread runs next, and a thread of
rclpy's that wakes the executors and shuts the context down underneath them. The exception can
land where Python drops or converts it (inside a ``__del__``, inside a message conversion that
rclpy reports as a ``RuntimeError``), and the context can vanish while a callback or a worker
is still using it, or after the executor has gone back to sleep with nothing left to wake it.

Here the signal records the request and wakes the executor, through a pipe that Python's
signal handler writes to from whichever thread the kernel picked, and a thread that turns each
byte into a trigger of a guard condition. The spin loop checks the request after every callback,
so one signal is enough, whether the executor is idle or busy. To end a long callback at once
(a service solve), the signal also raises :class:`StopRequested`, but only inside the package's
own code called from the spin loop: never in rclpy's machinery, and never in a finalizer.
"""

import os
from pathlib import Path
import signal
import threading
from types import CodeType, FrameType
from typing import Callable, Dict, FrozenSet, Iterable, Optional

__all__ = ['StopRequested', 'StopSignals']

# Files under this directory are the package's own code.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])


class StopRequested(KeyboardInterrupt):
    """Raised in the main thread to cut short a callback when a stop signal arrives."""


class StopSignals:
    """
    Turns SIGINT and SIGTERM into :attr:`requested`, and wakes whoever waits for it.

    Use from the main thread (Python runs signal handlers there only)::

        stop = StopSignals()
        stop.install()
        try:
            ...                       # create the node, then: stop.wake = guard.trigger
            stop.loop_code = this_function.__code__
            while not stop.requested:
                executor.spin_once()
        finally:
            stop.loop_code = None     # cleanup runs to its end
            ...
            stop.uninstall()
    """

    def __init__(self, signals: Iterable[int] = (signal.SIGINT, signal.SIGTERM)) -> None:
        """
        Prepare the handling of ``signals``; nothing is installed yet.

        :param signals: Signal numbers that request a stop.
        """
        self._signals = tuple(signals)
        self._requested = threading.Event()
        #: Called (from a helper thread) after each signal; set it once there is something
        #: to wake, e.g. the trigger of a guard condition the executor waits on.
        self.wake: Optional[Callable[[], None]] = None
        #: The code of the function that spins. While set, a signal that finds the main
        #: thread in the package's own code called from there (a callback) raises
        #: :class:`StopRequested`; unset, signals raise nothing (setup and cleanup).
        self.loop_code: Optional[CodeType] = None
        #: Source files whose frames are the executor's machinery, as rclpy's are, although
        #: they are the package's own (an executor of the package's): no signal raises there.
        self.machinery_files: FrozenSet[str] = frozenset()
        self._previous: Dict[int, object] = {}
        self._previous_wakeup_fd: Optional[int] = None
        self._read_fd: Optional[int] = None
        self._write_fd: Optional[int] = None
        self._watcher: Optional[threading.Thread] = None

    @property
    def requested(self) -> bool:
        """Tell whether one of the signals arrived since :meth:`install`."""
        return self._requested.is_set()

    def install(self) -> None:
        """
        Install the handlers and start the thread that forwards signals to :attr:`wake`.

        :raises ValueError: When not called from the main thread (Python's restriction).
        """
        if threading.current_thread() is not threading.main_thread():
            raise ValueError('stop signals can only be installed from the main thread')
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._write_fd, False)
        for signum in self._signals:
            self._previous[signum] = signal.signal(signum, self._on_signal)
        # Python's C-level handler writes the signal number here at once, from any thread;
        # the Python-level handler below waits for the main thread to run bytecode, which it
        # does not while it sleeps in rcl_wait.
        self._previous_wakeup_fd = signal.set_wakeup_fd(self._write_fd,
                                                        warn_on_full_buffer=False)
        self._watcher = threading.Thread(target=self._forward, name='stop_signals',
                                         daemon=True)
        self._watcher.start()

    def uninstall(self) -> None:
        """Restore the previous handlers and end the forwarding thread."""
        if self._watcher is None:
            return
        signal.set_wakeup_fd(self._previous_wakeup_fd if self._previous_wakeup_fd is not None
                             else -1)
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()
        # End of file ends the forwarding thread.
        os.close(self._write_fd)
        self._watcher.join()
        os.close(self._read_fd)
        self._watcher = None

    def _on_signal(self, signum: int, frame: Optional[FrameType]) -> None:
        self._requested.set()
        if self._in_callback(frame):
            raise StopRequested('stopped by %s' % signal.Signals(signum).name)

    def _in_callback(self, frame: Optional[FrameType]) -> bool:
        loop_code = self.loop_code
        if loop_code is None:
            return False
        own = False
        while frame is not None:
            code = frame.f_code
            if code is loop_code:
                return own
            if code.co_name == '__del__':
                # Python prints and drops an exception raised in a finalizer.
                return False
            own = own or (code.co_filename.startswith(_PACKAGE_ROOT)
                          and code.co_filename not in self.machinery_files)
            frame = frame.f_back
        return False

    def _forward(self) -> None:
        while os.read(self._read_fd, 64):
            self._requested.set()
            wake = self.wake
            if wake is not None:
                try:
                    wake()
                except Exception:  # noqa: B902 - e.g. the guard is already destroyed
                    pass
