# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Everything the ik_node decides, without ROS: one pipeline from a request to an outcome.

:meth:`IKEngine.handle` takes every request, streamed or one-shot, through the same four
stages:

1. check the inputs, each once (:mod:`.inputs`); the model, the start configuration and the
   target frame come with them;
2. solve (``solve()`` checks the numbers it is given; its exceptions are mapped, not
   anticipated);
3. judge the solution with the ordered judges (:mod:`.judges`): the first refusal names the
   reason; a fallback stage (:mod:`.fallback`) may then propose another candidate;
4. plan the command, when the request asks for one.

Every exception of stages 1 and 2 becomes an error code in one place
(:func:`~.refusal.refusal_for`). The engine is thread-safe: the streaming worker, the service
workers and the subscriptions call it from different threads. It never raises on bad input.
"""

import dataclasses
import time
import traceback
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from .approximate_tracking import accepts_approximate, ApproximateTracking, exact_search_budget
from .candidate import Candidate
from .collision_check import collision_model_for, collision_verdict
from .collision_scene import CollisionScene
from .error_codes import ErrorCode
from .fallback import Fallback
from .frames import ExternalLookup
from .goal_distance import check_goal_distance
from .inputs import check_request, InputChecks
from .judges import DEFAULT_JUDGES, first_refusal, Judge
from .motion_plan import MotionPlan, plan_motion
from .outcome import Command, IKOutcome, IKRequest
from .path_pipeline import handle_path
from .path_request import PathCommand, PathOutcome, PathRequest
from .preferred import preferred_solutions
from .refusal import Refusal, refusal_for
from .robot_state import RobotState
from .settings import NodeSettings
from .judges.continuity import moved_away
from .trajectory import command_duration, CommandedMotion, largest_joint_jump
from ..exceptions import IKError
from ..kinematics import Chain, RobotModel
from ..paths.controller_spline import ControllerSpline
from ..solvers import IKResult, solve
from ..solvers.solve import nearest_turn

__all__ = ['DEFAULT_FALLBACKS', 'IKEngine', 'SolveFunction']

#: Asked after a refusal, in order; approximate tracking answers only requests that accept it.
DEFAULT_FALLBACKS: Tuple[Fallback, ...] = (ApproximateTracking(),)

#: ``solve(chain, target, **arguments) -> IKResult``, as :func:`ik_solvers.solve`.
SolveFunction = Callable[..., IKResult]


class IKEngine(RobotState):
    """Robot state (:class:`.robot_state.RobotState`) and the path from request to command."""

    def __init__(self, *, external_lookup: Optional[ExternalLookup] = None,
                 clock: Callable[[], float] = time.monotonic,
                 judges: Sequence[Judge] = DEFAULT_JUDGES,
                 fallbacks: Sequence[Fallback] = DEFAULT_FALLBACKS,
                 checks: Optional[InputChecks] = None,
                 solve_function: SolveFunction = solve,
                 collisions: Optional[CollisionScene] = None) -> None:
        """
        Create an engine without a robot model.

        :param external_lookup: Resolves target frames that are not links of the description
            (the node passes a tf2 lookup where tf2_ros is installed).
        :param clock: Seconds on a monotonic clock, for the age of joint states.
        :param judges: Asked in order of every solution; the first refusal decides.
        :param fallbacks: Asked in order for another candidate once the judges refused one.
        :param checks: The input checks (a subclass may count or extend them).
        :param solve_function: Solves one target; :func:`ik_solvers.solve` unless a test
            feeds given solutions.
        :param collisions: The collision inputs (geometry, SRDF, obstacles); a new, empty
            scene when ``None``.
        """
        super().__init__(external_lookup=external_lookup, clock=clock, collisions=collisions)
        self._clock = clock
        # The controller's motion after the last command: its velocity starts the next one.
        self._motion = CommandedMotion()
        self._judges = tuple(judges)
        self._fallbacks = tuple(fallbacks)
        self._checks = checks if checks is not None else InputChecks()
        self._solve = solve_function

    def handle(self, request: IKRequest, settings: NodeSettings) -> IKOutcome:
        """
        Check, solve, judge and plan one request; never raises.

        :param request: The request; zero tolerances and timeout mean those of ``settings``.
            ``request.streamed`` holds it to continuity and commands every accepted solution;
            ``request.execute`` commands a one-shot request's accepted solution.
        :param settings: The node's parameters.
        :returns: The outcome; ``SUCCESS`` only for solutions within tolerance by FK that
            every judge accepted. It carries the command when one was planned; the command is
            then remembered as the last command.
        """
        # What is known when a stage refuses goes into the outcome: the chain and the target
        # let the node still draw the markers.
        known: Dict[str, Any] = {}
        try:
            return self._handle(request, settings, known)
        except IKError as error:
            refusal = refusal_for(error)
            return IKOutcome(refusal.code, refusal.message, **known)
        except Exception as error:  # noqa: B902 - a bug must not take the node down
            return IKOutcome(ErrorCode.INTERNAL_ERROR, 'internal error: %r\n%s'
                             % (error, traceback.format_exc()), **known)

    def _handle(self, request: IKRequest, settings: NodeSettings,
                known: Dict[str, Any]) -> IKOutcome:
        # 1. Inputs, each checked once.
        checked = check_request(request, settings, self._checks)
        known['solver'] = checked.solver
        # Chain and model from the same description, even while a new one arrives.
        chain, model = self._models.chain_and_model(settings.base_link, settings.tip_link)
        joints = self._joint_states.positions()
        collision, unchecked = collision_model_for(self._collisions, request, settings, model,
                                                   chain, joints)
        start, notes = self._where(chain, joints)
        known.update(chain=chain, start=start, notes=tuple(notes))
        last = self._drag_reference(chain, start, settings) if request.streamed else None
        if request.streamed:
            # Seeding at the last command keeps consecutive solutions of a drag on one branch.
            seed = start if last is None else last
        else:
            seed = self._checks.seed(request, chain, start)
        # Frames that move with the joints are placed where the chain is now.
        joints.update(zip(chain.joint_names, start.tolist()))
        base_from_frame = self._checks.frame(request, model, chain, joints,
                                             self._external_lookup, settings.tf_timeout)
        # A position that is not finite is refused by solve(); until then NaN is no error.
        with np.errstate(invalid='ignore', over='ignore'):
            target = base_from_frame @ checked.target_in_frame
        check_goal_distance(chain, target)
        # 2. Solve, within the budget of approximate tracking where it applies.
        approximate = accepts_approximate(request, settings)
        budget = exact_search_budget(request, approximate, checked.timeout)
        avoiding = {} if collision is None else {'collision': collision}
        result = self._solve(chain, target, seed=seed, solver=checked.solver,
                             position_tolerance=checked.position_tolerance,
                             orientation_tolerance=checked.orientation_tolerance,
                             **checked.goal, **budget, **avoiding)
        # The one place a solution is put on the turn of each joint nearest where the command
        # starts: the report, the judges and the command all use this configuration.
        result = dataclasses.replace(result, q=nearest_turn(result.q, start, chain))
        solutions: Tuple[np.ndarray, ...] = ()
        if result.success:  # several solutions, a preference: docs/solutions.md
            result, solutions = preferred_solutions(
                chain, target, result, request, settings, seed=seed, start=start, last=last,
                timeout=checked.timeout, collision=collision, options=dict(
                    checked.goal, solver=checked.solver,
                    position_tolerance=checked.position_tolerance,
                    orientation_tolerance=checked.orientation_tolerance))
        known['solutions'] = solutions
        known['target'] = target  # finite: solve() refuses any other
        reached = np.asarray(chain.fk(result.q), dtype=float).copy()
        known.update(result=result, reached=reached)
        claim = (ErrorCode.ORIENTATION_UNREACHABLE if result.status == 'closest_orientation'
                 else ErrorCode.SUCCESS)
        # A closest orientation is no solution of the pose: only the parameter commands it.
        may_command = claim == ErrorCode.SUCCESS or settings.orientation_fallback
        wanted = request.streamed or request.execute
        candidate = Candidate(
            chain=chain, model=model, q=result.q, reached=reached, target=target, start=start,
            last_command=last, joint_state_ages=self._joint_states.ages(chain.joint_names),
            settings=settings, streamed=request.streamed, commanding=wanted and may_command,
            result=result, solver=checked.solver, timeout=checked.timeout, claim=claim,
            collision=collision,
            summary='position error %.3g m, orientation error %.3g rad, %d iterations, %.1f ms'
            % (result.position_error, result.orientation_error, result.iterations,
               1e3 * result.elapsed), approximate=approximate, command_requested=wanted,
            goal=dict(checked.goal, position_tolerance=checked.position_tolerance,
                      orientation_tolerance=checked.orientation_tolerance))
        # 3. Judge.
        candidate, refusal = self._judge(candidate)
        known['collision'] = collision_verdict(candidate, model, joints, unchecked,
                                               self._collisions.summary(model))
        # 4. Plan the command.
        plan = MotionPlan()
        if refusal is None and candidate.commanding:
            if candidate.streamed:
                command, refusal = self._plan(candidate)
                plan = MotionPlan(command=command)
            else:
                plan = self._plan_motion(candidate)
                refusal = plan.refusal
        return _outcome(candidate, refusal, plan, known)

    def _plan_motion(self, candidate: Candidate) -> MotionPlan:
        # A one-shot command may move far: swept-checked, routed around what is in the way
        # (OMPL), or refused (engine/motion_plan.py). Its direct form is timed as a streamed
        # command is, on the controller's cubic from its state.
        with self._lock:
            last = self._last_command
        under_way = None
        if last is not None and last[0] == tuple(candidate.chain.joint_names):
            under_way = last[1]
        now = self._clock()
        direct, spline, refusal = self._timed(candidate, now)
        if refusal is not None:
            return MotionPlan(refusal=refusal)
        plan = plan_motion(candidate, direct=direct, last_command=under_way)
        if plan.refusal is None:
            if plan.path is not None:
                spline = ControllerSpline(plan.path.times, plan.path.positions,
                                          plan.path.velocities, plan.path.accelerations)
            self._remember(candidate, spline, now)
        return plan

    def _judge(self, candidate: Candidate) -> Tuple[Candidate, Optional[Refusal]]:
        refusal = first_refusal(self._judges, candidate)
        # The fallback stage: once the judges refused, each fallback may propose another
        # candidate (approximate tracking of a streamed target, say); the first proposal every
        # judge accepts replaces the refused candidate.
        for fallback in self._fallbacks:
            if refusal is None:
                break
            proposal = fallback.proposal(candidate, refusal)
            if proposal is not None and first_refusal(self._judges, proposal) is None:
                candidate, refusal = proposal, None
        return candidate, refusal

    def _plan(self, candidate: Candidate) -> Tuple[Optional[Command], Optional[Refusal]]:
        now = self._clock()
        command, spline, refusal = self._timed(candidate, now)
        if refusal is None:
            self._remember(candidate, spline, now)
        return command, refusal

    def _timed(self, candidate: Candidate, now: float) -> Tuple[
            Optional[Command], Optional[ControllerSpline], Optional[Refusal]]:
        """Time the single-point command to ``candidate.q`` from the controller's state."""
        settings, chain, q = candidate.settings, candidate.chain, candidate.q
        with self._lock:
            # The controller runs the node's last command (as modelled) until this one
            # arrives, a little later than now; the joint states say where the arm is.
            states = [self._motion.state(chain.joint_names, now + delay)
                      for delay in (0.0, _ARRIVAL_DELAY)]
        modelled, velocity = states[0]
        if modelled is not None and largest_joint_jump(modelled, candidate.start) > moved_away(
                settings):
            # Something else moved the arm while the last command ran: the model is void.
            states = [(None, np.zeros(chain.num_joints))]
            modelled, velocity = states[0]
        start = candidate.start if modelled is None else modelled
        also = [(candidate.start, velocity)] + [state for state in states[1:]
                                                if state[0] is not None]
        # Timed on the controller's cubic from its state, so that every instant keeps the
        # limits, not only the end (see engine/trajectory.py).
        try:
            duration = command_duration(
                start, q, max_velocity=_SHARE_OF_LIMITS * settings.velocity_scale * np.asarray(
                    chain.velocity_limits, dtype=float),
                max_acceleration=np.full(chain.num_joints,
                                         _SHARE_OF_LIMITS * settings.acceleration_limit),
                lower=chain.lower, upper=chain.upper, start_velocity=velocity,
                also_from=also, min_duration=settings.min_duration)
            spline = ControllerSpline([duration], np.asarray(q, dtype=float)[None],
                                      np.zeros((1, chain.num_joints)), start_positions=start,
                                      start_velocities=velocity)
        except (ValueError, IKError) as error:
            return None, None, Refusal(ErrorCode.EXECUTION_FAILED, str(error))
        return Command(tuple(chain.joint_names), tuple(np.asarray(q, dtype=float).tolist()),
                       duration), spline, None

    def _remember(self, candidate: Candidate, spline: ControllerSpline, now: float) -> None:
        """Make ``candidate.q`` the last command, played by the controller as ``spline``."""
        with self._lock:
            self._last_command = (tuple(candidate.chain.joint_names),
                                  np.array(candidate.q, dtype=float))
            self._motion.record(candidate.chain.joint_names, spline, now)

    # Cartesian paths -------------------------------------------------------------------------

    def handle_path(self, request: PathRequest, settings: NodeSettings, *,
                    joint_limits: Optional[Mapping[str, Any]] = None,
                    collision: Any = None) -> PathOutcome:
        """
        Check, solve, time, judge and plan a Cartesian path request; never raises.

        The same input checks, frames and judges as :meth:`handle` (see
        :mod:`.path_pipeline`).

        :param request: The request; zeros mean the node's parameters.
        :param settings: The node's parameters.
        :param joint_limits: Parsed joint_limits.yaml entries, or None.
        :param collision: A collision model, or None (``avoid_collisions`` is then refused).
        :returns: The outcome; with ``execute`` it carries the command, which is then
            remembered as the last command.
        """
        return handle_path(_PathWorld(self), request, settings, checks=self._checks,
                           judges=self._judges, external_lookup=self._external_lookup,
                           joint_limits=joint_limits, collision=collision)


