# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Exceptions raised by ik_solvers; every one derives from :class:`IKError`."""

__all__ = [
    'IKError',
    'RobotModelError',
    'InvalidTargetError',
    'InvalidSeedError',
    'InvalidSolverOptionError',
    'UnknownSolverError',
    'CollisionGeometryError',
    'SrdfError',
    'InvalidObstacleError',
]


class IKError(Exception):
    """Base class of every error ik_solvers raises on purpose."""


class RobotModelError(IKError, ValueError):
    """
    The robot description cannot give the requested chain.

    Raised for malformed URDF XML, unknown link names, a base link that is not an ancestor
    of the tip link, a chain without moving joints, or unsupported joint types in the chain.
    """


class InvalidTargetError(IKError, ValueError):
    """A target pose is not a finite rigid transform, or a tolerance is out of range."""


class InvalidSeedError(IKError, ValueError):
    """A seed or joint configuration has the wrong length or non-finite values."""


class UnknownSolverError(IKError, ValueError):
    """No solver of that name is registered."""


class InvalidSolverOptionError(IKError, ValueError):
    """A solver option is unknown or out of range, or the timeout is not positive."""


class CollisionGeometryError(IKError, ValueError):
    """A ``<collision>`` element of the URDF is malformed; the message names the link."""


class SrdfError(IKError, ValueError):
    """A semantic description (SRDF) cannot be read; the previous one should be kept."""


class InvalidObstacleError(IKError, ValueError):
    """An obstacle is refused: a non-finite pose, a non-positive size, an unknown id, too many."""
