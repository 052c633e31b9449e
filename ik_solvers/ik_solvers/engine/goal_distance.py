# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Goals beyond any reach of the chain: refused as bad input, not tracked approximately.

A goal a little out of reach is an ordinary request (approximate tracking stretches the arm
toward it); one at 1e94 m is a broken client. The line between them is
:data:`FAR_GOAL_FACTOR` times the chain's reach from its base: the distances between
consecutive joint origins at the zero configuration, from the base's origin to the tip, plus
the longest travel of every prismatic joint.
"""

import math
import weakref

import numpy as np

from ..exceptions import InvalidTargetError
from ..kinematics import Chain

__all__ = ['FAR_GOAL_FACTOR', 'check_goal_distance', 'goal_distance_limit']

#: Goals farther from the chain's base than this many reaches are refused (INVALID_TARGET).
FAR_GOAL_FACTOR = 10.0

# Each chain's limit, computed once (a streamed target must not pay forward kinematics for it).
_LIMITS: 'weakref.WeakKeyDictionary[Chain, float]' = weakref.WeakKeyDictionary()


def goal_distance_limit(chain: Chain) -> float:
    """
    Give the farthest distance of a goal from the chain's base origin, m.

    :param chain: The chain.
    :returns: :data:`FAR_GOAL_FACTOR` times its reach (at least 1 mm of reach).
    """
    limit = _LIMITS.get(chain)
    if limit is None:
        limit = _LIMITS[chain] = _limit(chain)
    return limit


def _limit(chain: Chain) -> float:
    # The joint origins and, last, the tip, at the zero configuration.
    origins = np.asarray(chain.poses(np.zeros(chain.num_joints)), dtype=float)[:, :3, 3]
    points = np.vstack([np.zeros((1, 3)), origins])
    reach = float(np.sum(np.linalg.norm(np.diff(points, axis=0), axis=1)))
    travel = np.maximum(np.abs(chain.lower), np.abs(chain.upper))[np.asarray(
        chain.is_prismatic, dtype=bool)]
    reach += float(np.sum(travel[np.isfinite(travel)])) if travel.size else 0.0
    if travel.size and not np.isfinite(travel).all():
        return math.inf  # an unbounded prismatic joint reaches anywhere
    return FAR_GOAL_FACTOR * max(reach, 1e-3)


def check_goal_distance(chain: Chain, target: np.ndarray, what: str = 'the goal') -> None:
    """
    Refuse a goal beyond any reach of the chain.

    :param chain: The chain.
    :param target: (4, 4) goal pose in the chain's base frame.
    :param what: How the message names it (``'waypoint 3'``).
    :raises InvalidTargetError: If its position is farther from the base than
        :func:`goal_distance_limit`, naming the distance and the limit.
    """
    position = np.asarray(target, dtype=float)[:3, 3]
    if not np.isfinite(position).all():
        return  # solve() refuses numbers that are not finite, with its own reason
    with np.errstate(over='ignore'):
        distance = float(np.linalg.norm(position))  # inf for 1e308 m: still refused
    limit = goal_distance_limit(chain)
    if not distance <= limit:
        raise InvalidTargetError(
            '%s is %.3g m from the base %s, beyond the limit of %.4g m (%g times the chain\'s '
            'reach): a goal that far is no goal for this robot' % (
                what, distance, chain.base_link, limit, FAR_GOAL_FACTOR))
