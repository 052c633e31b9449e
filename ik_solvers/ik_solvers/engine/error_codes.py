# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The answer codes of a solve, as plain integers the engine can return without messages."""

import enum

__all__ = ['ErrorCode']


class ErrorCode(enum.IntEnum):
    """
    Why a solve ended as it did.

    Each value equals the constant of the same name in ``ik_solvers_interfaces/srv/SolveIK``
    (a test checks it), so a code goes into a response or an ``IKStatus`` unchanged.
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
    INTERNAL_ERROR = 255
