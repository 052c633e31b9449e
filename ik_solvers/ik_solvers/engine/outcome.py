# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""What goes into one solve of the ik_node and what comes out of it: plain, frozen data."""

from dataclasses import dataclass, field
from typing import Optional, Sequence, Tuple

import numpy as np

from .error_codes import ErrorCode
from .path_request import PathCommand
from ..kinematics import Chain
from ..solvers import IKResult

__all__ = ['CollisionVerdict', 'Command', 'IKOutcome', 'IKRequest', 'TipTarget']


@dataclass(frozen=True)
class TipTarget:
    """The target of one tip of a request of several end effectors."""

    #: The tip link, one of the node's tips.
    tip: str
    #: (x, y, z) in ``frame_id``, m.
    position: Sequence[float]
    #: (x, y, z, w) quaternion.
    orientation: Sequence[float] = (0.0, 0.0, 0.0, 1.0)
    #: Empty means the base link.
    frame_id: str = ''


@dataclass(frozen=True)
class IKRequest:
    """One solve, from a streamed target or a service call; zeros mean the node's defaults."""

    #: (x, y, z) of the target in ``frame_id``, m.
    position: Sequence[float]
    #: (x, y, z, w) orientation quaternion of the target, the order of ROS messages.
    orientation: Sequence[float] = (0.0, 0.0, 0.0, 1.0)
    frame_id: str = ''
    seed_names: Sequence[str] = ()
    seed_positions: Sequence[float] = ()
    solver: str = ''
    #: ``None`` means the ``position_only`` parameter.
    position_only: Optional[bool] = None
    #: ``'full'``, ``'axis'`` or ``'none'``; empty means ``'none'`` with ``position_only``,
    #: otherwise the ``orientation_mode`` parameter.
    orientation_mode: str = ''
    #: 3 values in the tip frame; empty means the ``tip_axis`` parameter.
    tip_axis: Sequence[float] = ()
    #: Per-axis bounds, 3 values each (m in the base frame; rad in the target frame); empty
    #: means none.
    position_bounds: Sequence[float] = ()
    rotation_bounds: Sequence[float] = ()
    #: ``None`` means the ``orientation_fallback`` parameter.
    orientation_fallback: Optional[bool] = None
    position_tolerance: float = 0.0
    orientation_tolerance: float = 0.0
    #: Seconds.
    timeout: float = 0.0
    #: A streamed target (a drag): seeded from the last command and held to continuity with it;
    #: every verified solution of one is commanded.
    streamed: bool = False
    #: A one-shot request whose verified solution is commanded (SolveIK ``execute``).
    execute: bool = False
    #: A one-shot request that accepts an approximate answer (SolveIK ``approximate``): when no
    #: exact solution is found, the configuration within ``max_joint_jump`` of the start that
    #: brings the tip closest, as ``APPROXIMATE``. Streamed targets follow the
    #: ``approximate_tracking`` parameter instead.
    approximate: bool = False
    #: Check the answer for collisions: ``None`` follows the ``avoid_collisions`` parameter;
    #: ``False`` skips the check of an answer, never of a command while the parameter is on.
    avoid_collisions: Optional[bool] = None
    #: Distinct solutions wanted (SolveIK ``max_solutions``); 0 or 1 means one.
    max_solutions: int = 0
    #: A name of :data:`ik_solvers.preferences.PREFERENCES`; empty means the ``preference``
    #: parameter.
    preference: str = ''
    #: The rest configuration of ``rest_posture`` (rad or m); empty means the middle of the
    #: limits.
    rest_posture: Sequence[float] = ()
    #: Several end effectors (:mod:`.tree_pipeline`): one target per named tip; tips of the
    #: node's tree not named hold their pose. Empty: the one target above, for one chain.
    tip_targets: Tuple[TipTarget, ...] = ()


@dataclass(frozen=True)
class Command:
    """A move to send: every joint reaches its position after ``duration`` and stops there."""

    joint_names: Tuple[str, ...]
    #: rad or m, one per name.
    positions: Tuple[float, ...]
    #: s from now, > 0.
    duration: float


@dataclass(frozen=True)
class CollisionVerdict:
    """Whether an answer was checked for collisions, and what touches."""

    checked: bool = False
    #: Pairs in contact at the answer, each (name, name) sorted: links or obstacle ids.
    pairs: Tuple[Tuple[str, str], ...] = ()
    #: Links whose collision geometry could not be loaded, never checked.
    unchecked_links: Tuple[str, ...] = ()
    #: (name, (4, 4) pose in the chain's base frame) of each link or obstacle in contact.
    poses: Tuple[Tuple[str, np.ndarray], ...] = ()
    #: Why the answer was not checked, when it was not.
    reason: str = ''
    #: One line on the scene: geometry, SRDF, obstacles, the latest refused input.
    scene: str = ''


@dataclass(frozen=True)
class IKOutcome:
    """What a solve gave: an error code and, when it got that far, the solution."""

    error_code: ErrorCode
    message: str
    solver: str = ''
    chain: Optional[Chain] = None
    #: Requested tip pose in the chain's base frame, (4, 4).
    target: Optional[np.ndarray] = None
    #: The solution, on the turn nearest ``start``, with its errors measured by FK.
    result: Optional[IKResult] = None
    #: Configuration of the chain when the solve started: where a command would move from.
    start: Optional[np.ndarray] = None
    #: Warnings that did not prevent the solve (joint states missing chain joints).
    notes: Tuple[str, ...] = ()
    #: Names the throttled logger of a failure when the error code alone is too coarse.
    log_kind: str = ''
    #: The move to send, once the engine decided to command the solution.
    command: Optional[Command] = None
    #: A multi-point move to send instead, when the straight motion collided and was routed
    #: around (one-shot commands only, see :mod:`.motion_plan`).
    path_command: Optional[PathCommand] = None
    #: Tip pose of the solution in the base frame by FK, (4, 4): computed once by the engine
    #: and shared by the judges, the status and the markers.
    reached: Optional[np.ndarray] = None
    #: The collision check of the answer.
    collision: CollisionVerdict = CollisionVerdict()
    #: Where the motion to the answer first collides, when that is why nothing was commanded
    #: (:class:`ik_solvers.collision.sweep.SweptContact`: its pair and configuration).
    motion_contact: Optional[object] = None
    #: Every distinct solution of a request for several (``max_solutions``), best first by
    #: the preference, each (N,) on the turn nearest ``start``; ``result.q`` is the first.
    solutions: Tuple[np.ndarray, ...] = ()

    @property
    def commanded(self) -> bool:
        """Whether a move (single- or multi-point) was planned to be sent."""
        return self.command is not None or self.path_command is not None

    #: The solution is verified: within tolerance by FK and accepted by every judge. Derived
    #: from ``error_code`` once, at construction.
    success: bool = field(init=False)

    def __post_init__(self) -> None:
        """Derive :attr:`success` from the error code."""
        object.__setattr__(self, 'success', self.error_code == ErrorCode.SUCCESS)
