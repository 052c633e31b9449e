# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A dragged target must not make a joint jump to another branch of the arm."""

from typing import Optional

import numpy as np

from .judge import Judge
from ..candidate import Candidate
from ..error_codes import ErrorCode
from ..refusal import Refusal

__all__ = ['ContinuousMotion']


class ContinuousMotion(Judge):
    """Refuses a streamed command that moves a joint further than ``max_joint_jump``."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Refuse a streamed command far from where the chain is or from the last command.

        A one-shot request is an explicit move and is not bounded. The joint states lag behind
        a drag, so a flip could pass the check against them in steps; against the last
        command it cannot.

        :param candidate: The candidate.
        :returns: ``EXECUTION_FAILED`` naming the joint, the reference and the parameter, or
            ``None``.
        """
        bound = candidate.settings.max_joint_jump
        if not (candidate.commanding and candidate.streamed and bound > 0.0):
            return None
        q = np.asarray(candidate.q, dtype=float)
        references = [('its current position', candidate.start)]
        if candidate.last_command is not None:
            references.append(('the last command', candidate.last_command))
        for name, reference in references:
            moves = np.abs(q - np.asarray(reference, dtype=float))
            if moves.size and float(np.max(moves)) > bound:
                index = int(np.argmax(moves))
                return Refusal(ErrorCode.EXECUTION_FAILED, (
                    'joint %s would move %.3g (rad or m) from %s, more than max_joint_jump = '
                    '%.3g; not commanded'
                    % (candidate.chain.joint_names[index], moves[index], name, bound)))
        return None
