# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The ik_node in this process, driven over real DDS: topics, service, parameters, bad input."""

from pathlib import Path
import threading

from conftest import UrdfOracle
from ik_solvers import SOLVERS
from ik_solvers.kinematics import RobotModel
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
from rclpy.parameter import Parameter
from rclpy.parameter_client import AsyncParameterClient
from sensor_msgs.msg import JointState
from test_node_support import (
    fk_of_command,
    jtc_accepts,
    oracle_confirms,
    Ros,
    same_position,
    start_ur5_node,
    UR5,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    UR5_ORACLE as ORACLE,
    WAIT,
    wait_until,
)

Codes = ErrorCodes
URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
PLANAR = (URDF_DIR / 'planar_3link.urdf').read_text()
POSITION_TOLERANCE = Ros.DEFAULTS['position_tolerance']


def _goal(offset: float) -> np.ndarray:
    return CHAIN.fk(HOME + np.array([offset, -offset, offset, 0.5 * offset, -offset, offset]))


def _check_command(command, goal):
    assert jtc_accepts(command, CHAIN.joint_names)
    # By the tests' own FK, within the node's tolerances and the URDF limits.
    oracle_confirms(ORACLE, command.joint_names, command.points[-1].positions, goal)


def test_streamed_targets_are_reached_by_every_solver_switched_at_runtime(ros):
    node, probe = start_ur5_node(ros)
    for index, solver in enumerate(SOLVERS):
        result = node.set_parameters([Parameter('solver', value=solver)])[0]
        assert result.successful, result.reason
        goal = _goal(0.05 * (index + 1))
        start = probe.statuses.count()
        probe.publish_target(goal)
        status = probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=start)
        assert status.success and status.commanded, status.message
        assert status.solver == solver
        assert status.error_code == Codes.SUCCESS
        assert status.header.frame_id == 'base_link'
        assert status.position_error <= POSITION_TOLERANCE
        oracle_confirms(ORACLE, status.solution.name, status.solution.position, goal)
        command = probe.commands.wait_for(
            lambda c: np.allclose(c.points[-1].positions, status.solution.position))
        _check_command(command, goal)
    markers = probe.markers.wait_for(lambda m: same_position(
        _marker(m, 'ik_target').pose, goal, 1e-6))
    reached = _marker(markers, 'ik_reached')
    assert reached.color.g > reached.color.r  # green: reached
    assert same_position(reached.pose, fk_of_command(CHAIN, command), 1e-6)


def _marker(markers, namespace):
    return [marker for marker in markers.markers if marker.ns == namespace][0]


def test_target_in_a_moving_link_frame_is_resolved_with_the_joint_states(ros):
    # The goal moves a joint by 0.1 rad at once: an exact step within 0.35, not an approximate.
    node, probe = start_ur5_node(ros, max_joint_jump=0.35)
    goal = _goal(0.1)
    joints = dict(zip(CHAIN.joint_names, HOME))
    base_from_upper_arm = RobotModel.from_urdf(UR5).transform('base_link', 'upper_arm_link',
                                                              joints)
    probe.publish_target(np.linalg.inv(base_from_upper_arm) @ goal, frame_id='upper_arm_link')
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal, 1e-6))
    assert status.success and status.commanded, status.message
    _check_command(probe.commands.wait_for(lambda c: True), goal)


def test_service_round_trip_with_every_solver_and_the_execute_flag(ros):
    node, probe = start_ur5_node(ros)
    for index, solver in enumerate(SOLVERS):
        goal = _goal(-0.05 * (index + 1))
        response = probe.call(probe.target_request(goal, solver=solver))
        assert response.success and response.error_code == Codes.SUCCESS, response.message
        oracle_confirms(ORACLE, response.solution.name, response.solution.position, goal)
        assert response.position_error <= POSITION_TOLERANCE
        assert response.iterations > 0
    executed = probe.call(probe.target_request(
        _goal(0.12), execute=True, solver=SOLVERS[0], position_tolerance=1e-3,
        seed=_joint_state(CHAIN.joint_names[:3], HOME[:3] + 0.1)))
    assert executed.success, executed.message
    assert '; commanded' in executed.message
    command = probe.commands.wait_for(lambda c: True)
    assert list(command.points[-1].positions) == pytest.approx(list(executed.solution.position))
    assert jtc_accepts(command, CHAIN.joint_names)
    oracle_confirms(ORACLE, command.joint_names, command.points[-1].positions, _goal(0.12),
                    position_tolerance=1e-3)
    # The earlier calls without execute moved nothing: this is the only command.
    assert probe.commands.count() == 1


