# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The start configuration of a one-shot solve: the request's seed laid over where the chain is."""

from typing import Sequence

import numpy as np

from .joint_positions import paired_joint_positions
from ..exceptions import InvalidSeedError
from ..kinematics import Chain

__all__ = ['path_start', 'seed_configuration']


def seed_configuration(chain: Chain, names: Sequence[str], positions: Sequence[float],
                       current: np.ndarray) -> np.ndarray:
    """
    Lay a seed, empty, partial (by name) or complete, over the chain's current configuration.

    :param chain: The chain being solved.
    :param names: Seed joint names; empty with N positions means the chain's joints in order.
    :param positions: Seed positions, rad or m.
    :param current: (N,) where the chain is now; joints the seed does not name keep it.
    :returns: The (N,) seed, clipped into the joint limits.
    :raises InvalidSeedError: If the seed is longer than the chain, names and positions do not
        pair up, a name is not a chain joint, or a position is not finite (NaN, +inf or -inf;
        checked before clipping, which would otherwise move an infinity onto a limit).
    """
    if not names and not positions:
        return current
    seed = _laid_over(chain, names, positions, current)
    _refuse_non_finite(chain, seed, 'seed')
    return np.asarray(chain.clip(seed), dtype=float)


def path_start(chain: Chain, names: Sequence[str], positions: Sequence[float],
               current: np.ndarray, *, slack: float) -> np.ndarray:
    """
    Give the start of a Cartesian path: a seed as :func:`seed_configuration` takes it, checked.

    A path starts exactly there, so unlike a seed (where a search only begins) it is not
    clipped into the joint limits from afar.

    :param chain: The chain.
    :param names: Start joint names (empty with N positions: the chain's joints in order).
    :param positions: Their positions, rad or m.
    :param current: (N,) where the chain is now; joints the start does not name keep it.
    :param slack: How far outside a limit a position may be (rad or m) and still be moved
        onto it (encoders report a little past a limit).
    :returns: The (N,) start within the limits.
    :raises InvalidSeedError: As :func:`seed_configuration`, and for a position that is not
        finite or lies farther than ``slack`` outside its joint's limits.
    """
    start = _laid_over(chain, names, positions, current)
    _refuse_non_finite(chain, start, 'start')
    if not chain.within_limits(start, tolerance=slack):
        raise InvalidSeedError('the start lies outside the joint limits (more than %g beyond)'
                               % slack)
    return np.asarray(chain.clip(start), dtype=float)


def _refuse_non_finite(chain: Chain, values: np.ndarray, what: str) -> None:
    """Raise InvalidSeedError naming each joint whose position is NaN or infinite."""
    if not np.isfinite(values).all():
        raise InvalidSeedError('the %s has values that are not finite: %s' % (what, ', '.join(
            '%s=%r' % (name, float(value)) for name, value in zip(chain.joint_names, values)
            if not np.isfinite(value))))


def _laid_over(chain: Chain, names: Sequence[str], positions: Sequence[float],
               current: np.ndarray) -> np.ndarray:
    if max(len(names), len(positions)) > chain.num_joints:
        # Checked before anything looks at the names: a seed names each chain joint at most
        # once, so a longer one is wrong whatever it holds, and may be huge.
        raise InvalidSeedError('the seed has %d names and %d positions; the chain has %d '
                               'joints (%s), each named at most once'
                               % (len(names), len(positions), chain.num_joints,
                                  ', '.join(chain.joint_names)))
    names, positions = list(names), list(positions)
    if not names:
        if len(positions) != chain.num_joints:
            raise InvalidSeedError('the seed has %d positions and no names; the chain has %d '
                                   'joints' % (len(positions), chain.num_joints))
        names = list(chain.joint_names)
    try:
        mapping = paired_joint_positions(names, positions)
    except InvalidSeedError as error:
        raise InvalidSeedError('invalid seed: %s' % error) from None
    unknown = [name for name in mapping if name not in chain.joint_names]
    if unknown:
        raise InvalidSeedError('seed joints %s are not in the chain (%s)'
                               % (', '.join(unknown), ', '.join(chain.joint_names)))
    seed = np.array(current, dtype=float)
    for index, name in enumerate(chain.joint_names):
        seed[index] = mapping.get(name, seed[index])
    return seed
