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
import threading
import time
import traceback
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .approximate_tracking import accepts_approximate, ApproximateTracking, exact_search_budget
from .candidate import Candidate
from .collision_check import collision_model_for, collision_verdict, place_obstacle
from .collision_scene import CollisionScene
from .description_loader import description_size_problem
from .error_codes import ErrorCode
from .fallback import Fallback
from .frames import ExternalLookup
from .inputs import check_request, InputChecks
from .joint_state_store import JointStateStore
from .judges import DEFAULT_JUDGES, first_refusal, Judge
from .judges.continuity import moved_away
from .model_holder import ModelHolder
from .outcome import Command, IKOutcome, IKRequest
from .path_pipeline import handle_path
from .path_request import PathOutcome, PathRequest
from .refusal import Refusal, refusal_for
from .settings import NodeSettings
from .trajectory import largest_joint_jump, trajectory_duration
from ..collision import CollisionModel, Obstacle, ObstacleSet
from ..exceptions import IKError, RobotModelError
from ..kinematics import Chain, RobotModel
from ..solvers import IKResult, solve
from ..solvers.solve import nearest_turn

__all__ = ['DEFAULT_FALLBACKS', 'IKEngine', 'SolveFunction']

#: Asked after a refusal, in order; approximate tracking answers only requests that accept it.
DEFAULT_FALLBACKS: Tuple[Fallback, ...] = (ApproximateTracking(),)

#: ``solve(chain, target, **arguments) -> IKResult``, as :func:`ik_solvers.solve`.
SolveFunction = Callable[..., IKResult]


