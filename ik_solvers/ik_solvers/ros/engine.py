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
import traceback
from typing import Dict, List, Optional, Sequence, Tuple

from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from trajectory_msgs.msg import JointTrajectory

from .conversions import finite_joint_positions, joint_state_to_mapping, pose_to_matrix
from .frames import ExternalLookup, frame_to_base, UnknownFrameError
from .outcome import IKOutcome, IKRequest
from .parameters import MAX_TIMEOUT, NodeSettings
from .trajectory import build_trajectory, largest_joint_jump, nearest_equivalent
from ..exceptions import (
    IKError,
    InvalidSeedError,
    InvalidTargetError,
    RobotModelError,
    UnknownSolverError,
)
from ..kinematics import Chain, RobotModel
from ..solvers import solve, SOLVERS

__all__ = ['CommandRefusedError', 'IKEngine', 'IKOutcome', 'IKRequest']

Codes = SolveIK.Response

#: Upper bounds of request tolerances, the same as the node parameters' ranges.
MAX_POSITION_TOLERANCE = 1.0
MAX_ORIENTATION_TOLERANCE = math.pi


class CommandRefusedError(IKError):
    """A solution may not be sent as a command (unverified, or too far from the robot)."""


class _Refusal(Exception):
    """Internal: stops a solve early with an error code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class IKEngine:
    """Robot model, joint states, last command, and the checked path from request to command."""

    def __init__(self, *, external_lookup: Optional[ExternalLookup] = None) -> None:
        """
        Create an engine without a robot model.

        :param external_lookup: Resolves target frames that are not links of the description
            (the node passes a tf2 lookup where tf2_ros is installed).
        """
        self._lock = threading.RLock()
        self._external_lookup = external_lookup
        self._model: Optional[RobotModel] = None
        # The newest description that parsed but lacked the configured links; adopted when the
        # links are changed to ones it has.
        self._candidate_model: Optional[RobotModel] = None
        self._chains: Dict[Tuple[str, str], Chain] = {}
        self._joint_positions: Dict[str, float] = {}
        self._last_command: Optional[Tuple[Tuple[str, ...], np.ndarray]] = None

    @property
    def has_model(self) -> bool:
        """Tell whether a valid robot description was loaded."""
        with self._lock:
            return self._model is not None

    @property
    def has_joint_states(self) -> bool:
        """Tell whether joint states were received."""
        with self._lock:
            return bool(self._joint_positions)

    @staticmethod
    def _build_chain(model: RobotModel, base_link: str, tip_link: str) -> Chain:
        if not tip_link:
            raise RobotModelError('the tip_link parameter is empty')
        return model.chain(base_link or model.root_link, tip_link)

    def load_description(self, urdf_xml: str, base_link: str, tip_link: str) -> Chain:
        """
        Replace the robot model, keeping the old one unless the new one gives the chain.

        :param urdf_xml: The URDF text.
        :param base_link: Chain base; empty means the description's root link.
        :param tip_link: Chain tip.
        :return: The new chain.
        :raises RobotModelError: If the XML is not a usable URDF or lacks the links.
        """
        model = RobotModel.from_urdf(urdf_xml)
        try:
            chain = self._build_chain(model, base_link, tip_link)
        except RobotModelError:
            with self._lock:
                self._candidate_model = model
            raise
        with self._lock:
            self._adopt(model, base_link, tip_link, chain)
        return chain

    def _adopt(self, model: RobotModel, base_link: str, tip_link: str, chain: Chain) -> None:
        self._model = model
        self._candidate_model = None
        self._chains = {(base_link, tip_link): chain}
        if self._last_command is not None and self._last_command[0] != tuple(chain.joint_names):
            self._last_command = None

    def check_links(self, base_link: str, tip_link: str) -> None:
        """
        Check that new base and tip links give a chain, before the parameters change.

        Passes when no description was received yet. Changes nothing: the change may still be
        refused; :meth:`adopt_links` applies it.

        :param base_link: Proposed base link; empty means the root link.
        :param tip_link: Proposed tip link.
        :raises RobotModelError: If no received description gives that chain.
        """
        with self._lock:
            candidate, model = self._candidate_model, self._model
        if candidate is None and model is None:
            return
        errors = []
        for option in (candidate, model):
            if option is None:
                continue
            try:
                self._build_chain(option, base_link, tip_link)
            except RobotModelError as error:
                errors.append(str(error))
                continue
            return
        raise RobotModelError('; '.join(errors))

    def adopt_links(self, base_link: str, tip_link: str) -> None:
        """
        Follow base and tip links that were changed, after :meth:`check_links` passed.

        A description that was refused for lacking the old links is adopted when it has the
        new ones; otherwise the current model stays.

        :param base_link: New base link; empty means the root link.
        :param tip_link: New tip link.
        """
        with self._lock:
            candidate = self._candidate_model
            if candidate is None:
                return
            try:
                chain = self._build_chain(candidate, base_link, tip_link)
            except RobotModelError:
                return
            self._adopt(candidate, base_link, tip_link, chain)

    def chain(self, base_link: str, tip_link: str) -> Chain:
        """
        Return the chain between two links of the current model, built once and cached.

        :raises RobotModelError: If there is no model, or it lacks the links.
        """
        with self._lock:
            if self._model is None:
                raise RobotModelError('no valid robot_description received yet')
            key = (base_link, tip_link)
            if key not in self._chains:
                self._chains[key] = self._build_chain(self._model, base_link, tip_link)
            return self._chains[key]

    def update_joint_states(self, names: Sequence[str],
                            positions: Sequence[float]) -> List[str]:
        """
        Merge a joint state message: every named joint with a finite position takes it.

        :return: The joints whose position was NaN or infinite; they keep their old position.
        :raises InvalidSeedError: If names and positions do not pair up, or a name repeats or
            is empty; nothing is merged then.
        """
        mapping, dropped = finite_joint_positions(names, positions)
        with self._lock:
            self._joint_positions.update(mapping)
        return dropped

    def record_command(self, chain: Chain, q: Sequence[float]) -> None:
        """Remember a commanded configuration: the seed while no joint states arrive."""
        with self._lock:
            self._last_command = (tuple(chain.joint_names), np.array(q, dtype=float))

    def current_configuration(self, chain: Chain) -> Tuple[np.ndarray, List[str]]:
        """
        Where the chain is now, as best known.

        Per joint: the latest joint state; else the last command; else the middle of the limits.
        The result is clipped into the limits, since encoders may read slightly outside them.

        :return: The (N,) configuration, and warnings about joints that joint states lack.
        """
        with self._lock:
            q = np.array(chain.mid_configuration(), dtype=float)
            names = list(chain.joint_names)
            if self._last_command is not None and self._last_command[0] == tuple(names):
                q = self._last_command[1].copy()
            notes = []
            if self._joint_positions:
                missing = [name for name in names if name not in self._joint_positions]
                for index, name in enumerate(names):
                    if name in self._joint_positions:
                        q[index] = self._joint_positions[name]
                if missing:
                    notes.append('joint_states lack chain joints %s; using the last command or '
                                 'the middle of their limits' % ', '.join(missing))
        return np.asarray(chain.clip(q), dtype=float), notes

    def _joint_mapping(self, chain: Chain, q: np.ndarray) -> Dict[str, float]:
        with self._lock:
            mapping = dict(self._joint_positions)
        mapping.update(zip(chain.joint_names, (float(value) for value in q)))
        return mapping

    def _seed(self, chain: Chain, request: IKRequest, current: np.ndarray) -> np.ndarray:
        names, positions = list(request.seed_names), list(request.seed_positions)
        if not names and not positions:
            return current
        if not names:
            if len(positions) != chain.num_joints:
                raise _Refusal(Codes.INVALID_SEED, 'the seed has %d positions and no names; the '
                               'chain has %d joints' % (len(positions), chain.num_joints))
            names = list(chain.joint_names)
        try:
            mapping = joint_state_to_mapping(names, positions)
        except InvalidSeedError as error:
            raise _Refusal(Codes.INVALID_SEED, 'invalid seed: %s' % error)
        unknown = [name for name in mapping if name not in chain.joint_names]
        if unknown:
            raise _Refusal(Codes.INVALID_SEED, 'seed joints %s are not in the chain (%s)'
                           % (', '.join(unknown), ', '.join(chain.joint_names)))
        seed = current.copy()
        for index, name in enumerate(chain.joint_names):
            seed[index] = mapping.get(name, seed[index])
        return np.asarray(chain.clip(seed), dtype=float)

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
        last = nearest_equivalent(current, last, chain.is_continuous)
        bound = settings.max_joint_jump if settings.max_joint_jump > 0.0 else math.inf
        return last if largest_joint_jump(current, last) <= bound else None

    def _drag_seed(self, chain: Chain, current: np.ndarray,
                   settings: NodeSettings) -> np.ndarray:
        # Seeding at the last command keeps consecutive solutions of a drag on one branch.
        last = self._drag_reference(chain, current, settings)
        return current if last is None else last

    @staticmethod
    def _tolerance(value: float, default: float, upper: float, name: str) -> float:
        if value == 0.0:
            return default
        if not (math.isfinite(value) and 0.0 < value <= upper):
            raise _Refusal(Codes.INVALID_TARGET,
                           '%s must be in (0, %g], or 0 for the default; got %r'
                           % (name, upper, value))
        return value

    def solve(self, request: IKRequest, settings: NodeSettings) -> IKOutcome:
        """
        Check a request, resolve its frame, seed and solve; never raises.

        :param request: The request; zero tolerances and timeout mean those of ``settings``.
        :param settings: The node's parameters.
        :return: The outcome; ``SUCCESS`` only for solutions verified by FK and within limits.
        """
        outcome = IKOutcome(Codes.INTERNAL_ERROR, '')
        try:
            self._solve(request, settings, outcome)
        except _Refusal as refusal:
            outcome.error_code, outcome.message = refusal.code, refusal.message
        except Exception as error:  # noqa: B902 - a bug must not take the node down
            outcome.error_code = Codes.INTERNAL_ERROR
            outcome.message = 'internal error: %r\n%s' % (error, traceback.format_exc())
        return outcome

    def _solve(self, request: IKRequest, settings: NodeSettings, outcome: IKOutcome) -> None:
        try:
            target_in_frame = pose_to_matrix(request.pose)
        except InvalidTargetError as error:
            raise _Refusal(Codes.INVALID_TARGET, 'invalid target: %s' % error)
        outcome.solver = request.solver or settings.solver
        if outcome.solver not in SOLVERS:
            raise _Refusal(Codes.UNKNOWN_SOLVER, 'unknown solver %r; known solvers: %s'
                           % (outcome.solver, ', '.join(sorted(SOLVERS))))
        timeout = request.timeout or settings.timeout
        if not (math.isfinite(timeout) and 0.0 < timeout <= MAX_TIMEOUT):
            raise _Refusal(Codes.INVALID_TIMEOUT, 'the timeout must be in (0, %g] s, or 0 for '
                           'the default; got %r s' % (MAX_TIMEOUT, request.timeout))
        position_tolerance = self._tolerance(
            request.position_tolerance, settings.position_tolerance, MAX_POSITION_TOLERANCE,
            'position_tolerance')
        orientation_tolerance = self._tolerance(
            request.orientation_tolerance, settings.orientation_tolerance,
            MAX_ORIENTATION_TOLERANCE, 'orientation_tolerance')
        with self._lock:
            # Chain and model from the same description, even while a new one arrives.
            try:
                chain = self.chain(settings.base_link, settings.tip_link)
            except RobotModelError as error:
                raise _Refusal(Codes.NO_ROBOT_MODEL, str(error))
            model = self._model
        outcome.chain = chain
        current, outcome.notes = self.current_configuration(chain)
        outcome.start = current
        seed = self._seed(chain, request, current)
        if request.streamed:
            seed = self._drag_seed(chain, current, settings)
        try:
            base_from_frame = frame_to_base(
                model, chain.base_link, request.frame_id, self._joint_mapping(chain, current),
                external_lookup=self._external_lookup, lookup_timeout=settings.tf_timeout)
        except UnknownFrameError as error:
            raise _Refusal(Codes.UNKNOWN_FRAME, str(error))
        outcome.target = base_from_frame @ target_in_frame
        position_only = (settings.position_only if request.position_only is None
                         else request.position_only)
        try:
            result = solve(chain, outcome.target, seed=seed, solver=outcome.solver,
                           position_only=position_only, position_tolerance=position_tolerance,
                           orientation_tolerance=orientation_tolerance, timeout=timeout)
        except InvalidTargetError as error:
            raise _Refusal(Codes.INVALID_TARGET, 'invalid target: %s' % error)
        except InvalidSeedError as error:
            raise _Refusal(Codes.INVALID_SEED, 'invalid seed: %s' % error)
        except UnknownSolverError as error:
            raise _Refusal(Codes.UNKNOWN_SOLVER, str(error))
        # The reported solution, the jump check and the command all use the turn of each
        # continuous joint nearest to where it is.
        result = dataclasses.replace(
            result, q=nearest_equivalent(current, result.q, chain.is_continuous))
        outcome.result = result
        errors = 'position error %.3g m, orientation error %.3g rad, %d iterations, %.1f ms' % (
            result.position_error, result.orientation_error, result.iterations,
            1e3 * result.elapsed)
        if result.success and chain.within_limits(result.q):
            outcome.error_code = Codes.SUCCESS
            outcome.message = '%s reached the target: %s' % (outcome.solver, errors)
        elif result.success:
            outcome.error_code = Codes.NO_SOLUTION
            outcome.message = '%s returned a solution outside the joint limits' % outcome.solver
        elif result.status == 'timed_out':
            outcome.error_code = Codes.TIMED_OUT
            outcome.message = '%s timed out after %g s: %s' % (outcome.solver, timeout, errors)
        else:
            outcome.error_code = Codes.NO_SOLUTION
            outcome.message = '%s found no solution within tolerance: %s' % (
                outcome.solver, errors)

    def plan_command(self, outcome: IKOutcome, settings: NodeSettings, *,
                     streamed: bool = False) -> JointTrajectory:
        """
        Turn a verified solution into a JointTrajectory command, and remember it as commanded.

        :param outcome: A successful outcome of :meth:`solve`.
        :param settings: Velocity scale, minimum duration and largest joint jump.
        :param streamed: a dragged target: one joint moving further than
            ``settings.max_joint_jump`` from where the chain is, or from the last command, is a
            jump to another branch and is refused. A one-shot request (False) is an explicit
            move and is not bounded.
        :return: The command.
        :raises CommandRefusedError: If the outcome is not a verified solution, or a streamed
            one would jump.
        """
        if not outcome.success or outcome.chain is None or outcome.result is None:
            raise CommandRefusedError('only verified solutions are commanded')
        chain, q = outcome.chain, np.asarray(outcome.result.q, dtype=float)
        if not chain.within_limits(q):
            raise CommandRefusedError('the solution is outside the joint limits')
        start = outcome.start if outcome.start is not None else self.current_configuration(
            chain)[0]
        q = nearest_equivalent(start, q, chain.is_continuous)
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
        command = build_trajectory(chain.joint_names, start, q, chain.velocity_limits,
                                   velocity_scale=settings.velocity_scale,
                                   min_duration=settings.min_duration)
        self.record_command(chain, q)
        return command
