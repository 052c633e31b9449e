# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The timing of the engine's commands, from the controller's motion after the last command.

A command is timed on the controller's cubic from the state the controller is in (the last
command's motion, as modelled), and remembered, with that motion, once planned.
"""

import threading
from typing import Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from .candidate import Candidate
from .error_codes import ErrorCode
from .judges.continuity import moved_away
from .motion_plan import MotionPlan, plan_one_shot
from .outcome import Command
from .path_request import PathCommand
from .arrival_states import box_corners, extrapolated_bounds
from .refusal import Refusal
from .robot_state import RobotState
from .controller_motion import (command_duration, CommandedMotion, largest_joint_jump,
                                PendingCommands)
from ..exceptions import IKError
from ..kinematics import Chain
from ..paths.controller_spline import ControllerSpline

__all__ = ['CommandTiming', 'measured_states']

# s: a command reaches the controller this long after it is planned, at most (publication
# and the controller's update period); the controller's state then is checked too.
_ARRIVAL_DELAY = 0.01
# s: a joint state reaches the node this long after it was taken, at most.
_STATE_LATENCY = 0.005
# s: older joint states say too little of the velocity now to bound it (the model alone then).
_TRUSTED_AGE = 0.05
# s after now at which the model of the running command is asked: the last command may have
# arrived up to _ARRIVAL_DELAY after it was sent, and this one may arrive as late.
_WINDOW = (-_ARRIVAL_DELAY, -0.5 * _ARRIVAL_DELAY, 0.0, 0.5 * _ARRIVAL_DELAY, _ARRIVAL_DELAY,
           1.5 * _ARRIVAL_DELAY)
_NOW = 2
# Share of the velocity and acceleration limits a single-point command plans with: the state
# the controller is really in differs a little from the node's model of it.
_SHARE_OF_LIMITS = 0.99


class CommandTiming:
    """Times commands from the controller's modelled motion and remembers the last one."""

    def __init__(self, robot: RobotState, clock: Callable[[], float]) -> None:
        """
        Start with no motion known.

        :param robot: The robot state, which keeps the last command.
        :param clock: Seconds on a monotonic clock.
        """
        self._robot = robot
        self._clock = clock
        # Guards the controller's motion (the last command itself is the robot state's).
        self._lock = threading.Lock()
        # The controller's motion after the last command: its velocity starts the next one.
        # ``_motion`` counts a command from when it is planned; ``_sent`` from when it is sent
        # (at_publication), which is when the controller really starts it.
        self._motion = CommandedMotion()
        self._sent = CommandedMotion()
        self._pending = PendingCommands()

    def plan_motion(self, candidate: Candidate, *, others: Callable[[], List[Candidate]]
                    ) -> Tuple[Candidate, MotionPlan]:
        """
        Plan a one-shot command to ``candidate.q``: straight, to another solution, or routed.

        :param candidate: An accepted, commanding one-shot candidate.
        :param others: Gives the pose's other accepted solutions, asked only when needed.
        :returns: ``(candidate commanded, plan)``; the plan may be a refusal.
        """
        # A one-shot command may move far: swept-checked, routed around what is in the way
        # (OMPL), or refused (engine/motion_plan.py). Its direct form is timed as a streamed
        # command is, on the controller's cubic from its state.
        last = self._robot.last_command()
        under_way = None
        if last is not None and last[0] == tuple(candidate.chain.joint_names):
            under_way = last[1]
        now = self._clock()
        candidate, plan, spline = plan_one_shot(
            candidate, timed=lambda each: self._timed(each, now)[:3], last_command=under_way,
            others=others)
        if plan.refusal is None:
            with self._lock:
                against = self._motion.current
            self._remember(candidate, spline, now)
            # A direct command is timed again when it is sent; a route starts then.
            self._pending.put(plan.command or plan.path, candidate if plan.path is None
                              else None, spline, planned_at=now, against=against)
        return candidate, plan

    def plan(self, candidate: Candidate) -> Tuple[Optional[Command], Optional[Refusal]]:
        """Time the single-point command to ``candidate.q``; remember it unless refused."""
        now = self._clock()
        command, spline, refusal, against = self._timed(candidate, now)
        if refusal is None:
            self._remember(candidate, spline, now)
            self._pending.put(command, candidate, spline, planned_at=now, against=against)
        return command, refusal

    def at_publication(self, command: Union[Command, PathCommand], now: Optional[float] = None
                       ) -> Optional[Union[Command, PathCommand]]:
        """
        Time a planned command again from the controller's state when it is sent; note it sent.

        A command is planned from the node's model of the running command at the time it is
        planned, but the controller starts it when it arrives, from its state then (position
        and velocity). Between the two lie the publish-time checks, and under load the worker
        may wait; a command planned early and sent late would start from another state than it
        was timed from. Called just before sending (under the publication lock), this times a
        single-point command again from the motion of the last command *sent*, at ``now`` and
        a little later; a multi-point command is noted as starting now.

        :param command: A :class:`.outcome.Command` or :class:`.path_request.PathCommand`
            planned here (any other is returned as it is).
        :param now: s on the engine's clock; its clock when None.
        :returns: The command to send (a single-point one with its duration from the state
            now), or None when no duration keeps the limits from that state (send nothing).
        """
        now = self._clock() if now is None else now
        entry = self._pending.pop(command)
        if entry is None:
            return command
        candidate, spline, planned_at, against = entry
        # Sent at once after the command it was timed against: its timing covers the state
        # the controller is in (the arrival allowance is checked); else timed again.
        with self._lock:
            timely = now - planned_at <= _ARRIVAL_DELAY / 2.0 and self._sent.current is against
        if candidate is not None and not timely:
            command, spline, refusal, _ = self._timed(candidate, now, motion=self._sent)
            if refusal is not None:
                return None
            self._remember(candidate, spline, now)
        with self._lock:
            self._sent.record(command.joint_names, spline, now)
        return command

    def _timed(self, candidate: Candidate, now: float,
               motion: Optional[CommandedMotion] = None) -> Tuple[
            Optional[Command], Optional[ControllerSpline], Optional[Refusal],
            Optional[ControllerSpline]]:
        """
        Time the single-point command to ``candidate.q`` for every state it may meet.

        :returns: The command, its spline and None; or None, None and the refusal. Last, the
            spline of the motion's running command it was timed against, or None at rest.
        """
        settings, chain, q = candidate.settings, candidate.chain, candidate.q
        motion = self._motion if motion is None else motion
        max_velocity = _SHARE_OF_LIMITS * settings.velocity_scale * np.asarray(
            chain.velocity_limits, dtype=float)
        max_acceleration = np.full(chain.num_joints,
                                   _SHARE_OF_LIMITS * settings.acceleration_limit)
        with self._lock:
            # The controller runs the node's last command (as modelled) until this one
            # arrives; the last one itself may have arrived up to the latency after it was
            # sent, so its model is asked over the whole window (engine/arrival_states.py).
            states = motion.states(chain.joint_names, [now + offset for offset in _WINDOW])
            running = motion.current
        modelled, velocity = states[_NOW]
        if modelled is not None and largest_joint_jump(modelled, candidate.start) > moved_away(
                settings):
            # Something else moved the arm while the last command ran: the model is void.
            states = [(None, np.zeros(chain.num_joints))]
            modelled, velocity = states[0]
        start = candidate.start if modelled is None else modelled
        also = [(candidate.start, velocity)]
        for state in states:
            if state[0] is not None:
                also.append(state)
        if modelled is not None and running is not None and running.positions.shape[0] == 2:
            # A controller that interpolates linearly runs the command at its mean velocity.
            mean = (running.positions[-1] - running.positions[0]) / running.duration
            also.append((modelled, mean))
        also += measured_states(self._robot, chain.joint_names, velocity,
                                max_velocity / _SHARE_OF_LIMITS,
                                max_acceleration / _SHARE_OF_LIMITS)
        # Timed on the controller's cubic from every corner of the box of those states, so
        # that every instant keeps the limits from any state in it (engine/arrival_states.py).
        try:
            corners = box_corners([(start, velocity)] + also)
            duration = command_duration(
                start, q, max_velocity=max_velocity, max_acceleration=max_acceleration,
                lower=chain.lower, upper=chain.upper, start_velocity=velocity,
                also_from=corners, min_duration=settings.min_duration)
            # The general constructor's checks are command_duration's, just passed.
            spline = ControllerSpline.to_rest(start, velocity, np.asarray(q, dtype=float),
                                              duration)
        except (ValueError, IKError) as error:
            return None, None, Refusal(ErrorCode.EXECUTION_FAILED, str(error)), running
        return Command(tuple(chain.joint_names), tuple(np.asarray(q, dtype=float).tolist()),
                       duration), spline, None, running

    def _remember(self, candidate: Candidate, spline: ControllerSpline, now: float) -> None:
        """Make ``candidate.q`` the last command, played by the controller as ``spline``."""
        self._robot.set_last_command(candidate.chain.joint_names, candidate.q)
        with self._lock:
            self._motion.record(candidate.chain.joint_names, spline, now)

    def remember_command(self, chain: Chain, q: np.ndarray,
                         command: Optional[PathCommand] = None) -> None:
        """
        Remember ``q`` as the last command of ``chain`` (and the controller's motion to it).

        :param chain: The chain commanded.
        :param q: (N,) the commanded configuration, rad or m.
        :param command: The timed path that goes there, or None for a single point.
        """
        self._robot.set_last_command(chain.joint_names, q)
        if command is not None:
            spline = ControllerSpline(command.times, command.positions, command.velocities,
                                      command.accelerations)
            with self._lock:
                self._motion.record(chain.joint_names, spline, self._clock())
            self._pending.put(command, None, spline)  # it starts when it is sent


