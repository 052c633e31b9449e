# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A configuration must not put the robot through itself or through an obstacle."""

from typing import Optional

from .judge import Judge
from ..candidate import Candidate
from ..error_codes import ErrorCode
from ..refusal import Refusal
from ...exceptions import IKError
from ...solvers import Status

__all__ = ['CollisionFree']


class CollisionFree(Judge):
    """Refuses a configuration that the exact collision check finds in contact."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Check the candidate's configuration exactly, every pair of the collision model.

        ``solve()`` already rejects colliding solutions while it searches; this judge is the
        check of what is answered and commanded, proposals of a fallback included, the way
        :class:`~.tolerance.WithinTolerance` is the check of the pose.

        :param candidate: The candidate; without a collision model it is not judged here.
        :returns: ``IN_COLLISION`` naming every pair in contact, or ``None``.
        """
        try:
            report = candidate.collision_report
        except IKError as error:  # a configuration the checker cannot take is not commanded
            return Refusal(ErrorCode.IN_COLLISION, 'the collision check failed: %s' % error,
                           log_kind='in_collision')
        if report is None or not report.colliding:
            return None
        if candidate.result.status == Status.IN_COLLISION:
            what = ('every solution %s found within %g s collides; the first: %s'
                    % (candidate.solver, candidate.timeout, report.describe()))
        else:
            what = 'the solution collides: %s' % report.describe()
        return Refusal(ErrorCode.IN_COLLISION, what, log_kind='in_collision')
