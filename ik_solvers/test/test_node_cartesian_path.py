# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The ~/cartesian_path service over DDS: a line verified by FK and limits, and bad requests."""

import math
from pathlib import Path
import re
import threading

from conftest import UrdfOracle
from geometry_msgs.msg import PoseStamped
from ik_solvers.kinematics import RobotModel
from ik_solvers.ros.conversions import matrix_to_pose
from ik_solvers.ros.ik_node import IKNode
from ik_solvers_interfaces.msg import ErrorCodes
from ik_solvers_interfaces.srv import CartesianPath
import numpy as np
import pytest
import rclpy
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy
from test_node_support import (
    COMMAND_TOPIC,
    oracle_confirms,
    Probe,
    Spinner,
    unique_namespace,
    WAIT,
    wait_until,
)

Codes = ErrorCodes
URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
CHAIN = RobotModel.from_urdf(URDF).chain('base_link', 'tool0')
#: The tests' own FK and URDF limits of the arm, read from the URDF text (see conftest.py).
ORACLE = UrdfOracle(URDF, 'base_link', 'tool0')
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
ACCELERATION = 4.0
VELOCITY_SCALE = 0.5
#: The node's tolerances below, m and rad: every point of a path meets them.
TOLERANCE = 1e-5


def _tip_pose(q):
    return ORACLE.fk(q)


def _assert_on_the_line(trajectory, depth):
    """
    Assert, by the oracle, that every point of a path lies on the line ``_line_request`` asks.

    The points are evenly spaced from HOME's tip pose down by ``depth`` m, the orientation
    held, each within the tolerances and the URDF limits.
    """
    assert list(trajectory.joint_names) == ORACLE.joint_names
    start = _tip_pose(HOME)
    last = len(trajectory.points) - 1
    assert last >= 1
    for index, point in enumerate(trajectory.points):
        expected = start.copy()
        expected[2, 3] -= depth * index / last
        try:
            ORACLE.check(point.positions, expected, position_tolerance=TOLERANCE,
                         orientation_tolerance=TOLERANCE)
        except AssertionError as error:
            raise AssertionError('point %d of %d: %s' % (index, last, error)) from None


