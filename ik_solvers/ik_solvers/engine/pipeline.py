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
from .command_timing import CommandTiming
from .error_codes import ErrorCode
from .fallback import Fallback
from .frames import ExternalLookup
from .goal_distance import check_goal_distance
from .request_checks import check_request, InputChecks
from .judges import DEFAULT_JUDGES, first_refusal, Judge
from .motion_plan import MotionPlan
from .other_solutions import other_solutions
from .outcome import IKOutcome, IKRequest
from .path_pipeline import handle_path
from .path_request import PathCommand, PathOutcome, PathRequest
from .preferred import preferred_solutions
from .refusal import Refusal, refusal_for
from .robot_state import RobotState
from .settings import NodeSettings
from ..exceptions import IKError
from ..kinematics import Chain
from ..solvers import IKResult, solve, Status
from ..solvers.solve import nearest_turn

__all__ = ['DEFAULT_FALLBACKS', 'IKEngine', 'SolveFunction']

#: Asked after a refusal, in order; approximate tracking answers only requests that accept it.
DEFAULT_FALLBACKS: Tuple[Fallback, ...] = (ApproximateTracking(),)

#: ``solve(chain, target, **arguments) -> IKResult``, as :func:`ik_solvers.solve`.
SolveFunction = Callable[..., IKResult]


