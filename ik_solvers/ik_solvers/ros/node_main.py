# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The body every console-script ``main()`` of the package shares: init, spin, clean exit."""

from typing import Callable, List, Optional

import rclpy
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.node import Node

__all__ = ['run_node']


def run_node(make_node: Callable[[], Node], args: Optional[List[str]] = None) -> None:
    """
    Create a node with ``make_node`` and spin it until Ctrl-C or an external shutdown.

    One thread spins: rclpy's multi-threaded executor spends more CPU polling than these
    nodes' callbacks need, and slow work (streamed solves) has a worker thread of its own.

    :param make_node: called after ``rclpy.init``; returns the node to spin.
    :param args: command-line arguments for ``rclpy.init`` (None: ``sys.argv``).
    """
    rclpy.init(args=args)
    node = None
    executor = None
    try:
        node = make_node()
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        executor.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        # No callback may run on a node that is being destroyed.
        if executor is not None:
            executor.shutdown()
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
