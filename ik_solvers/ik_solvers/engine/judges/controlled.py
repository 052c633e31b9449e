# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A command goes out only when a controller takes every joint it moves."""

from typing import Optional

from .judge import Judge
from ..candidate import Candidate
from ..controller_map import controller_map, uncontrolled
from ..error_codes import ErrorCode
from ..refusal import Refusal

__all__ = ['ControlledJoints']


class ControlledJoints(Judge):
    """Refuses to command a joint that no entry of ``controller_joints`` names."""

    def refusal(self, candidate: Candidate) -> Optional[Refusal]:
        """
        Refuse a command moving a joint no controller takes.

        :param candidate: The candidate; one that is not commanded is not judged.
        :returns: ``EXECUTION_FAILED`` naming the joints, or ``None`` (also without
            ``controller_joints``: one command topic takes every joint).
        """
        if not candidate.commanding or not candidate.settings.controller_joints:
            return None
        missing = uncontrolled(candidate.chain.joint_names,
                               controller_map(candidate.settings.controller_joints))
        if not missing:
            return None
        return Refusal(ErrorCode.EXECUTION_FAILED, (
            'joint(s) %s are in no controller of controller_joints: not commanded'
            % ', '.join(missing)), log_kind='uncontrolled_joints')
