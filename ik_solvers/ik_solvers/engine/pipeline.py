# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Everything the ik_node decides, without ROS: one pipeline from a request to an outcome.

:meth:`IKEngine.handle` takes every request, streamed or one-shot, through the same four
stages:

1. inputs: each checked once (:mod:`.request_checks`), then where the robot is
   (:class:`Placement`) and what is asked of the chain (:class:`Aim`);
2. solve (``solve()`` checks the numbers it is given; its exceptions are mapped, not
   anticipated), giving :class:`Solved`;
3. judge the solution with the ordered judges (:mod:`.judges`): the first refusal names the
   reason; a fallback stage (:mod:`.fallback`) may then propose another candidate
   (:class:`Judged`);
4. command: plan the command when the request asks for one, giving the
   :class:`~.outcome.IKOutcome`.

Each stage returns a frozen value; the engine sends nothing and is handed no callables. The
node sends the outcome's command inside :func:`.command_gate.publication`, which checks it
against the scene and times it once more as it leaves. Every exception becomes an error code
in one place (:func:`~.refusal.refusal_for`). The engine is thread-safe: the streaming worker,
the service workers and the subscriptions call it from different threads. It never raises on
bad input.
"""

import dataclasses
from dataclasses import dataclass
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
from .request_checks import check_request, CheckedRequest, InputChecks
from .judges import DEFAULT_JUDGES, first_refusal, Judge
from .motion_plan import MotionPlan
from .other_solutions import other_solutions
from .outcome import CollisionVerdict, IKOutcome, IKRequest
from .path_pipeline import handle_path
from .path_request import PathOutcome, PathRequest
from .preferred import preferred_solutions
from .refusal import Refusal, refusal_for
from .robot_state import OPEN_LOOP_NOTE, RobotState
from .settings import NodeSettings
from .tree_outcome import TreeOutcome
from .tree_pipeline import handle_tree
from .tree_tips import TreeCache
from ..collision import CollisionModel
from ..exceptions import IKError
from ..kinematics import Chain, RobotModel
from ..solvers import IKResult, solve, Status
from ..solvers.solve import nearest_turn

__all__ = ['Aim', 'DEFAULT_FALLBACKS', 'IKEngine', 'Judged', 'Placement', 'SolveFunction',
           'Solved']

#: Asked after a refusal, in order; approximate tracking answers only requests that accept it.
DEFAULT_FALLBACKS: Tuple[Fallback, ...] = (ApproximateTracking(),)

#: ``solve(chain, target, **arguments) -> IKResult``, as :func:`ik_solvers.solve`.
SolveFunction = Callable[..., IKResult]


@dataclass(frozen=True)
class Placement:
    """Stage 1, where the robot is: the chain, its model, the joint states, the start."""

    chain: Chain
    model: RobotModel
    #: Latest joint positions by name, rad or m.
    joints: Dict[str, float]
    #: The collision model a solve and the judges use, or None (no geometry, or not asked).
    collision: Optional[CollisionModel]
    #: Links whose geometry could not be loaded.
    unchecked: Tuple[str, ...]
    #: (N,) where a command would move from.
    start: np.ndarray
    notes: Tuple[str, ...]


@dataclass(frozen=True)
class Aim:
    """Stage 1, what is asked of the chain: the target in its base frame and the seed."""

    #: The last command, the reference of a streamed target's continuity; None otherwise.
    last: Optional[np.ndarray]
    #: (N,) where the search starts.
    seed: np.ndarray
    #: (4, 4) in the chain's base frame.
    target: np.ndarray


@dataclass(frozen=True)
class Solved:
    """Stage 2: the solution on the turn nearest the start, and the others wanted."""

    #: (4, 4) the target in the chain's base frame; finite (solve() refuses any other).
    target: np.ndarray
    result: IKResult
    solutions: Tuple[np.ndarray, ...]
    #: (4, 4) the tip pose of ``result.q`` by FK.
    reached: np.ndarray
    #: Whether approximate tracking may answer the request.
    approximate: bool


@dataclass(frozen=True)
class Judged:
    """Stage 3: the candidate the judges (and fallbacks) settled on, or the first refusal."""

    candidate: Candidate
    refusal: Optional[Refusal]
    collision: CollisionVerdict


@dataclass(frozen=True)
class _Reached:
    """The stages' values so far: a refusal reports what was reached before it."""

    checked: Optional[CheckedRequest] = None
    placement: Optional[Placement] = None
    solved: Optional[Solved] = None
    judged: Optional[Judged] = None

    def outcome_fields(self) -> Dict[str, Any]:
        """Return the :class:`IKOutcome` fields these stages give."""
        fields: Dict[str, Any] = {}
        if self.checked is not None:
            fields['solver'] = self.checked.solver
        if self.placement is not None:
            fields.update(chain=self.placement.chain, start=self.placement.start,
                          notes=self.placement.notes)
        if self.solved is not None:
            fields.update(solutions=self.solved.solutions, target=self.solved.target,
                          result=self.solved.result, reached=self.solved.reached)
        if self.judged is not None:
            fields.update(collision=self.judged.collision)
        return fields


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
        #: The commands' timing, from the controller's motion after the last one; the node
        #: times a command again as it sends it (:func:`.command_gate.publication`).
        self.timing = CommandTiming(self.robot, clock)
        self._judges = tuple(judges)
        self._fallbacks = tuple(fallbacks)
        self._checks = checks if checks is not None else InputChecks()
        self._solve = solve_function
        self._trees = TreeCache()

    def handle(self, request: IKRequest, settings: NodeSettings) -> IKOutcome:
        """
        Check, solve, judge and plan one request; never raises, publishes nothing.

        :param request: The request; zero tolerances and timeout mean those of ``settings``.
            ``request.streamed`` holds it to continuity and commands every accepted solution;
            ``request.execute`` commands a one-shot request's accepted solution.
        :param settings: The node's parameters.
        :returns: The outcome: either the command, ready to be sent through
            :func:`.command_gate.publication`, or the refusal with its code. ``SUCCESS`` only
            for solutions within tolerance by FK that every judge accepted. A planned command
            is remembered as the last command.
        """
        # Each stage gives one typed value; what the stages reached before a refusal goes into
        # the outcome (the chain and the target let the node still draw the markers).
        reached = _Reached()
        try:
            # 1. Inputs, each checked once; where the robot is; the target in the base frame.
            reached = _Reached(checked=check_request(request, settings, self._checks))
            reached = dataclasses.replace(reached, placement=self._placement(request, settings))
            aim = self._aim(request, settings, reached.checked, reached.placement)
            # 2. Solve.
            reached = dataclasses.replace(reached, solved=self._solved(
                request, settings, reached.checked, reached.placement, aim))
            # 3. Judge.
            reached = dataclasses.replace(reached, judged=self._judged(
                request, settings, reached.checked, reached.placement, aim, reached.solved))
            # 4. Command.
            return self._commanded(reached)
        except IKError as error:
            refusal = refusal_for(error)
            return IKOutcome(refusal.code, refusal.message, **reached.outcome_fields())
        except Exception as error:  # noqa: B902 - a bug must not take the node down
            return IKOutcome(ErrorCode.INTERNAL_ERROR, 'internal error: %r\n%s'
                             % (error, traceback.format_exc()), **reached.outcome_fields())

    def _placement(self, request: IKRequest, settings: NodeSettings) -> 'Placement':
        # Chain and model from the same description, even while a new one arrives.
        chain, model = self.robot.chain_and_model(settings)
        joints = self.robot.joint_positions()
        collision, unchecked = collision_model_for(self.robot.collisions, request, settings,
                                                   model, chain, joints)
        start, notes = self.robot.position_and_notes(chain, joints)
        if not joints:
            notes.append(OPEN_LOOP_NOTE)
        return Placement(chain=chain, model=model, joints=joints, collision=collision,
                         unchecked=unchecked, start=start, notes=tuple(notes))

    def _aim(self, request: IKRequest, settings: NodeSettings, checked: CheckedRequest,
             placement: 'Placement') -> 'Aim':
        chain, start, joints = placement.chain, placement.start, placement.joints
        last = self.robot.drag_reference(chain, start, settings) if request.streamed else None
        if request.streamed:
            # Seeding at the last command keeps consecutive solutions of a drag on one branch.
            seed = start if last is None else last
        else:
            seed = self._checks.seed(request, chain, start)
        # Frames that move with the joints are placed where the chain is now.
        joints.update(zip(chain.joint_names, start.tolist()))
        base_from_frame = self._checks.frame(request, placement.model, chain, joints,
                                             self.robot.external_lookup, settings.tf_timeout)
        # A position that is not finite is refused by solve(); until then NaN is no error.
        with np.errstate(invalid='ignore', over='ignore'):
            target = base_from_frame @ checked.target_in_frame
        check_goal_distance(chain, target)
        return Aim(last=last, seed=seed, target=target)

    def _solved(self, request: IKRequest, settings: NodeSettings, checked: CheckedRequest,
                placement: 'Placement', aim: 'Aim') -> 'Solved':
        chain, start = placement.chain, placement.start
        # Within the budget of approximate tracking where it applies.
        approximate = accepts_approximate(request, settings)
        budget = exact_search_budget(request, approximate, checked.timeout)
        result = self._solve(chain, aim.target, seed=aim.seed, goal=checked.goal,
                             options=dataclasses.replace(checked.options, **budget),
                             collision=placement.collision)
        # The one place a solution is put on the turn of each joint nearest where the command
        # starts: the report, the judges and the command all use this configuration.
        result = dataclasses.replace(result, q=nearest_turn(result.q, start, chain))
        solutions: Tuple[np.ndarray, ...] = ()
        if result.success:  # several solutions, a preference: docs/solutions.md
            result, solutions = preferred_solutions(
                chain, aim.target, result, request, settings, seed=aim.seed, start=start,
                last=aim.last, timeout=checked.timeout, collision=placement.collision,
                goal=checked.goal, options=checked.options)
        reached = np.asarray(chain.fk(result.q), dtype=float).copy()
        return Solved(target=aim.target, result=result, solutions=solutions, reached=reached,
                      approximate=approximate)

    def _judged(self, request: IKRequest, settings: NodeSettings, checked: CheckedRequest,
                placement: 'Placement', aim: 'Aim', solved: 'Solved') -> 'Judged':
        chain, result = placement.chain, solved.result
        claim = (ErrorCode.ORIENTATION_UNREACHABLE if result.status == Status.CLOSEST_ORIENTATION
                 else ErrorCode.SUCCESS)
        # A closest orientation is no solution of the pose: only the parameter commands it.
        may_command = claim == ErrorCode.SUCCESS or settings.orientation_fallback
        wanted = request.streamed or request.execute
        candidate = Candidate(
            chain=chain, model=placement.model, q=result.q, reached=solved.reached,
            target=aim.target, start=placement.start, last_command=aim.last,
            joint_state_ages=self.robot.joint_state_ages(chain.joint_names),
            settings=settings, streamed=request.streamed, commanding=wanted and may_command,
            result=result, solver=checked.solver, timeout=checked.timeout, claim=claim,
            collision=placement.collision,
            summary='position error %.3g m, orientation error %.3g rad, %d iterations, %.1f ms'
            % (result.position_error, result.orientation_error, result.iterations,
               1e3 * result.elapsed), approximate=solved.approximate, command_requested=wanted,
            goal=checked.goal)
        candidate, refusal = self._judge(candidate)
        verdict = collision_verdict(candidate, placement.model, placement.joints,
                                    placement.unchecked,
                                    self.robot.collisions.summary(placement.model))
        return Judged(candidate=candidate, refusal=refusal, collision=verdict)

    def _commanded(self, reached: '_Reached') -> IKOutcome:
        candidate, refusal = reached.judged.candidate, reached.judged.refusal
        plan = MotionPlan()
        if refusal is None and candidate.commanding:
            if candidate.streamed:
                command, refusal = self.timing.plan(candidate)
                plan = MotionPlan(command=command)
            else:
                first = candidate
                candidate, plan = self.timing.plan_motion(
                    candidate, others=lambda: other_solutions(first, self._solve, self._judges))
                refusal = plan.refusal
        return _outcome(candidate, refusal, plan, reached.outcome_fields())

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

    def handle_tree(self, request: IKRequest, settings: NodeSettings) -> TreeOutcome:
        """
        Check, solve, judge and time a request of several tips (:mod:`.tree_pipeline`).

        :param request: ``tip_targets`` for some of the node's tips (the others hold), or its
            own target for the first tip. :param settings: The node's parameters.
        :returns: The outcome; never raises, publishes nothing.
        """
        return handle_tree(self.robot, self._trees, request, settings, self._checks)

    # Cartesian paths -------------------------------------------------------------------------

    def handle_path(self, request: PathRequest, settings: NodeSettings, *,
                    joint_limits: Optional[Mapping[str, Any]] = None,
                    collision: Optional[CollisionModel] = None) -> PathOutcome:
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
        return handle_path(self.robot, self.timing, request, settings, checks=self._checks,
                           judges=self._judges, external_lookup=self.robot.external_lookup,
                           joint_limits=joint_limits, collision=collision)


