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
    'InvalidPathError',
    'InvalidStepError',
    'TooManyPointsError',
    'InvalidLimitsError',
    'TimeParametrizationError',
    'CollisionGeometryError',
    'SrdfError',
    'InvalidObstacleError',
    'InvalidParameterError',
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


class InvalidPathError(IKError, ValueError):
    """
    A Cartesian path request cannot be interpolated.

    Raised for no waypoints, a waypoint that is not a finite rigid transform, a step or jump
    threshold that is not a finite positive number, a timeout out of range, or more
    interpolated points than the cap allows.
    """


class InvalidStepError(InvalidPathError):
    """A step, angle step or jump threshold of a path is not a number in its range."""


class TooManyPointsError(InvalidPathError):
    """A path would take more interpolated points than its cap allows."""


class InvalidLimitsError(IKError, ValueError):
    """
    Joint limits for time parametrization are malformed or missing.

    Raised for a velocity or acceleration scale outside (0, 1], an acceleration limit that is
    not a finite positive number, a joint without any acceleration limit, a limits mapping of
    the wrong shape, or a maximum duration that is not positive.
    """


class TimeParametrizationError(IKError, RuntimeError):
    """
    No timing of a joint path keeps the limits, or it would last longer than allowed.

    Raised when the time-optimal parametrization fails, or when the fastest timing within
    the velocity and acceleration limits is longer than ``max_path_duration``.
    """


class CollisionGeometryError(IKError, ValueError):
    """A collision setting is out of range: a negative or non-finite padding."""


class SrdfError(IKError, ValueError):
    """A semantic description (SRDF) cannot be read; the previous one should be kept."""


class InvalidObstacleError(IKError, ValueError):
    """An obstacle is refused: a non-finite pose, a non-positive size, an unknown id, too many."""


class InvalidParameterError(IKError, ValueError):
    """A node parameter given at start-up is of the wrong type or outside its range."""
