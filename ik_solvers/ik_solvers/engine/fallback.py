# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The interface of a fallback: another candidate when the judges refused the solution.

A fallback runs only after the judges refused a candidate. It may propose one other
candidate (an approximate configuration within ``max_joint_jump`` of the last command for a
streamed target, say, with its own ``claim`` code); the engine judges the proposal with the
same judges, and takes it only when none refuses. The engine runs none by default.
"""

import abc
from typing import Optional

from .candidate import Candidate
from .refusal import Refusal

__all__ = ['Fallback']


class Fallback(abc.ABC):
    """Proposes a candidate in place of a refused one."""

    @abc.abstractmethod
    def proposal(self, refused: Candidate, refusal: Refusal) -> Optional[Candidate]:
        """
        Propose another candidate for the same request.

        :param refused: The candidate the judges refused.
        :param refusal: Why.
        :returns: The proposal (judged again by the engine), or ``None`` for none.
        """
