# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A Cartesian path request of the ik_node, without ROS: checked, solved, timed, judged, planned.

The stages of :meth:`~.pipeline.IKEngine.handle` once more, for a request of many targets:

1. inputs: :func:`~.request_checks.check_request` once (names, the first waypoint, the timeout and
   tolerances against the node's bounds), then :meth:`~.request_checks.InputChecks.names` and
   :meth:`~.request_checks.InputChecks.target` per further waypoint and
   :meth:`~.request_checks.InputChecks.frame` per frame, the way SolveIK targets are resolved;
2. the path: :func:`ik_solvers.paths.cartesian_path`, which solves point by point, checks
   every point by forward kinematics and times the reached part (toppra);
3. judges: the end point of a path to be commanded goes through the engine's judges (within
   tolerance, within the joint limits, fresh joint states); every point's pose and limits are
   already checked by the path itself;
4. the command: the timed trajectory from the current joint states.

Every exception becomes a :class:`~.error_codes.ErrorCode` here; nothing is raised.
"""

import math
import time
import traceback
from typing import Any, Dict, Mapping, Optional, Sequence

import numpy as np

from .candidate import Candidate
from .command_timing import CommandTiming
from .frames import ExternalLookup
from .goal_distance import check_goal_distance
from .request_checks import check_request, CheckedRequest, InputChecks
from .judges import first_refusal, Judge
from .outcome import IKRequest
from .error_codes import ErrorCode, path_code
from .path_request import PathCommand, PathOutcome, PathRequest
from .refusal import refusal_for
from .seeds import path_start
from .robot_state import RobotState
from .settings import NodeSettings
from ..collision import CollisionModel
from ..collision.sweep import SweptCheck
from ..exceptions import (
    IKError,
    InvalidLimitsError,
    InvalidPathError,
    InvalidSeedError,
    InvalidStepError,
    PathTooLongError,
    TimeParametrizationError,
    TooManyPointsError,
)
from ..kinematics import Chain, RobotModel
from ..paths import CartesianPathResult, cartesian_path, trajectory_limits
from ..solvers import IKResult

__all__ = ['START_LIMIT_SLACK', 'handle_path']

#: How far outside a joint limit a given start may be (rad or m) and be moved onto it, as
#: :func:`ik_solvers.paths.cartesian_path` allows: encoders report a little past a limit.
START_LIMIT_SLACK = 1e-4

_REASON_CODES = {
    'complete': ErrorCode.SUCCESS,
    'unreachable': ErrorCode.NO_SOLUTION,
    'timed_out': ErrorCode.TIMED_OUT,
    'jump': ErrorCode.JOINT_JUMP,
    'collision': ErrorCode.IN_COLLISION,
}
# Path errors before the shared ones: the first class an error is an instance of decides.
_PATH_ERRORS = (
    (TooManyPointsError, ErrorCode.TOO_MANY_POINTS),
    (InvalidStepError, ErrorCode.INVALID_STEP),
    (InvalidPathError, ErrorCode.INVALID_TARGET),
    (InvalidLimitsError, ErrorCode.INVALID_LIMITS),
    (PathTooLongError, ErrorCode.PATH_TOO_LONG),
    (TimeParametrizationError, ErrorCode.TIMING_FAILED),
)


def handle_path(robot: RobotState, timing: CommandTiming, request: PathRequest,
                settings: NodeSettings, *,
                checks: InputChecks, judges: Sequence[Judge],
                external_lookup: Optional[ExternalLookup] = None,
                joint_limits: Optional[Mapping[str, Any]] = None,
                collision: Optional[CollisionModel] = None) -> PathOutcome:
    """
    Answer one Cartesian path request; never raises.

    :param robot: The engine's model and joint states.
    :param timing: The engine's command timing; an executed path's command is remembered in
        it as the last command.
    :param request: The request.
    :param settings: The node's parameters.
    :param checks: The engine's input checks.
    :param judges: The engine's judges, asked of the end point of a path to be commanded.
    :param external_lookup: Resolves frames outside the description (tf2).
    :param joint_limits: Parsed joint_limits entries (see
        :func:`ik_solvers.paths.path_limits.parse_joint_limits`), or None.
    :param collision: A collision model (``check(q)``), or None.
    :returns: The :class:`PathOutcome`.
    """
    known: Dict[str, Any] = {}
    try:
        return _handle(robot, timing, request, settings, checks, judges, external_lookup,
                       joint_limits, collision, known)
    except IKError as error:
        for kind, code in _PATH_ERRORS:
            if isinstance(error, kind):
                return PathOutcome(code, str(error), **known)
        refusal = refusal_for(error)
        return PathOutcome(path_code(refusal.code), refusal.message, **known)
    except Exception as error:  # noqa: B902 - a bug must not take the node down
        return PathOutcome(ErrorCode.INTERNAL_ERROR, 'internal error: %r\n%s'
                           % (error, traceback.format_exc()), **known)


def _check_arguments(request: PathRequest, settings: NodeSettings) -> None:
    """Refuse what the CartesianPath.srv refuses that needs no waypoint to be read."""
    if not request.waypoints:
        raise InvalidPathError('a path needs at least one waypoint')
    if len(request.waypoints) + 1 > settings.cartesian_max_points:
        raise TooManyPointsError(
            '%d waypoints and the start are more points than cartesian_max_points (%d); each '
            'waypoint is at least one point of the path'
            % (len(request.waypoints), settings.cartesian_max_points))
    for name in ('max_step', 'max_angle_step', 'jump_threshold', 'relative_jump_threshold'):
        value = getattr(request, name)
        if not (math.isfinite(value) and value >= 0.0):
            raise InvalidStepError('%s must be a finite number >= 0 (0 for the default), got %r'
                                   % (name, value))


def _requests(request: PathRequest, settings: NodeSettings) -> Sequence[IKRequest]:
    timeout = request.timeout if request.timeout != 0.0 else settings.cartesian_timeout
    return [IKRequest(position=tuple(point.position), orientation=tuple(point.orientation),
                      frame_id=point.frame_id, solver=request.solver, timeout=timeout,
                      position_tolerance=request.position_tolerance,
                      orientation_tolerance=request.orientation_tolerance,
                      seed_names=tuple(request.start_names),
                      seed_positions=tuple(request.start_positions))
            for point in request.waypoints]


def _handle(robot: RobotState, timing: CommandTiming, request: PathRequest, settings: NodeSettings,
            checks: InputChecks, judges: Sequence[Judge],
            external_lookup: Optional[ExternalLookup], joint_limits: Optional[Mapping[str, Any]],
            collision: Optional[CollisionModel], known: Dict[str, Any]) -> PathOutcome:
    started = time.perf_counter()
    _check_arguments(request, settings)  # counts and numbers: before any waypoint is looked at
    requests = _requests(request, settings)
    # 1. Inputs: the request once, each further waypoint's own fields once.
    checked = check_request(requests[0], settings, checks)
    known['solver'] = checked.solver
    poses = [checked.target_in_frame]
    for single in requests[1:]:
        checks.names(single)
        poses.append(checks.target(single.position, single.orientation))
    chain, model = robot.chain_and_model(settings)
    known['chain'] = chain
    joints = robot.joint_states.positions()
    current = robot.where(chain, joints)
    given_start = bool(request.start_names) or bool(request.start_positions)
    if given_start and request.execute:
        raise InvalidSeedError('with execute the path starts where the robot is: leave start '
                               'empty')
    # Checked as SolveIK checks a seed (names, lengths), then as a start: finite and within
    # the joint limits, never clipped from afar.
    start = path_start(chain, request.start_names, request.start_positions, current,
                       slack=START_LIMIT_SLACK) if given_start else current
    joints.update(zip(chain.joint_names, start.tolist()))
    frames: Dict[str, np.ndarray] = {}
    targets = []
    for single, pose in zip(requests, poses):
        if single.frame_id not in frames:
            frames[single.frame_id] = checks.frame(single, model, chain, joints,
                                                   external_lookup, settings.tf_timeout)
        with np.errstate(invalid='ignore', over='ignore'):
            targets.append(frames[single.frame_id] @ pose)
        check_goal_distance(chain, targets[-1], 'waypoint %d' % (len(targets) - 1))
    limits = trajectory_limits(
        chain, joint_limits=joint_limits, default_acceleration=settings.acceleration_limit,
        velocity_scale=request.velocity_scale or settings.velocity_scale,
        acceleration_scale=request.acceleration_scale or 1.0,
        max_path_duration=settings.max_path_duration or float('inf'))
    # A path to be commanded is checked whenever the avoid_collisions parameter is on, as a
    # SolveIK command is: a request can add checking, never take it away from a move.
    checked_for_collisions = request.avoid_collisions or (
        request.execute and settings.avoid_collisions and collision is not None)
    if request.avoid_collisions and collision is None:
        return PathOutcome(ErrorCode.COLLISION_CHECKING_UNAVAILABLE, (
            'avoid_collisions was asked, and this node has no collision model: nothing was '
            'planned'), **known)
    # 2. The path, timed.
    result = cartesian_path(
        chain, targets, seed=start, max_step=request.max_step or settings.cartesian_max_step,
        max_angle_step=request.max_angle_step or None,
        jump_threshold=request.jump_threshold or settings.cartesian_jump_threshold,
        relative_jump_threshold=request.relative_jump_threshold,
        collision=collision if checked_for_collisions else None, solver=checked.solver,
        position_tolerance=checked.position_tolerance,
        orientation_tolerance=checked.orientation_tolerance,
        point_timeout=min(settings.timeout, checked.timeout), timeout=checked.timeout,
        max_points=settings.cartesian_max_points, limits=limits)
    code = _REASON_CODES[result.reason]
    summary = '%s; fraction %.3f, %d points, %.3f s long, planned in %.1f ms' % (
        result.message, result.fraction, result.positions.shape[0],
        result.trajectory.duration, 1e3 * (time.perf_counter() - started))
    known.update(trajectory=result.trajectory, fraction=result.fraction,
                 max_position_error=result.max_position_error,
                 max_orientation_error=result.max_orientation_error,
                 max_joint_step=result.max_joint_step, targets=result.targets)
    # 3 and 4. Judges of the end point, then the command.
    if not request.execute:
        return PathOutcome(code, summary, **known)
    if code != ErrorCode.SUCCESS and not request.execute_partial:
        return PathOutcome(code, summary + '; not commanded: the path stopped short and '
                           'execute_partial is false', **known)
    if result.positions.shape[0] < 2:
        return PathOutcome(code, summary + '; not commanded: no point beyond the start',
                           **known)
    refusal = first_refusal(judges, _end_candidate(robot, result, chain, model, start,
                                                   settings, checked))
    if refusal is not None:
        return PathOutcome(ErrorCode.EXECUTION_FAILED, '%s; not commanded: %s'
                           % (summary, refusal.message), **known)
    trajectory = result.trajectory
    if checked_for_collisions:
        # The controller plays the points from where the arm is: swept-checked as it moves.
        contact = SweptCheck(collision).check_path(np.vstack((current, trajectory.positions)))
        if contact is not None:
            return PathOutcome(ErrorCode.IN_COLLISION, '%s; not commanded: %s'
                               % (summary, contact.describe()), **known)
    command = PathCommand(tuple(chain.joint_names), trajectory.times, trajectory.positions,
                          trajectory.velocities, trajectory.accelerations)
    timing.remember_command(chain, trajectory.positions[-1], command)
    return PathOutcome(code, summary + '; commanded', command=command, **known)


def _end_candidate(robot: RobotState, result: CartesianPathResult, chain: Chain,
                   model: RobotModel, start: np.ndarray, settings: NodeSettings,
                   checked: CheckedRequest) -> Candidate:
    q = result.positions[-1]
    reached = np.asarray(chain.fk(q), dtype=float)
    end = IKResult(q=q, success=True, position_error=result.max_position_error,
                   orientation_error=result.max_orientation_error, iterations=0,
                   elapsed=result.elapsed, status='success', solver=checked.solver)
    return Candidate(chain=chain, model=model, q=q, reached=reached,
                     target=result.targets[-1], start=start, last_command=None,
                     joint_state_ages=robot.joint_states.ages(chain.joint_names),
                     settings=settings, streamed=False, commanding=True, result=end,
                     solver=checked.solver, timeout=checked.timeout)
