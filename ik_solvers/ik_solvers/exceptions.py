# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Exceptions raised by ik_solvers; every one derives from :class:`IKError`."""

__all__ = [
    'IKError',
    'RobotModelError',
    'ChainRefusedError',
    'InvalidTargetError',
    'InvalidSeedError',
    'InvalidSolverOptionError',
    'UnknownSolverError',
    'InvalidPathError',
    'InvalidStepError',
    'TooManyPointsError',
    'InvalidLimitsError',
    'TimeParametrizationError',
    'PathTooLongError',
    'CollisionGeometryError',
    'SrdfError',
    'InvalidObstacleError',
    'MeshLoadError',
    'UnknownFrameError',
    'InvalidTrajectoryError',
    'DemoError',
    'ProcessError',
    'BenchmarkSetupError',
    'AnchorUnavailableError',
    'InvalidParameterError',
    'InvalidTipsError',
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


class PathTooLongError(TimeParametrizationError):
    """
    The fastest timing of a joint path within the limits lasts longer than allowed.

    Raised when that timing exceeds ``max_path_duration``: the path itself was timed, and a
    larger ``max_path_duration`` (or higher limits) accepts it. Every other
    :class:`TimeParametrizationError` means that no timing was found at all.
    """


class CollisionGeometryError(IKError, ValueError):
    """A collision setting is out of range: a negative or non-finite padding."""


class SrdfError(IKError, ValueError):
    """A semantic description (SRDF) cannot be read; the previous one should be kept."""


class InvalidObstacleError(IKError, ValueError):
    """An obstacle is refused: a non-finite pose, a non-positive size, an unknown id, too many."""


class MeshLoadError(IKError):
    """A mesh cannot be found or read; the caller reports the link as unchecked."""


class UnknownFrameError(IKError, LookupError):
    """A target frame is neither a link of the robot description nor known to TF."""


class InvalidTrajectoryError(IKError, ValueError):
    """A trajectory names unknown joints, has ragged or non-finite points, or goes back in time."""


class DemoError(IKError, RuntimeError):
    """The demo cannot go on: a node did not answer, or refused a request."""


class ProcessError(IKError, RuntimeError):
    """An executable is not installed, or a child process died early."""


class BenchmarkSetupError(IKError):
    """The benchmark cannot start: a solver, an option or a robot is wrong."""


class AnchorUnavailableError(IKError):
    """A reference library is not installed, or cannot model this robot."""


class ChainRefusedError(RobotModelError):
    """
    A robot description was received and parsed, but the configured chain cannot be cut from it.

    The message names the base and tip links and why (a missing link, a base that is not an
    ancestor of the tip); the remedy is to set base_link and tip_link to links it has.
    """


class InvalidParameterError(IKError, ValueError):
    """A node parameter given at start-up is of the wrong type or outside its range."""


class InvalidTipsError(IKError, ValueError):
    """
    The tips of a request of several end effectors, or the node's tip_links, are unusable.

    A tip that is not a link of the description, a tip named twice, a target for a link that is
    not one of the configured tips, or tips that share no path to the base link.
    """
