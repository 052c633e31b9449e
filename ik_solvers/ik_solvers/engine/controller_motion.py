# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How far and how long a command moves: the numbers of a joint_trajectory_controller command.

The controller rejects a trajectory whose joint names are empty or unknown, whose points have
positions (or non-empty velocities) of a size other than the number of names, whose
``time_from_start`` is not strictly increasing, or whose last point moves (non-zero velocity).
A header stamp of zero means "start now". The command is therefore a single point, the goal,
reached at a time T > 0 with zero velocity: the controller interpolates from wherever the joints
are, so a stale start point can never cause a jump.

The controller joins its state (position and velocity) to that point by a cubic, which peaks at
1.5 times the mean velocity and starts with an acceleration of 6 d / T^2 from rest: a duration
of distance / velocity limit is 1.5 times too short. :func:`command_duration` gives the
shortest T whose cubic, sampled every millisecond from the state the controller is in (the
node's previous command, still running, sets its velocity; :class:`CommandedMotion` keeps it),
keeps the velocity, acceleration and position limits.
"""

import collections
import math
import threading
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from .candidate import Candidate
from .outcome import Command
from .path_request import PathCommand
from ..paths.controller_spline import ControllerSpline, DEFAULT_SAMPLE_PERIOD
from ..paths.cubic_limits import shortest_cubic_duration

__all__ = ['CommandedMotion', 'command_duration', 'largest_joint_jump', 'PendingCommands',
           'trajectory_duration']

# Each try of command_duration is this much longer than the one before, at most this often: a
# moving start may need a longer motion to turn round within the acceleration limit.
_GROWTH = 1.1
_TRIES = 60
# Relative margin on the closed-form duration of a cubic from rest.
_ROUNDING = 1e-9
# Samples inside the command's cubic besides the 1 ms grid.
_PER_SEGMENT = 16


def largest_joint_jump(start: Sequence[float], goal: Sequence[float]) -> float:
    """
    Largest absolute change of one joint between two configurations.

    :param start: Configuration in rad or m.
    :param goal: Configuration in rad or m, same length.
    :returns: max_i |goal_i - start_i|, in the joint's unit; 0 for empty configurations.
    :raises ValueError: If the lengths differ.
    """
    start = np.asarray(start, dtype=float)
    goal = np.asarray(goal, dtype=float)
    if start.shape != goal.shape:
        raise ValueError('configurations of %d and %d joints' % (start.size, goal.size))
    return float(np.max(np.abs(goal - start))) if start.size else 0.0


def trajectory_duration(start: Sequence[float], goal: Sequence[float],
                        velocity_limits: Sequence[float], *, velocity_scale: float = 0.5,
                        min_duration: float = 0.1) -> float:
    """
    Time to move from ``start`` to ``goal`` with every joint within its scaled velocity limit.

    T = max_i |goal_i - start_i| / (velocity_scale * v_max_i), at least ``min_duration``.
    Joints whose limit is zero, negative or not finite (a URDF without velocity limits) do not
    constrain T.

    :param start: Configuration in rad or m.
    :param goal: Configuration in rad or m, same length.
    :param velocity_limits: Largest joint speeds in rad/s or m/s, same length.
    :param velocity_scale: Fraction of the limits to use, in (0, 1].
    :param min_duration: Shortest duration in seconds, > 0.
    :returns: Seconds.
    :raises ValueError: If the lengths differ, a position is not finite, or an option is out of
        range.
    """
    if not 0.0 < velocity_scale <= 1.0:
        raise ValueError('velocity_scale must be in (0, 1], not %r' % velocity_scale)
    if not (math.isfinite(min_duration) and min_duration > 0.0):
        raise ValueError('min_duration must be a positive number of seconds, not %r'
                         % min_duration)
    start = np.asarray(start, dtype=float)
    goal = np.asarray(goal, dtype=float)
    limits = np.asarray(velocity_limits, dtype=float)
    if not start.shape == goal.shape == limits.shape:
        raise ValueError('start, goal and velocity_limits have %d, %d and %d entries'
                         % (start.size, goal.size, limits.size))
    if not (np.all(np.isfinite(start)) and np.all(np.isfinite(goal))):
        raise ValueError('start and goal must be finite')
    usable = np.isfinite(limits) & (limits > 0.0)
    times = np.abs(goal - start)[usable] / (velocity_scale * limits[usable])
    slowest = float(np.max(times)) if times.size else 0.0
    return max(slowest, float(min_duration))


def command_duration(start: Sequence[float], goal: Sequence[float], *, max_velocity,
                     max_acceleration, lower=None, upper=None, start_velocity=None,
                     also_from: Sequence[Tuple[Sequence[float], Sequence[float]]] = (),
                     min_duration: float = 0.1) -> float:
    """
    Shortest duration of a single-point command whose controller cubic keeps every limit.

    :param start: (N,) where the controller starts, rad or m.
    :param goal: (N,) the point, reached at rest.
    :param max_velocity: (N,) rad/s (scales applied); not finite or not positive: no limit.
    :param max_acceleration: (N,) rad/s^2; likewise.
    :param lower: (N,) position limits, or None; a start already past one may stay there.
    :param upper: (N,) position limits, or None.
    :param start_velocity: (N,) the controller's velocity at the start, rad/s; None: at rest.
    :param also_from: Further ``(position, velocity)`` states the controller may be in when the
        command arrives (its own model of the last command, now and a little later); the
        cubic from each must keep the limits too.
    :param min_duration: s, > 0.
    :returns: Seconds, at least ``min_duration``.
    :raises ValueError: Sizes differ, a value is not finite, or no duration up to about 300
        times the first guess keeps the limits from these states.
    """
    if not (math.isfinite(min_duration) and min_duration > 0.0):
        raise ValueError('min_duration must be a positive number of seconds, not %r'
                         % min_duration)
    goal = np.asarray(goal, dtype=float)
    width = goal.size
    states = [(start, np.zeros(width) if start_velocity is None else start_velocity)]
    states += list(also_from)
    states = [(np.asarray(position, dtype=float), np.asarray(velocity, dtype=float))
              for position, velocity in states]
    for position, velocity in states:
        if not position.shape == goal.shape == velocity.shape:
            raise ValueError('a start, the goal and a start velocity have %d, %d and %d '
                             'entries' % (position.size, goal.size, velocity.size))
    # (S, N) each, checked at once: this runs after every streamed target.
    positions = np.array([position for position, _ in states])
    velocities = np.array([velocity for _, velocity in states])
    if not (np.isfinite(positions).all() and np.isfinite(goal).all()
            and np.isfinite(velocities).all()):
        raise ValueError('starts, goal and start velocities must be finite')
    vmax, amax = _limits(max_velocity, width), _limits(max_acceleration, width)
    low = None if lower is None else np.minimum(np.asarray(lower, dtype=float),
                                                positions.min(axis=0))
    high = None if upper is None else np.maximum(np.asarray(upper, dtype=float),
                                                 positions.max(axis=0))
    distance = np.max(np.abs(goal - positions), axis=0)
    # The cubic from rest: peak velocity 1.5 d / T, acceleration 6 d / T^2 at both ends.
    # A hair above the closed form: exactly at it, rounding in the sampled check would take
    # the first try for a violation and cost a whole growth step (10 %).
    bound = max(float(np.max(1.5 * distance / vmax, initial=0.0)),
                float(np.max(np.sqrt(6.0 * distance / amax), initial=0.0)))
    duration = max(float(min_duration), bound * (1.0 + _ROUNDING))
    # The same samples and arithmetic as ControllerSpline(...).sample_every(per_segment=16)
    # checked by limit_excess (test_paths_cubic_limits compares them), compiled: in Python
    # the tries cost more than the solve of a streamed target.
    found = shortest_cubic_duration(
        positions, velocities, goal, duration,
        _GROWTH, _TRIES, DEFAULT_SAMPLE_PERIOD, _PER_SEGMENT, vmax, amax,
        np.full(width, -np.inf) if low is None else low,
        np.full(width, np.inf) if high is None else high)
    if found > 0.0:
        return float(found)
    raise ValueError('no duration keeps the velocity, acceleration and position limits '
                     'from the current motion (%.3g rad/s at most)' % max(
                         float(np.max(np.abs(velocity), initial=0.0)) for _, velocity in states))


def _limits(values, width: int) -> np.ndarray:
    array = np.asarray(values, dtype=float).reshape(-1)
    if array.size != width:
        raise ValueError('%d limits for %d joints' % (array.size, width))
    return np.where(np.isfinite(array) & (array > 0.0), array, np.inf)


class CommandedMotion:
    """
    The motion the controller runs after the node's last command, as the node modelled it.

    Not thread-safe on its own: the engine calls it under its lock.
    """

    def __init__(self) -> None:
        """Start with no command: the joints at rest."""
        self._names: Tuple[str, ...] = ()
        self._spline: Optional[ControllerSpline] = None
        self._started = 0.0

    def record(self, joint_names: Sequence[str], spline: ControllerSpline,
               started: float) -> None:
        """
        Remember a command's spline and when it was sent.

        :param joint_names: The joints it moves, in the spline's order.
        :param spline: The controller's spline of the command.
        :param started: s on the clock :meth:`state` is asked with.
        """
        self._names, self._spline, self._started = tuple(joint_names), spline, float(started)

    @property
    def current(self) -> Optional[ControllerSpline]:
        """Return the spline of the command recorded last (None before any)."""
        return self._spline

    def state(self, joint_names: Sequence[str],
              now: float) -> Tuple[Optional[np.ndarray], np.ndarray]:
        """
        Return the position and velocity (rad/s) of the motion now; None and zeros after it.

        :param joint_names: The joints asked about; a command of other joints counts as none.
        :param now: s, on the clock of :meth:`record`.
        """
        elapsed = now - self._started
        if self._spline is None or tuple(joint_names) != self._names or \
                elapsed > self._spline.duration:
            # Over: the joint states say where the arm rests, better than the model.
            return None, np.zeros(len(joint_names))
        position, velocity, _ = self._spline.state_at(elapsed)
        return position, velocity

    def states(self, joint_names: Sequence[str], times: Sequence[float]
               ) -> List[Tuple[Optional[np.ndarray], np.ndarray]]:
        """
        Return :meth:`state` at each of ``times`` (s), the spline sampled once for all.

        :param joint_names: The joints asked about.
        :param times: s, on the clock of :meth:`record`.
        """
        width = len(joint_names)
        if self._spline is None or tuple(joint_names) != self._names:
            return [(None, np.zeros(width)) for _ in times]
        elapsed = [time - self._started for time in times]
        during = [index for index, value in enumerate(elapsed) if value <= self._spline.duration]
        answers: List[Tuple[Optional[np.ndarray], np.ndarray]] = [
            (None, np.zeros(width)) for _ in times]
        if during:
            # One sample of several times computes each row as state_at computes its one.
            samples = self._spline.sample([elapsed[index] for index in during])
            for row, index in enumerate(during):
                answers[index] = (samples.positions[row], samples.velocities[row])
        return answers


class PendingCommands:
    """
    Commands planned and not yet sent, each with what is needed to time it again when sent.

    Thread-safe. Keeps the newest :data:`PENDING_KEPT`: a command refused at publication is
    never asked for again, and must not be kept for ever.
    """

    def __init__(self) -> None:
        """Start empty."""
        self._lock = threading.Lock()
        self._entries: 'collections.OrderedDict[int, tuple]' = collections.OrderedDict()

    def put(self, command: Union[Command, PathCommand], candidate: Optional[Candidate],
            spline: ControllerSpline, *, planned_at: float = -math.inf,
            against: Optional[ControllerSpline] = None) -> None:
        """
        Note a planned command.

        :param command: The command object (compared by identity).
        :param candidate: What it was timed from, to time it again; None for a multi-point
            command, which is sent as timed.
        :param spline: The controller's spline of it.
        :param planned_at: s, when it was timed.
        :param against: The spline of the running command it was timed from (None: at rest).
        """
        with self._lock:
            self._entries[id(command)] = (command, candidate, spline, planned_at, against)
            while len(self._entries) > PENDING_KEPT:
                self._entries.popitem(last=False)

    def pop(self, command: Union[Command, PathCommand]) -> Optional[Tuple[
            Optional[Candidate], ControllerSpline, float, Optional[ControllerSpline]]]:
        """
        Forget a planned command and return what :meth:`put` noted of it.

        :returns: ``(candidate, spline, planned_at, against)``, or None for a command not
            noted (or no longer kept).
        """
        with self._lock:
            entry = self._entries.pop(id(command), None)
        if entry is None or entry[0] is not command:
            return None
        return entry[1:]


#: Planned commands kept for their publication at most.
PENDING_KEPT = 16
