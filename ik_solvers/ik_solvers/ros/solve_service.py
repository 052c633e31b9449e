# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node's services: every request is answered, by a solve or at once with BUSY.

:class:`SolveIKService` serves SolveIK by default; the CartesianPath service is the same class
with its own type, name and pool (see :mod:`.cartesian_path_service`), so a long path never
holds up a SolveIK call, nor the streamed targets.

With a plain callback the executor thread solves one request at a time, and the middleware
keeps only a few requests waiting: the rest of a burst was dropped and its callers waited
forever. Here the callback is a coroutine. It hands the request to a
:class:`~.request_pool.RequestPool` and yields, so the executor goes on taking requests,
targets and joint states; a guard condition wakes the executor when a solve is done, and the
coroutine then returns the response. The request queue is deep enough for large bursts, and
the pool's bound turns overload into an immediate BUSY answer instead of a silent drop.
"""

from concurrent.futures import Future
from typing import Any, Callable, Generator, Type

from ik_solvers_interfaces.srv import SolveIK
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from ..engine.error_codes import ErrorCode
from .names import SOLVE_IK_SERVICE
from .request_pool import RequestPool

__all__ = ['SERVICE_QUEUE_DEPTH', 'SERVICE_WORKERS', 'SolveIKService']

#: Requests the middleware keeps for the service until the executor takes them. The callback
#: takes each one within microseconds, so this only has to cover the arrivals during one pass
#: of the executor; the default of 10 lost calls in bursts of 11 or more.
SERVICE_QUEUE_DEPTH = 1000

#: Threads solving service requests: a slow solve (up to its timeout) leaves the others free.
#: More would not solve faster: the solvers are Python and share one interpreter lock.
SERVICE_WORKERS = 2

#: Answers one request on a worker thread: ``answer(request, response) -> response``; must
#: not raise.
AnswerFunction = Callable[[Any, Any], Any]


class _Completion:
    """Awaitable in an rclpy coroutine: yields to the executor until a future is done."""

    def __init__(self, future: Future) -> None:
        self._future = future

    def __await__(self) -> Generator[None, None, None]:
        # rclpy resumes a waiting coroutine each time its executor wakes; the pool wakes it
        # through the guard condition once the future is done.
        while not self._future.done():
            yield


class SolveIKService:
    """The ``~/solve_ik`` service of a node, answered on a pool of worker threads."""

    def __init__(self, node: Node, answer: AnswerFunction, max_pending: Callable[[], int],
                 *, workers: int = SERVICE_WORKERS, service_type: Type = SolveIK,
                 service_name: str = SOLVE_IK_SERVICE, label: str = 'SolveIK') -> None:
        """
        Create the service on ``node``.

        :param node: The node that owns the service.
        :param answer: Fills the response of one request; runs on a worker thread.
        :param max_pending: Returns the largest number of requests held at once (being solved
            or waiting); read for every request, so a parameter change applies at once.
        :param workers: Number of worker threads.
        :param service_type: The service type; its response has ``success``, ``error_code``
            and ``message``, and shares SolveIK's BUSY and INTERNAL_ERROR codes.
        :param service_name: The service's name.
        :param label: Names the service in messages and the pool's threads.
        """
        self._answer = answer
        self._max_pending = max_pending
        self._label = label
        self._pool = RequestPool(workers, name=label.lower())
        # In the node's default group a waiting coroutine would keep the group busy: the
        # executor would take no other callback of the node, nor this guard condition, until
        # the solve is done. A reentrant group lets requests and wake-ups in meanwhile.
        group = self.callback_group = ReentrantCallbackGroup()
        self._wake = node.create_guard_condition(self._woken, callback_group=group)
        qos = QoSProfile(depth=SERVICE_QUEUE_DEPTH, reliability=ReliabilityPolicy.RELIABLE)
        self._service = node.create_service(service_type, service_name, self._on_request,
                                            qos_profile=qos, callback_group=group)

    @property
    def service_name(self) -> str:
        """Return the fully qualified name of the service."""
        return self._service.service_name

    @property
    def pending(self) -> int:
        """Count the requests being solved or waiting for a worker."""
        return self._pool.pending

    def close(self, timeout: float) -> None:
        """
        Stop taking requests: waiting ones are dropped, running ones finish.

        :param timeout: Longest wait for the running solves, in seconds.
        """
        self._pool.close(timeout)

    @staticmethod
    def _woken() -> None:
        """Nothing to do: the guard condition only wakes the executor."""

    def _wake_executor(self) -> None:
        try:
            self._wake.trigger()
        except Exception:  # noqa: B902 - the node may be destroyed while a solve finishes
            pass

    async def _on_request(self, request: Any, response: Any) -> Any:
        limit = self._max_pending()
        future = self._pool.try_submit(lambda: self._answer(request, response), limit,
                                       on_done=self._wake_executor)
        if future is None:
            return self._refuse(response, ErrorCode.BUSY, (
                'busy: %d %s requests are being solved or waiting (max_pending_requests '
                '= %d); this one was not solved, try again later'
                % (self._pool.pending, self._label, limit)))
        await _Completion(future)
        if future.cancelled():
            return self._refuse(response, ErrorCode.BUSY,
                                'busy: the node is shutting down; this request was not solved')
        error = future.exception()
        if error is not None:
            return self._refuse(response, ErrorCode.INTERNAL_ERROR, 'internal error: %r' % error)
        return future.result()

    @staticmethod
    def _refuse(response: Any, code: ErrorCode, message: Any) -> Any:
        response.success = False
        response.error_code = int(code)
        response.message = message
        return response
