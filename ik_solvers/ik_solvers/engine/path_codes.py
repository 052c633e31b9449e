# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The answer codes of a Cartesian path request, as plain integers."""

import enum

from .error_codes import ErrorCode

__all__ = ['PathErrorCode', 'path_code']


class PathErrorCode(enum.IntEnum):
    """
    Why a Cartesian path request ended as it did.

    Each value equals the constant of the same name in ``ik_solvers_interfaces/srv/
    CartesianPath``; the codes it shares with SolveIK have SolveIK's numbers (a test checks
    both), the new ones start at 20.
    """

    SUCCESS = 0
    NO_SOLUTION = 1
    TIMED_OUT = 2
    INVALID_TARGET = 3
    UNKNOWN_FRAME = 4
    NO_ROBOT_MODEL = 5
    INVALID_SEED = 6
    UNKNOWN_SOLVER = 7
    INVALID_TIMEOUT = 8
    EXECUTION_FAILED = 9
    BUSY = 10
    IN_COLLISION = 13
    INTERNAL_ERROR = 255
    JOINT_JUMP = 20
    INVALID_STEP = 22
    TOO_MANY_POINTS = 23
    INVALID_LIMITS = 24
    PATH_TOO_LONG = 25
    COLLISION_CHECKING_UNAVAILABLE = 26


def path_code(code: ErrorCode) -> PathErrorCode:
    """
    Give the path code of a SolveIK code the shared input checks produced.

    :param code: A code of :func:`~.refusal.refusal_for`.
    :returns: The code of the same name; ``INTERNAL_ERROR`` for one a path never gives.
    """
    return PathErrorCode.__members__.get(code.name, PathErrorCode.INTERNAL_ERROR)
