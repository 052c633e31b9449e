# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A command must start from joint states recent enough to say where the robot is."""

from typing import Optional

from .judge import Judge
from ..candidate import Candidate
from ..error_codes import ErrorCode
from ..refusal import Refusal

__all__ = ['FreshJointStates']


class FreshJointStates(Judge):
    """Refuses to command while a chain joint's latest joint state is too old."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Refuse a command when joint states are older than ``joint_state_timeout``.

        Joints never reported are not checked: without any joint states (open loop) the
        command starts from the last command. A solution that is not commanded is not judged.

        :param candidate: The candidate.
        :returns: ``EXECUTION_FAILED`` naming the stale joints and the parameter, or ``None``.
        """
        timeout = candidate.settings.joint_state_timeout
        if not candidate.commanding or timeout <= 0.0:
            return None
        ages = candidate.joint_state_ages
        stale = [name for name in candidate.chain.joint_names
                 if name in ages and ages[name] > timeout]
        if not stale:
            return None
        return Refusal(ErrorCode.EXECUTION_FAILED, (
            'joint_states of %s are up to %.2f s old, more than joint_state_timeout = %g s: '
            'where the robot is now is unknown, so it is not commanded until fresh ones '
            'arrive' % (', '.join(stale), max(ages[name] for name in stale), timeout)),
            log_kind='joint_states_stale')