@pytest.fixture
def probe():
    """Start a ur5_like ik_node at its home pose; yield a probe with a path client."""
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    namespace = unique_namespace()
    nodes = []
    try:
        node = IKNode(namespace=namespace, context=context, parameter_overrides=[
            Parameter('command_topic', value=COMMAND_TOPIC),
            Parameter('base_link', value='base_link'), Parameter('tip_link', value='tool0'),
            # Generous per point and per path: a loaded machine must not cut a path short.
            Parameter('timeout', value=0.5), Parameter('cartesian_timeout', value=10.0),
            Parameter('position_tolerance', value=TOLERANCE),
            Parameter('orientation_tolerance', value=TOLERANCE),
            Parameter('acceleration_limit', value=ACCELERATION),
            Parameter('velocity_scale', value=VELOCITY_SCALE)])
        client = Probe(context, namespace)
        client.paths = client.node.create_client(
            CartesianPath, 'ik_node/cartesian_path',
            qos_profile=QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
        for each in (node, client.node):
            nodes.append(each)
            spinner.executor.add_node(each)
        client.wait_for_ik_node()
        assert client.paths.wait_for_service(timeout_sec=WAIT)
        client.stream_joint_states(CHAIN.joint_names, HOME)
        client.publish_description(URDF)
        client.wait_for_model()
        yield client
    finally:
        spinner.stop()
        for each in nodes:
            each.destroy_node()
        rclpy.shutdown(context=context)


def _call(probe, request):
    future = probe.paths.call_async(request)
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    assert done.wait(WAIT), 'no CartesianPath response within %g s' % WAIT
    return future.result()


def _line_request(depth=0.1, **fields):
    goal = _tip_pose(HOME)
    goal[2, 3] -= depth
    request = CartesianPath.Request()
    waypoint = PoseStamped()
    waypoint.header.frame_id = 'base_link'
    waypoint.pose = matrix_to_pose(goal)
    request.waypoints = [waypoint]
    request.max_step = 0.002
    for name, value in fields.items():
        setattr(request, name, value)
    return request


def _seconds(duration):
    return duration.sec + 1e-9 * duration.nanosec


def test_a_line_comes_back_as_a_trajectory_verified_by_fk_and_limits(probe):
    response = _call(probe, _line_request())
    assert response.success and response.error_code == Codes.SUCCESS, response.message
    assert response.fraction == 1.0 and not response.commanded
    trajectory = response.trajectory
    assert list(trajectory.joint_names) == list(CHAIN.joint_names)
    assert len(trajectory.points) == 51
    times = np.array([_seconds(point.time_from_start) for point in trajectory.points])
    positions = np.array([point.positions for point in trajectory.points])
    velocities = np.array([point.velocities for point in trajectory.points])
    accelerations = np.array([point.accelerations for point in trajectory.points])
    assert np.allclose(positions[0], HOME, atol=1e-9)
    # Every point on the line, orientation held, within the URDF limits, by the oracle.
    _assert_on_the_line(trajectory, 0.1)
    assert times[0] == 0.0 and np.all(np.diff(times) > 0.0)
    velocity_limits = VELOCITY_SCALE * np.asarray(CHAIN.velocity_limits)
    assert np.all(np.abs(velocities) <= velocity_limits * (1 + 1e-9))
    assert np.all(np.abs(accelerations) <= ACCELERATION * (1 + 1e-9))
    # Finite differences of the positions (rounded to the nanosecond in time_from_start).
    average = np.diff(positions, axis=0) / np.diff(times)[:, None]
    assert np.all(np.abs(average) <= velocity_limits * (1 + 1e-3))
    assert response.max_position_error <= 1e-5


def test_with_execute_the_multi_point_trajectory_is_the_command(probe):
    start = probe.commands.count()
    response = _call(probe, _line_request(execute=True))
    assert response.error_code == Codes.SUCCESS and response.commanded, response.message
    command = probe.commands.wait_for(lambda message: len(message.points) > 1, start=start)
    assert len(command.points) == len(response.trajectory.points)
    assert np.allclose(command.points[0].positions, HOME, atol=1e-6)
    assert command.points[-1].velocities == response.trajectory.points[-1].velocities
    # What was commanded is the line, every point of it, by the oracle.
    _assert_on_the_line(command, 0.1)
    assert [list(point.positions) for point in command.points] == [
        list(point.positions) for point in response.trajectory.points]


@pytest.mark.parametrize('fields, code', [
    ({'waypoints': []}, Codes.INVALID_TARGET),
    ({'max_step': -0.01}, Codes.INVALID_STEP),
    ({'max_step': 1e-6}, Codes.TOO_MANY_POINTS),
    ({'velocity_scale': 2.0}, Codes.INVALID_LIMITS),
])
def test_a_bad_request_gets_its_code(probe, fields, code):
    response = _call(probe, _line_request(**fields))
    assert not response.success
    assert response.error_code == code, response.message
    assert not response.commanded


def test_collision_checking_is_unavailable_only_without_collision_geometry(probe):
    checked = _call(probe, _line_request(avoid_collisions=True))
    assert checked.success, checked.message
    _assert_on_the_line(checked.trajectory, 0.1)
    probe.publish_description(re.sub(r'<collision>.*?</collision>', '', URDF, flags=re.S))
    answers = []
    # Hang bound: the new description is adopted within seconds.
    assert wait_until(lambda: answers.append(_call(probe, _line_request(
        avoid_collisions=True))) or answers[-1].error_code != Codes.SUCCESS)
    assert answers[-1].error_code == Codes.COLLISION_CHECKING_UNAVAILABLE, answers[-1].message


def test_a_non_finite_waypoint_and_an_unknown_frame_get_their_codes(probe):
    request = _line_request()
    request.waypoints[0].pose.position.x = math.nan
    assert _call(probe, request).error_code == Codes.INVALID_TARGET
    request = _line_request()
    request.waypoints[0].header.frame_id = 'no_such_frame'
    assert _call(probe, request).error_code == Codes.UNKNOWN_FRAME


def test_a_long_path_does_not_hold_up_solve_ik(probe):
    # Some 8000 points: far more solving than one SolveIK call needs.
    request = _line_request(depth=0.2, max_step=0.000025)
    order = []
    done = threading.Event()
    path_future = probe.paths.call_async(request)
    path_future.add_done_callback(lambda _: (order.append('path'), done.set()))
    goal = _tip_pose(HOME)
    goal[2, 3] -= 0.05
    response = probe.call(probe.target_request(goal))
    order.append('solve_ik')
    assert response.success, response.message
    oracle_confirms(ORACLE, response.solution.name, response.solution.position, goal,
                    position_tolerance=TOLERANCE, orientation_tolerance=TOLERANCE)
    assert done.wait(WAIT), 'no CartesianPath response within %g s' % WAIT
    assert path_future.result().error_code == Codes.SUCCESS, path_future.result().message
    assert order == ['solve_ik', 'path']
    _assert_on_the_line(path_future.result().trajectory, 0.2)
