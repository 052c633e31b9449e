# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The parameter services answer every request, and ranges are checked exactly as written."""

import threading

from ik_solvers.engine.settings import check_parameter, PARAMETERS
from ik_solvers_interfaces.msg import ErrorCodes
from ik_solvers_interfaces.srv import SolveIK
from rcl_interfaces.msg import Parameter as ParameterMessage, ParameterType, ParameterValue
from rcl_interfaces.srv import GetParameters, SetParameters, SetParametersAtomically
import pytest
from test_node_support import WAIT


def _call(node, service_type, name, request):
    client = node.create_client(service_type, name)
    assert client.wait_for_service(timeout_sec=WAIT), name
    future = client.call_async(request)
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    assert done.wait(WAIT), 'no answer from %s: the node died or dropped the request' % name
    return future.result()


def _parameter(name, type_, **value):
    return ParameterMessage(name=name, value=ParameterValue(type=type_, **value))


def _value(probe, name):
    response = _call(probe.node, GetParameters, 'ik_node/get_parameters',
                     GetParameters.Request(names=[name]))
    return response.values[0].double_value


def test_ranges_are_checked_exactly_as_written():
    for spec in PARAMETERS:
        bounds = spec.floating_range or spec.integer_range
        if bounds is None:
            continue
        low, high = bounds
        assert check_parameter(spec.name, low) is None, spec.name
        assert check_parameter(spec.name, high) is None, spec.name
        if spec.floating_range is not None:
            # Inside rclpy's relative slack of 1e-6, yet outside the range.
            assert check_parameter(spec.name, high * (1 + 9e-7) + 1e-12) is not None, spec.name
            if low > 0.0:
                assert check_parameter(spec.name, low * (1 - 9e-7)) is not None, spec.name
        else:
            assert check_parameter(spec.name, high + 1) is not None, spec.name
    reason = check_parameter('velocity_scale', 1.0000009)
    assert 'velocity_scale' in reason and '1.0' in reason


def test_a_value_of_unknown_type_is_refused_and_the_node_keeps_running(ros):
    _, probe = ros.start()
    bad = _parameter('solver', 99)
    good = _parameter('timeout', ParameterType.PARAMETER_DOUBLE, double_value=0.25)
    response = _call(probe.node, SetParameters, 'ik_node/set_parameters',
                     SetParameters.Request(parameters=[bad, good]))
    assert len(response.results) == 2
    assert not response.results[0].successful and '99' in response.results[0].reason
    assert response.results[1].successful  # the readable one of the same call is set
    response = _call(probe.node, SetParametersAtomically, 'ik_node/set_parameters_atomically',
                     SetParametersAtomically.Request(parameters=[
                         _parameter('timeout', ParameterType.PARAMETER_DOUBLE,
                                    double_value=0.3), bad]))
    assert not response.result.successful and '99' in response.result.reason
    assert _value(probe, 'timeout') == pytest.approx(0.25)  # all or nothing
    # The node still answers.
    answer = probe.call(SolveIK.Request())
    assert answer.error_code == ErrorCodes.NO_ROBOT_MODEL


@pytest.mark.parametrize('name, value', [('velocity_scale', 1.0000009),
                                         ('cartesian_timeout', 10.000009),
                                         ('position_tolerance', 0.9999991e-9)])
def test_values_within_rclpys_slack_outside_the_range_are_refused(ros, name, value):
    _, probe = ros.start()
    before = _value(probe, name)
    response = _call(probe.node, SetParameters, 'ik_node/set_parameters',
                     SetParameters.Request(parameters=[_parameter(
                         name, ParameterType.PARAMETER_DOUBLE, double_value=value)]))
    assert not response.results[0].successful
    assert name in response.results[0].reason
    assert _value(probe, name) == before


def test_a_parameter_cannot_be_unset(ros):
    _, probe = ros.start()
    for service_type, name in ((SetParameters, 'ik_node/set_parameters'),
                               (SetParametersAtomically, 'ik_node/set_parameters_atomically')):
        request = service_type.Request(parameters=[_parameter(
            'timeout', ParameterType.PARAMETER_NOT_SET)])
        response = _call(probe.node, service_type, name, request)
        result = response.results[0] if hasattr(response, 'results') else response.result
        assert not result.successful, result.reason
    assert _value(probe, 'timeout') == pytest.approx(0.5)
    answer = probe.call(SolveIK.Request())
    assert answer.error_code == ErrorCodes.NO_ROBOT_MODEL, answer.message
