# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""SolveIK over DDS returns several distinct verified solutions; the preference parameter."""

from ik_solvers.solvers.solutions import joint_distance, turn_joints
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from rclpy.parameter import Parameter
from test_node_support import oracle_confirms, start_ur5_node, UR5_CHAIN, UR5_HOME, UR5_ORACLE

Codes = SolveIK.Response


def _eight_solutions_request(probe):
    # A pose of the UR5 near its home with several solutions within limits.
    goal = UR5_CHAIN.fk(UR5_HOME + np.array([0.1, -0.1, 0.1, 0.05, -0.1, 0.1]))
    request = probe.target_request(goal)
    request.max_solutions = 8
    request.timeout.sec = 1
    return goal, request


def test_solve_ik_returns_several_distinct_verified_solutions(ros):
    node, probe = start_ur5_node(ros)
    goal, request = _eight_solutions_request(probe)
    response = probe.call(request)
    assert response.success, response.message
    assert 2 <= len(response.solutions) <= 8
    modulo = turn_joints(UR5_CHAIN)
    seen = []
    for state in response.solutions:
        oracle_confirms(UR5_ORACLE, state.name, state.position, goal)
        q = np.array(state.position)
        assert all(joint_distance(q, other, modulo) > 0.01 for other in seen)
        seen.append(q)
    # The answer is the first (best) of them: with nearest, the one nearest the seed.
    assert np.allclose(response.solution.position, response.solutions[0].position)
    one = probe.call(probe.target_request(goal))
    assert one.success and len(one.solutions) == 0


def test_the_preference_parameter_and_field_order_the_answer(ros):
    node, probe = start_ur5_node(ros)
    result = node.set_parameters([Parameter('preference', value='limit_margin')])[0]
    assert result.successful, result.reason
    refused = node.set_parameters([Parameter('preference', value='prettiest')])[0]
    assert not refused.successful and 'preference' in refused.reason
    goal, request = _eight_solutions_request(probe)
    response = probe.call(request)
    assert response.success, response.message
    lower, upper = UR5_CHAIN.lower, UR5_CHAIN.upper

    def margin(state):
        q = np.array(state.position)
        low = (q - lower) / (upper - lower)
        return float(np.min(np.minimum(low, 1.0 - low)))

    margins = [margin(state) for state in response.solutions]
    assert margins == sorted(margins, reverse=True)
    request.preference = 'nowhere'
    bad = probe.call(request)
    assert not bad.success and 'preference' in bad.message


def test_the_rest_posture_parameter_orders_the_answer_by_distance_to_it(ros):
    node, probe = start_ur5_node(ros)
    goal, request = _eight_solutions_request(probe)
    first = probe.call(request)
    assert first.success and len(first.solutions) >= 2, first.message
    # The rest: the last of the solutions nearest the seed, so the order must change.
    rest = list(first.solutions[-1].position)
    results = node.set_parameters([Parameter('preference', value='rest_posture'),
                                   Parameter('rest_posture', value=rest)])
    assert all(result.successful for result in results), [r.reason for r in results]
    refused = node.set_parameters([Parameter('rest_posture', value=[0.0, float('nan')])])[0]
    assert not refused.successful and 'rest_posture' in refused.reason
    response = probe.call(request)
    assert response.success, response.message
    modulo = turn_joints(UR5_CHAIN)
    distances = [joint_distance(np.array(state.position), np.array(rest), modulo)
                 for state in response.solutions]
    assert distances[0] < 0.05  # the solution at the rest comes first
    oracle_confirms(UR5_ORACLE, response.solution.name, response.solution.position, goal)
    # Emptied again, the rest is the middle of the limits.
    assert node.set_parameters([Parameter('rest_posture', value=[])])[0].successful
    assert probe.call(request).success
