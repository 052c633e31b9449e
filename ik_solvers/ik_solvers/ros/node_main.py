# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The body every console-script ``main()`` of the package shares: init, spin, clean exit."""

import gc
import sys
import traceback
from typing import Callable, List, Optional

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.signals import SignalHandlerOptions

from .aside_executor import AsideExecutor
from .stop_signals import StopRequested, StopSignals
from ..exceptions import IKError

__all__ = ['run_node']


def run_node(make_node: Callable[[], Node], args: Optional[List[str]] = None) -> None:
    """
    Create a node with ``make_node`` and spin it until SIGINT, SIGTERM or an external shutdown.

    One thread spins: rclpy's multi-threaded executor spends more CPU polling than these
    nodes' callbacks need, and slow work (streamed solves) has a worker thread of its own.
    The callback groups a node lists in an ``aside_callback_groups`` attribute run on a thread
    of their own (:class:`~.aside_executor.AsideExecutor`): the ik_node's CartesianPath
    service, whose huge requests rclpy converts for seconds while taking them.
    The first SIGINT or SIGTERM ends the spin, whether the executor is idle or in a callback
    (see :mod:`ik_solvers.ros.stop_signals`); the node is then destroyed and the process exits.

    :param make_node: called after ``rclpy.init``; returns the node to spin.
    :param args: command-line arguments for ``rclpy.init`` (None: ``sys.argv``).
    :raises ValueError: When called from a thread other than the main thread.
    :raises SystemExit: 1, when ``make_node`` raised an
        :class:`~ik_solvers.exceptions.IKError` (a refused parameter): its message is printed.
    """
    stop = StopSignals()
    stop.install()
    failed = None
    node = None
    executor = None
    try:
        # rclpy's handlers would shut the context down from a thread of their own, under the
        # callbacks and the worker threads that are still using it.
        rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
        node = make_node()
        # What starting made (the compiled kernels, the modules, the messages' types) lives as
        # long as the process. Kept out of the collector's full passes, which would otherwise
        # walk all of it and hold up a streamed goal or a servo cycle for some 0.1 s.
        gc.collect()
        gc.freeze()
        executor = AsideExecutor()
        executor.add_node(node)
        for group in getattr(node, 'aside_callback_groups', ()):
            executor.run_aside(group, name='executor_aside')
        # Its callback does nothing: waking the executor is enough for the loop to see the
        # request.
        stop.wake = node.create_guard_condition(lambda: None).trigger
        # The executor's own frames are machinery: a signal must not raise in them, only in
        # the callbacks they call.
        stop.machinery_files = frozenset({AsideExecutor.spin_once.__code__.co_filename})
        stop.loop_code = run_node.__code__
        while not stop.requested and executor.context.ok():
            try:
                executor.spin_once()
            except ExternalShutdownException:
                raise
            except Exception as error:  # noqa: B902
                # An interruption that rclpy reported as another error is still a stop.
                if stop.requested:
                    break
                # Any other is one callback's failure (a message or request the handlers did
                # not foresee): it costs that callback, never the node.
                node.get_logger().error('a callback failed; the node goes on: %r\n%s'
                                        % (error, traceback.format_exc()))
    except (StopRequested, ExternalShutdownException):
        pass
    except IKError as error:
        # A node that cannot start as configured (a parameter out of its range) says why in
        # one line and exits with 1, as a launch file's user expects of a refused node.
        failed = error
    finally:
        stop.loop_code = None
        try:
            # No callback may run on a node that is being destroyed.
            if executor is not None:
                executor.shutdown()
            if node is not None:
                node.destroy_node()
            rclpy.try_shutdown()
        finally:
            stop.uninstall()
    if failed is not None:
        print('%s: %s' % (getattr(make_node, '__name__', 'node'), failed), file=sys.stderr)
        raise SystemExit(1)
