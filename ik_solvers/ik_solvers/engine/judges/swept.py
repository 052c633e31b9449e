# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A streamed command must not collide on its way, not only where it ends."""

from typing import Optional

import numpy as np

from .judge import Judge
from ..candidate import Candidate
from ..error_codes import ErrorCode
from ..motion_plan import MOTION_IN_COLLISION
from ..refusal import Refusal
from ...collision.sweep import SweptCheck
from ...exceptions import IKError

__all__ = ['CollisionFreeMotion']


class CollisionFreeMotion(Judge):
    """Refuses a streamed command whose straight motion passes through a contact."""

    def __init__(self, *, per_sample: bool = False) -> None:
        """
        Choose how a line's samples are checked.

        :param per_sample: One Python call of the exact check per sample, as before a line's
            samples went through one compiled call (the same samples and verdicts; kept to
            measure the two, see :class:`~ik_solvers.collision.sweep.SweptCheck`).
        """
        self._per_sample = per_sample

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Swept-check the motion a streamed command makes (see :mod:`ik_solvers.collision.sweep`).

        The controller starts the command from wherever the arm is when it arrives: between the
        joint states (which lag a moving arm) and the last command. Both straight lines to the
        candidate are checked. One-shot commands are checked, and routed around a contact, when
        they are planned (:mod:`..motion_plan`); no refusal here, so that the route is tried.

        :param candidate: The candidate; judged only when it is a streamed command with a
            collision model.
        :returns: ``IN_COLLISION`` naming the pair and where on the way, or ``None``.
        """
        if not (candidate.streamed and candidate.commanding) or candidate.collision is None:
            return None
        sweep = SweptCheck(candidate.collision, per_sample=self._per_sample)
        starts = [np.asarray(candidate.start, dtype=float)]
        if candidate.last_command is not None and not np.array_equal(candidate.last_command,
                                                                     candidate.start):
            starts.append(np.asarray(candidate.last_command, dtype=float))
        try:
            for start in starts:
                contact = sweep.check_motion(start, candidate.q)
                if contact is not None:
                    return Refusal(ErrorCode.IN_COLLISION, '%s; not commanded'
                                   % contact.describe(), log_kind=MOTION_IN_COLLISION,
                                   contact=contact)
        except IKError as error:
            return Refusal(ErrorCode.IN_COLLISION, 'the swept check failed: %s' % error,
                           log_kind=MOTION_IN_COLLISION)
        return None