class IKEngine:
    """Robot model, joint states, last command, and the one path from request to command."""

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
        self._lock = threading.Lock()
        self._external_lookup = external_lookup
        self._judges = tuple(judges)
        self._fallbacks = tuple(fallbacks)
        self._checks = checks if checks is not None else InputChecks()
        self._solve = solve_function
        self._collisions = collisions if collisions is not None else CollisionScene()
        self._models = ModelHolder(on_adopt=self._forget_other_robots)
        self._joint_states = JointStateStore(clock)
        self._last_command: Optional[Tuple[Tuple[str, ...], np.ndarray]] = None

    # Robot model -----------------------------------------------------------------------------

    @property
    def has_model(self) -> bool:
        """Tell whether a valid robot description was loaded."""
        return self._models.has_model

    def load_description(self, urdf_xml: str, base_link: str, tip_link: str) -> Chain:
        """
        Replace the robot model, keeping the old one unless the new one gives the chain.

        :param urdf_xml: The URDF text.
        :param base_link: Chain base; empty means the description's root link.
        :param tip_link: Chain tip.
        :returns: The new chain.
        :raises RobotModelError: If the XML is too large, not a usable URDF or lacks the links.
        """
        return self.load_description_for(urdf_xml, lambda: (base_link, tip_link))

    def load_description_for(self, urdf_xml: str,
                             current_links: Callable[[], Tuple[str, str]]) -> Chain:
        """
        Parse a description and its collision geometry; adopt both once they are ready.

        The links are those configured once the description is parsed.

        Solves go on with the old model and its geometry while this runs (see
        :class:`.ModelHolder`): a mesh that takes seconds to load delays no answer.

        :param urdf_xml: The URDF text.
        :param current_links: Returns ``(base_link, tip_link)`` as configured now.
        :returns: The new chain.
        :raises RobotModelError: If the XML is too large (see
            :data:`.description_loader.MAX_DESCRIPTION_BYTES`), not a usable URDF or lacks the
            links.
        """
        too_large = description_size_problem(urdf_xml)
        if too_large:
            raise RobotModelError(too_large)
        return self._models.load(
            urdf_xml, current_links,
            prepare=lambda model: self._collisions.load_geometry(model, urdf_xml))

    def _forget_other_robots(self, model: RobotModel, chain: Chain) -> None:
        self._collisions.forget_other_robots(model)
        self._joint_states.restrict_to(model.joint_names)
        with self._lock:
            if (self._last_command is not None
                    and self._last_command[0] != tuple(chain.joint_names)):
                self._last_command = None

    def check_links(self, base_link: str, tip_link: str) -> None:
        """
        Check that new base and tip links give a chain, before the parameters change.

        :raises RobotModelError: If no received description gives that chain.
        """
        self._models.check_links(base_link, tip_link)

    def adopt_links(self, base_link: str, tip_link: str) -> None:
        """Follow base and tip links that were changed, after :meth:`check_links` passed."""
        self._models.adopt_links(base_link, tip_link)

    def chain(self, base_link: str, tip_link: str) -> Chain:
        """
        Return the chain between two links of the current model, built once and cached.

        :raises RobotModelError: If there is no model, or it lacks the links.
        """
        return self._models.chain_and_model(base_link, tip_link)[0]

    # What collisions are checked against -------------------------------------------------------

    def collision_warnings(self, base_link: str, tip_link: str) -> Tuple[str, ...]:
        """
        Build the collision model of a chain ahead of its first solve; give its warnings.

        :returns: Messages for the log: unusable geometry, ignored SRDF pairs, pairs in contact
            at the zero configuration (without an SRDF).
        :raises RobotModelError: If there is no model, or it lacks the links.
        """
        chain, model = self._models.chain_and_model(base_link, tip_link)
        return self._collisions.warnings(model, chain)

    @property
    def collisions(self) -> CollisionScene:
        """Give the collision inputs: geometry, SRDF, obstacles."""
        return self._collisions

    def collision_model(self, settings: NodeSettings) -> Optional[CollisionModel]:
        """
        Give the collision model of the configured chain as the scene is now (for paths).

        :returns: The model, or ``None`` without a description or collision geometry.
        """
        try:
            chain, model = self._models.chain_and_model(settings.base_link, settings.tip_link)
        except RobotModelError:
            return None
        return self._collisions.model_for(model, chain, self._joint_states.positions(),
                                          settings.collision_padding)

    def collision_summary(self) -> str:
        """Say in one line what collisions are checked against, and the latest refusal."""
        return self._collisions.summary(self._models.current_model())

    def apply_obstacle(self, obstacle: Obstacle, frame_id: str,
                       settings: NodeSettings) -> ObstacleSet:
        """
        Add, move or remove an obstacle posed in a frame.

        :param obstacle: The obstacle, its pose in ``frame_id``.
        :param frame_id: Empty for the chain's base, a link of the description (posed at the
            current joint states) or a frame of the external lookup (not waited for).
        :param settings: The node's parameters (the chain's links).
        :returns: The obstacles in place afterwards.
        :raises InvalidObstacleError: If it is refused (an unknown frame too); every obstacle
            in place stays, and the refusal is remembered for the summary.
        """
        return place_obstacle(self._collisions, obstacle, frame_id,
                              lambda: self._models.chain_and_model(settings.base_link,
                                                                   settings.tip_link),
                              self._joint_states.positions(), self._external_lookup)

    # Where the robot is ----------------------------------------------------------------------

    def update_joint_states(self, names: Sequence[str],
                            positions: Sequence[float]) -> List[str]:
        """
        Merge a joint state message: every named joint with a finite position takes it.

        :returns: The joints whose position was NaN or infinite; they keep their old position.
        :raises InvalidSeedError: If the message is larger than the bound of
            :class:`.JointStateStore`, names and positions do not pair up, or a name repeats
            or is empty; nothing is merged then.
        """
        return self._joint_states.update(names, positions)

    def current_configuration(self, chain: Chain) -> Tuple[np.ndarray, List[str]]:
        """
        Where the chain is now, as best known.

        Per joint: the latest joint state; else the last command; else the middle of the limits.
        The result is clipped into the limits, since encoders may read slightly outside them.

        :returns: The (N,) configuration, and warnings about joints that joint states lack.
        """
        return self._where(chain, self._joint_states.positions())

    def _where(self, chain: Chain, joint_positions: Dict[str, float]
               ) -> Tuple[np.ndarray, List[str]]:
        q = np.array(chain.mid_configuration(), dtype=float)
        names = list(chain.joint_names)
        last = self._last_command_of(chain)
        if last is not None:
            q = last
        notes = []
        if joint_positions:
            missing = [name for name in names if name not in joint_positions]
            for index, name in enumerate(names):
                if name in joint_positions:
                    q[index] = joint_positions[name]
            if missing:
                notes.append('joint_states lack chain joints %s; using the last command or '
                             'the middle of their limits' % ', '.join(missing))
        return np.asarray(chain.clip(q), dtype=float), notes

    def _last_command_of(self, chain: Chain) -> Optional[np.ndarray]:
        with self._lock:
            if self._last_command is None or self._last_command[0] != tuple(chain.joint_names):
                return None
            return self._last_command[1].copy()

    def _drag_reference(self, chain: Chain, start: np.ndarray,
                        settings: NodeSettings) -> Optional[np.ndarray]:
        # While a goal is dragged the joint states lag behind the commands: the last command
        # is where the drag is. When the joint states are farther from it than an arm lags
        # (see continuity.moved_away), something else moved the robot.
        last = self._last_command_of(chain)
        if last is None:
            return None
        return last if largest_joint_jump(start, last) <= moved_away(settings) else None

    # The pipeline ----------------------------------------------------------------------------

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
        command = None
        if refusal is None and candidate.commanding:
            command, refusal = self._plan(candidate)
        return _outcome(candidate, refusal, command, known)

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
        settings, chain, q = candidate.settings, candidate.chain, candidate.q
        try:
            duration = trajectory_duration(candidate.start, q, chain.velocity_limits,
                                           velocity_scale=settings.velocity_scale,
                                           min_duration=settings.min_duration)
        except ValueError as error:
            return None, Refusal(ErrorCode.EXECUTION_FAILED, str(error))
        with self._lock:
            self._last_command = (tuple(chain.joint_names), np.array(q, dtype=float))
        return Command(tuple(chain.joint_names), tuple(np.asarray(q, dtype=float).tolist()),
                       duration), None

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

    def remember_command(self, chain: Chain, q: np.ndarray) -> None:
        with self._engine._lock:
            self._engine._last_command = (tuple(chain.joint_names), np.array(q, dtype=float))


