# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node under hostile input and overload, over real DDS.

Every call is answered, every bad input refused with a reason, and stale joint states are
never commanded from.

Bounded to a few seconds each. The only time limits asserted are generous ones that the
defects they guard against broke by far (a quadratic check, a parse on the executor thread).
"""

import threading
import time

from ik_solvers.benchmarks.hostile_inputs import (
    bad_descriptions,
    padded_description,
    repeated_names,
)
from ik_solvers.engine.description_loader import MAX_DESCRIPTION_BYTES
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
import pytest
from test_node_support import (
    same_position,
    start_ur5_node,
    UR5,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    wait_until,
    WAIT,
)

Codes = SolveIK.Response
#: Seconds: a valid call right after a 20,000-name joint_states message must be answered
#: within this. Counting each name took 4 to 8 s per message here; a linear check takes ms.
PROMPT = 2.0


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


def test_calls_beyond_max_pending_requests_are_answered_busy_at_once(ros):
    node, probe = start_ur5_node(ros, max_pending_requests=2)
    far = np.eye(4)
    far[:3, 3] = [5.0, 0.0, 0.0]  # out of reach: each solve runs to its 2 s deadline
    requests = []
    for _ in range(10):
        request = probe.target_request(far)
        request.timeout.sec = 2
        requests.append(request)
    answers = _answers(_send_all(probe, requests))
    assert all(answer is not None for answer in answers), 'a call went unanswered'
    busy = [answer for answer in answers if answer.error_code == Codes.BUSY]
    solved = [answer for answer in answers if answer.error_code != Codes.BUSY]
    assert busy and len(solved) >= 2, [answer.message for answer in answers]
    assert all(answer.error_code in (Codes.TIMED_OUT, Codes.NO_SOLUTION) for answer in solved)
    for answer in busy:
        assert not answer.success
        assert 'max_pending_requests = 2' in answer.message, answer.message
    # The node is not stuck: once the slow ones are done it solves again.
    assert probe.call(probe.target_request(_goals(1)[0])).success


def test_a_20000_name_joint_states_message_is_refused_and_the_node_answers_promptly(ros):
    node, probe = start_ur5_node(ros)
    names = repeated_names(20_000)
    for _ in range(3):
        probe.publish_joint_states(names, [0.0] * len(names))
    started = time.monotonic()
    response = probe.call(probe.target_request(_goals(1)[0]))
    elapsed = time.monotonic() - started
    assert response.success, response.message
    assert elapsed < PROMPT, 'answered after %.1f s' % elapsed
    refusal = probe.logs.wait_for(lambda log: '20000 names' in log.msg)
    assert 'joint_states' in refusal.name and 'at most' in refusal.msg, refusal.msg


def test_a_description_swap_while_calls_stream_loses_none_of_them(ros):
    node, probe = start_ur5_node(ros)
    # The same chain in a description of about 2.5 MB: seconds to parse.
    padded = padded_description(UR5, 25_000, 'base_link')
    goals = _goals(20, seed=1)
    handled = node.descriptions_received
    logs = probe.logs.count()
    sent = []
    latencies = []
    probe.publish_description(padded)
    swap_started = time.monotonic()
    while node.descriptions_received == handled and time.monotonic() - swap_started < 120.0:
        # Four calls at a time, each answered before the next four go out.
        batch = [probe.target_request(goals[(len(sent) + k) % len(goals)]) for k in range(4)]
        started = time.monotonic()
        answers = _answers(_send_all(probe, batch))
        latencies.append(time.monotonic() - started)
        sent.extend(answers)
    assert node.descriptions_received > handled, 'the padded description was never handled'
    assert len(sent) >= 8, 'the swap ended before calls could stream through it'
    assert all(answer is not None for answer in sent), 'calls were lost during the swap'
    assert all(answer.success for answer in sent), [a.message for a in sent if not a.success]
    # Parsed on the executor thread, the description held every call for the whole parse.
    assert max(latencies) < 1.0, 'a batch of calls waited %.2f s' % max(latencies)
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
    assert probe.call(probe.target_request(_goals(1)[0])).success


def test_stale_joint_states_stop_commands_until_fresh_ones_arrive(ros):
    node, probe = start_ur5_node(ros, joint_state_timeout=0.3)
    goals = _goals(3, seed=2)
    probe.publish_target(goals[0])
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goals[0]))
    assert status.success and status.commanded, status.message
    probe.stop_joint_states()  # the driver died
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
    assert probe.commands.count() == commands
    # Fresh joint states: commands again.
    probe.stream_joint_states(CHAIN.joint_names, HOME)
    time.sleep(0.1)
    start = probe.statuses.count()
    probe.publish_target(goals[2])
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goals[2]), start=start)
    assert status.success and status.commanded, status.message
