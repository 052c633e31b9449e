# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A solution must keep every joint within its limits."""

from typing import Optional

import numpy as np

from .judge import Judge
from ..candidate import Candidate
from ..error_codes import ErrorCode
from ..refusal import Refusal

__all__ = ['WithinJointLimits']


class WithinJointLimits(Judge):
    """Refuses a configuration outside the chain's joint limits."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Refuse a configuration with a joint beyond its lower or upper limit.

        :param candidate: The candidate.
        :returns: ``NO_SOLUTION`` naming the first joint outside its limits, or ``None``.
        """
        chain, q = candidate.chain, np.asarray(candidate.q, dtype=float)
        if chain.within_limits(q):
            return None
        outside = np.flatnonzero((q < chain.lower) | (q > chain.upper))
        index = int(outside[0]) if outside.size else 0
        return Refusal(ErrorCode.NO_SOLUTION, (
            '%s returned a solution outside the joint limits: %s at %.4g, limits [%.4g, %.4g]'
            % (candidate.solver, chain.joint_names[index], q[index], chain.lower[index],
               chain.upper[index])))
