# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node's logic without ROS: one pipeline from a request to an outcome and a command.

Nothing here imports rclpy or a message package (the layer test checks it):
:mod:`ik_solvers.ros` converts messages into :class:`~.outcome.IKRequest` and hands them to
:meth:`~.pipeline.IKEngine.handle`. Import the modules themselves; this package re-exports
nothing, so that importing one module does not load the others.
"""

__all__ = []
