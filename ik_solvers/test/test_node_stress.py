# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node under hostile input and overload, over real DDS.

Every call is answered, every bad input refused with a reason, and stale joint states are
never commanded from.

Bounded to a few seconds each. No time is asserted: a call is answered within the harness's
generous wait or the test fails as a hang; how fast the node answers is measured by
ik_solvers_benchmarks.node_stress.
"""

import threading
import time

from ik_solvers_benchmarks.hostile_inputs import (
    bad_descriptions,
    padded_description,
    repeated_names,
)
from ik_solvers.engine.description_loader import MAX_DESCRIPTION_BYTES
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
from test_node_support import (
    oracle_confirms,
    same_position,
    start_ur5_node,
    UR5,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    UR5_ORACLE as ORACLE,
    wait_until,
    WAIT,
)

Codes = ErrorCodes


def _goals(count, seed=0):
    rng = np.random.default_rng(seed)
    return [CHAIN.fk(HOME + rng.uniform(-0.3, 0.3, CHAIN.num_joints)) for _ in range(count)]


def _send_all(probe, requests):
    """Send every request at once; return the futures and an event per future."""
    sent = []
    for request in requests:
        future = probe.solve_ik.call_async(request)
        done = threading.Event()
        future.add_done_callback(lambda _, done=done: done.set())
        sent.append((future, done))
    return sent


def _answers(sent, timeout=WAIT):
    deadline = time.monotonic() + timeout
    return [future.result() if done.wait(max(0.0, deadline - time.monotonic())) else None
            for future, done in sent]


def test_a_burst_of_50_concurrent_calls_gets_50_answers(ros):
    node, probe = start_ur5_node(ros)
    answers = _answers(_send_all(probe, [probe.target_request(goal)
                                         for goal in _goals(50)]))
    unanswered = sum(1 for answer in answers if answer is None)
    assert unanswered == 0, '%d of 50 calls were never answered' % unanswered
    codes = {answer.error_code for answer in answers}
    assert codes <= {Codes.SUCCESS, Codes.BUSY}, [answer.message for answer in answers]
    # Well below max_pending_requests (100): all of them are solved, none refused.
    assert codes == {Codes.SUCCESS}
    for answer, goal in zip(answers, _goals(50)):
        oracle_confirms(ORACLE, answer.solution.name, answer.solution.position, goal)


def _busy_request(probe, seconds):
    """
    Ask for a target just beyond the arm's reach, which keeps a solver busy ``seconds``.

    The solver cannot prove it out of reach (it lies within the sum of the link lengths), so
    it searches until the deadline. A reachable target with a tolerance of 1e-300 does not do
    that reliably: a solve can land on it exactly, with errors of exactly zero.
    """
    searched = np.eye(4)
    searched[:3, 3] = [1.0, 0.0, 0.3]
    request = probe.target_request(searched, solver='jacobian_transpose')
    request.timeout.sec = seconds
    return request


def test_calls_beyond_max_pending_requests_are_answered_busy_while_two_are_solved(ros):
    node, probe = start_ur5_node(ros, max_pending_requests=2)
    goal = _goals(1)[0]
    # Generous: the calls below are answered long before these two solves end.
    slow = _send_all(probe, [_busy_request(probe, 9) for _ in range(2)])
    # One client's requests are taken in the order sent: these reach the node after the two
    # slow ones hold both places.
    quick = _answers(_send_all(probe, [probe.target_request(goal) for _ in range(8)]))
    assert all(answer is not None for answer in quick), 'a call went unanswered'
    # Both slow solves were still running when the refusals came back.
    assert not any(done.is_set() for _, done in slow), 'a slow solve ended early'
    for answer in quick:
        assert answer.error_code == Codes.BUSY and not answer.success, answer.message
        assert '2 SolveIK requests' in answer.message, answer.message
        assert 'max_pending_requests = 2' in answer.message, answer.message
    # The slow ones ran to their deadline, unmet; then the node solves again.
    for answer in _answers(slow):
        assert answer is not None, 'a slow call went unanswered'
        assert answer.error_code in (Codes.TIMED_OUT, Codes.NO_SOLUTION), answer.message
    response = probe.call(probe.target_request(goal))
    assert response.success, response.message
    oracle_confirms(ORACLE, response.solution.name, response.solution.position, goal)


def test_a_20000_name_joint_states_message_is_refused_and_the_node_still_answers(ros):
    node, probe = start_ur5_node(ros)
    names = repeated_names(20_000)
    for _ in range(3):
        probe.publish_joint_states(names, [0.0] * len(names))
    # Answered within the harness's generous wait; that the check is linear in the number of
    # names is test_node_conversions.py's business, counted in comparisons, not seconds.
    goal = _goals(1)[0]
    response = probe.call(probe.target_request(goal))
    assert response.success, response.message
    oracle_confirms(ORACLE, response.solution.name, response.solution.position, goal)
    refusal = probe.logs.wait_for(lambda log: '20000 names' in log.msg)
    assert 'joint_states' in refusal.name and 'at most' in refusal.msg, refusal.msg


def test_calls_are_answered_while_a_description_is_parsed_and_none_is_lost(ros):
    node, probe = start_ur5_node(ros)
    # The same chain in a description of about 2.5 MB: seconds to parse.
    padded = padded_description(UR5, 25_000, 'base_link')
    goals = _goals(20, seed=1)
    handled = node.descriptions_received
    logs = probe.logs.count()
    sent = []
    during_parse = 0
    probe.publish_description(padded)
    swap_started = time.monotonic()
    # Hang bound: the parse takes seconds; only a parse that never ends reaches 120 s.
    while node.descriptions_received == handled and time.monotonic() - swap_started < 120.0:
        # Four calls at a time, each answered before the next four go out.
        batch = [goals[(len(sent) + k) % len(goals)] for k in range(4)]
        answers = _answers(_send_all(probe, [probe.target_request(goal) for goal in batch]))
        # Answered while the description was still being handled: a parse on the executor
        # thread would have held every call until it was over.
        during_parse += node.descriptions_received == handled
        sent.extend(zip(answers, batch))
    assert node.descriptions_received > handled, 'the padded description was never handled'
    assert during_parse >= 1, 'no call was answered while the description was parsed'
    assert all(answer is not None for answer, _ in sent), 'calls were lost during the swap'
    for answer, goal in sent:
        assert answer.success, answer.message
        oracle_confirms(ORACLE, answer.solution.name, answer.solution.position, goal)
    # Adopted, not refused: the node logged the new model.
    probe.logs.wait_for(lambda log: 'robot model from' in log.msg, start=logs)


@pytest.mark.parametrize('label, expected', [
    ('infinite origin', 'joint \'shoulder_pan_joint\': <origin rpy="0 inf 0">: rpy must be '
                        'finite'),
    ('revolute joint without <limit>', "joint 'shoulder_pan_joint' is revolute but has no "
                                       '<limit>'),
    ('limit without velocity', "joint 'shoulder_pan_joint': <limit> has no velocity "
                               'attribute'),
    ('unknown joint type', "joint 'shoulder_pan_joint' has unknown type 'hinge'"),
    ('21 MB', 'at most %d bytes are accepted' % MAX_DESCRIPTION_BYTES),
])
def test_a_bad_description_is_refused_naming_what_is_wrong_and_the_model_stays(
        ros, label, expected):
    node, probe = start_ur5_node(ros)
    bad = {case.label: case.payload for case in bad_descriptions(UR5)}
    logs = probe.logs.count()
    handled = node.descriptions_received
    probe.publish_description(bad[label])
    assert wait_until(lambda: node.descriptions_received > handled)
    refusal = probe.logs.wait_for(lambda log: 'refused the description' in log.msg, start=logs)
    assert expected in refusal.msg, refusal.msg
    assert 'keeping the previous robot model' in refusal.msg
    goal = _goals(1)[0]
    response = probe.call(probe.target_request(goal))
    assert response.success, response.message
    oracle_confirms(ORACLE, response.solution.name, response.solution.position, goal)


def test_stale_joint_states_stop_commands_until_fresh_ones_arrive(ros):
    # The goals move a joint by up to 0.25 rad at once: exact steps within 0.35.
    node, probe = start_ur5_node(ros, joint_state_timeout=0.3, max_joint_jump=0.35)
    goals = _goals(3, seed=2)
    probe.publish_target(goals[0])
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goals[0]))
    assert status.success and status.commanded, status.message
    oracle_confirms(ORACLE, status.solution.name, status.solution.position, goals[0])
    probe.stop_joint_states()  # the driver died
    # Not a wait for an event: the joint states must grow older than joint_state_timeout,
    # which takes this long at least, however loaded the machine.
    time.sleep(0.6)
    start = probe.statuses.count()
    commands = probe.commands.count()
    probe.publish_target(goals[1])
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goals[1]), start=start)
    assert status.error_code == Codes.EXECUTION_FAILED and not status.commanded
    assert 'joint_state_timeout = 0.3 s' in status.message, status.message
    warning = probe.logs.wait_for(lambda log: log.name.endswith('joint_states_stale'))
    assert 'not commanded' in warning.msg
    response = probe.call(probe.target_request(goals[1], execute=True))
    assert response.error_code == Codes.EXECUTION_FAILED, response.message
    # Fresh joint states: commands again, once the node has them (a target sent before they
    # arrive is refused as stale, like the one above, and sent again).
    probe.stream_joint_states(CHAIN.joint_names, HOME)
    statuses = []

    def commanded_from_fresh_joint_states():
        start = probe.statuses.count()
        probe.publish_target(goals[2])
        statuses.append(probe.statuses.wait_for(
            lambda s: same_position(s.target, goals[2]), start=start))
        assert statuses[-1].commanded or 'joint_state_timeout' in statuses[-1].message, (
            statuses[-1].message)
        return statuses[-1].commanded

    assert wait_until(commanded_from_fresh_joint_states)
    status = statuses[-1]
    assert status.success, status.message
    command = probe.commands.wait_for(
        lambda c: list(c.points[-1].positions) == list(status.solution.position),
        start=commands)
    # Commands go out in order on one topic: this one arriving as the only one since the
    # driver died shows that the refusals above sent nothing.
    assert probe.commands.count() == commands + 1
    oracle_confirms(ORACLE, command.joint_names, command.points[-1].positions, goals[2])
