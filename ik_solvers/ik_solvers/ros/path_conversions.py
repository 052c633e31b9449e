# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
CartesianPath messages to the engine's plain data and back, and the multi-point command.

Numbers are checked by the engine and the path library; here fields only move between messages
and plain values. The trajectory a response carries and the command the node sends are the
same: one point per path point with positions, velocities, accelerations and
``time_from_start``, the first point where the robot is (time 0), the last at rest.
"""

from builtin_interfaces.msg import Time
from ik_solvers_interfaces.srv import CartesianPath
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .conversions import seconds_to_duration
from ..engine.path_request import PathCommand, PathOutcome, PathRequest, PathWaypoint
from ..paths import TimedTrajectory

__all__ = ['fill_path_response', 'path_command_trajectory', 'path_request']


def path_request(request: CartesianPath.Request) -> PathRequest:
    """
    Turn a CartesianPath call into the request it makes.

    :param request: The service request.
    :returns: The request, its fields unchecked (the engine checks them).
    """
    waypoints = []
    for stamped in request.waypoints:
        position, orientation = stamped.pose.position, stamped.pose.orientation
        waypoints.append(PathWaypoint(
            position=(position.x, position.y, position.z),
            orientation=(orientation.x, orientation.y, orientation.z, orientation.w),
            frame_id=stamped.header.frame_id))
    return PathRequest(
        waypoints=waypoints, start_names=list(request.start.name),
        start_positions=list(request.start.position), max_step=request.max_step,
        max_angle_step=request.max_angle_step, jump_threshold=request.jump_threshold,
        relative_jump_threshold=request.relative_jump_threshold,
        avoid_collisions=bool(request.avoid_collisions), execute=bool(request.execute),
        execute_partial=bool(request.execute_partial), solver=request.solver,
        timeout=request.timeout, velocity_scale=request.velocity_scale,
        acceleration_scale=request.acceleration_scale,
        position_tolerance=request.position_tolerance,
        orientation_tolerance=request.orientation_tolerance)


def _trajectory_message(joint_names, times, positions, velocities,
                        accelerations) -> JointTrajectory:
    message = JointTrajectory()
    message.joint_names = list(joint_names)
    points = []
    for moment, position, velocity, acceleration in zip(times, positions, velocities,
                                                        accelerations):
        point = JointTrajectoryPoint()
        point.positions = position.tolist()
        point.velocities = velocity.tolist()
        point.accelerations = acceleration.tolist()
        point.time_from_start = seconds_to_duration(float(moment))
        points.append(point)
    message.points = points
    return message


def path_command_trajectory(command: PathCommand) -> JointTrajectory:
    """
    Build the JointTrajectory of a path command, as a joint_trajectory_controller takes it.

    :param command: The timed path; a zero header stamp means "start now".
    :returns: A trajectory with one point per path point.
    :raises ValueError: If there are no joints or fewer than two points.
    """
    if not command.joint_names or command.positions.shape[0] < 2:
        raise ValueError('a path command needs joints and at least two points')
    return _trajectory_message(command.joint_names, command.times, command.positions,
                               command.velocities, command.accelerations)


def _timed_message(trajectory: TimedTrajectory) -> JointTrajectory:
    return _trajectory_message(trajectory.joint_names, trajectory.times, trajectory.positions,
                               trajectory.velocities, trajectory.accelerations)


def fill_path_response(response: CartesianPath.Response, outcome: PathOutcome,
                       planning_time: float, stamp: Time) -> CartesianPath.Response:
    """
    Copy a path outcome into a CartesianPath response.

    :param response: The response to fill.
    :param outcome: The engine's outcome.
    :param planning_time: Seconds the request took.
    :param stamp: The trajectory's header stamp (when it was planned).
    :returns: ``response``.
    """
    response.success = outcome.success
    response.error_code = int(outcome.code)
    # Internal errors carry a traceback for the log; callers get its first line.
    response.message = outcome.message.splitlines()[0] if outcome.message else ''
    if outcome.trajectory is not None:
        response.trajectory = _timed_message(outcome.trajectory)
        response.trajectory.header.stamp = stamp
    response.fraction = float(outcome.fraction)
    response.max_position_error = float(outcome.max_position_error)
    response.max_orientation_error = float(outcome.max_orientation_error)
    response.max_joint_step = float(outcome.max_joint_step)
    response.commanded = outcome.command is not None
    response.planning_time = seconds_to_duration(max(0.0, planning_time))
    return response
