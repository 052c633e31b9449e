# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The goal marker's bookkeeping, free of ROS: where the goal is, when to send it, what colour.

A drag in RViz produces a feedback message per mouse move, far more than the IK node should
solve. The tracker keeps only the newest pose (latest wins), lets it out at most once per send
period, and lets the final pose of a drag out at once on mouse-up. Reachability comes back from
the IK node's results and is kept only when it concerns the pose last sent.
"""

from __future__ import annotations

from dataclasses import dataclass
import enum
import math
from typing import Optional, Sequence

import numpy as np
import transforms3d

__all__ = ['COLOURS', 'GoalPose', 'GoalTracker', 'Reachability']


@dataclass(frozen=True)
class GoalPose:
    """A pose: position in metres and a unit quaternion ordered x, y, z, w (as in ROS)."""

    position: tuple[float, float, float]
    orientation: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)

    @classmethod
    def from_matrix(cls, matrix: np.ndarray) -> 'GoalPose':
        """
        Build a pose from a 4x4 homogeneous transform.

        :raises ValueError: the matrix is not 4x4 or not finite.
        """
        matrix = np.asarray(matrix, dtype=float)
        if matrix.shape != (4, 4) or not np.all(np.isfinite(matrix)):
            raise ValueError('need a finite 4x4 transform, got shape %s' % (matrix.shape,))
        w, x, y, z = transforms3d.quaternions.mat2quat(matrix[:3, :3])
        return cls(tuple(float(v) for v in matrix[:3, 3]), (float(x), float(y), float(z),
                                                            float(w)))

    @classmethod
    def from_values(cls, position: Sequence[float], orientation: Sequence[float]) -> 'GoalPose':
        """
        Build a pose from a position (m) and an x, y, z, w quaternion, normalising the latter.

        :raises ValueError: a value is not finite or the quaternion is (nearly) zero.
        """
        position = np.asarray(position, dtype=float).reshape(-1)
        quaternion = np.asarray(orientation, dtype=float).reshape(-1)
        if position.shape != (3,) or quaternion.shape != (4,):
            raise ValueError('need 3 position values and 4 quaternion values')
        if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quaternion))):
            raise ValueError('pose values must be finite')
        norm = float(np.linalg.norm(quaternion))
        if norm < 1e-6:
            raise ValueError('the orientation quaternion is zero')
        quaternion = quaternion / norm
        return cls(tuple(float(v) for v in position), tuple(float(v) for v in quaternion))

    def to_matrix(self) -> np.ndarray:
        """Return the pose as a 4x4 homogeneous transform."""
        matrix = np.eye(4)
        matrix[:3, :3] = transforms3d.quaternions.quat2mat(_wxyz(self.orientation))
        matrix[:3, 3] = self.position
        return matrix

    def distance_to(self, other: 'GoalPose') -> tuple[float, float]:
        """Distance in metres and rotation angle in radians between two poses."""
        metres = float(np.linalg.norm(np.subtract(self.position, other.position)))
        relative = transforms3d.quaternions.qmult(
            transforms3d.quaternions.qconjugate(_wxyz(self.orientation)),
            _wxyz(other.orientation))
        _, radians = transforms3d.quaternions.quat2axangle(relative)
        # q and -q are the same rotation: the angle comes back in [0, 2 pi), keep the short way.
        return metres, float(min(radians, 2.0 * math.pi - radians))


def _wxyz(orientation: Sequence[float]) -> np.ndarray:
    """Reorder an x, y, z, w quaternion (ROS) to the w, x, y, z order of transforms3d."""
    x, y, z, w = orientation
    return np.array([w, x, y, z])


class Reachability(enum.Enum):
    """What the IK node said about the goal last sent."""

    UNKNOWN = 'unknown'
    REACHABLE = 'reachable'
    UNREACHABLE = 'unreachable'


#: Marker colour (red, green, blue, alpha in [0, 1]) for each reachability.
COLOURS: dict[Reachability, tuple[float, float, float, float]] = {
    Reachability.UNKNOWN: (0.85, 0.85, 0.85, 0.8),
    Reachability.REACHABLE: (0.1, 0.8, 0.2, 0.8),
    Reachability.UNREACHABLE: (0.9, 0.15, 0.1, 0.8),
}


class GoalTracker:
    """
    Latest-wins, rate-limited sending of a dragged goal, and its reachability.

    Times are seconds on one monotonic clock chosen by the caller.
    """

    def __init__(
        self,
        *,
        send_rate: float = 25.0,
        match_position_tolerance: float = 1e-6,
        match_orientation_tolerance: float = 1e-5,
    ) -> None:
        """
        Create a tracker without a goal.

        :param send_rate: most goals sent per second while dragging, in Hz.
        :param match_position_tolerance: a result whose target is this close (m) to the goal
            last sent is a result for that goal.
        :param match_orientation_tolerance: same, for orientation (rad).
        :raises ValueError: the rate is not positive or a tolerance is negative.
        """
        if not (math.isfinite(send_rate) and send_rate > 0.0):
            raise ValueError('send_rate must be a positive number of Hz, got %r' % send_rate)
        if not (match_position_tolerance >= 0.0 and match_orientation_tolerance >= 0.0):
            raise ValueError('match tolerances must be >= 0')
        self._period = 1.0 / send_rate
        self._position_tolerance = match_position_tolerance
        self._orientation_tolerance = match_orientation_tolerance
        self._pose: Optional[GoalPose] = None
        self._pending: Optional[GoalPose] = None
        self._last_sent: Optional[GoalPose] = None
        self._next_slot = -math.inf
        self._reachability = Reachability.UNKNOWN

    @property
    def send_period(self) -> float:
        """Shortest time between two goals sent while dragging, in seconds."""
        return self._period

    @property
    def pose(self) -> Optional[GoalPose]:
        """Where the goal is now (the newest dragged pose); ``None`` before :meth:`reset`."""
        return self._pose

    @property
    def reachability(self) -> Reachability:
        """Reachability of the goal last sent, as reported by the IK node."""
        return self._reachability

    def reset(self, pose: GoalPose) -> None:
        """Put the goal at ``pose`` without sending it (the tip's current pose at start)."""
        self._pose = pose
        self._pending = None
        self._last_sent = None
        self._reachability = Reachability.UNKNOWN

    def drag(self, pose: GoalPose) -> None:
        """Record a pose seen during a drag; it replaces any pose not sent yet."""
        self._pose = pose
        if pose != self._last_sent:
            self._pending = pose

    def release(self, pose: GoalPose, now: float) -> Optional[GoalPose]:
        """
        Record the final pose of a drag and return it to be sent at once.

        :returns: the pose, or ``None`` when exactly this pose was already sent.
        """
        self._pose = pose
        self._pending = None
        if pose == self._last_sent:
            return None
        return self._mark_sent(pose, now)

    def due(self, now: float) -> Optional[GoalPose]:
        """
        Return the newest unsent pose if its send slot has come, else None.

        Slots are one send period apart. A poll up to half a period early still gets the slot,
        so that a timer running at the send rate never skips a tick because of jitter, while
        over any stretch of time at most one pose more than the rate allows goes out.
        """
        if self._pending is None or now < self._next_slot - 0.5 * self._period:
            return None
        pose, self._pending = self._pending, None
        return self._mark_sent(pose, now)

    def report(self, target: GoalPose, success: bool) -> bool:
        """
        Take an IK result for ``target``; kept only when it is the goal last sent.

        :returns: True when the reachability changed (the marker needs a new colour).
        """
        if self._last_sent is None:
            return False
        metres, radians = target.distance_to(self._last_sent)
        if metres > self._position_tolerance or radians > self._orientation_tolerance:
            return False
        reachability = Reachability.REACHABLE if success else Reachability.UNREACHABLE
        changed = reachability != self._reachability
        self._reachability = reachability
        return changed

    def _mark_sent(self, pose: GoalPose, now: float) -> GoalPose:
        self._last_sent = pose
        self._next_slot = max(self._next_slot, now) + self._period
        return pose
