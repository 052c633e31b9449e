# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The turn copies of a configuration: each revolute joint moved by whole turns within its limits.

A revolute joint whose limits span more than a turn (the UR's and many arms' +-2 pi) reaches
the same pose at ``q_i + 2 pi k`` for every ``k`` that stays within the limits; a continuous
joint at every ``k``. The copies share the pose, so a preference must pick among them: the
solver hands each solution over on the turn nearest the seed, which is rarely the one a
preference wants.
"""

import itertools
import math
from typing import List

import numpy as np

__all__ = ['MAX_COMBINATIONS', 'combinations', 'turn_copies', 'turn_mask']

_TURN = 2.0 * math.pi
# Slack of the limits (rad) for a copy: the limits' own rounding.
_SLACK = 1e-9
#: Above this many combinations of copies a generic preference is maximised joint by joint
#: (sweeps until no joint changes) instead of by scoring every combination.
MAX_COMBINATIONS = 4096


def turn_mask(chain) -> np.ndarray:
    """Return the joints that have turn copies: revolute, continuous or spanning > a turn."""
    lower = np.asarray(chain.lower, dtype=float)
    upper = np.asarray(chain.upper, dtype=float)
    revolute = ~np.asarray(chain.is_prismatic, dtype=bool)
    wide = ~np.isfinite(upper - lower) | (upper - lower > _TURN - 1e-9)
    return revolute & (np.asarray(chain.is_continuous, dtype=bool) | wide)


def turn_copies(chain, q: np.ndarray, centre: np.ndarray) -> List[np.ndarray]:
    """
    Return, per joint, the values of ``q``'s joint that reach the same pose within the limits.

    :param chain: the :class:`ik_solvers.Chain` (its limits and joint types).
    :param q: (N,) a configuration within the limits, rad or m.
    :param centre: (N,) where a continuous joint's copies are taken: the copy nearest it and
        the one a turn either side (every other copy is further from it).
    :returns: N arrays, each starting with ``q``'s own value (a joint without copies has
        only that one).
    """
    q = np.asarray(q, dtype=float)
    lower = np.asarray(chain.lower, dtype=float)
    upper = np.asarray(chain.upper, dtype=float)
    mask = turn_mask(chain)
    bounded = np.isfinite(lower) & np.isfinite(upper)
    with np.errstate(invalid='ignore'):  # unbounded joints take the other branch below
        first = np.ceil((lower - _SLACK - q) / _TURN)
        last = np.floor((upper + _SLACK - q) / _TURN)
        nearest = np.round((np.asarray(centre, dtype=float) - q) / _TURN)
    choices: List[np.ndarray] = [np.array([value]) for value in q]
    for index in np.flatnonzero(mask):
        if bounded[index]:
            turns = [k for k in range(int(first[index]), int(last[index]) + 1) if k != 0]
        else:
            middle = int(nearest[index])
            turns = [k for k in (middle - 1, middle, middle + 1) if k != 0]
        if turns:
            choices[index] = q[index] + _TURN * np.array([0.0] + turns)
    return choices


def combinations(choices: List[np.ndarray]) -> np.ndarray:
    """Return every combination of the per-joint ``choices``, (K, N) (K may be large)."""
    return np.array(list(itertools.product(*choices)), dtype=float)
