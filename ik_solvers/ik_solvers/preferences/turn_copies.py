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
from typing import List, Optional

import numpy as np

__all__ = ['MAX_COMBINATIONS', 'combinations', 'nearest_copy', 'turn_copies', 'turn_mask']

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


def turn_copies(chain, q: np.ndarray, centre: np.ndarray,
                mask: Optional[np.ndarray] = None) -> List[np.ndarray]:
    """
    Return, per joint, the values of ``q``'s joint that reach the same pose within the limits.

    :param chain: the :class:`ik_solvers.Chain` (its limits and joint types).
    :param q: (N,) a configuration within the limits, rad or m.
    :param centre: (N,) where a continuous joint's copies are taken: the copy nearest it and
        the one a turn either side (every other copy is further from it).
    :param mask: :func:`turn_mask` of ``chain`` when the caller keeps it (computed if None).
    :returns: N arrays, each starting with ``q``'s own value (a joint without copies has
        only that one).
    """
    q = np.asarray(q, dtype=float)
    mask = turn_mask(chain) if mask is None else mask
    # A preference asks for the copies of every solution it ranks and of every step it
    # climbs: the turns are counted in Python floats and every copy is made in one array
    # (each joint's choices are views into it), which costs a fraction of an array per joint.
    offsets: List[float] = []
    counts: List[int] = []
    for index, value in enumerate(q.tolist()):
        turns: List[int] = []
        if mask[index]:
            low, high = float(chain.lower[index]), float(chain.upper[index])
            if math.isfinite(low) and math.isfinite(high):
                first = math.ceil((low - _SLACK - value) / _TURN)
                last = math.floor((high + _SLACK - value) / _TURN)
                turns = [k for k in range(first, last + 1) if k != 0]
            else:
                # round() like numpy's: halves to even.
                middle = round((float(centre[index]) - value) / _TURN)
                turns = [k for k in (middle - 1, middle, middle + 1) if k != 0]
        offsets.append(0.0)
        offsets.extend(turns)
        counts.append(len(turns) + 1)
    copies = np.repeat(q, counts) + _TURN * np.array(offsets)
    ends = np.cumsum(counts).tolist()
    return [copies[end - count:end] for end, count in zip(ends, counts)]


def combinations(choices: List[np.ndarray]) -> np.ndarray:
    """Return every combination of the per-joint ``choices``, (K, N) (K may be large)."""
    return np.array(list(itertools.product(*choices)), dtype=float)


def nearest_copy(chain, q: np.ndarray, centre: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """
    Return ``q`` with each joint on its copy nearest ``centre``, within the limits.

    The same choice as taking, per joint, the value of :func:`turn_copies` nearest ``centre``
    (the distance to ``centre`` is convex in the number of turns: the nearest whole number,
    clipped into the turns the limits allow), in a few array operations.

    :param q: (N,) a configuration within the limits, rad or m.
    :param centre: (N,) where each joint's copy is wanted.
    :param mask: :func:`turn_mask` of ``chain``.
    :returns: a new (N,) configuration with the same pose.
    """
    q = np.array(q, dtype=float)
    # An unbounded side gives an infinite count of turns, which leaves the clip open there.
    first = np.ceil((chain.lower - _SLACK - q) / _TURN)
    last = np.floor((chain.upper + _SLACK - q) / _TURN)
    turns = np.clip(np.round((centre - q) / _TURN), first, last)
    moved = mask & (turns != 0.0)
    q[moved] = q[moved] + _TURN * turns[moved]
    return q