# s: a command reaches the controller this long after it is planned, at most (publication
# and the controller's update period); the controller's state then is checked too.
_ARRIVAL_DELAY = 0.01
# Share of the velocity and acceleration limits a single-point command plans with: the state
# the controller is really in differs a little from the node's model of it.
_SHARE_OF_LIMITS = 0.99


class _PathWorld:
    """The engine's model, joint states and last command, as a path request sees them."""

    def __init__(self, engine: IKEngine) -> None:
        self._engine = engine

    def chain_and_model(self, settings: NodeSettings) -> Tuple[Chain, RobotModel]:
        return self._engine._models.chain_and_model(settings.base_link, settings.tip_link)

    def joint_positions(self) -> Dict[str, float]:
        return self._engine._joint_states.positions()

    def joint_state_ages(self, names: Sequence[str]) -> Mapping[str, float]:
        return self._engine._joint_states.ages(names)

    def where(self, chain: Chain, joint_positions: Dict[str, float]) -> np.ndarray:
        return self._engine._where(chain, joint_positions)[0]

    def remember_command(self, chain: Chain, q: np.ndarray,
                         command: Optional[PathCommand] = None) -> None:
        with self._engine._lock:
            self._engine._last_command = (tuple(chain.joint_names), np.array(q, dtype=float))
            if command is not None:
                self._engine._motion.record(chain.joint_names, ControllerSpline(
                    command.times, command.positions, command.velocities,
                    command.accelerations), self._engine._clock())