def _joint_state(names, positions):
    return JointState(name=list(names), position=[float(value) for value in positions])


def test_solver_switch_over_the_parameter_service_and_refusals(ros):
    node, probe = start_ur5_node(ros)
    client = AsyncParameterClient(probe.node, node.get_fully_qualified_name())
    assert client.wait_for_services(timeout_sec=WAIT)

    def set_parameter(name, value):
        future = client.set_parameters([Parameter(name, value=value)])
        done = threading.Event()
        future.add_done_callback(lambda _: done.set())
        assert done.wait(WAIT)
        return future.result().results[0]

    other = [name for name in SOLVERS if name != node.get_parameter('solver').value][0]
    assert set_parameter('solver', other).successful
    refused = set_parameter('solver', 'simulated_annealing')
    assert not refused.successful and 'unknown solver' in refused.reason
    assert not set_parameter('timeout', -1.0).successful
    assert not set_parameter('tip_link', 'no_such_link').successful
    assert not set_parameter('command_topic', '/elsewhere').successful
    assert node.get_parameter('solver').value == other
    goal = _goal(0.07)
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal))
    assert status.success and status.solver == other
    oracle_confirms(ORACLE, status.solution.name, status.solution.position, goal)


def test_integer_values_of_float_parameters_are_taken_as_floats(ros):
    # As given by `-p timeout:=1` or `max_joint_jump: 3` in a YAML file.
    node, probe = start_ur5_node(ros, timeout=1, max_joint_jump=3)
    for name, expected in (('timeout', 1.0), ('max_joint_jump', 3.0)):
        value = node.get_parameter(name).value
        assert isinstance(value, float) and value == expected, (name, value)
    client = AsyncParameterClient(probe.node, node.get_fully_qualified_name())
    assert client.wait_for_services(timeout_sec=WAIT)
    future = client.set_parameters(
        [Parameter('max_joint_jump', value=2), Parameter('timeout', value=20)])
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    assert done.wait(WAIT)
    accepted, out_of_range = future.result().results
    assert accepted.successful, accepted.reason
    assert not out_of_range.successful
    value = node.get_parameter('max_joint_jump').value
    assert isinstance(value, float) and value == 2.0
    assert node.get_parameter('timeout').value == 1.0
    goal = _goal(0.04)
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal))
    assert status.success and status.commanded, status.message
    _check_command(probe.commands.wait_for(lambda c: True), goal)


