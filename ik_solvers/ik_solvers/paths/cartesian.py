# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Straight-line tool motion through waypoints, solved point by point on one branch.

The path starts at the tip pose of the start configuration (``seed``) and runs along straight
lines through the waypoints (see :mod:`.interpolation`). Every point is solved warm from the
previous point's answer, so the arm stays on the branch it starts on: first by a few damped
least-squares steps in one compiled walk over the points (:meth:`PreparedSolver.walk`), which
settles nearly every point of a finely cut path; a point those steps do not settle, or settle
only by a large joint motion, goes to the solver, with few restarts near the previous answer.
The path stops at the first point that

* cannot be reached within the tolerances (``'unreachable'``; ``'timed_out'`` when a deadline
  cut the search short, so that more time might help),
* moves a joint by more than ``jump_threshold`` from the previous point, or fails MoveIt's
  relative test (``'jump'``), or
* collides (``'collision'``). Another answer to the same pose would lie on another branch, a
  jump in itself, so the warm answer is the only one tried.

The result holds the points reached, the fraction of the path they make, and why it stopped.
"""

from dataclasses import dataclass
import math
import time
from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from ..exceptions import InvalidPathError, InvalidSeedError, InvalidSolverOptionError
from ..kinematics import Chain
from ..solvers import CollisionCheck, PreparedSolver, Status
from .interpolation import interpolate_path
from .knot_refinement import refine_knots
from .jumps import check_jump_options, relative_jump_index
from .path_limits import TrajectoryLimits
from .parametrization import time_parametrize
from .pose_errors import pose_errors
from .timing_knots import timing_knots
from .timed_trajectory import TimedTrajectory

__all__ = [
    'CartesianPathResult',
    'CollisionCheck',
    'DEFAULT_MAX_POINTS',
    'DEFAULT_WALK_STEPS',
    'MIN_KNOT_STEP',
    'STOP_REASONS',
    'cartesian_path',
]

#: Why a path stopped.
STOP_REASONS = ('complete', 'unreachable', 'jump', 'collision', 'timed_out')
#: Largest number of interpolated points (the start included) a path may have.
DEFAULT_MAX_POINTS = 10000
# A seed this far outside a joint's limits (rad or m) is moved onto the limit; farther is an
# error: joint encoders report a little past a limit now and then.
_SEED_LIMIT_SLACK = 1e-4
# Further tries of a point whose solve ran out of its own time, within the path's deadline.
_TIMEOUT_RETRIES = 2
#: Damped least-squares steps the compiled walk gives a point before the solver takes it.
DEFAULT_WALK_STEPS = 4
# Largest joint motion between points (rad or m) the walk accepts even without a jump
# threshold, as far as the search itself lets a warm start go before it looks for a nearer
# solution: a larger motion is the search's to judge.
_WALK_MOTION = 0.5
#: m: least tip motion between two points of the timed trajectory, however exact the points.
MIN_KNOT_STEP = 1e-5
# Least spacing of those points in multiples of the largest pose error of the path's points.
_KNOT_ERRORS = 100.0


@dataclass(frozen=True)
class CartesianPathResult:
    """
    The part of a Cartesian path that was reached, and why it ended there.

    :ivar joint_names: The chain's N joint names, base to tip.
    :ivar positions: (K, N) joint path, rad or m; row 0 is the start configuration, row k the
        answer for interpolated point k. K >= 1.
    :ivar targets: (K, 4, 4) the tip pose each row reaches, in the chain's base frame.
    :ivar fraction: Share of the path achieved, in [0, 1], as MoveIt's GetCartesianPath counts
        it (each waypoint's segment 1/W, a segment partly done by its share of steps).
    :ivar reason: One of :data:`STOP_REASONS`.
    :ivar stop_index: Index of the first interpolated point not reached (``num_points`` when
        complete, 0 when the start configuration itself collides).
    :ivar num_points: Interpolated points of the whole path, the start included.
    :ivar max_position_error: Largest distance between a row's tip (by forward kinematics) and
        its target, m.
    :ivar max_orientation_error: Largest rotation angle between a row's tip orientation and its
        target's, rad.
    :ivar max_joint_step: Largest change of one joint between consecutive rows, rad or m.
    :ivar message: Why it stopped, in words.
    :ivar trajectory: The timed trajectory when limits were given, else None: through every
        row of ``positions`` when the tip moves between them by at least 100 times the
        largest pose error of the rows (and :data:`MIN_KNOT_STEP`), else through evenly spaced
        rows that far apart, the first, the last and each waypoint's included (see
        :mod:`.timing_knots`).
    :ivar collision_report: The collision model's report of the first colliding point, if any.
    :ivar handed_over: Points the compiled walk left to the solver (see ``walk_steps``).
    :ivar elapsed: Time spent, s, the parametrization included.
    """

    joint_names: tuple
    positions: np.ndarray
    targets: np.ndarray
    fraction: float
    reason: str
    stop_index: int
    num_points: int
    max_position_error: float
    max_orientation_error: float
    max_joint_step: float
    message: str
    trajectory: Optional[TimedTrajectory] = None
    collision_report: Any = None
    handed_over: int = 0
    elapsed: float = 0.0

    @property
    def complete(self) -> bool:
        """Every point of the path was reached."""
        return self.reason == 'complete'


def _start_configuration(chain: Chain, seed: Any) -> np.ndarray:
    if seed is None:  # the path starts at the seed's tip pose: there is no default
        raise InvalidSeedError('seed must be an array of %d numbers' % chain.num_joints)
    q = PreparedSolver.checked_seed(seed, chain)
    if not np.isfinite(q).all():
        raise InvalidSeedError('seed has non-finite values')
    if not chain.within_limits(q, tolerance=_SEED_LIMIT_SLACK):
        raise InvalidSeedError('the start configuration is outside the joint limits')
    return chain.clip(q)


def _matching_angle(max_step: Any, chain: Chain) -> Any:
    if isinstance(max_step, bool) or not isinstance(max_step, (int, float, np.number)):
        return max_step  # interpolate_path names what is wrong with it
    return max_step / chain.length_scale


def _timeouts(point_timeout: float, timeout: Optional[float]) -> None:
    for name, value in (('point_timeout', point_timeout), ('timeout', timeout)):
        if value is None and name == 'timeout':
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not (
                math.isfinite(value) and value > 0.0):
            raise InvalidPathError('%s must be a finite positive number of seconds, got %r'
                                   % (name, value))


def cartesian_path(chain: Chain, waypoints: Sequence[Any], *, seed: Any,
                   max_step: float = 0.01, max_angle_step: Optional[float] = None,
                   jump_threshold: float = 0.5, relative_jump_threshold: float = 0.0,
                   collision: Optional[CollisionCheck] = None,
                   solver: str = 'jacobian_transpose', position_tolerance: float = 1e-5,
                   orientation_tolerance: float = 1e-5, point_timeout: float = 0.05,
                   timeout: Optional[float] = None, attempts_per_point: int = 5,
                   max_points: int = DEFAULT_MAX_POINTS,
                   limits: Optional[TrajectoryLimits] = None,
                   walk_steps: int = DEFAULT_WALK_STEPS,
                   **solver_options: Any) -> CartesianPathResult:
    """
    Follow straight lines of the tip through ``waypoints``, from the pose at ``seed``.

    :param chain: A :class:`ik_solvers.Chain`.
    :param waypoints: W >= 1 tip poses (4x4, chain base frame, m), visited in order; the
        path begins at the tip pose of ``seed``, which is not one of them.
    :param seed: (N,) start configuration, rad or m, within the joint limits.
    :param max_step: Largest tip motion between two points, m.
    :param max_angle_step: Largest tip rotation between two points, rad; None matches
        ``max_step``: ``max_step / chain.length_scale``, the rotation that moves a point at
        the chain's length by ``max_step``.
    :param jump_threshold: Largest change of any one joint between consecutive points, rad
        for revolute, m for prismatic joints; ``math.inf`` turns the test off. Set it well
        above what a step of ``max_step`` needs (near 0.01 rad per cm on a 1 m arm), below a
        flip of the wrist or elbow.
    :param relative_jump_threshold: MoveIt's relative test, 0 for off: with at least 10
        steps, a step whose joint-space distance (Euclidean, all joints) exceeds this factor
        times the mean step of the path reached is a jump.
    :param collision: None, or an object with ``check(q)`` returning a report with a boolean
        ``colliding``; each point reached, the start included, is checked.
    :param solver: One of :data:`ik_solvers.SOLVERS`: it solves the points the walk hands
        over.
    :param position_tolerance: Largest position error of a point, m.
    :param orientation_tolerance: Largest orientation error of a point, rad.
    :param point_timeout: Deadline of each solver call for a point, s; a point that runs out
        of it is tried twice more while ``timeout`` allows.
    :param timeout: Deadline of the whole path, s (None: none); the points solved by then are
        kept, with reason ``'timed_out'``.
    :param attempts_per_point: Starts per point: the previous answer, then restarts near it.
    :param max_points: Cap on the interpolated points, the start included.
    :param limits: When given, the reached joint path is also timed (see
        :func:`time_parametrize`) into ``result.trajectory``.
    :param walk_steps: Damped least-squares steps each point gets in the compiled walk from
        the previous point's answer before the solver takes it over; 0 hands every point
        that the previous answer does not already meet to the solver.
    :param solver_options: Options of the solver, as for :func:`ik_solvers.solve`.
    :returns: A :class:`CartesianPathResult`.
    :raises InvalidPathError: No waypoints, a waypoint that is not a finite rigid transform, a
        non-positive step, threshold or timeout, or more than ``max_points`` points.
    :raises InvalidSeedError: ``seed`` has the wrong length, non-finite values, or lies outside
        the joint limits.
    :raises InvalidTargetError: A tolerance is out of range.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: A solver option is out of range, or ``walk_steps`` is
        not a non-negative integer.
    :raises PathTooLongError: ``limits`` were given and the fastest timing within them lasts
        longer than their ``max_path_duration``.
    :raises TimeParametrizationError: ``limits`` were given and no timing keeps them.
    """
    started = time.perf_counter()
    q = _start_configuration(chain, seed)
    _timeouts(point_timeout, timeout)
    if isinstance(walk_steps, bool) or not isinstance(walk_steps, (int, np.integer)) \
            or walk_steps < 0:
        raise InvalidSolverOptionError('walk_steps must be a non-negative integer, got %r'
                                       % (walk_steps,))
    check_jump_options(jump_threshold, relative_jump_threshold)
    if max_angle_step is None:
        max_angle_step = _matching_angle(max_step, chain)
    path = interpolate_path(chain.fk(q), waypoints, max_step=max_step,
                            max_angle_step=max_angle_step, max_points=max_points)
    prepared = PreparedSolver(chain, solver=solver, position_tolerance=position_tolerance,
                              orientation_tolerance=orientation_tolerance,
                              max_attempts=attempts_per_point, **solver_options)
    deadline = math.inf if timeout is None else started + float(timeout)
    targets = path.targets
    count = path.num_points
    positions = np.empty((count, chain.num_joints))
    positions[0] = q
    stopped = _follow(prepared, targets, positions, deadline, float(point_timeout),
                      float(jump_threshold), collision, walk_steps)
    reached, reason, detail = stopped.reached, stopped.reason, stopped.detail
    kept = max(reached, 1)  # the start stays, even when it collides
    relative = relative_jump_index(positions[:kept], relative_jump_threshold)
    if relative is not None:
        reached, reason = relative, 'jump'
        detail = 'a step of more than %g times the mean step of the path' % (
            relative_jump_threshold)
        kept = reached
    position_errors, orientation_errors = pose_errors(chain.fk_batch(positions[:kept]),
                                                      targets[:kept])
    # Forward kinematics has the last word: a point it does not confirm is not reached.
    unconfirmed = np.flatnonzero((position_errors > position_tolerance)
                                 | (orientation_errors > orientation_tolerance))
    if unconfirmed.size and unconfirmed[0] > 0:
        reached = kept = int(unconfirmed[0])
        reason = 'unreachable'
        detail = 'point %d is not confirmed by forward kinematics' % reached
    joint_path = positions[:kept].copy()
    steps = np.abs(np.diff(joint_path, axis=0))
    trajectory = None
    if limits is not None:
        # The timing goes through points far apart compared with their errors (see
        # timing_knots): a path cut finer than its errors would be timed by its noise.
        knot_step = max(MIN_KNOT_STEP, _KNOT_ERRORS * float(position_errors.max()))
        knots, parameters = timing_knots(
            targets[:kept], path.segment_of_point[:kept], min_step=knot_step,
            min_angle=max(knot_step / chain.length_scale,
                          _KNOT_ERRORS * float(orientation_errors.max())),
            position_tolerance=position_tolerance, orientation_tolerance=orientation_tolerance,
            max_step=float(max_step), max_angle_step=float(max_angle_step))
        # Along the tip's travel where it moves between every two kept points; a path that
        # turns on the spot somewhere keeps equal steps.
        moving = np.all(np.diff(parameters) > 0.0)
        if knots.size < kept:  # thinned: the kept points, solved tighter (knot_refinement)
            joint_path[knots] = refine_knots(
                chain, targets[knots], joint_path[knots], solver=solver,
                position_tolerance=position_tolerance,
                orientation_tolerance=orientation_tolerance, deadline=deadline)
        trajectory = time_parametrize(joint_path[knots], limits,
                                      parameters=parameters if moving else None)
    return CartesianPathResult(
        joint_names=tuple(chain.joint_names), positions=joint_path,
        targets=targets[:kept].copy(),
        fraction=float(path.progress[reached - 1]) if reached else 0.0, reason=reason,
        stop_index=reached, num_points=count,
        max_position_error=float(position_errors.max()),
        max_orientation_error=float(orientation_errors.max()),
        max_joint_step=float(steps.max()) if steps.size else 0.0,
        message=_message(reason, reached, count, detail), trajectory=trajectory,
        collision_report=stopped.report, handed_over=stopped.handed_over,
        elapsed=time.perf_counter() - started)


class _Stop(NamedTuple):
    """Where and why the walk along the points ended."""

    reached: int
    reason: str
    detail: str
    report: Any
    handed_over: int


def _follow(prepared: PreparedSolver, targets: np.ndarray, positions: np.ndarray,
            deadline: float, point_timeout: float, jump_threshold: float,
            collision: Optional[CollisionCheck], walk_steps: int) -> _Stop:
    """Solve point after point into ``positions``; say where and why it stopped."""
    if collision is not None:
        report = collision.check(positions[0].copy())
        if report.colliding:
            return _Stop(0, 'collision', 'the start configuration collides', report, 0)
    count = targets.shape[0]
    walk_motion = min(jump_threshold, _WALK_MOTION)
    handed_over = 0
    first = 1
    while first < count:
        # The compiled walk settles the points it can in one call; the first it cannot goes
        # to the solver. The walk's points never move a joint beyond the jump threshold.
        stop = prepared.walk(targets, positions, first, count - 1, max_steps=walk_steps,
                             max_joint_motion=walk_motion, deadline=deadline)
        if collision is not None:
            for index in range(first, stop):
                report = collision.check(positions[index].copy())
                if report.colliding:
                    return _Stop(index, 'collision', 'point %d collides' % index, report,
                                 handed_over)
        if stop == count:
            break
        handed_over += 1
        _, answer = prepared.solve_sequence(targets, positions, stop, stop,
                                            point_timeout=point_timeout, deadline=deadline,
                                            timeout_retries=_TIMEOUT_RETRIES)
        if answer is not None:
            if answer.status is Status.TIMED_OUT and answer.position_error == 0.0:
                return _Stop(stop, 'timed_out', 'the path timeout ran out before point %d'
                             % stop, None, handed_over)
            reason = 'timed_out' if answer.status is Status.TIMED_OUT else 'unreachable'
            return _Stop(stop, reason, 'point %d: %s, %.3g m and %.3g rad away' % (
                stop, answer.status, answer.position_error, answer.orientation_error), None,
                handed_over)
        step = float(np.abs(positions[stop] - positions[stop - 1]).max())
        if step > jump_threshold:
            return _Stop(stop, 'jump', 'point %d moves a joint by %.3g, more than %g' % (
                stop, step, jump_threshold), None, handed_over)
        if collision is not None:
            report = collision.check(positions[stop].copy())
            if report.colliding:
                return _Stop(stop, 'collision', 'point %d collides' % stop, report,
                             handed_over)
        first = stop + 1
    return _Stop(count, 'complete', '', None, handed_over)


def _message(reason: str, reached: int, count: int, detail: str) -> str:
    if reason == 'complete':
        return 'all %d points reached' % count
    return '%d of %d points reached; stopped (%s): %s' % (reached, count, reason, detail)
