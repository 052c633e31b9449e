# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A joint_trajectory_controller's motion through a stream of commands, for judging their limits.

Each trajectory replaces the one running when it arrives and starts from the controller's state
at that moment, position and velocity (see :mod:`.controller_spline`), or from the state the
arm was measured in then; the part of each that is run (until the next arrives, or its end) is
sampled on a fine grid. The benchmarks replay the node's commands through it, as a real
controller would run them.
"""

from dataclasses import dataclass
from typing import List, Optional, Sequence

import numpy as np

from .controller_spline import ControllerSpline, DEFAULT_SAMPLE_PERIOD, limit_excess, LimitExcess

__all__ = ['ControllerReplay', 'ReplayedCommand']


@dataclass(frozen=True)
class ReplayedCommand:
    """One command as the controller ran it: its spline, when it arrived, and how long it ran."""

    arrival: float
    spline: ControllerSpline
    ran_for: float
    judged: bool


class ControllerReplay:
    """The controller's state through the commands it receives, in order of arrival."""

    def __init__(self, joint_names: Sequence[str], positions: Sequence[float]) -> None:
        """
        Start at rest.

        :param joint_names: The joints, in the order every result uses.
        :param positions: (N,) where they start, rad or m.
        """
        self._names = tuple(joint_names)
        self._index = {name: index for index, name in enumerate(self._names)}
        self._rest = np.asarray(positions, dtype=float).copy()
        self._commands: List[ReplayedCommand] = []

    @property
    def commands(self) -> List[ReplayedCommand]:
        """Return the commands so far; the last one runs to its end."""
        return list(self._commands)

    def _state(self, time: float):
        if not self._commands:
            return self._rest, np.zeros(self._rest.size)
        last = self._commands[-1]
        position, velocity, _ = last.spline.state_at(time - last.arrival)
        return position, velocity

    def receive(self, arrival: float, joint_names: Sequence[str], times, positions,
                velocities=None, accelerations=None, *, judged: bool = True,
                actual=None) -> None:
        """
        Run a trajectory from its arrival on.

        :param arrival: s, on any clock, not before the previous arrival.
        :param joint_names: The trajectory's joints: the replay's, in any order.
        :param times: (K,) time_from_start of its points, s.
        :param positions: (K, M) rad or m, per point.
        :param velocities: (K, M), or None or empty.
        :param accelerations: (K, M), or None or empty.
        :param judged: Whether its limits count (a reset sent by a test driver does not).
        :param actual: ``((N,) positions, (N,) velocities)``: the state the arm was measured in
            when the trajectory arrived (rad, rad/s), which the controller starts from; None:
            the replayed controller's state then.
        :raises KeyError: A joint is not one of the replay's.
        """
        order = [self._index[name] for name in joint_names]
        if actual is None:
            start, velocity = self._state(arrival)
        else:
            start, velocity = (np.asarray(value, dtype=float) for value in actual)

        def full(rows):
            if rows is None or np.size(rows) == 0:
                return None
            rows = np.atleast_2d(np.asarray(rows, dtype=float))
            # Joints the trajectory leaves out hold still where they are.
            filled = np.tile(np.zeros(self._rest.size), (rows.shape[0], 1))
            filled[:, order] = rows
            return filled

        points = np.tile(start, (len(times), 1))
        points[:, order] = np.atleast_2d(np.asarray(positions, dtype=float))
        spline = ControllerSpline(times, points, full(velocities), full(accelerations),
                                  start_positions=start, start_velocities=velocity)
        if self._commands:
            last = self._commands[-1]
            self._commands[-1] = ReplayedCommand(last.arrival, last.spline, min(
                last.spline.duration, arrival - last.arrival), last.judged)
        self._commands.append(ReplayedCommand(arrival, spline, spline.duration, judged))

    def excesses(self, *, max_velocity, max_acceleration, lower=None, upper=None,
                 period: float = DEFAULT_SAMPLE_PERIOD) -> List[Optional[LimitExcess]]:
        """
        Return each command's excess over the part of it run, sampled every ``period`` s.

        :returns: One per command, None for a command that is not judged.
        """
        found: List[Optional[LimitExcess]] = []
        for command in self._commands:
            if not command.judged:
                found.append(None)
                continue
            times = np.append(np.arange(0.0, command.ran_for, period), command.ran_for)
            found.append(limit_excess(command.spline.sample(times), max_velocity=max_velocity,
                                      max_acceleration=max_acceleration, lower=lower,
                                      upper=upper))
        return found

    def excess(self, *, max_velocity, max_acceleration, lower=None, upper=None,
               period: float = DEFAULT_SAMPLE_PERIOD,
               kinds: Optional[Sequence[bool]] = None) -> LimitExcess:
        """
        Return the worst excess over the run part of each judged command, every ``period``.

        :param kinds: None for every judged command; else a flag per command, which to count.
        :returns: The :class:`LimitExcess` (zeros when nothing was judged).
        """
        worst = LimitExcess(0.0, 0.0, 0.0)
        found = self.excesses(max_velocity=max_velocity, max_acceleration=max_acceleration,
                              lower=lower, upper=upper, period=period)
        for number, excess in enumerate(found):
            if excess is None or (kinds is not None and not kinds[number]):
                continue
            worst = LimitExcess(max(worst.velocity_ratio, excess.velocity_ratio),
                                max(worst.acceleration_ratio, excess.acceleration_ratio),
                                max(worst.position_excess, excess.position_excess))
        return worst