def test_every_bad_input_is_refused_and_the_node_keeps_serving(ros):
    # Its last target is far from where the arm is: the jump bound has tests of its own.
    node, probe = ros.start(max_joint_jump=0.0)
    # Before any description: no solve, no command.
    probe.publish_target(_goal(0.0))
    status = probe.statuses.wait_for(lambda s: True)
    assert status.error_code == Codes.NO_ROBOT_MODEL and not status.commanded
    assert probe.call(probe.target_request(_goal(0.0))).error_code == Codes.NO_ROBOT_MODEL
    # Malformed and unsuitable descriptions leave the node waiting; one that parses but lacks
    # the chain (PLANAR has no tool0) is answered as such.
    for description, code in (('<robot name="broken"><link name="a"', Codes.NO_ROBOT_MODEL),
                              (PLANAR, Codes.CHAIN_REFUSED)):
        handled = node.descriptions_received
        probe.publish_description(description)
        assert wait_until(lambda: node.descriptions_received > handled)
        assert probe.call(probe.target_request(_goal(0.0))).error_code == code
    # Waited for as handled: after PLANAR the node already answers something other than
    # NO_ROBOT_MODEL (CHAIN_REFUSED), so waiting for a model alone could go on before UR5 is in.
    handled = node.descriptions_received
    probe.publish_description(UR5)
    assert wait_until(lambda: node.descriptions_received > handled)
    probe.wait_for_model()
    # Joint states that do not pair up, are not finite, or lack chain joints.
    probe.publish_joint_states(CHAIN.joint_names, [0.0, 1.0])
    probe.publish_joint_states(CHAIN.joint_names, [float('nan')] * 6)
    probe.stream_joint_states(CHAIN.joint_names[:2], HOME[:2])

    bad_targets = [
        ((float('nan'), 0.0, 0.3), (0.0, 0.0, 0.0, 1.0), '', Codes.INVALID_TARGET),
        ((0.3, float('inf'), 0.3), (0.0, 0.0, 0.0, 1.0), '', Codes.INVALID_TARGET),
        ((0.3, 0.1, 0.3), (0.0, 0.0, 0.0, 0.0), '', Codes.INVALID_TARGET),
        ((0.3, 0.1, 0.3), (0.0, 0.0, 0.6, 0.6), '', Codes.INVALID_TARGET),
        ((0.3, 0.1, 0.3), (0.0, 0.0, 0.0, 1.0), 'no_such_frame', Codes.UNKNOWN_FRAME),
    ]
    for position, quaternion, frame_id, code in bad_targets:
        start = probe.statuses.count()
        probe.publish_raw_target(position, quaternion, frame_id)
        status = probe.statuses.wait_for(lambda s: True, start=start)
        assert status.error_code == code, status.message
        assert not status.success and not status.commanded

    goal = _goal(0.1)
    bad_requests = [
        ({'seed': _joint_state([], [0.1, 0.2])}, Codes.INVALID_SEED),
        ({'seed': _joint_state(['gripper'], [0.0])}, Codes.INVALID_SEED),
        ({'seed': _joint_state(CHAIN.joint_names[:2], [0.0])}, Codes.INVALID_SEED),
        ({'solver': 'simulated_annealing'}, Codes.UNKNOWN_SOLVER),
        ({'position_tolerance': -1.0}, Codes.INVALID_TARGET),
    ]
    for fields, code in bad_requests:
        response = probe.call(probe.target_request(goal, **fields))
        assert response.error_code == code and not response.success, response.message
        assert response.message
    for seconds in (-1, 3600):
        request = probe.target_request(goal)
        request.timeout.sec = seconds
        response = probe.call(request)
        assert response.error_code == Codes.INVALID_TIMEOUT, response.message
    not_unit = probe.target_request(goal)
    not_unit.target.pose.orientation.w = 0.0
    assert probe.call(not_unit).error_code == Codes.INVALID_TARGET
    unknown_frame = probe.target_request(goal)
    unknown_frame.target.header.frame_id = 'no_such_frame'
    response = probe.call(unknown_frame)
    assert response.error_code == Codes.UNKNOWN_FRAME and 'no_such_frame' in response.message

    # Nothing was commanded; a bad description now keeps the good model; the node still works.
    handled = node.descriptions_received
    probe.publish_description('not xml at all')
    assert wait_until(lambda: node.descriptions_received > handled)
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal))
    assert status.success and status.commanded, status.message
    _check_command(probe.commands.wait_for(lambda c: True), goal)
    assert probe.commands.count() == 1


def test_a_burst_of_targets_ends_on_the_latest_and_answers_each_solved_one_once_in_order(ros):
    # The newest target wins, so the burst's commands may skip up to its whole 0.1 rad; the
    # 5-degree default would answer the last one approximately.
    node, probe = start_ur5_node(ros, max_joint_jump=0.35)
    goals = [_goal(0.1 * k / 999.0) for k in range(1000)]
    for goal in goals:
        probe.publish_target(goal)
    last = goals[-1]
    status = probe.statuses.wait_for(lambda s: same_position(s.target, last))
    assert status.success and status.commanded, status.message
    oracle_confirms(ORACLE, status.solution.name, status.solution.position, last)
    command = probe.commands.wait_for(
        lambda c: np.allclose(c.points[-1].positions, status.solution.position))
    _check_command(command, last)
    # The last command sent is the last target's solution (an earlier one may equal it: a
    # drag is seeded from the last command, and these targets differ by less than the
    # tolerance).
    assert np.allclose(probe.commands.messages[-1].points[-1].positions,
                       status.solution.position)
    # Each status answers one of the targets, each target at most once, in the order sent:
    # a dropped target is never solved later, a solved one never twice. How many are dropped
    # depends on the load (the mailbox's dropping is pinned down in
    # test_node_latest_target.py).
    answered = [_goal_index(goals, each.target) for each in probe.statuses.messages]
    assert answered == sorted(set(answered)) and answered[-1] == len(goals) - 1, answered
    # Every command went out for one of those statuses, so there are no more of them.
    commanded = [each for each in probe.statuses.messages if each.commanded]
    assert 1 <= probe.commands.count() <= len(commanded), (
        probe.commands.count(), len(commanded))


