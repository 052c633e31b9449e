# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The limits of a chain's variables: position, velocity, and the box random samples are drawn from.

A chain's variables are its leader joints. Each leader keeps its own URDF limits, narrowed by
the limits of every mimic joint that follows it; a continuous leader so narrowed is limited.
Positions are in rad or m, velocities in rad/s or m/s.
"""

import math
from typing import NamedTuple, Sequence, Tuple

import numpy as np

from .joint import (
    DEFAULT_VELOCITY_LIMIT,
    JointDescription,
    leader_bounds,
    Mimic,
    position_limits,
)
from ..exceptions import RobotModelError

__all__ = ['VariableLimits', 'variable_limits']


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


class VariableLimits(NamedTuple):
    """The limits of N chain variables; the arrays are (N,) and read-only where public."""

    #: Lower position limits, rad or m; -inf for continuous joints.
    lower: np.ndarray
    #: Upper position limits, rad or m; +inf for continuous joints.
    upper: np.ndarray
    #: Velocity limits, rad/s or m/s; always positive.
    velocity: np.ndarray
    #: Names of the variables whose URDF gives no positive velocity limit.
    without_velocity_limit: Tuple[str, ...]
    #: True where the joint translates.
    is_prismatic: np.ndarray
    #: True where the joint has no position limits.
    is_continuous: np.ndarray
    #: Lower edge of the sampling box: the lower limit, or -pi for a continuous joint.
    sample_low: np.ndarray
    #: Width of the sampling box (2 pi for a continuous joint).
    sample_width: np.ndarray
    #: Middle of the sampling box; 0 for continuous joints.
    mid: np.ndarray


def variable_limits(leaders: Sequence[JointDescription],
                    followers: Sequence[Tuple[JointDescription, Mimic]]) -> VariableLimits:
    """
    Combine the limits of the chain's variables with those of the mimic joints following them.

    :param leaders: The chain's variables, base to tip.
    :param followers: Each mimic joint of the chain with its resolved leader.
    :returns: The limits, in the order of ``leaders``.
    :raises RobotModelError: If a follower's limits leave its leader no position at all.
    """
    limits = {joint.name: position_limits(joint) for joint in leaders}
    # A follower's own limits bound its leader: the chain's variables are the leaders.
    for follower, mimic in followers:
        own_low, own_high = limits[mimic.leader]
        from_low, from_high = leader_bounds(follower, mimic)
        low, high = max(own_low, from_low), min(own_high, from_high)
        if low > high:
            raise RobotModelError(
                "joint '%s' mimics joint '%s' (multiplier %r, offset %r): its limits "
                "need '%s' in [%r, %r], which misses that joint's range [%r, %r]"
                % (follower.name, mimic.leader, mimic.multiplier, mimic.offset,
                   mimic.leader, from_low, from_high, own_low, own_high))
        limits[mimic.leader] = (low, high)
    lower = _read_only(np.array([limits[joint.name][0] for joint in leaders]))
    upper = _read_only(np.array([limits[joint.name][1] for joint in leaders]))
    # urdfdom accepts any number, and exporters write 0 where they know no limit: a limit
    # that is not positive bounds nothing, so such a joint is timed like one without any.
    unbounded = [joint.velocity is None or not joint.velocity > 0.0 for joint in leaders]
    velocity = [DEFAULT_VELOCITY_LIMIT if missing else joint.velocity
                for joint, missing in zip(leaders, unbounded)]
    # A continuous leader that a limited follower bounds is continuous no more.
    is_continuous = np.isinf(lower) & np.isinf(upper)
    sample_low = np.where(is_continuous, -math.pi, lower)
    sample_high = np.where(is_continuous, math.pi, upper)
    return VariableLimits(
        lower=lower, upper=upper, velocity=_read_only(np.array(velocity)),
        without_velocity_limit=tuple(
            joint.name for joint, missing in zip(leaders, unbounded) if missing),
        is_prismatic=_read_only(np.array([joint.is_prismatic for joint in leaders])),
        is_continuous=_read_only(is_continuous), sample_low=sample_low,
        sample_width=sample_high - sample_low,
        mid=_read_only(0.5 * (sample_low + sample_high)))