class IKEngine:
    """The path from request to command; it has a :class:`.robot_state.RobotState`."""

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
        #: What the engine knows of the robot: model, collision scene, joint states, last
        #: command.
        self.robot = RobotState(external_lookup=external_lookup, clock=clock,
                                collisions=collisions)
        # The commands' timing, from the controller's motion after the last one.
        self._commands = CommandTiming(self.robot, clock)
        self._judges = tuple(judges)
        self._fallbacks = tuple(fallbacks)
        self._checks = checks if checks is not None else InputChecks()
        self._solve = solve_function

    # The robot state's operations the node calls (see RobotState for each).

    @property
    def has_model(self) -> bool:
        """Tell whether a valid robot description was loaded."""
        return self.robot.has_model

    @property
    def collisions(self) -> CollisionScene:
        """Return the collision inputs (geometry, SRDF pairs, obstacles)."""
        return self.robot.collisions

    def load_description(self, urdf_xml: str, base_link: str, tip_link: str) -> Chain:
        """Load a description and its chain (see :meth:`RobotState.load_description`)."""
        return self.robot.load_description(urdf_xml, base_link, tip_link)

    def load_description_for(self, *args: Any, **kwargs: Any) -> Any:
        """See :meth:`RobotState.load_description_for`."""
        return self.robot.load_description_for(*args, **kwargs)

    def check_links(self, base_link: str, tip_link: str) -> None:
        """See :meth:`RobotState.check_links`."""
        self.robot.check_links(base_link, tip_link)

    def adopt_links(self, base_link: str, tip_link: str) -> None:
        """See :meth:`RobotState.adopt_links`."""
        self.robot.adopt_links(base_link, tip_link)

    def chain(self, base_link: str, tip_link: str) -> Chain:
        """See :meth:`RobotState.chain`."""
        return self.robot.chain(base_link, tip_link)

    def collision_warnings(self, base_link: str, tip_link: str) -> Tuple[str, ...]:
        """See :meth:`RobotState.collision_warnings`."""
        return self.robot.collision_warnings(base_link, tip_link)

    def collision_model(self, settings: NodeSettings) -> Any:
        """See :meth:`RobotState.collision_model`."""
        return self.robot.collision_model(settings)

    def collision_summary(self) -> str:
        """See :meth:`RobotState.collision_summary`."""
        return self.robot.collision_summary()

    def apply_obstacle(self, *args: Any, **kwargs: Any) -> Any:
        """See :meth:`RobotState.apply_obstacle`."""
        return self.robot.apply_obstacle(*args, **kwargs)

    def forget_command(self) -> None:
        """See :meth:`RobotState.forget_command`."""
        self.robot.forget_command()

    def update_joint_states(self, names: Sequence[str], positions: Sequence[float]) -> Any:
        """See :meth:`RobotState.update_joint_states`."""
        return self.robot.update_joint_states(names, positions)

    def current_configuration(self, chain: Chain) -> Any:
        """See :meth:`RobotState.current_configuration`."""
        return self.robot.current_configuration(chain)

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
        chain, model = self.robot.chain_and_model(settings)
        joints = self.robot.joint_positions()
        collision, unchecked = collision_model_for(self.robot.collisions, request, settings, model,
                                                   chain, joints)
        start, notes = self.robot.position_and_notes(chain, joints)
        known.update(chain=chain, start=start, notes=tuple(notes))
        last = self.robot.drag_reference(chain, start, settings) if request.streamed else None
        if request.streamed:
            # Seeding at the last command keeps consecutive solutions of a drag on one branch.
            seed = start if last is None else last
        else:
            seed = self._checks.seed(request, chain, start)
        # Frames that move with the joints are placed where the chain is now.
        joints.update(zip(chain.joint_names, start.tolist()))
        base_from_frame = self._checks.frame(request, model, chain, joints,
                                             self.robot.external_lookup, settings.tf_timeout)
        # A position that is not finite is refused by solve(); until then NaN is no error.
        with np.errstate(invalid='ignore', over='ignore'):
            target = base_from_frame @ checked.target_in_frame
        check_goal_distance(chain, target)
        # 2. Solve, within the budget of approximate tracking where it applies.
        approximate = accepts_approximate(request, settings)
        budget = exact_search_budget(request, approximate, checked.timeout)
        result = self._solve(chain, target, seed=seed, goal=checked.goal,
                             options=dataclasses.replace(checked.options, **budget),
                             collision=collision)
        # The one place a solution is put on the turn of each joint nearest where the command
        # starts: the report, the judges and the command all use this configuration.
        result = dataclasses.replace(result, q=nearest_turn(result.q, start, chain))
        solutions: Tuple[np.ndarray, ...] = ()
        if result.success:  # several solutions, a preference: docs/solutions.md
            result, solutions = preferred_solutions(
                chain, target, result, request, settings, seed=seed, start=start, last=last,
                timeout=checked.timeout, collision=collision, goal=checked.goal,
                options=checked.options)
        known['solutions'] = solutions
        known['target'] = target  # finite: solve() refuses any other
        reached = np.asarray(chain.fk(result.q), dtype=float).copy()
        known.update(result=result, reached=reached)
        claim = (ErrorCode.ORIENTATION_UNREACHABLE if result.status == Status.CLOSEST_ORIENTATION
                 else ErrorCode.SUCCESS)
        # A closest orientation is no solution of the pose: only the parameter commands it.
        may_command = claim == ErrorCode.SUCCESS or settings.orientation_fallback
        wanted = request.streamed or request.execute
        candidate = Candidate(
            chain=chain, model=model, q=result.q, reached=reached, target=target, start=start,
            last_command=last, joint_state_ages=self.robot.joint_state_ages(chain.joint_names),
            settings=settings, streamed=request.streamed, commanding=wanted and may_command,
            result=result, solver=checked.solver, timeout=checked.timeout, claim=claim,
            collision=collision,
            summary='position error %.3g m, orientation error %.3g rad, %d iterations, %.1f ms'
            % (result.position_error, result.orientation_error, result.iterations,
               1e3 * result.elapsed), approximate=approximate, command_requested=wanted,
            goal=checked.goal)
        # 3. Judge.
        candidate, refusal = self._judge(candidate)
        known['collision'] = collision_verdict(candidate, model, joints, unchecked,
                                               self.robot.collisions.summary(model))
        # 4. Plan the command.
        plan = MotionPlan()
        if refusal is None and candidate.commanding:
            if candidate.streamed:
                command, refusal = self._commands.plan(candidate)
                plan = MotionPlan(command=command)
            else:
                first = candidate
                candidate, plan = self._commands.plan_motion(
                    candidate, others=lambda: other_solutions(first, self._solve, self._judges))
                refusal = plan.refusal
        return _outcome(candidate, refusal, plan, known)

    def at_publication(self, command: Any, now: Optional[float] = None) -> Any:
        """See :meth:`.command_timing.CommandTiming.at_publication`."""
        return self._commands.at_publication(command, now)

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

    # Cartesian paths -------------------------------------------------------------------------

    def remember_command(self, chain: Chain, q: np.ndarray,
                         command: Optional[PathCommand] = None) -> None:
        """
        Remember ``q`` as the last command of ``chain`` (and the controller's motion to it).

        :param chain: The chain commanded.
        :param q: (N,) the commanded configuration, rad or m.
        :param command: The timed path that goes there, or None for a single point.
        """
        self._commands.remember_command(chain, q, command)

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
                           judges=self._judges, external_lookup=self.robot.external_lookup,
                           joint_limits=joint_limits, collision=collision)


class _PathWorld:
    """The robot state and the engine's command memory, as a path request sees them."""

    def __init__(self, engine: IKEngine) -> None:
        self.chain_and_model = engine.robot.chain_and_model
        self.joint_positions = engine.robot.joint_positions
        self.joint_state_ages = engine.robot.joint_state_ages
        self.where = engine.robot.where
        self.remember_command = engine.remember_command


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
                         log_kind=refusal.log_kind, motion_contact=refusal.contact, **known)
    return IKOutcome(refusal.code, refusal.message, log_kind=refusal.log_kind,
                     motion_contact=refusal.contact, **known)
