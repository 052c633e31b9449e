# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Revolute joints whose limits span a whole turn, searched as if they were continuous.

A revolute joint limited to [-pi, pi] (many arms' joint-limited descriptions) reaches every
angle, but a local search that walks it toward an angle across the cut at +-pi stops at the
limit, although the same angle lies within the limits on the other side. From random seeds on
a joint-limited UR10 (+-pi), 29-31 % of first starts succeeded against 47-51 % with +-2 pi.

The search therefore runs on a copy of the chain's arrays in which such joints have no limits
(:func:`search_arrays`); their limits move to two extra columns, and the answer is put back
within them, on the whole turn nearest the seed (:func:`settle_turns`). The forward kinematics
of a revolute joint repeat every turn, so the pose is the same. The sampling range of restarts
stays the limits.
"""

import math

import numpy as np

from .nearest_turn import nearest_turn, turns_keep_pose
from ...kinematics.jit import compiled
from ...kinematics.kernels import ChainArrays, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['LIMIT_KEPT_LOWER', 'LIMIT_KEPT_UPPER', 'search_arrays', 'settle_turns',
           'settled_distance']

#: Columns of a search copy's joint_limits that keep the limits of the joints searched freely.
LIMIT_KEPT_LOWER = 4
LIMIT_KEPT_UPPER = 5
_TURN = 2.0 * math.pi


def search_arrays(arrays: ChainArrays) -> ChainArrays:
    """
    Return the arrays the search runs on: ``arrays`` itself when no joint spans a whole turn.

    :param arrays: A chain's arrays.
    :returns: A copy whose whole-turn revolute joints have infinite limits, their limits kept in
        two more columns of ``joint_limits``; the same object when there is none. A joint that
        leads mimic followers keeps its limits.
    """
    limits = arrays.joint_limits
    lower, upper = limits[:, LIMIT_LOWER], limits[:, LIMIT_UPPER]
    with np.errstate(invalid='ignore'):  # continuous joints: inf - (-inf)
        whole = ((arrays.joint_prismatic == 0.0) & np.isfinite(lower) & np.isfinite(upper)
                 & (upper - lower >= _TURN))
    # Only where a turn keeps the pose (turns_keep_pose): a turn of a mimic leader turns a
    # follower by its multiplier, a whole turn only for a multiplier of one or minus one.
    motion = arrays.segment_motion
    breaks = (motion[:, 2] != 0.0) | (np.abs(motion[:, 0]) != 1.0)
    whole &= np.bincount(arrays.segment_variable, weights=breaks.astype(float),
                         minlength=limits.shape[0]) == 0.0
    if not whole.any():
        return arrays
    relaxed = np.empty((limits.shape[0], LIMIT_KEPT_UPPER + 1))
    relaxed[:, :limits.shape[1]] = limits
    relaxed[:, LIMIT_KEPT_LOWER] = lower
    relaxed[:, LIMIT_KEPT_UPPER] = upper
    relaxed[whole, LIMIT_LOWER] = -math.inf
    relaxed[whole, LIMIT_UPPER] = math.inf
    return arrays._replace(joint_limits=relaxed)


@compiled
def settle_turns(q: np.ndarray, seed: np.ndarray, chain: ChainArrays) -> None:
    """
    Put every revolute joint of ``q`` (in place) on the whole turn nearest ``seed`` in its limits.

    On the arrays of :func:`search_arrays` the limits are those kept aside; on any others this is
    :func:`.nearest_turn.nearest_turn`.

    :param q: (N,) configuration, rad or m; within the search's limits.
    :param seed: (N,) the configuration to stay near, within the limits.
    :param chain: the arrays the search ran on.
    """
    limits = chain.joint_limits
    if limits.shape[1] <= LIMIT_KEPT_UPPER:
        nearest_turn(q, seed, chain)
        return
    for i in range(q.shape[0]):
        if not turns_keep_pose(chain, i):
            continue
        lower, upper = limits[i, LIMIT_KEPT_LOWER], limits[i, LIMIT_KEPT_UPPER]
        value = q[i] + math.floor((seed[i] - q[i]) / _TURN + 0.5) * _TURN
        while value > upper:
            value -= _TURN
        while value < lower:
            value += _TURN
        # A span of exactly one turn leaves one copy, which rounding may put a hair outside.
        q[i] = min(max(value, lower), upper)


@compiled
def settled_distance(q: np.ndarray, seed: np.ndarray, chain: ChainArrays) -> float:
    """Largest joint motion (rad or m) from ``seed`` to ``q`` settled by :func:`settle_turns`."""
    settled = q.copy()
    settle_turns(settled, seed, chain)
    return np.max(np.abs(settled - seed))