def _accepted_message(candidate: Candidate) -> str:
    if candidate.claim == ErrorCode.APPROXIMATE:
        return candidate.summary  # the fallback's account of what it commands and why
    if candidate.claim == ErrorCode.ORIENTATION_UNREACHABLE:
        return ('%s: no configuration takes this orientation; the position is met and the '
                'orientation is the closest found: %s' % (candidate.solver, candidate.summary))
    return '%s reached the target: %s' % (candidate.solver, candidate.summary)


def _outcome(candidate: Candidate, refusal: Optional[Refusal], command: Optional[Command],
             known: Dict[str, Any]) -> IKOutcome:
    """Give the outcome of a judged (and perhaps commanded) candidate."""
    known.update(result=candidate.result, reached=candidate.reached)
    accepted = _accepted_message(candidate)
    if refusal is None:
        message = accepted
        if command is not None and not candidate.streamed:
            message += '; commanded'
        return IKOutcome(candidate.claim, message, command=command, **known)
    if refusal.code == ErrorCode.EXECUTION_FAILED:
        # The solution itself was fine: the answer says so, and why it was not sent.
        return IKOutcome(refusal.code, '%s; but %s' % (accepted, refusal.message),
                         log_kind=refusal.log_kind, **known)
    return IKOutcome(refusal.code, refusal.message, log_kind=refusal.log_kind, **known)