def measured_states(robot: RobotState, names: Sequence[str], modelled_velocity: np.ndarray,
                    max_velocity: np.ndarray, max_acceleration: np.ndarray
                    ) -> List[Tuple[np.ndarray, np.ndarray]]:
    """
    Bound the states the latest joint state leads to when a command sent now arrives.

    :param robot: The robot state, with the joint states.
    :param names: The commanded joints.
    :param modelled_velocity: (N,) rad/s, taken for joints whose joint state gives none.
    :param max_velocity: (N,) the velocity limits the running motion keeps, rad/s.
    :param max_acceleration: (N,) the acceleration limits it keeps, rad/s^2.
    :returns: The lowest and highest ``(positions, velocities)`` corners
        (:func:`.arrival_states.extrapolated_bounds`); nothing when a joint has no joint state,
        or the oldest is older than :data:`_TRUSTED_AGE`.
    """
    names = list(names)
    # One read: positions, velocities and ages of the same moment.
    positions, velocities, ages, _ = robot.joint_states.readings(names)
    if len(ages) < len(names) or any(name not in positions for name in names):
        return []
    age = max(0.0, max(ages.values()))
    if age > _TRUSTED_AGE:
        return []
    velocity = np.array([velocities.get(name, modelled_velocity[index])
                         for index, name in enumerate(names)], dtype=float)
    position = np.array([positions[name] for name in names], dtype=float)
    if not (np.isfinite(velocity).all() and np.isfinite(position).all()):
        return []
    # An arm at rest by its joint state and by the model stays at rest: nothing the node sent
    # moves it. Otherwise its velocity may change at up to the limit in the meantime.
    still = not (np.any(velocity) or np.any(modelled_velocity))
    return extrapolated_bounds(position, velocity, age, _STATE_LATENCY + 1.5 * _ARRIVAL_DELAY,
                               0.0 * max_acceleration if still else max_acceleration,
                               max_velocity)
