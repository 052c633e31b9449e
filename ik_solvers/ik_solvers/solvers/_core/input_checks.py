# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The checks a search makes of its inputs before it starts, compiled.

Checking inside the compiled call costs a fraction of a microsecond; the same checks as numpy
calls in Python cost several (see docs/DECISIONS.md on the overhead of ``solve()``).
"""

import math

import numpy as np

from ...kinematics.jit import compiled
from .full_turns import LIMIT_KEPT_LOWER, LIMIT_KEPT_UPPER
from ...kinematics.kernels import ChainArrays, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['RIGID_TOLERANCE', 'STATUS_INVALID_SEED', 'STATUS_INVALID_TARGET', 'beyond_reach',
           'invalid_targets', 'is_rigid_transform', 'refusal']

# Refusals, in the report's status slot beside the search's own outcomes (0-2).
STATUS_INVALID_TARGET = 3
STATUS_INVALID_SEED = 4

# Tolerance on the rigid-transform checks of a target: rotation orthonormality, last row.
RIGID_TOLERANCE = 1e-6


@compiled(leaf=True)
def is_rigid_transform(target: np.ndarray) -> bool:
    """
    Whether ``target`` (4, 4) is a finite rigid transform: its rotation orthonormal and
    right-handed and its last row 0 0 0 1, within ``RIGID_TOLERANCE``.
    """
    for i in range(4):
        for j in range(4):
            if not math.isfinite(target[i, j]):
                return False
    if (abs(target[3, 0]) > RIGID_TOLERANCE or abs(target[3, 1]) > RIGID_TOLERANCE
            or abs(target[3, 2]) > RIGID_TOLERANCE or abs(target[3, 3] - 1.0) > RIGID_TOLERANCE):
        return False
    for a in range(3):
        for b in range(a, 3):
            dot = (target[0, a] * target[0, b] + target[1, a] * target[1, b]
                   + target[2, a] * target[2, b])
            if abs(dot - (1.0 if a == b else 0.0)) > RIGID_TOLERANCE:
                return False
    handedness = (target[0, 0] * (target[1, 1] * target[2, 2] - target[2, 1] * target[1, 2])
                  - target[1, 0] * (target[0, 1] * target[2, 2] - target[2, 1] * target[0, 2])
                  + target[2, 0] * (target[0, 1] * target[1, 2] - target[1, 1] * target[0, 2]))
    return handedness >= 0.0


@compiled
def invalid_targets(targets: np.ndarray) -> tuple:
    """
    Count the poses of ``targets`` (K, 4, 4) that are not finite rigid transforms.

    :returns: (how many, the index of the first; -1 when there is none).
    """
    count = 0
    first = -1
    for k in range(targets.shape[0]):
        if not is_rigid_transform(targets[k]):
            if count == 0:
                first = k
            count += 1
    return count, first


@compiled
def refusal(chain: ChainArrays, target: np.ndarray, q: np.ndarray) -> int:
    """
    Check the inputs of a search; clamp the seed ``q`` into the limits in place.

    :returns: ``STATUS_INVALID_TARGET`` when ``target`` is not a finite rigid transform (see
        :func:`is_rigid_transform`), ``STATUS_INVALID_SEED`` when ``q`` holds a non-finite
        value, otherwise -1.
    """
    if not is_rigid_transform(target):
        return STATUS_INVALID_TARGET
    for i in range(q.shape[0]):
        if not math.isfinite(q[i]):
            return STATUS_INVALID_SEED
    # Clamped into the joints' own limits, also where the search runs without them (a copy
    # from full_turns.search_arrays keeps them in two more columns).
    lower, upper = LIMIT_LOWER, LIMIT_UPPER
    if chain.joint_limits.shape[1] > LIMIT_KEPT_UPPER:
        lower, upper = LIMIT_KEPT_LOWER, LIMIT_KEPT_UPPER
    for i in range(q.shape[0]):
        q[i] = min(max(q[i], chain.joint_limits[i, lower]), chain.joint_limits[i, upper])
    return -1


@compiled
def beyond_reach(chain: ChainArrays, target: np.ndarray, position_tolerance: float) -> bool:
    """Whether no configuration brings the tip within ``position_tolerance`` (m) of the target."""
    first = chain.segments[0]
    dx, dy, dz = target[0, 3] - first[0, 3], target[1, 3] - first[1, 3], target[2, 3] - first[2, 3]
    distance = math.sqrt(dx * dx + dy * dy + dz * dz)
    return distance > chain.reach * (1.0 + 1e-9) + position_tolerance
