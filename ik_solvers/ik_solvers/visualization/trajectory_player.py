# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Piecewise-linear playback of joint trajectories, the arithmetic of the simulated executor.

The player follows the rules of ros2_control's joint_trajectory_controller closely enough for
visualization: a new trajectory replaces the current one from its start time on, the motion to
its first point starts from wherever the joints are at that moment, joints the trajectory does
not name hold still, and an empty trajectory stops the motion where it is.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from typing import Mapping, Optional, Sequence

import numpy as np

from ..exceptions import InvalidTrajectoryError

__all__ = ['InvalidTrajectoryError', 'JointLimits', 'TrajectoryPlayer']


@dataclass(frozen=True)
class JointLimits:
    """Position limits of one joint in rad or m; infinite bounds for continuous joints."""

    lower: float = -math.inf
    upper: float = math.inf


@dataclass
class _Motion:
    """Absolute knot times (s) and full-state knot positions; holds the last knot afterwards."""

    times: np.ndarray
    positions: np.ndarray
    previous: Optional['_Motion'] = None

    def sample(self, time: float) -> tuple[np.ndarray, np.ndarray]:
        if time < self.times[0] and self.previous is not None:
            return self.previous.sample(time)
        if time <= self.times[0]:
            return self.positions[0].copy(), np.zeros(self.positions.shape[1])
        if time >= self.times[-1]:
            return self.positions[-1].copy(), np.zeros(self.positions.shape[1])
        segment = int(np.searchsorted(self.times, time, side='right')) - 1
        duration = self.times[segment + 1] - self.times[segment]
        velocity = (self.positions[segment + 1] - self.positions[segment]) / duration
        elapsed = time - self.times[segment]
        return self.positions[segment] + velocity * elapsed, velocity

    def forget_before(self, time: float) -> None:
        # Time only moves forward: once the clock is past this motion's start, the motion it
        # replaced is never sampled again.
        if time >= self.times[0]:
            self.previous = None


class TrajectoryPlayer:
    """
    Joint positions over time for a robot that executes joint trajectories perfectly.

    Times are seconds on any monotonic clock the caller chooses (ROS time in the executor).
    """

    def __init__(
        self,
        joint_names: Sequence[str],
        positions: Sequence[float],
        *,
        limits: Optional[Mapping[str, JointLimits]] = None,
        limit_tolerance: float = 1e-6,
    ) -> None:
        """
        Start at rest at the given positions.

        :param joint_names: every joint the player reports, in the order it reports them.
        :param positions: initial positions, rad or m, one per joint.
        :param limits: position limits by joint name; trajectories beyond them are refused.
        :param limit_tolerance: slack in rad or m before a point counts as beyond a limit.
        :raises InvalidTrajectoryError: names repeat, or the lengths differ, or a value is not
            finite.
        """
        names = tuple(joint_names)
        start = np.asarray(positions, dtype=float)
        if len(set(names)) != len(names):
            raise InvalidTrajectoryError('joint names repeat: %s' % list(names))
        if start.shape != (len(names),) or not np.all(np.isfinite(start)):
            raise InvalidTrajectoryError(
                'need %d finite initial positions, got %s' % (len(names), list(positions)))
        self._names = names
        self._index = {name: i for i, name in enumerate(names)}
        self._limits = dict(limits or {})
        self._limit_tolerance = float(limit_tolerance)
        self._motion = _Motion(times=np.array([-math.inf]), positions=start[np.newaxis, :])

    @property
    def joint_names(self) -> tuple[str, ...]:
        """Names of the reported joints, in report order."""
        return self._names

    def sample(self, time: float) -> tuple[np.ndarray, np.ndarray]:
        """
        Positions (rad or m) and velocities (rad/s or m/s) of every joint at ``time`` (s).

        Sampling at a time also tells the player that earlier times will not be asked again.
        """
        positions, velocities = self._motion.sample(float(time))
        self._motion.forget_before(float(time))
        return positions, velocities

    def play(
        self,
        joint_names: Sequence[str],
        times_from_start: Sequence[float],
        points: Sequence[Sequence[float]],
        *,
        start_time: float,
    ) -> None:
        """
        Replace the motion from ``start_time`` (s) on by a trajectory through ``points``.

        :param joint_names: the joints the points move; others hold their position.
        :param times_from_start: seconds from ``start_time`` to each point, increasing, >= 0.
        :param points: positions (rad or m), one row per point, one column per joint name.
            No points stops the motion at ``start_time``.
        :raises InvalidTrajectoryError: the trajectory is refused and the current motion goes
            on unchanged.
        """
        columns = self._columns(joint_names)
        offsets = np.asarray(times_from_start, dtype=float).reshape(-1)
        targets = self._targets(points, len(columns), len(offsets))
        if not np.all(np.isfinite(offsets)) or np.any(offsets < 0.0):
            raise InvalidTrajectoryError(
                'times from start must be finite and >= 0, got %s' % offsets.tolist())
        if np.any(np.diff(offsets) <= 0.0):
            raise InvalidTrajectoryError(
                'times from start must increase strictly, got %s' % offsets.tolist())
        self._check_limits(joint_names, targets)

        start_positions, _ = self._motion.sample(start_time)
        # A first point due at once is a jump: keep one knot at the start time with its
        # positions, as a controller would command them.
        if len(offsets) and offsets[0] == 0.0:
            start_positions[columns] = targets[0]
            offsets, targets = offsets[1:], targets[1:]
        knots = np.repeat(start_positions[np.newaxis, :], len(offsets) + 1, axis=0)
        knots[1:, columns] = targets
        times = np.concatenate(([start_time], start_time + offsets))
        self._motion = _Motion(times=times, positions=knots, previous=self._motion)

    def _columns(self, joint_names: Sequence[str]) -> list[int]:
        names = list(joint_names)
        unknown = [name for name in names if name not in self._index]
        if unknown:
            raise InvalidTrajectoryError(
                'unknown joints %s; this robot has %s' % (unknown, list(self._names)))
        if len(set(names)) != len(names):
            raise InvalidTrajectoryError('joint names repeat: %s' % names)
        return [self._index[name] for name in names]

    @staticmethod
    def _targets(points: Sequence[Sequence[float]], width: int, count: int) -> np.ndarray:
        if count == 0:
            return np.zeros((0, width))
        rows = [np.asarray(point, dtype=float).reshape(-1) for point in points]
        if len(rows) != count or any(row.shape != (width,) for row in rows):
            raise InvalidTrajectoryError(
                'every point needs %d positions and a time; got %d times and points of '
                'lengths %s' % (width, count, [row.size for row in rows]))
        targets = np.array(rows)
        if not np.all(np.isfinite(targets)):
            raise InvalidTrajectoryError('positions must be finite')
        return targets

    def _check_limits(self, joint_names: Sequence[str], targets: np.ndarray) -> None:
        for column, name in enumerate(joint_names):
            limits = self._limits.get(name)
            if limits is None or not len(targets):
                continue
            low, high = targets[:, column].min(), targets[:, column].max()
            if (low < limits.lower - self._limit_tolerance
                    or high > limits.upper + self._limit_tolerance):
                raise InvalidTrajectoryError(
                    'joint %r goes to [%.6g, %.6g], beyond its limits [%.6g, %.6g]'
                    % (name, low, high, limits.lower, limits.upper))
