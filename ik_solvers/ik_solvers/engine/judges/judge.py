# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The interface of a judge: one question asked of every candidate solution."""

import abc
from typing import Optional

from ..candidate import Candidate
from ..refusal import Refusal

__all__ = ['Judge']


class Judge(abc.ABC):
    """Accepts or refuses a candidate for one reason; holds no state of a request."""

    @abc.abstractmethod
    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Judge one candidate.

        :param candidate: The solution and what it is judged against.
        :returns: ``None`` to accept it, otherwise the refusal, whose message names the reason
            (the parameter or limit it passed). Must not raise for any candidate.
        """
