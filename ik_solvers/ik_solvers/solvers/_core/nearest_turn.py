# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Whole turns of revolute joints: the same pose on the turn nearest a start, compiled."""

import math

import numpy as np

from ...kinematics.jit import compiled
from ...kinematics.kernels import ChainArrays, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['nearest_turn', 'turns_keep_pose']


@compiled
def turns_keep_pose(chain: ChainArrays, i: int) -> bool:
    """
    Whether a whole turn of variable ``i`` leaves the pose as it is.

    True for a revolute variable whose every moving joint (its own and any mimic followers)
    turns by one or minus one times it: a follower at 0.8 times its leader would turn by 0.8
    of a turn.
    """
    if chain.joint_prismatic[i] != 0.0:
        return False
    for segment in range(chain.segment_variable.shape[0]):
        if chain.segment_variable[segment] == i and (
                chain.segment_motion[segment, 2] != 0.0
                or abs(chain.segment_motion[segment, 0]) != 1.0):
            return False
    return True


@compiled
def nearest_turn(q: np.ndarray, start: np.ndarray, chain: ChainArrays) -> None:
    """
    Move each revolute joint of ``q`` (in place) by whole turns to the value nearest ``start``.

    The pose is the same and the limits are kept, but a joint whose limits span more than a
    turn (continuous joints, many industrial arms' +-2 pi) is not commanded a spin to get there.
    A mimic leader whose follower turns by a fraction of it is left as it is.
    """
    turn = 2.0 * math.pi
    for i in range(q.shape[0]):
        if not turns_keep_pose(chain, i):
            continue
        turns = math.floor((start[i] - q[i]) / turn + 0.5)
        while turns > 0 and q[i] + turns * turn > chain.joint_limits[i, LIMIT_UPPER]:
            turns -= 1
        while turns < 0 and q[i] + turns * turn < chain.joint_limits[i, LIMIT_LOWER]:
            turns += 1
        q[i] += turns * turn
