# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The node's one border with messages: ROS messages to the engine's plain data and back.

Numbers are checked where they are used (the engine's input checks and ``solve()``); here
fields are only moved between messages and plain values.
"""

import math
from typing import List, Optional, Sequence, Tuple

from builtin_interfaces.msg import Duration, Time
from geometry_msgs.msg import Pose, PoseStamped, Transform
from ik_solvers_interfaces.msg import ErrorCodes, IKStatus
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from ..engine.outcome import CollisionVerdict, Command, IKOutcome, IKRequest
from ..engine.pose_math import pose_matrix, xyzw_quaternion

__all__ = [
    'command_trajectory',
    'duration_to_seconds',
    'fill_response',
    'joint_state_message',
    'matrix_to_pose',
    'outcome_poses',
    'pose_to_matrix',
    'seconds_to_duration',
    'service_request',
    'status_message',
    'target_request',
    'transform_to_matrix',
]


def _xyzw(quaternion) -> tuple:
    return (quaternion.x, quaternion.y, quaternion.z, quaternion.w)


def pose_to_matrix(pose: Pose) -> np.ndarray:
    """
    Convert a pose to a homogeneous transform.

    :param pose: Position in metres and orientation quaternion.
    :returns: A (4, 4) array, the pose of the frame in its parent.
    :raises InvalidTargetError: If a number is NaN or infinite, or the quaternion is further
        than :data:`~ik_solvers.engine.pose_math.QUATERNION_NORM_TOLERANCE` from unit norm.
    """
    position = pose.position
    return pose_matrix((position.x, position.y, position.z), _xyzw(pose.orientation))


def transform_to_matrix(transform: Transform) -> np.ndarray:
    """
    Convert a geometry_msgs/Transform (as tf2 returns it) to a homogeneous transform.

    :param transform: Translation in metres and rotation quaternion.
    :returns: A (4, 4) array.
    :raises InvalidTargetError: On the same conditions as :func:`pose_to_matrix`.
    """
    translation = transform.translation
    return pose_matrix((translation.x, translation.y, translation.z),
                       _xyzw(transform.rotation), what='the transform')


def matrix_to_pose(matrix: np.ndarray) -> Pose:
    """
    Convert a homogeneous transform to a pose with a unit quaternion (w >= 0).

    :param matrix: A (4, 4) rigid transform, translation in metres.
    :returns: The pose message.
    """
    matrix = np.asarray(matrix, dtype=float)
    x, y, z, w = xyzw_quaternion(matrix).tolist()
    pose = Pose()
    pose.position.x, pose.position.y, pose.position.z = matrix[:3, 3].tolist()
    pose.orientation.x, pose.orientation.y = x, y
    pose.orientation.z, pose.orientation.w = z, w
    return pose


def duration_to_seconds(duration: Duration) -> float:
    """
    Convert a builtin_interfaces/Duration to seconds.

    :param duration: Whole seconds (may be negative) and nanoseconds.
    :returns: Seconds.
    """
    return float(duration.sec) + float(duration.nanosec) * 1e-9


def seconds_to_duration(seconds: float) -> Duration:
    """
    Convert seconds to a builtin_interfaces/Duration, rounded to the nanosecond.

    :param seconds: A finite, non-negative number of seconds.
    :returns: The duration.
    :raises ValueError: If ``seconds`` is negative, NaN or infinite.
    """
    if not math.isfinite(seconds) or seconds < 0.0:
        raise ValueError('a duration must be finite and non-negative, not %r' % seconds)
    nanoseconds = int(round(seconds * 1e9))
    return Duration(sec=nanoseconds // 1_000_000_000, nanosec=nanoseconds % 1_000_000_000)


def joint_state_message(names: List[str], positions: Sequence[float]) -> JointState:
    """
    Build a JointState with positions only; the caller stamps the header.

    :param names: Joint names.
    :param positions: Positions in rad or m, one per name.
    :returns: The message.
    """
    message = JointState()
    message.name = list(names)
    message.position = [float(value) for value in positions]
    return message


# Requests in -----------------------------------------------------------------------------

def _pose_fields(pose: Pose) -> dict:
    position = pose.position
    return {'position': (position.x, position.y, position.z),
            'orientation': _xyzw(pose.orientation)}


def target_request(target: PoseStamped) -> IKRequest:
    """
    Turn a streamed target into the solve it asks for.

    :param target: A message of the ``target_pose`` topic.
    :returns: The request; the node's parameters fill in everything the message lacks.
    """
    return IKRequest(frame_id=target.header.frame_id, streamed=True,
                     **_pose_fields(target.pose))


def service_request(request: SolveIK.Request) -> IKRequest:
    """
    Turn a SolveIK call into the solve it asks for.

    :param request: The service request.
    :returns: The request, its fields unchecked (the engine checks them).
    """
    return IKRequest(
        frame_id=request.target.header.frame_id, seed_names=list(request.seed.name),
        seed_positions=list(request.seed.position), solver=request.solver,
        position_only=request.position_only, orientation_mode=request.orientation_mode,
        tip_axis=tuple(request.tip_axis), position_bounds=tuple(request.position_bounds),
        rotation_bounds=tuple(request.rotation_bounds),
        orientation_fallback=True if request.orientation_fallback else None,
        position_tolerance=request.position_tolerance,
        orientation_tolerance=request.orientation_tolerance,
        timeout=duration_to_seconds(request.timeout), execute=bool(request.execute),
        approximate=bool(request.approximate),
        avoid_collisions=_AVOID_COLLISIONS.get(request.avoid_collisions),
        max_solutions=int(request.max_solutions), preference=request.preference,
        rest_posture=tuple(request.rest_posture),
        **_pose_fields(request.target.pose))


# COLLISIONS_DEFAULT and any unknown value follow the node's parameter.
_AVOID_COLLISIONS = {SolveIK.Request.COLLISIONS_AVOID: True,
                     SolveIK.Request.COLLISIONS_IGNORE: False}


# Answers out -----------------------------------------------------------------------------

def command_trajectory(command: Command) -> JointTrajectory:
    """
    Build the JointTrajectory of a command, as ros2_control's joint_trajectory_controller takes it.

    The controller rejects a trajectory whose points move at the end (non-zero velocity) or
    whose sizes disagree; a header stamp of zero means "start now". The message is therefore
    a single point, the goal, reached after ``command.duration`` with zero velocity: the
    controller interpolates from wherever the joints are, so a stale start cannot cause a jump.

    :param command: The move to send.
    :returns: A trajectory with a zero stamp and one point.
    :raises ValueError: If there are no joints, or names and positions differ in number.
    """
    if not command.joint_names:
        raise ValueError('a trajectory needs at least one joint')
    if len(command.joint_names) != len(command.positions):
        raise ValueError('%d joint names but %d goal positions'
                         % (len(command.joint_names), len(command.positions)))
    point = JointTrajectoryPoint()
    point.positions = [float(value) for value in command.positions]
    point.velocities = [0.0] * len(command.joint_names)
    point.time_from_start = seconds_to_duration(command.duration)
    trajectory = JointTrajectory()
    trajectory.joint_names = list(command.joint_names)
    trajectory.points = [point]
    return trajectory


def _first_line(message: str) -> str:
    # Internal errors carry a traceback for the log; callers get its first line.
    return message.splitlines()[0] if message else ''


def fill_response(response: SolveIK.Response, outcome: IKOutcome,
                  stamp: Time) -> SolveIK.Response:
    """
    Copy an outcome into a SolveIK response.

    :param response: The response to fill (as rclpy passes it to the service callback).
    :param outcome: The outcome of the solve.
    :param stamp: Stamp of the solution's joint state.
    :returns: ``response``.
    """
    response.success = outcome.success
    response.error_code = int(outcome.error_code)
    response.message = _first_line(outcome.message)
    if outcome.chain is not None and outcome.result is not None:
        result = outcome.result
        response.solution = joint_state_message(outcome.chain.joint_names, result.q)
        response.solution.header.stamp = stamp
        response.position_error = float(result.position_error)
        response.orientation_error = float(result.orientation_error)
        response.iterations = int(result.iterations)
        response.solve_time = seconds_to_duration(max(float(result.elapsed), 0.0))
        for q in outcome.solutions if outcome.success else ():
            state = joint_state_message(outcome.chain.joint_names, q)
            state.header.stamp = stamp
            response.solutions.append(state)
    _fill_collision(response, outcome.collision, outcome.error_code)
    _fill_motion_contact(response, outcome, stamp)
    return response


def _fill_collision(message, verdict: CollisionVerdict, error_code: int) -> None:
    # The same three fields in a SolveIK response and an IKStatus.
    message.collision_checked = verdict.checked
    if verdict.pairs and error_code == ErrorCodes.IN_COLLISION:
        message.collision_pair = list(verdict.pairs[0])
    message.unchecked_links = list(verdict.unchecked_links)


def _fill_motion_contact(message, outcome: IKOutcome, stamp: Time) -> None:
    # Where the motion to the answer collides, when that is why nothing was commanded.
    contact = outcome.motion_contact
    if contact is None or outcome.chain is None or outcome.error_code != \
            ErrorCodes.IN_COLLISION:
        return
    pair = contact.report.first_pair
    if pair is not None:
        message.motion_collision_pair = list(pair)
    message.motion_collision_state = joint_state_message(outcome.chain.joint_names, contact.q)
    message.motion_collision_state.header.stamp = stamp


def outcome_poses(outcome: IKOutcome) -> Tuple[Optional[Pose], Optional[Pose]]:
    """
    Convert the target and the reached pose of an outcome, once for the status and the markers.

    :param outcome: The outcome of a solve.
    :returns: ``(target, reached)`` in the chain's base frame, each ``None`` when the solve
        stopped before it.
    """
    target = None if outcome.target is None else matrix_to_pose(outcome.target)
    reached = None if outcome.reached is None else matrix_to_pose(outcome.reached)
    return target, reached


def status_message(outcome: IKOutcome, *, stamp: Time, frame_id: str,
                   poses: Tuple[Optional[Pose], Optional[Pose]]) -> IKStatus:
    """
    Build the IKStatus of one streamed solve.

    :param outcome: The outcome of the solve; it was commanded when it carries a command.
    :param stamp: Time of the solve.
    :param frame_id: The chain's base link, the frame of ``target`` and ``reached``.
    :param poses: The outcome's target and reached pose (:func:`outcome_poses`).
    :returns: The message; poses stay identity when the solve stopped before them.
    """
    status = IKStatus()
    status.header.stamp = stamp
    status.header.frame_id = frame_id
    status.success = outcome.success
    status.error_code = int(outcome.error_code)
    status.message = _first_line(outcome.message)
    status.solver = outcome.solver
    status.commanded = outcome.commanded
    target, reached = poses
    if target is not None:
        status.target = target
    if reached is not None:
        result = outcome.result
        status.reached = reached
        status.position_error = float(result.position_error)
        status.orientation_error = float(result.orientation_error)
        status.solution = joint_state_message(outcome.chain.joint_names, result.q)
        status.solution.header.stamp = stamp
        status.iterations = int(result.iterations)
        status.solve_time = seconds_to_duration(max(float(result.elapsed), 0.0))
    _fill_collision(status, outcome.collision, outcome.error_code)
    _fill_motion_contact(status, outcome, stamp)
    status.collision_scene = outcome.collision.scene
    return status
