# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The shape checks of a target and a seed that every entry point of the solvers shares."""

from typing import Any

import numpy as np

from .input_checks import RIGID_TOLERANCE
from ...exceptions import InvalidSeedError, InvalidTargetError

__all__ = ['search_seed', 'search_target', 'seed_array', 'target_array', 'target_problem']

_FLOAT64 = np.dtype(np.float64)


def target_array(target: Any) -> np.ndarray:
    """
    Copy a target into a float (4, 4) array, checking only its shape.

    :raises InvalidTargetError: ``target`` is not a 4x4 array of numbers.
    """
    # A fresh, writable, contiguous float array: any other layout would make numba compile
    # another version of the search, seconds in the middle of a solve.
    try:
        pose = np.array(target, dtype=float, order='C')
    except (TypeError, ValueError):
        raise InvalidTargetError('target must be a 4x4 array of numbers') from None
    if pose.shape != (4, 4):
        raise InvalidTargetError('target must be a 4x4 homogeneous transform, got shape %s'
                                 % (pose.shape,))
    return pose


def target_problem(pose: np.ndarray) -> str:
    """Say what is wrong with a target the search refused (see ``search.refusal``)."""
    if not np.isfinite(pose).all():
        return 'target has non-finite values'
    if np.abs(pose[3] - (0.0, 0.0, 0.0, 1.0)).max() > RIGID_TOLERANCE:
        return 'the last row of target must be [0, 0, 0, 1], got %s' % (pose[3],)
    return 'the upper-left 3x3 block of target is not a rotation'


def seed_array(seed: Any, chain) -> np.ndarray:
    """
    Copy a seed into a float (N,) array; ``None`` is the middle of the limits.

    :raises InvalidSeedError: ``seed`` is not N numbers.
    """
    if seed is None:
        return chain.mid_configuration()
    try:
        q = np.array(seed, dtype=float, order='C')
    except (TypeError, ValueError):
        raise InvalidSeedError('seed must be an array of %d numbers' % chain.num_joints) \
            from None
    if q.shape != (chain.num_joints,):
        raise InvalidSeedError('seed must have shape (%d,) for this chain, got %s'
                               % (chain.num_joints, q.shape))
    return q


def search_target(target: Any) -> np.ndarray:
    """
    Give a target in the one layout the compiled searches are called with.

    A writeable C-contiguous (4, 4) float64 array, as callers usually pass one, is returned as
    it is (the searches only read it): the general conversion costs a few microseconds.

    :raises InvalidTargetError: ``target`` is not a 4x4 array of numbers.
    """
    if (type(target) is np.ndarray and target.dtype is _FLOAT64 and target.shape == (4, 4)
            and target.flags.c_contiguous and target.flags.writeable):
        return target
    return target_array(target)


def search_seed(seed: Any, chain) -> np.ndarray:
    """
    Copy a seed into the one layout the compiled searches are called with (they write into it).

    :raises InvalidSeedError: ``seed`` is not N numbers.
    """
    if type(seed) is np.ndarray and seed.dtype is _FLOAT64 and seed.shape == (
            chain.num_joints,):
        return seed.copy()
    return seed_array(seed, chain)
