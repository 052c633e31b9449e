# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Approximate tracking of the ik_node over real DDS, from both singular UR starts."""

import numpy as np
import pytest

from ik_solvers.demo.scripted_drag import figure_eight, out_of_reach
from ik_solvers_interfaces.msg import ErrorCodes
from test_node_support import (
    jtc_accepts,
    oracle_confirms,
    oracle_confirms_errors,
    same_position,
    UR5,
    UR5_CHAIN as CHAIN,
    UR5_ORACLE as ORACLE,
)

Codes = ErrorCodes
STARTS = {
    'zero': np.zeros(6),
    'upright': np.array([0.0, -1.57, 0.0, -1.57, 0.0, 0.0]),
}
# The node's default max_joint_jump, rad; rounding allowance on it.
BOUND = 0.087
ROUNDING = 1e-9


def _start(ros, start, **parameters):
    node, probe = ros.start(**parameters)
    probe.stream_joint_states(CHAIN.joint_names, start)
    probe.publish_description(UR5)
    probe.wait_for_model()
    return node, probe


def _reached_marker(probe, goal):
    markers = probe.markers.wait_for(lambda m: any(
        marker.ns == 'ik_target' and same_position(marker.pose, goal, 1e-6)
        for marker in m.markers))
    return [marker for marker in markers.markers if marker.ns == 'ik_reached'][0]


def test_the_status_and_the_service_share_the_approximate_code():
    assert Codes.APPROXIMATE == 12


@pytest.mark.parametrize('start_name', sorted(STARTS))
def test_a_drag_from_a_singular_start_is_followed_within_the_bound(ros, start_name):
    start = CHAIN.clip(STARTS[start_name])
    node, probe = _start(ros, start)
    path = figure_eight(CHAIN.fk(start), count=300)[:25]
    far = out_of_reach(CHAIN.fk(start), count=2, reach=CHAIN.arrays.reach)
    last = start
    approximate_seen = False
    for goal in path + far:
        count = probe.statuses.count()
        commands = probe.commands.count()
        probe.publish_target(goal)
        status = probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=count)
        assert status.error_code in (Codes.SUCCESS, Codes.APPROXIMATE), status.message
        assert status.commanded, status.message
        command = probe.commands.wait_for(lambda c: True, start=commands)
        assert jtc_accepts(command, CHAIN.joint_names)
        positions = np.array(command.points[-1].positions)
        assert np.allclose(positions, status.solution.position)
        # No joint moves more than the bound from the last command; the limits are checked
        # by the oracle (the tests' own FK and URDF limits) below.
        assert np.max(np.abs(positions - last)) <= BOUND + ROUNDING
        if status.error_code == Codes.SUCCESS:
            assert status.success
            oracle_confirms(ORACLE, command.joint_names, command.points[-1].positions, goal)
        else:
            approximate_seen = True
            assert not status.success
            # The errors reported are those of the solution, by the oracle, and the command
            # (that solution) keeps the URDF limits.
            oracle_confirms_errors(ORACLE, status.solution.name, status.solution.position,
                                   goal, status.position_error, status.orientation_error)
            assert ORACLE.limit_violations(positions) == []
            marker = _reached_marker(probe, goal)
            assert marker.color.r > 0.5 and marker.color.g > 0.5  # yellow: approximate
        last = positions
        probe.stream_joint_states(CHAIN.joint_names, positions)  # the arm follows
    assert approximate_seen
    assert status.error_code == Codes.APPROXIMATE  # the last goal is out of reach


def test_the_service_answers_approximately_only_when_asked(ros):
    start = CHAIN.clip(STARTS['upright'])
    node, probe = _start(ros, start)
    far = out_of_reach(CHAIN.fk(start), count=1, reach=CHAIN.arrays.reach)[0]
    plain = probe.call(probe.target_request(far))
    assert plain.error_code in (Codes.NO_SOLUTION, Codes.TIMED_OUT) and not plain.success
    count = probe.commands.count()
    asked = probe.call(probe.target_request(far, approximate=True))
    assert asked.error_code == Codes.APPROXIMATE and not asked.success, asked.message
    positions = np.array(asked.solution.position)
    assert np.max(np.abs(positions - start)) <= BOUND + ROUNDING
    oracle_confirms_errors(ORACLE, asked.solution.name, asked.solution.position, far,
                           asked.position_error, asked.orientation_error)
    executed = probe.call(probe.target_request(far, approximate=True, execute=True))
    assert executed.error_code == Codes.APPROXIMATE and not executed.success
    # Only the request with execute was commanded.
    command = probe.commands.wait_for(lambda c: True, start=count)
    assert np.allclose(command.points[-1].positions, executed.solution.position)
    assert probe.commands.count() == count + 1
    oracle_confirms_errors(ORACLE, executed.solution.name, executed.solution.position, far,
                           executed.position_error, executed.orientation_error)
    assert ORACLE.limit_violations(command.points[-1].positions) == []


def test_without_approximate_tracking_the_singular_start_refuses(ros):
    start = CHAIN.clip(STARTS['zero'])
    node, probe = _start(ros, start, approximate_tracking=False)
    goal = figure_eight(CHAIN.fk(start), count=300)[3]
    count = probe.statuses.count()
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=count)
    assert status.error_code in (Codes.EXECUTION_FAILED, Codes.NO_SOLUTION, Codes.TIMED_OUT)
    assert not status.commanded and not status.success
    marker = _reached_marker(probe, goal)
    assert marker.color.r > 0.5 and marker.color.g < 0.5  # red: nothing commanded
