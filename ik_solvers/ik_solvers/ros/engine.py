# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Everything the ik_node decides, without rclpy: model, seeds, checks, solving, commands.

The node only converts messages and calls :class:`IKEngine`; the engine is thread-safe, so the
streaming worker, the service and the subscriptions may call it from different threads. It never
raises on bad input: every problem becomes an :class:`IKOutcome` with a SolveIK error code.
"""

import dataclasses
import math
import threading
import time
import traceback
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .error_codes import ErrorCode
from .goal_request import goal_arguments
from .frames import ExternalLookup, frame_to_base, UnknownFrameError
from .joint_state_store import JointStateStore
from .model_holder import ModelHolder
from .outcome import Command, IKOutcome, IKRequest
from .parameters import NodeSettings, request_value
from .pose_math import pose_matrix
from .seeds import seed_configuration
from .trajectory import largest_joint_jump, trajectory_duration
from ..exceptions import (
    IKError,
    InvalidSeedError,
    InvalidTargetError,
    RobotModelError,
    UnknownSolverError,
)
from ..kinematics import Chain, RobotModel
from ..solvers import IKResult, solve, solver_class
from ..solvers.solve import nearest_turn

__all__ = ['CommandRefusedError', 'IKEngine', 'StaleJointStatesError']

#: Longest solver name and frame id accepted, in characters. A longer one is refused without
#: being looked up or quoted whole in the answer, the status and the log.
MAX_NAME_LENGTH = 256


class CommandRefusedError(IKError):
    """A solution may not be sent as a command (unverified, or too far from the robot)."""


class StaleJointStatesError(CommandRefusedError):
    """The joint states are too old to tell where a command would start from."""


class _Refusal(Exception):
    """Internal: stops a solve early with an error code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class IKEngine:
    """Robot model, joint states, last command, and the checked path from request to command."""

    def __init__(self, *, external_lookup: Optional[ExternalLookup] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """
        Create an engine without a robot model.

        :param external_lookup: Resolves target frames that are not links of the description
            (the node passes a tf2 lookup where tf2_ros is installed).
        :param clock: Seconds on a monotonic clock, for the age of joint states.
        """
        self._lock = threading.Lock()
        self._external_lookup = external_lookup
        self._models = ModelHolder(on_adopt=self._forget_other_robots)
        self._joint_states = JointStateStore(clock)
        self._last_command: Optional[Tuple[Tuple[str, ...], np.ndarray]] = None

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
        :raises RobotModelError: If the XML is not a usable URDF or lacks the links.
        """
        return self._models.load(urdf_xml, lambda: (base_link, tip_link))

    def load_description_for(self, urdf_xml: str,
                             current_links: Callable[[], Tuple[str, str]]) -> Chain:
        """
        Parse a description and adopt it for the links configured once it is parsed.

        Solves go on with the old model while this runs (see :class:`ModelHolder`).

        :param urdf_xml: The URDF text.
        :param current_links: Returns ``(base_link, tip_link)`` as configured now.
        :returns: The new chain.
        :raises RobotModelError: If the XML is not a usable URDF or lacks the links.
        """
        return self._models.load(urdf_xml, current_links)

    def _forget_other_robots(self, model: RobotModel, chain: Chain) -> None:
        self._joint_states.restrict_to(model.joint_names)
        with self._lock:
            if (self._last_command is not None
                    and self._last_command[0] != tuple(chain.joint_names)):
                self._last_command = None

    def check_links(self, base_link: str, tip_link: str) -> None:
        """
        Check that new base and tip links give a chain, before the parameters change.

        Passes when no description was received yet. Changes nothing: the change may still be
        refused; :meth:`adopt_links` applies it.

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

    def update_joint_states(self, names: Sequence[str],
                            positions: Sequence[float]) -> List[str]:
        """
        Merge a joint state message: every named joint with a finite position takes it.

        Once a description is loaded, joints it does not have are not kept.

        :returns: The joints whose position was NaN or infinite; they keep their old position.
        :raises InvalidSeedError: If the message is larger than the bound of
            :class:`~.joint_state_store.JointStateStore`, names and positions do not pair up,
            or a name repeats or is empty; nothing is merged then.
        """
        return self._joint_states.update(names, positions)

    def record_command(self, chain: Chain, q: Sequence[float]) -> None:
        """Remember a commanded configuration: the seed while no joint states arrive."""
        with self._lock:
            self._last_command = (tuple(chain.joint_names), np.array(q, dtype=float))

    def current_configuration(self, chain: Chain) -> Tuple[np.ndarray, List[str]]:
        """
        Where the chain is now, as best known.

        Per joint: the latest joint state; else the last command; else the middle of the limits.
        The result is clipped into the limits, since encoders may read slightly outside them.

        :returns: The (N,) configuration, and warnings about joints that joint states lack.
        """
        joint_positions = self._joint_states.positions()
        with self._lock:
            q = np.array(chain.mid_configuration(), dtype=float)
            names = list(chain.joint_names)
            if self._last_command is not None and self._last_command[0] == tuple(names):
                q = self._last_command[1].copy()
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

    def _joint_mapping(self, chain: Chain, q: np.ndarray) -> Dict[str, float]:
        mapping = self._joint_states.positions()
        mapping.update(zip(chain.joint_names, (float(value) for value in q)))
        return mapping

    def _drag_reference(self, chain: Chain, current: np.ndarray,
                        settings: NodeSettings) -> Optional[np.ndarray]:
        """
        Return the last command, if the robot is still near it, else None.

        While a goal is dragged the joint states lag behind the commands: the last command is
        where the drag is. When the joint states are farther from it than ``max_joint_jump``,
        the robot was moved by something else (another controller, a person), and the last
        command no longer says anything about where the drag continues from.
        """
        with self._lock:
            if self._last_command is None or self._last_command[0] != tuple(chain.joint_names):
                return None
            last = self._last_command[1].copy()
        bound = settings.max_joint_jump if settings.max_joint_jump > 0.0 else math.inf
        return last if largest_joint_jump(current, last) <= bound else None

    def _drag_seed(self, chain: Chain, current: np.ndarray,
                   settings: NodeSettings) -> np.ndarray:
        # Seeding at the last command keeps consecutive solutions of a drag on one branch.
        last = self._drag_reference(chain, current, settings)
        return current if last is None else last

    def solve(self, request: IKRequest, settings: NodeSettings) -> IKOutcome:
        """
        Check a request, resolve its frame, seed and solve; never raises.

        :param request: The request; zero tolerances and timeout mean those of ``settings``.
        :param settings: The node's parameters.
        :returns: The outcome; ``SUCCESS`` only for solutions verified by FK and within limits.
            It carries no command: :meth:`execute` decides that.
        """
        # What is known when a check refuses the request goes into the outcome: the chain
        # and the target let the node still draw the markers.
        known: Dict[str, Any] = {}
        try:
            return self._solve(request, settings, known)
        except _Refusal as refusal:
            return IKOutcome(refusal.code, refusal.message, **known)
        except Exception as error:  # noqa: B902 - a bug must not take the node down
            return IKOutcome(ErrorCode.INTERNAL_ERROR, 'internal error: %r\n%s'
                             % (error, traceback.format_exc()), **known)

    def _check_request(self, request: IKRequest,
                       settings: NodeSettings) -> Tuple[str, float, float, float]:
        """Return the solver, timeout and tolerances a request uses, or refuse it."""
        for name, value, code in (('solver name', request.solver, ErrorCode.UNKNOWN_SOLVER),
                                  ('frame id', request.frame_id, ErrorCode.UNKNOWN_FRAME)):
            if len(value) > MAX_NAME_LENGTH:
                raise _Refusal(code, 'the %s has %d characters, more than %d: %r...'
                               % (name, len(value), MAX_NAME_LENGTH, value[:40]))
        solver = request.solver or settings.solver
        try:
            solver_class(solver)
        except UnknownSolverError as error:
            raise _Refusal(ErrorCode.UNKNOWN_SOLVER, str(error))
        values = []
        for name, code in (('timeout', ErrorCode.INVALID_TIMEOUT),
                           ('position_tolerance', ErrorCode.INVALID_TARGET),
                           ('orientation_tolerance', ErrorCode.INVALID_TARGET)):
            try:
                values.append(request_value(name, getattr(request, name),
                                            getattr(settings, name)))
            except ValueError as error:
                raise _Refusal(code, str(error))
        timeout, position_tolerance, orientation_tolerance = values
        return solver, timeout, position_tolerance, orientation_tolerance

    def _solve(self, request: IKRequest, settings: NodeSettings,
               known: Dict[str, Any]) -> IKOutcome:
        try:
            target_in_frame = pose_matrix(request.position, request.orientation)
        except InvalidTargetError as error:
            raise _Refusal(ErrorCode.INVALID_TARGET, 'invalid target: %s' % error)
        solver, timeout, position_tolerance, orientation_tolerance = self._check_request(
            request, settings)
        known['solver'] = solver
        try:
            # Chain and model from the same description, even while a new one arrives.
            chain, model = self._models.chain_and_model(settings.base_link, settings.tip_link)
        except RobotModelError as error:
            raise _Refusal(ErrorCode.NO_ROBOT_MODEL, str(error))
        current, notes = self.current_configuration(chain)
        known.update(chain=chain, start=current, notes=tuple(notes))
        if request.streamed:
            seed = self._drag_seed(chain, current, settings)
        else:
            try:
                seed = seed_configuration(chain, request.seed_names, request.seed_positions,
                                          current)
            except InvalidSeedError as error:
                raise _Refusal(ErrorCode.INVALID_SEED, str(error))
        try:
            base_from_frame = frame_to_base(
                model, chain.base_link, request.frame_id, self._joint_mapping(chain, current),
                external_lookup=self._external_lookup, lookup_timeout=settings.tf_timeout)
        except UnknownFrameError as error:
            raise _Refusal(ErrorCode.UNKNOWN_FRAME, str(error))
        target = known['target'] = base_from_frame @ target_in_frame
        try:
            result = solve(chain, target, seed=seed, solver=solver, timeout=timeout,
                           position_tolerance=position_tolerance,
                           orientation_tolerance=orientation_tolerance,
                           **goal_arguments(request, settings))
        except InvalidTargetError as error:
            raise _Refusal(ErrorCode.INVALID_TARGET, 'invalid target: %s' % error)
        except InvalidSeedError as error:
            raise _Refusal(ErrorCode.INVALID_SEED, 'invalid seed: %s' % error)
        # The one place a solution is put on the turn of each joint nearest where the command
        # starts: the report, the jump check and the command all use this configuration.
        result = dataclasses.replace(result, q=nearest_turn(result.q, current, chain))
        code, message = _verdict(solver, result, chain, timeout)
        return IKOutcome(code, message, result=result, **known)

    def _check_joint_states_fresh(self, chain: Chain, timeout: float) -> None:
        # Joints never reported are not checked: without any joint states (open loop) the
        # command starts from the last command, as documented.
        if timeout <= 0.0:
            return
        ages = self._joint_states.ages(chain.joint_names)
        stale = [name for name, age in ages.items() if age > timeout]
        if stale:
            raise StaleJointStatesError(
                'joint_states of %s are up to %.2f s old, more than joint_state_timeout = %g s: '
                'where the robot is now is unknown, so it is not commanded until fresh ones '
                'arrive' % (', '.join(stale), max(ages[name] for name in stale), timeout))

    def execute(self, outcome: IKOutcome, settings: NodeSettings, *,
                streamed: bool) -> IKOutcome:
        """
        Decide whether a solve's solution is commanded; never raises.

        :param outcome: An outcome of :meth:`solve`.
        :param settings: Velocity scale, minimum duration, largest joint jump, joint state age.
        :param streamed: A dragged target (see :meth:`plan_command`).
        :returns: ``outcome`` itself when it is not a verified solution; else a copy carrying
            the command, or with ``EXECUTION_FAILED`` and the reason when it may not be sent.
        """
        if not _commandable(outcome, settings):
            return outcome
        try:
            command = self.plan_command(outcome, settings, streamed=streamed)
        except (CommandRefusedError, ValueError) as error:
            return dataclasses.replace(
                outcome, error_code=ErrorCode.EXECUTION_FAILED,
                message='%s; but %s' % (outcome.message, error),
                log_kind='joint_states_stale' if isinstance(error, StaleJointStatesError)
                else '')
        message = outcome.message if streamed else outcome.message + '; commanded'
        return dataclasses.replace(outcome, command=command, message=message)

    def plan_command(self, outcome: IKOutcome, settings: NodeSettings, *,
                     streamed: bool = False) -> Command:
        """
        Turn a verified solution into a command, and remember it as commanded.

        :param outcome: A successful outcome of :meth:`solve`.
        :param settings: Velocity scale, minimum duration and largest joint jump.
        :param streamed: a dragged target: one joint moving further than
            ``settings.max_joint_jump`` from where the chain is, or from the last command, is a
            jump to another branch and is refused. A one-shot request (False) is an explicit
            move and is not bounded.
        :returns: The command.
        :raises CommandRefusedError: If the outcome is not a verified solution, or a streamed
            one would jump.
        :raises StaleJointStatesError: If a chain joint's latest joint state is older than
            ``settings.joint_state_timeout`` (0 disables this check).
        :raises ValueError: If the settings give no valid duration.
        """
        if (not _commandable(outcome, settings) or outcome.chain is None
                or outcome.result is None or outcome.start is None):
            raise CommandRefusedError('only verified solutions are commanded')
        chain, q, start = outcome.chain, np.asarray(outcome.result.q, dtype=float), outcome.start
        if not chain.within_limits(q):
            raise CommandRefusedError('the solution is outside the joint limits')
        self._check_joint_states_fresh(chain, settings.joint_state_timeout)
        if streamed and settings.max_joint_jump > 0.0:
            # The joint states lag behind a drag, so a flip could pass the check against them
            # in steps; against the last command it cannot.
            references = [('its current position', start)]
            last = self._drag_reference(chain, start, settings)
            if last is not None:
                references.append(('the last command', last))
            for name, reference in references:
                jump = largest_joint_jump(reference, q)
                if jump > settings.max_joint_jump:
                    joint = chain.joint_names[int(np.argmax(np.abs(q - reference)))]
                    raise CommandRefusedError(
                        'joint %s would move %.3g (rad or m) from %s, more than '
                        'max_joint_jump = %.3g; not commanded'
                        % (joint, jump, name, settings.max_joint_jump))
        duration = trajectory_duration(start, q, chain.velocity_limits,
                                       velocity_scale=settings.velocity_scale,
                                       min_duration=settings.min_duration)
        self.record_command(chain, q)
        return Command(tuple(chain.joint_names), tuple(float(value) for value in q), duration)


def _commandable(outcome: IKOutcome, settings: NodeSettings) -> bool:
    """Whether a solve's configuration may be commanded at all."""
    # A closest orientation is no solution of the pose: only the explicit parameter sends it.
    return outcome.success or (outcome.error_code == ErrorCode.ORIENTATION_UNREACHABLE
                               and settings.orientation_fallback)


def _verdict(solver: str, result: IKResult, chain: Chain, timeout: float) -> Tuple[ErrorCode, str]:
    """Give the error code and message of a finished solve."""
    errors = 'position error %.3g m, orientation error %.3g rad, %d iterations, %.1f ms' % (
        result.position_error, result.orientation_error, result.iterations,
        1e3 * result.elapsed)
    if result.success and chain.within_limits(result.q):
        return ErrorCode.SUCCESS, '%s reached the target: %s' % (solver, errors)
    if result.success:
        return ErrorCode.NO_SOLUTION, '%s returned a solution outside the joint limits' % solver
    if result.status == 'closest_orientation' and chain.within_limits(result.q):
        return ErrorCode.ORIENTATION_UNREACHABLE, (
            '%s: no configuration takes this orientation; the position is met and the '
            'orientation is the closest found: %s' % (solver, errors))
    if result.status == 'timed_out':
        return ErrorCode.TIMED_OUT, '%s timed out after %g s: %s' % (solver, timeout, errors)
    return ErrorCode.NO_SOLUTION, '%s found no solution within tolerance: %s' % (solver, errors)
