# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The node's parameter services, answered whatever a client sends.

rclpy's own handlers turn each ``rcl_interfaces/Parameter`` into a
:class:`rclpy.parameter.Parameter` outside any ``try``: a value of an unknown type (``type:
99``) raises ``ValueError`` in the executor, which ends the node, and the caller never gets an
answer. Here the handlers of the node's parameter services are replaced by guarded ones: a
parameter that cannot be read is refused with a reason, the others of a ``set_parameters`` call
are still set one by one, and any other failure of a handler gives an empty answer, logged.
"""

from typing import Any, Callable, Sequence

from rcl_interfaces.msg import Parameter as ParameterMessage, SetParametersResult
from rcl_interfaces.srv import SetParameters, SetParametersAtomically
from rclpy.node import Node
from rclpy.parameter import Parameter

__all__ = ['guard_parameter_services']

Handler = Callable[[Any, Any], Any]


def guard_parameter_services(node: Node) -> int:
    """
    Replace the handlers of the node's parameter services by ones that always answer.

    :param node: A node created with its parameter services (rclpy's default).
    :returns: The number of services guarded (6 with rclpy's parameter services).
    """
    guarded = 0
    for service in node.services:
        if service.srv_type is SetParameters:
            service.callback = _guarded(node, _set_each(node), service.srv_name)
        elif service.srv_type is SetParametersAtomically:
            service.callback = _guarded(node, _set_atomically(node), service.srv_name)
        elif service.srv_type.__module__.startswith('rcl_interfaces.'):
            service.callback = _guarded(node, service.callback, service.srv_name)
        else:
            continue
        guarded += 1
    return guarded


def _guarded(node: Node, handler: Handler, name: str) -> Handler:
    def answer(request: Any, response: Any) -> Any:
        try:
            return handler(request, response)
        except Exception as error:  # noqa: B902 - a request must not end the node
            node.get_logger().warning('%s: request refused: %r' % (name, error))
            return type(response)()
    return answer


def _result(node: Node, messages: Sequence[ParameterMessage]) -> SetParametersResult:
    # Every message is read before any is set: set_parameters_atomically sets all or none.
    parameters = []
    for message in messages:
        try:
            parameters.append(Parameter.from_parameter_msg(message))
        except (ValueError, TypeError) as error:
            return _refused(node, 'parameter %r: its value cannot be read (%s)'
                            % (message.name[:100], error))
    try:
        return node.set_parameters_atomically(parameters)
    except Exception as error:  # noqa: B902 - undeclared, wrong type, or a callback failing
        return _refused(node, '%s: %s' % (type(error).__name__, error))


def _refused(node: Node, reason: str) -> SetParametersResult:
    node.get_logger().warning('parameter change refused: %s' % reason)
    return SetParametersResult(successful=False, reason=reason)


def _set_each(node: Node) -> Handler:
    def handle(request: SetParameters.Request,
               response: SetParameters.Response) -> SetParameters.Response:
        response.results = [_result(node, [message]) for message in request.parameters]
        return response
    return handle


def _set_atomically(node: Node) -> Handler:
    def handle(request: SetParametersAtomically.Request,
               response: SetParametersAtomically.Response) -> SetParametersAtomically.Response:
        response.result = _result(node, request.parameters)
        return response
    return handle
