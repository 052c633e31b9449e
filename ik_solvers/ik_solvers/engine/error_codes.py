# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The answer codes of a solve and of a Cartesian path, as plain integers without messages.

One enum serves both services: a path answers with a subset of it (:data:`PATH_CODES`).
"""

import enum

__all__ = ['ErrorCode', 'PATH_CODES', 'path_code']


class ErrorCode(enum.IntEnum):
    """
    Why a solve or a Cartesian path ended as it did.

    Each value equals the constant of the same name in ``ik_solvers_interfaces/msg/ErrorCodes``
    (a test checks it), so a code goes into a SolveIK or CartesianPath response or an
    ``IKStatus`` unchanged. The codes only a path gives start at 20.
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
    ORIENTATION_UNREACHABLE = 11
    APPROXIMATE = 12
    IN_COLLISION = 13
    CHAIN_REFUSED = 14
    INVALID_TIPS = 15
    JOINT_JUMP = 20
    INVALID_STEP = 22
    TOO_MANY_POINTS = 23
    INVALID_LIMITS = 24
    PATH_TOO_LONG = 25
    COLLISION_CHECKING_UNAVAILABLE = 26
    TIMING_FAILED = 27
    INTERNAL_ERROR = 255


#: The codes a Cartesian path request answers with: a solve's answers are never partial or
#: approximate, so ORIENTATION_UNREACHABLE and APPROXIMATE are not among them, and a path
#: has one tip (no INVALID_TIPS).
PATH_CODES = frozenset(ErrorCode) - {ErrorCode.ORIENTATION_UNREACHABLE, ErrorCode.APPROXIMATE,
                                     ErrorCode.INVALID_TIPS}


def path_code(code: ErrorCode) -> ErrorCode:
    """
    Give the path answer for a code the shared input checks produced.

    :param code: A code of :func:`~.refusal.refusal_for`.
    :returns: ``code`` itself when a path gives it; ``INTERNAL_ERROR`` otherwise.
    """
    return code if code in PATH_CODES else ErrorCode.INTERNAL_ERROR