def _accepted_message(candidate: Candidate) -> str:
    if candidate.claim == ErrorCode.APPROXIMATE:
        return candidate.summary  # the fallback's account of what it commands and why
    if candidate.claim == ErrorCode.ORIENTATION_UNREACHABLE:
        return ('%s: no configuration takes this orientation; the position is met and the '
                'orientation is the closest found: %s' % (candidate.solver, candidate.summary))
    return '%s reached the target: %s' % (candidate.solver, candidate.summary)


def _outcome(candidate: Candidate, refusal: Optional[Refusal], plan: MotionPlan,
             reached: Dict[str, Any]) -> IKOutcome:
    """Give the outcome of a judged (and perhaps commanded) candidate."""
    fields = dict(reached, result=candidate.result, reached=candidate.reached)
    accepted = _accepted_message(candidate)
    if refusal is None:
        message = accepted
        if (plan.command is not None or plan.path is not None) and not candidate.streamed:
            message += '; commanded' + ('' if not plan.note else ' (%s)' % plan.note)
            if OPEN_LOOP_NOTE in fields.get('notes', ()):
                message += '; ' + OPEN_LOOP_NOTE
        return IKOutcome(candidate.claim, message, command=plan.command,
                         path_command=plan.path, **fields)
    if refusal.code == ErrorCode.EXECUTION_FAILED:
        # The solution itself was fine: the answer says so, and why it was not sent.
        return IKOutcome(refusal.code, '%s; but %s' % (accepted, refusal.message),
                         log_kind=refusal.log_kind, motion_contact=refusal.contact, **fields)
    return IKOutcome(refusal.code, refusal.message, log_kind=refusal.log_kind,
                     motion_contact=refusal.contact, **fields)
