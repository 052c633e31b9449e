# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A dragged target must not make a joint jump to another branch of the arm."""

import math
from typing import Optional

import numpy as np

from .judge import Judge
from ..candidate import Candidate
from ..error_codes import ErrorCode
from ..refusal import Refusal
from ..settings import NodeSettings

__all__ = ['ContinuousMotion', 'LAG_ALLOWANCE', 'moved_away']

#: rad or m: joint states this far behind the last command still count as an arm following
#: its commands. An arm that takes each command over ``min_duration`` (0.1 s) lags about five
#: commands of a 50 Hz drag behind, some 6 degrees; 0.35 rad leaves room for a drag three times
#: as fast, while every jump to another configuration seen in the demos was 60 degrees or more.
LAG_ALLOWANCE = 0.35


def moved_away(settings: NodeSettings) -> float:
    """
    Give the distance from the last command beyond which the robot was moved by something else.

    :param settings: The node's parameters.
    :returns: rad or m: the larger of :data:`LAG_ALLOWANCE` and ``max_joint_jump`` (infinite
        when ``max_joint_jump`` is 0, which disables the continuity check).
    """
    bound = settings.max_joint_jump
    return max(bound, LAG_ALLOWANCE) if bound > 0.0 else math.inf


class ContinuousMotion(Judge):
    """Refuses a streamed command that moves a joint further than ``max_joint_jump``."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Refuse a streamed command far from the last command (without one: from the arm).

        A one-shot request is an explicit move and is not bounded. The joint states lag behind
        a drag (by more than the bound, with the 5-degree default), so while the arm still
        follows its commands (see :func:`moved_away`) the bound holds against the last command
        and the joint states are held to the lag allowed: a flip could pass a check against
        the joint states in steps; against the last command it cannot.

        :param candidate: The candidate.
        :returns: ``EXECUTION_FAILED`` naming the joint, the reference and the parameter, or
            ``None``.
        """
        bound = candidate.settings.max_joint_jump
        if not (candidate.commanding and candidate.streamed and bound > 0.0):
            return None
        q = np.asarray(candidate.q, dtype=float)
        # Against the last command the bound; against the lagging joint states the lag allowed,
        # so that the drag's own commands never make the last command lose its standing.
        references = [('its current position', candidate.start, bound, 'max_joint_jump')]
        if candidate.last_command is not None:
            references = [('the last command', candidate.last_command, bound, 'max_joint_jump'),
                          ('its current position', candidate.start,
                           moved_away(candidate.settings), 'the lag allowed')]
        for name, reference, limit, limit_name in references:
            moves = np.abs(q - np.asarray(reference, dtype=float))
            if moves.size and float(np.max(moves)) > limit:
                index = int(np.argmax(moves))
                return Refusal(ErrorCode.EXECUTION_FAILED, (
                    'joint %s would move %.3g (rad or m) from %s, more than %s = %.3g; not '
                    'commanded' % (candidate.chain.joint_names[index], moves[index], name,
                                   limit_name, limit)))
        return None
