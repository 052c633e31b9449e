# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A solution claimed exact must reach the target within both tolerances."""

from typing import Optional

from .judge import Judge
from ..candidate import Candidate
from ..error_codes import ErrorCode
from ..refusal import Refusal
from ...solvers import Status

__all__ = ['WithinTolerance']


class WithinTolerance(Judge):
    """Refuses an exact claim whose forward kinematics misses the target."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Refuse a ``SUCCESS`` claim that ``solve()`` did not verify.

        ``solve()`` measures both errors by forward kinematics of the returned configuration,
        the configuration of :attr:`Candidate.reached`. Approximate claims
        (``ORIENTATION_UNREACHABLE``) are judged by the stage that made them.

        :param candidate: The candidate.
        :returns: ``TIMED_OUT`` when the deadline came first, ``NO_SOLUTION`` otherwise, or
            ``None`` for a verified solution.
        """
        result = candidate.result
        if candidate.claim != ErrorCode.SUCCESS or result.success:
            return None
        if result.status == Status.IN_COLLISION:
            return None  # within tolerance by FK; the collision judge names what touches
        if result.status == Status.TIMED_OUT:
            return Refusal(ErrorCode.TIMED_OUT, '%s timed out after %g s: %s'
                           % (candidate.solver, candidate.timeout, candidate.summary))
        return Refusal(ErrorCode.NO_SOLUTION, '%s found no solution within tolerance: %s'
                       % (candidate.solver, candidate.summary))
