# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The judges of a solution, in the order they are asked; the first refusal decides.

Adding a judgement is one module with a :class:`Judge` subclass, its import here and one line
in :data:`DEFAULT_JUDGES`. Judgements of the solution come before judgements of the command, so
that a solution that is wrong is reported as such even when it would not be commanded.
"""

from typing import Optional, Sequence, Tuple

from .collision_free import CollisionFree
from .continuity import ContinuousMotion
from .controlled import ControlledJoints
from .freshness import FreshJointStates
from .judge import Judge
from .within_limits import WithinJointLimits
from .swept import CollisionFreeMotion
from .tolerance import WithinTolerance
from ..candidate import Candidate
from ..refusal import Refusal

__all__ = ['DEFAULT_JUDGES', 'Judge', 'first_refusal']

DEFAULT_JUDGES: Tuple[Judge, ...] = (
    WithinTolerance(),
    WithinJointLimits(),
    CollisionFree(),
    FreshJointStates(),
    ControlledJoints(),
    ContinuousMotion(),
    CollisionFreeMotion(),
)


def first_refusal(judges: Sequence[Judge], candidate: Candidate) -> Optional[Refusal]:
    """
    Ask each judge in turn.

    :param judges: The judges, in order.
    :param candidate: The candidate.
    :returns: The first refusal, or ``None`` when every judge accepts.
    """
    for judge in judges:
        refusal = judge.refusal(candidate)
        if refusal is not None:
            return refusal
    return None