def _accepted_message(candidate: Candidate) -> str:
    if candidate.claim == ErrorCode.APPROXIMATE:
        return candidate.summary  # the fallback's account of what it commands and why
    if candidate.claim == ErrorCode.ORIENTATION_UNREACHABLE:
        return ('%s: no configuration takes this orientation; the position is met and the '
                'orientation is the closest found: %s' % (candidate.solver, candidate.summary))
    return '%s reached the target: %s' % (candidate.solver, candidate.summary)


def _outcome(candidate: Candidate, refusal: Optional[Refusal], plan: MotionPlan,
             known: Dict[str, Any]) -> IKOutcome:
    """Give the outcome of a judged (and perhaps commanded) candidate."""
    known.update(result=candidate.result, reached=candidate.reached)
    accepted = _accepted_message(candidate)
    if refusal is None:
        message = accepted
        if (plan.command is not None or plan.path is not None) and not candidate.streamed:
            message += '; commanded' + ('' if not plan.note else ' (%s)' % plan.note)
        return IKOutcome(candidate.claim, message, command=plan.command,
                         path_command=plan.path, **known)
    if refusal.code == ErrorCode.EXECUTION_FAILED:
        # The solution itself was fine: the answer says so, and why it was not sent.
        return IKOutcome(refusal.code, '%s; but %s' % (accepted, refusal.message),
                         log_kind=refusal.log_kind, **known)
    return IKOutcome(refusal.code, refusal.message, log_kind=refusal.log_kind, **known)
