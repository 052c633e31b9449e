# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A solution on its way to becoming a command: everything a judge may look at, frozen."""

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping, Optional

import numpy as np

from .error_codes import ErrorCode
from .settings import NodeSettings
from ..collision import CollisionModel, CollisionReport
from ..kinematics import Chain, RobotModel
from ..solvers import Goal, IKResult

__all__ = ['Candidate']


@dataclass(frozen=True)
class Candidate:
    """One configuration proposed for a request, with what it is judged against."""

    #: The chain solved, and the robot description it was cut from.
    chain: Chain
    model: RobotModel
    #: (N,) the configuration, rad or m, on the turn nearest ``start``.
    q: np.ndarray
    #: (4, 4) tip pose of ``q`` in the base frame, by forward kinematics (computed once).
    reached: np.ndarray
    #: (4, 4) requested tip pose in the base frame.
    target: np.ndarray
    #: (N,) where the chain is now, as best known: where a command would move from.
    start: np.ndarray
    #: (N,) the last command, for a streamed target while the robot is still near it; else
    #: ``None``.
    last_command: Optional[np.ndarray]
    #: Seconds since the latest joint state of each chain joint that has one.
    joint_state_ages: Mapping[str, float]
    settings: NodeSettings
    #: A dragged target (held to continuity), not a one-shot request.
    streamed: bool
    #: The candidate is sent as a command once every judge accepts it.
    commanding: bool
    #: The solve that gave ``q``, with its errors measured by FK of ``q``.
    result: IKResult
    #: The solver's name and the request's timeout in seconds, for the messages.
    solver: str
    timeout: float
    #: The code the outcome carries if no judge refuses: ``SUCCESS`` for a solution within
    #: tolerance, ``ORIENTATION_UNREACHABLE`` for the closest orientation of a met position,
    #: ``APPROXIMATE`` for the closest configuration near the start.
    claim: ErrorCode = ErrorCode.SUCCESS
    #: The solve's errors, iterations and time, for messages.
    summary: str = ''
    #: The request accepts an approximate answer when no exact one is accepted (a streamed
    #: target with ``approximate_tracking``, or SolveIK ``approximate``).
    approximate: bool = False
    #: What of the target counts, as ``solve()`` took it: tolerances and goal options.
    goal: Goal = field(default_factory=Goal)
    #: The request asks for a command: a streamed target, or SolveIK with ``execute``.
    command_requested: bool = False
    #: The exact collision check every judged configuration must pass (a proposal of a
    #: fallback too); ``None`` when collisions are not checked.
    collision: Optional[CollisionModel] = None

    @cached_property
    def collision_report(self) -> Optional[CollisionReport]:
        """
        Check ``q`` against :attr:`collision` once; the judge and the answer's report share it.

        :returns: Every pair in contact, or ``None`` when collisions are not checked.
        :raises IKError: If the checker cannot take the configuration (raised again on each
            access: a failure is not kept).
        """
        if self.collision is None:
            return None
        return self.collision.check(self.q)
