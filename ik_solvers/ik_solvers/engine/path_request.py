# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""What goes into a Cartesian path request of the ik_node and what comes out: plain data."""

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

import numpy as np

from .error_codes import ErrorCode
from ..kinematics import Chain
from ..paths import TimedTrajectory

__all__ = ['PathCommand', 'PathOutcome', 'PathRequest', 'PathWaypoint']


@dataclass(frozen=True)
class PathWaypoint:
    """One waypoint: a tip pose in a frame the node resolves."""

    #: (x, y, z), m.
    position: Sequence[float]
    #: (x, y, z, w) quaternion, the order of ROS messages.
    orientation: Sequence[float]
    #: Empty means the chain's base link.
    frame_id: str = ''


@dataclass(frozen=True)
class PathRequest:
    """A Cartesian path request; zeros and empty fields mean the node's parameters."""

    waypoints: Sequence[PathWaypoint]
    start_names: Sequence[str] = ()
    start_positions: Sequence[float] = ()
    #: m, rad, rad (m): 0 means the node's parameter (the angle step: matching max_step).
    max_step: float = 0.0
    max_angle_step: float = 0.0
    jump_threshold: float = 0.0
    relative_jump_threshold: float = 0.0
    avoid_collisions: bool = False
    execute: bool = False
    execute_partial: bool = False
    solver: str = ''
    #: s, for the whole request.
    timeout: float = 0.0
    velocity_scale: float = 0.0
    acceleration_scale: float = 0.0
    position_tolerance: float = 0.0
    orientation_tolerance: float = 0.0


@dataclass(frozen=True)
class PathCommand:
    """A timed multi-point move: a joint_trajectory_controller's trajectory, as plain arrays."""

    joint_names: Tuple[str, ...]
    #: (K,) s from the start; the first is 0.
    times: np.ndarray
    #: (K, N) rad or m; rad/s; rad/s^2.
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray


@dataclass(frozen=True)
class PathOutcome:
    """What a path request gave: a code, and the reached part of the path when it got there."""

    code: ErrorCode
    message: str
    chain: Optional[Chain] = None
    #: The reached part, timed (None before the path was solved).
    trajectory: Optional[TimedTrajectory] = None
    fraction: float = 0.0
    max_position_error: float = 0.0
    max_orientation_error: float = 0.0
    max_joint_step: float = 0.0
    #: The move to send (execute), built from the trajectory.
    command: Optional[PathCommand] = None
    #: (K, 4, 4) tip poses of the reached points, base frame, for markers and tests.
    targets: Optional[np.ndarray] = None
    solver: str = ''

    @property
    def success(self) -> bool:
        """Tell whether the whole path was reached and verified."""
        return self.code == ErrorCode.SUCCESS