def _goal_index(goals, pose):
    indices = [index for index, goal in enumerate(goals) if same_position(pose, goal)]
    assert len(indices) == 1, 'the status answers no target sent, or more than one'
    return indices[0]


def test_a_streamed_target_beyond_max_joint_jump_is_refused_and_nothing_is_sent(ros):
    # Without approximate tracking, which would step toward the far target instead.
    node, probe = start_ur5_node(ros, max_joint_jump=0.35, approximate_tracking=False)
    # The base turned by 1.2 rad: every solution moves the first joint that far.
    far = CHAIN.fk(HOME + np.array([1.2, 0.0, 0.0, 0.0, 0.0, 0.0]))
    probe.publish_target(far)
    refused = probe.statuses.wait_for(lambda s: same_position(s.target, far))
    assert not refused.commanded and not refused.success, refused.message
    assert 'max_joint_jump' in refused.message, refused.message
    # A near target next: commands go out in order on one topic, so its command arriving as
    # the first one shows that nothing was sent for the far target.
    near = _goal(0.05)
    probe.publish_target(near)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, near))
    assert status.success and status.commanded, status.message
    command = probe.commands.wait_for(lambda c: True)
    assert probe.commands.count() == 1
    assert list(command.points[-1].positions) == pytest.approx(list(status.solution.position))
    _check_command(command, near)
    assert np.max(np.abs(np.array(command.points[-1].positions) - HOME)) <= 0.35


def test_replacing_the_description_rebuilds_the_chain(ros):
    node, probe = start_ur5_node(ros)
    longer = UR5.replace('xyz="-0.425 0 0"', 'xyz="-0.525 0 0"')
    assert longer != UR5
    longer_chain = RobotModel.from_urdf(longer).chain('base_link', 'tool0')
    goal = longer_chain.fk(HOME + 0.05)
    probe.publish_description(longer)

    def solved_with_the_longer_arm():
        response = probe.call(probe.target_request(goal))
        if not response.success:
            return False
        reached = longer_chain.fk(np.array(response.solution.position))
        return np.linalg.norm(reached[:3, 3] - goal[:3, 3]) <= POSITION_TOLERANCE

    assert wait_until(solved_with_the_longer_arm)
    longer_oracle = UrdfOracle(longer, 'base_link', 'tool0')
    response = probe.call(probe.target_request(goal))
    assert response.success, response.message
    oracle_confirms(longer_oracle, response.solution.name, response.solution.position, goal)
    # A description without the tip link is refused until the tip link is changed to match:
    # the longer arm still answers.
    handled = node.descriptions_received
    probe.publish_description(PLANAR)
    assert wait_until(lambda: node.descriptions_received > handled)
    response = probe.call(probe.target_request(goal))
    assert response.success, response.message
    oracle_confirms(longer_oracle, response.solution.name, response.solution.position, goal)
    result = node.set_parameters([Parameter('tip_link', value='tip')])[0]
    assert result.successful, result.reason
    planar = RobotModel.from_urdf(PLANAR).chain('base_link', 'tip')
    planar_goal = planar.fk([0.3, 0.4, -0.2])
    response = probe.call(probe.target_request(planar_goal, position_only=True))
    assert response.success, response.message
    oracle_confirms(UrdfOracle(PLANAR, 'base_link', 'tip'), response.solution.name,
                    response.solution.position, planar_goal, orientation_mode='none')
