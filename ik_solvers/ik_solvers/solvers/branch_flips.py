# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Starts on the other branches of a solution: the elbow, wrist and shoulder flips of an arm.

From one solution of a pose, a start near another branch lets one short descent find that
branch; a random start finds it only by chance. The flips here are exact where the geometry
allows (the elbow of parallel axes, mirrored in their plane) and close otherwise.
"""

import math
from typing import List, Tuple

import numpy as np

__all__ = ['branch_flips', 'parallel_pairs']

_TURN = 2.0 * math.pi


def parallel_pairs(chain) -> List[int]:
    """
    Return the first joint ``i`` of each run of parallel revolute axes (``i + 1``'s parallel).

    Parallel neighbours stay parallel in every configuration, so the middle configuration
    tells; they make the elbows of an arm (the UR's joints 2, 3 and 4).
    """
    angular = chain.jacobian(chain.mid_configuration())[3:]
    prismatic = np.asarray(chain.is_prismatic, dtype=bool)
    pairs = []
    for index in range(chain.num_joints - 1):
        if prismatic[index] or prismatic[index + 1]:
            continue
        if np.linalg.norm(np.cross(angular[:, index], angular[:, index + 1])) < 1e-9 \
                and (not pairs or pairs[-1] != index - 1):
            # The first pair of a run of parallel axes: its elbow flip moves the links after
            # it as a whole.
            pairs.append(index)
    return pairs


def _signed_angle(first: np.ndarray, second: np.ndarray, axis: np.ndarray) -> float:
    """Return the angle (rad) turning ``first`` onto ``second`` about the unit ``axis``."""
    return math.atan2(float(axis @ np.cross(first, second)), float(first @ second))


def _elbow_flip(q: np.ndarray, index: int, frames: np.ndarray, tip: np.ndarray,
                axes: np.ndarray) -> np.ndarray:
    """
    Return ``q`` with the elbow of parallel joints ``index``, ``index + 1`` flipped exactly.

    In the plane of the parallel axes the elbow (joint ``index + 1``'s axis) is mirrored
    across the line from joint ``index``'s axis to the next joint's (or the tip): the links
    after it end where they did, and a third parallel joint takes back the change of
    direction. The rest of the chain then needs only a small correction.
    """
    size = q.shape[0]
    normal = axes[index]
    first, elbow = frames[index, :3, 3], frames[index + 1, :3, 3]
    end = frames[index + 2, :3, 3] if index + 2 < size else tip[:3, 3]

    def flat(vector):
        return vector - normal * float(normal @ vector)

    upper_arm, reach = flat(elbow - first), flat(end - first)
    length = float(np.linalg.norm(reach))
    seed = q.copy()
    if length < 1e-12:
        return seed
    direction = reach / length
    mirrored = 2.0 * float(upper_arm @ direction) * direction - upper_arm
    turn = _signed_angle(upper_arm, mirrored, axes[index])
    # The forearm, carried by joint index's turn, must then point from the new elbow to end.
    forearm = flat(end - elbow)
    cosine, sine = math.cos(turn), math.sin(turn)
    carried = (forearm * cosine + np.cross(normal, forearm) * sine
               + normal * float(normal @ forearm) * (1.0 - cosine))
    bend = _signed_angle(carried, reach - mirrored, axes[index + 1])
    seed[index] += turn
    seed[index + 1] += bend
    if index + 2 < size and abs(abs(float(axes[index + 2] @ normal)) - 1.0) < 1e-9:
        # About the common axis the turns add up: the third takes back the other two.
        total = turn * float(axes[index] @ normal) + bend * float(axes[index + 1] @ normal)
        seed[index + 2] -= total * float(axes[index + 2] @ normal)
    return seed


def branch_flips(chain, q: np.ndarray, lower: np.ndarray, upper: np.ndarray,
                 pairs: List[int]) -> Tuple[List[np.ndarray], List[np.ndarray]]:
    """
    Return starts on other branches of ``q``: the structured flips, and single half turns.

    The exact elbow flip of the first pair of each run of parallel axes, the wrist flip of
    the last three joints (half a turn, negated, half a turn) and the shoulder flip (the
    joint before the parallel run half a turn on, the arm after it mirrored); then, apart,
    each joint half a turn on. Each is put back into the limits by whole turns (else
    clamped).
    """
    seeds = []
    size = q.shape[0]
    frames, tip = chain.joint_frames(q)
    axes = np.einsum('nij,nj->ni', frames[:, :3, :3], np.asarray(chain.axes, dtype=float))
    for index in pairs:
        seeds.append(_elbow_flip(q, index, frames, tip, axes))
    if size >= 3:
        seed = q.copy()
        seed[-3] += math.pi
        seed[-2] = -seed[-2]
        seed[-1] += math.pi
        seeds.append(seed)
    if pairs:
        # The shoulder flip: the joint before the first parallel pair half a turn on, the arm
        # after it mirrored in its plane.
        first = pairs[0]
        seed = q.copy()
        if first > 0:
            seed[first - 1] += math.pi
        seed[first] = -math.pi - q[first]
        seed[first + 1:] = -q[first + 1:]
        seeds.append(seed)
    structured = len(seeds)
    for index in range(size):
        seed = q.copy()
        seed[index] += math.pi
        seeds.append(seed)
    # Back into the limits by whole turns where that suffices, else clamped.
    result = []
    for seed in seeds:
        seed = np.where(seed > upper, seed - _TURN, seed)
        seed = np.where(seed < lower, seed + _TURN, seed)
        result.append(np.clip(seed, lower, upper))
    return result[:structured], result[structured:]
