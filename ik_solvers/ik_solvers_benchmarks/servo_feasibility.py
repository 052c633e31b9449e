# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Whether any servo could have tracked a cycle: the motions the joint limits allow, by LP.

A cycle counts as tracked when the tip moves at least 95 % of the commanded velocity within
2 degrees of its direction. From the joint velocities ``v`` an arm has at a cycle's start,
a joint whose acceleration stays within ``a`` and whose speed stays within ``s`` moves at
most

    v T + a T^2 / 2 (while v + a T <= s), otherwise up to s after (s - v) / a s,

and at least the mirror image, and no farther than lets it stop before its position limit:
every motion of any controller within the limits lies in that box of joint displacements.
:func:`beyond_limits` asks a linear program whether some displacement in the box moves the
tip (to first order, ``J dq``) far enough and close enough to the command. The 2-degree cone
is replaced by a polyhedron that contains it (the part across the command at most tan 2 deg
of the part along it in each of a few hundred fixed directions): when even that program has
no solution, no servo within the limits could have tracked that cycle.
"""

import math

import numpy as np
from scipy.optimize import linprog

__all__ = ['beyond_limits', 'displacement_bounds']

# Unit directions in twist space: the axes both ways and 400 fixed random ones. Each bounds the
# part across the command from one side; together they circumscribe the cone closely.
_DIRECTIONS = np.vstack([np.eye(6), -np.eye(6),
                         np.random.default_rng(2).normal(size=(400, 6))])
_DIRECTIONS /= np.linalg.norm(_DIRECTIONS, axis=1)[:, None]


def displacement_bounds(velocity: np.ndarray, speeds: np.ndarray, acceleration: float,
                        period: float, room: np.ndarray) -> np.ndarray:
    """
    Return the least and greatest joint displacements in one period, (2, N), rad or m.

    :param velocity: (N,) each joint's velocity at the period's start (within ``speeds``).
    :param speeds: (N,) each joint's speed limit.
    :param acceleration: the acceleration limit (every joint), per s^2.
    :param period: s.
    :param room: (2, N) each joint's distance to its lower and to its upper position limit
        (>= 0; inf for none). A joint must still be able to stop before its limit at the
        period's end: moving toward it at ``w`` it ends the period at ``w - a T`` or more, so
        it moves at most ``room - (w - a T)^2 / (2 a)``.
    """
    def farthest(v: np.ndarray, ahead: np.ndarray) -> np.ndarray:
        # Accelerate at the limit until the speed limit, then hold it.
        reach = np.minimum((speeds - v) / acceleration, period)
        free = v * reach + 0.5 * acceleration * reach ** 2 + speeds * (period - reach)
        slowest = np.maximum(v - acceleration * period, 0.0)
        return np.minimum(free, ahead - slowest ** 2 / (2.0 * acceleration))

    v = np.clip(velocity, -speeds, speeds)
    return np.array([-farthest(-v, room[0]), farthest(v, room[1])])


def beyond_limits(jacobian: np.ndarray, weight: np.ndarray, wanted: np.ndarray,
                  bounds: np.ndarray, period: float, *, fraction: float = 0.95,
                  degrees: float = 2.0) -> bool:
    """
    Whether no joint displacement within ``bounds`` tracks ``wanted`` over one period.

    :param jacobian: (6, N) the tip's Jacobian in the base frame at the cycle's start.
    :param weight: (6,) the weight of each twist row (m per rad for the angular ones).
    :param wanted: (6,) the commanded twist, m/s and rad/s.
    :param bounds: (2, N) :func:`displacement_bounds`.
    :param period: s.
    :param fraction: the least share of the command along it.
    :param degrees: the largest angle to it.
    :returns: True when the relaxed linear program has no solution (tracking impossible).
    """
    rows = weight[:, None] * jacobian / period
    command = weight * wanted
    size = float(np.linalg.norm(command))
    if size == 0.0:
        return False
    along = command / size
    across = rows - np.outer(along, along @ rows)
    slope = math.tan(math.radians(degrees))
    # along . (rows dq) >= fraction * size; d . (across dq) <= slope * along . (rows dq) for
    # every direction d of _DIRECTIONS (their component along the command does not count).
    sides = _DIRECTIONS @ across - slope * (along @ rows)[None, :]
    upper = np.vstack([-(along @ rows)[None, :], sides])
    limit = np.concatenate([[-fraction * size], np.zeros(len(sides))])
    result = linprog(np.zeros(jacobian.shape[1]), A_ub=upper, b_ub=limit,
                     bounds=list(zip(bounds[0], bounds[1])), method='highs')
    return result.status == 2  # infeasible
