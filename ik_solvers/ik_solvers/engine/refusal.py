# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Why a request or a solution is refused: an error code and a message naming the reason.

:func:`refusal_for` is the engine's one mapping from the exceptions that input checks and
``solve()`` raise to the SolveIK error codes.
"""

from dataclasses import dataclass
from typing import Optional, Tuple, Type

from .error_codes import ErrorCode
from .frames import UnknownFrameError
from ..exceptions import (
    ChainRefusedError,
    IKError,
    InvalidSeedError,
    InvalidSolverOptionError,
    InvalidTargetError,
    InvalidTipsError,
    RobotModelError,
    UnknownSolverError,
)

__all__ = ['Refusal', 'refusal_for']


@dataclass(frozen=True)
class Refusal:
    """A request or a solution that is not accepted, and why."""

    code: ErrorCode
    #: Names the reason, e.g. the parameter whose bound was passed.
    message: str
    #: Names the throttled logger of the refusal when the code alone is too coarse.
    log_kind: str = ''
    #: Where a motion (not its end) first collides: the pair in contact and the configuration
    #: (:class:`ik_solvers.collision.sweep.SweptContact`); None for any other refusal.
    contact: Optional[object] = None


# Most specific first: the first class an error is an instance of gives its code.
_CODES: Tuple[Tuple[Type[IKError], ErrorCode, str], ...] = (
    (UnknownFrameError, ErrorCode.UNKNOWN_FRAME, ''),
    (InvalidTipsError, ErrorCode.INVALID_TIPS, ''),
    (ChainRefusedError, ErrorCode.CHAIN_REFUSED, ''),
    (RobotModelError, ErrorCode.NO_ROBOT_MODEL, ''),
    (InvalidSeedError, ErrorCode.INVALID_SEED, ''),
    (UnknownSolverError, ErrorCode.UNKNOWN_SOLVER, ''),
    # The only solver option the engine passes to solve() is the timeout.
    (InvalidSolverOptionError, ErrorCode.INVALID_TIMEOUT, ''),
    (InvalidTargetError, ErrorCode.INVALID_TARGET, 'invalid target: '),
)


def refusal_for(error: IKError) -> Refusal:
    """
    Give the error code of an exception raised by an input check or by ``solve()``.

    :param error: The exception.
    :returns: The refusal; an :class:`~ik_solvers.exceptions.IKError` of no listed kind is an
        ``INTERNAL_ERROR``, since no check raises one.
    """
    for kind, code, prefix in _CODES:
        if isinstance(error, kind):
            return Refusal(code, prefix + str(error))
    return Refusal(ErrorCode.INTERNAL_ERROR, 'internal error: %r' % error)
