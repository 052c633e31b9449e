# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node's ``~/cartesian_path`` service: the glue between CartesianPath calls and the engine.

Requests are answered on a pool of their own (:class:`~.solve_service.SolveIKService` with the
CartesianPath type), so a path of thousands of points holds up neither SolveIK calls nor the
streamed targets. The logic is :meth:`~ik_solvers.engine.pipeline.IKEngine.handle_path`;
here the per-joint limits of a MoveIt joint_limits.yaml are read once, at start-up.
"""

import threading
import time
from typing import Any, Callable, Dict, Mapping, Optional

from ik_solvers_interfaces.srv import CartesianPath
from rclpy.callback_groups import CallbackGroup
from rclpy.node import Node
import yaml

from .names import CARTESIAN_PATH_SERVICE
from .path_conversions import fill_path_response, path_request
from .solve_service import SolveIKService
from ..engine.command_gate import path_publication
from ..engine.memory import release_memory
from ..engine.path_request import PathCommand, PathOutcome
from ..engine.pipeline import IKEngine
from ..engine.settings import NodeSettings
from ..exceptions import InvalidLimitsError
from ..paths import JointLimit, parse_joint_limits

__all__ = ['CartesianPathService', 'PATH_WORKERS', 'read_joint_limits_file']

#: Waypoints above which a request's memory is given back once it is answered.
LARGE_REQUEST_WAYPOINTS = 10_000
#: Threads answering path requests; one more would only share the interpreter lock.
PATH_WORKERS = 1


def read_joint_limits_file(path: str) -> Dict[str, JointLimit]:
    """
    Read the per-joint limits of a MoveIt joint_limits.yaml.

    :param path: The file; empty for none.
    :returns: Joint name -> limits; empty for no file.
    :raises InvalidLimitsError: The file cannot be read, is not YAML, or has the wrong shape.
    """
    if not path:
        return {}
    try:
        with open(path, encoding='utf-8') as stream:
            data = yaml.safe_load(stream)
    except (OSError, yaml.YAMLError) as error:
        raise InvalidLimitsError('cannot read joint_limits_file %s: %s' % (path, error)) \
            from None
    return parse_joint_limits(data or {})


class CartesianPathService:
    """Answers CartesianPath calls with the engine; sends the command of an executed path."""

    def __init__(self, node: Node, engine: IKEngine, settings: Callable[[], NodeSettings],
                 send: Callable[[PathOutcome], None], joint_limits: Mapping[str, JointLimit],
                 max_pending: Callable[[], int],
                 collision_model: Callable[[], Optional[Any]] = lambda: None,
                 publish: Callable[[PathCommand], None] = lambda command: None) -> None:
        """
        Create the service on ``node``.

        :param node: The node.
        :param engine: The node's engine.
        :param settings: Returns the current parameter snapshot.
        :param send: Logs the outcome (its command, if any, was sent).
        :param joint_limits: Per-joint limits (see :func:`read_joint_limits_file`).
        :param max_pending: Returns the largest number of requests held at once.
        :param collision_model: Returns the node's collision model now (``check(q)`` with a
            report's ``colliding``), or None while it has none; asked once per request, so a
            model swapped for new obstacles applies to the next request; the command is
            checked again against the scene as it is when it is sent.
        :param publish: Sends a path command (the command sink's ``send_path``).
        """
        self._node = node
        self._engine = engine
        self._settings = settings
        self._send = send
        self._joint_limits = dict(joint_limits)
        self._collision_model = collision_model
        self._publish = publish
        self._service = SolveIKService(node, self._answer, max_pending, workers=PATH_WORKERS,
                                       service_type=CartesianPath,
                                       service_name=CARTESIAN_PATH_SERVICE,
                                       label='CartesianPath')

    @property
    def service_name(self) -> str:
        """Return the fully qualified name of the service."""
        return self._service.service_name

    @property
    def callback_group(self) -> CallbackGroup:
        """Return the group of the service and of its wake-ups (thread-safe callbacks)."""
        return self._service.callback_group

    def close(self, timeout: float) -> None:
        """Stop taking requests (see :meth:`SolveIKService.close`)."""
        self._service.close(timeout)

    def _answer(self, request: CartesianPath.Request,
                response: CartesianPath.Response) -> CartesianPath.Response:
        # Runs on the service's worker; an exception becomes INTERNAL_ERROR there.
        started = time.perf_counter()
        settings, asked = self._settings(), path_request(request)
        outcome = self._engine.handle_path(asked, settings, joint_limits=self._joint_limits,
                                           collision=self._collision_model())
        # Checked again against the scene as it is when it is sent, then sent.
        with path_publication(self._engine.robot, self._engine.timing, outcome, settings,
                              checked=asked.avoid_collisions or settings.avoid_collisions
                              ) as outcome:
            if outcome.command is not None:
                self._publish(outcome.command)
        self._send(outcome)
        if len(request.waypoints) > LARGE_REQUEST_WAYPOINTS:
            # The memory of a huge request goes back to the system once rclpy let it go.
            threading.Timer(1.0, release_memory).start()
        return fill_path_response(response, outcome, time.perf_counter() - started,
                                  self._node.get_clock().now().to_msg())
