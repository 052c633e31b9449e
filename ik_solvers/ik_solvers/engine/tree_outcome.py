# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""What one solve of several end effectors gave: plain, frozen data for the node to publish."""

from dataclasses import dataclass, field
from typing import Optional, Tuple

import numpy as np

from .error_codes import ErrorCode
from .outcome import CollisionVerdict, Command

__all__ = ['TreeOutcome']


@dataclass(frozen=True)
class TreeOutcome:
    """
    The answer to a request of several tips: an error code and, when solved, every joint.

    Per-tip tuples follow the tree's tips (``tips``); empty when the request was refused before
    the tree was cut.
    """

    error_code: ErrorCode
    message: str
    solver: str = ''
    #: The tree's base link, the frame of ``targets`` and ``reached``.
    base_link: str = ''
    #: Every joint of the tree, shared ones once, and the answer's positions (rad or m).
    joint_names: Tuple[str, ...] = ()
    q: Optional[np.ndarray] = None
    tips: Tuple[str, ...] = ()
    #: Per tip: whether its forward kinematics meets its goal (held tips included).
    met: Tuple[bool, ...] = ()
    #: Per tip: position error (m) and orientation error (rad, 0 for position only).
    position_errors: Tuple[float, ...] = ()
    orientation_errors: Tuple[float, ...] = ()
    #: Per tip: its goal pose and its pose at ``q`` by forward kinematics, (4, 4) each.
    targets: Tuple[np.ndarray, ...] = ()
    reached: Tuple[np.ndarray, ...] = ()
    attempts: int = 0
    #: s spent solving.
    seconds: float = 0.0
    collision: CollisionVerdict = CollisionVerdict()
    #: The move to send, every joint of the tree.
    command: Optional[Command] = None
    #: As :class:`~.outcome.IKOutcome`'s, for the node's log.
    notes: Tuple[str, ...] = ()
    log_kind: str = ''
    success: bool = field(init=False)

    def __post_init__(self) -> None:
        """Derive :attr:`success` from the error code."""
        object.__setattr__(self, 'success', self.error_code == ErrorCode.SUCCESS)

    @property
    def commanded(self) -> bool:
        """Whether a move was planned to be sent."""
        return self.command is not None
