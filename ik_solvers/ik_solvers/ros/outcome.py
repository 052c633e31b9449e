# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""What goes into one solve of the ik_node and what comes out of it."""

from dataclasses import dataclass, field
from typing import List, Optional, Sequence

from geometry_msgs.msg import Pose
from ik_solvers_interfaces.srv import SolveIK
import numpy as np

from ..kinematics import Chain
from ..solvers import IKResult

__all__ = ['IKOutcome', 'IKRequest']

Codes = SolveIK.Response


@dataclass(frozen=True)
class IKRequest:
    """One solve, from a streamed target or a service call; zeros mean the node's defaults."""

    pose: Pose
    frame_id: str = ''
    seed_names: Sequence[str] = ()
    seed_positions: Sequence[float] = ()
    solver: str = ''
    #: ``None`` means the ``position_only`` parameter.
    position_only: Optional[bool] = None
    position_tolerance: float = 0.0
    orientation_tolerance: float = 0.0
    #: Seconds.
    timeout: float = 0.0
    #: A streamed target (a drag): seeded from the last command and held to continuity with it.
    streamed: bool = False


@dataclass
class IKOutcome:
    """What a solve gave: an error code and, when it got that far, the solution."""

    error_code: int
    message: str
    solver: str = ''
    chain: Optional[Chain] = None
    #: Requested tip pose in the chain's base frame, (4, 4).
    target: Optional[np.ndarray] = None
    result: Optional[IKResult] = None
    #: Configuration of the chain when the solve started: where a command would move from.
    start: Optional[np.ndarray] = None
    #: Warnings that did not prevent the solve (joint states missing chain joints).
    notes: List[str] = field(default_factory=list)
    #: Names the throttled logger of a failure when the error code alone is too coarse.
    log_kind: str = ''

    @property
    def success(self) -> bool:
        """Tell whether the solution is verified: within tolerance by FK and within limits."""
        return self.error_code == Codes.SUCCESS

    @property
    def reached(self) -> Optional[np.ndarray]:
        """Return the tip pose of the solution in the base frame by FK, (4, 4), or ``None``."""
        if self.chain is None or self.result is None:
            return None
        return np.asarray(self.chain.fk(self.result.q), dtype=float)
