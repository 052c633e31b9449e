# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Starts on the other branches of a solution: the elbow, wrist and shoulder flips of an arm.

From one solution of a pose, a start near another branch lets one short descent find that
branch; a random start finds it only by chance. The flips are derived from the chain's
structure, found once per chain (:func:`chain_structure`): a run of parallel revolute axes (a
planar elbow), the joint before it (a shoulder) and the last two axes (a wrist). They are exact
where the geometry allows, close otherwise:

* **elbow**: the elbow of the first two parallel axes mirrored across the line from the first
  axis to the end of the pair, in their plane; the links after it end where they did, and a
  third parallel joint takes back the change of direction (exact).
* **wrist**: the last three joints half a turn on, negated, half a turn on (the tip's
  orientation is kept when the middle axis is perpendicular to its neighbours), then the
  planar pair moved so that the tip's position is met again (exact when the orientation is).
* **shoulder**: the joint before the run turned so that the run's plane is mirrored across
  the wrist point (the meeting point of the last two axes, fixed to the tip), which keeps the
  wrist point's distance from that plane (exact for this joint), the arm after it mirrored.
"""

import math
from typing import List, NamedTuple, Optional, Tuple
import weakref

import numpy as np

__all__ = ['ChainStructure', 'branch_flips', 'chain_structure', 'flip_kinds', 'half_turns',
           'parallel_pairs']

_TURN = 2.0 * math.pi
_PARALLEL = 1e-9
_STRUCTURES: 'weakref.WeakKeyDictionary' = weakref.WeakKeyDictionary()


class ChainStructure(NamedTuple):
    """
    The parts of a chain its flips use, found at the middle configuration.

    :ivar pairs: the first joint of each run of parallel revolute axes.
    :ivar wrist: the wrist point in the tip frame, (3,) m (None: the last two axes are
        parallel, or there are fewer than three joints).
    :ivar shoulder: whether the joint before the first run is revolute and perpendicular to
        the run's axes.
    :ivar run_end: the last joint of the first run of parallel axes (-1: none).
    """

    pairs: Tuple[int, ...]
    wrist: Optional[np.ndarray]
    shoulder: bool
    run_end: int


def parallel_pairs(chain) -> List[int]:
    """
    Return the first joint ``i`` of each run of parallel revolute axes (``i + 1``'s parallel).

    Parallel neighbours stay parallel in every configuration, so the middle configuration
    tells; they make the elbows of an arm (the UR's joints 2, 3 and 4).
    """
    return list(chain_structure(chain).pairs)


def chain_structure(chain) -> ChainStructure:
    """Return the chain's :class:`ChainStructure` (computed once per chain)."""
    try:
        return _STRUCTURES[chain]
    except (KeyError, TypeError):
        pass
    poses = chain.poses(chain.mid_configuration())
    axes, points = poses[:-1, :3, 2], poses[:-1, :3, 3]
    prismatic = np.asarray(chain.is_prismatic, dtype=bool)
    size = chain.num_joints
    pairs: List[int] = []
    for index in range(size - 1):
        if prismatic[index] or prismatic[index + 1]:
            continue
        if np.linalg.norm(np.cross(axes[index], axes[index + 1])) < _PARALLEL \
                and (not pairs or pairs[-1] != index - 1):
            # The first pair of a run of parallel axes: its elbow flip moves the links after
            # it as a whole.
            pairs.append(index)
    wrist = None
    if size >= 3 and not prismatic[-2:].any():
        normal = np.cross(axes[-2], axes[-1])
        if np.linalg.norm(normal) > 1e-6:
            # The point of the second last axis nearest the last one, in the tip frame.
            offset = points[-1] - points[-2]
            along = float(np.cross(offset, axes[-1]) @ normal) / float(normal @ normal)
            point = points[-2] + along * axes[-2]
            wrist = poses[-1, :3, :3].T @ (point - poses[-1, :3, 3])
    shoulder = bool(pairs and pairs[0] > 0 and not prismatic[pairs[0] - 1]
                    and abs(float(axes[pairs[0] - 1] @ axes[pairs[0]])) < 1e-9)
    run_end = -1
    if pairs:
        run_end = pairs[0] + 1
        while run_end + 1 < size and not prismatic[run_end + 1] and np.linalg.norm(
                np.cross(axes[pairs[0]], axes[run_end + 1])) < _PARALLEL:
            run_end += 1
    structure = ChainStructure(tuple(pairs), wrist, shoulder, run_end)
    try:
        _STRUCTURES[chain] = structure
    except TypeError:
        pass
    return structure


def _dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _signed_angle(first, second, axis) -> float:
    """Return the angle (rad) turning ``first`` onto ``second`` about the unit ``axis``."""
    return math.atan2(_dot(axis, _cross(first, second)), _dot(first, second))


def _flat(vector, normal):
    """Return ``vector`` less its component along the unit ``normal``."""
    along = _dot(normal, vector)
    return (vector[0] - along * normal[0], vector[1] - along * normal[1],
            vector[2] - along * normal[2])


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _planar(seed: List[float], axes, points, index: int, goal, mirror: bool) -> List[float]:
    """
    Move the parallel pair ``index``, ``index + 1`` so that the pair's end reaches ``goal``.

    ``axes`` and ``points`` (lists of 3-tuples, base frame, m) are the joints' axes and a
    point on each at ``seed``, the tip's origin last. The end is the next joint's axis (or the
    tip). Within the plane of the parallel axes the two-link reach is solved in closed form,
    the elbow on its side (``mirror``: the other side); a third parallel joint takes back the
    change of direction, so the links after the pair only move along. ``goal`` is projected
    into the plane and, out of reach, taken to the nearest reachable distance.
    """
    size = len(seed)
    normal = axes[index]
    first, elbow, end = points[index], points[index + 1], points[index + 2]
    upper_arm = _flat(_sub(elbow, first), normal)
    forearm = _flat(_sub(end, elbow), normal)
    reach = _flat(_sub(goal, first), normal)
    upper, lower = math.sqrt(_dot(upper_arm, upper_arm)), math.sqrt(_dot(forearm, forearm))
    distance = math.sqrt(_dot(reach, reach))
    result = list(seed)
    if min(upper, lower, distance) < 1e-12:
        return result
    bend = _signed_angle(upper_arm, forearm, normal)
    cosine = (distance * distance - upper * upper - lower * lower) / (2.0 * upper * lower)
    new_bend = math.copysign(math.acos(max(-1.0, min(1.0, cosine))), -bend if mirror else bend)
    # The upper arm's angle from the reach line, then the turn from where it is.
    wanted = -math.atan2(lower * math.sin(new_bend), upper + lower * math.cos(new_bend))
    turn = wanted - _signed_angle(reach, upper_arm, normal)
    change = new_bend - bend
    result[index] += turn * _dot(axes[index], normal)
    result[index + 1] += change * _dot(axes[index + 1], normal)
    if index + 2 < size:
        third = _dot(axes[index + 2], normal)
        if abs(abs(third) - 1.0) < 1e-9:
            # About the common axis the turns add up: the third takes back the other two.
            result[index + 2] -= (turn + change) * third
    return result


def _axes_points(chain, q):
    """Return the joints' axes and points (the tip's origin last) as lists of 3-tuples."""
    poses = chain.poses(q)
    return poses[:, :3, 2].tolist(), poses[:, :3, 3].tolist(), poses[-1]


def flip_kinds(chain) -> int:
    """Return how many flips :func:`branch_flips` makes on ``chain`` (the ``skip`` indices)."""
    structure = chain_structure(chain)
    pairs = len(structure.pairs)
    return pairs + (chain.num_joints >= 3) + (pairs > 0)


def branch_flips(chain, q: np.ndarray, lower: np.ndarray, upper: np.ndarray,
                 pairs=None, *, skip: Optional[int] = None) -> List[np.ndarray]:
    """
    Return the structured flips of ``q`` (elbow, wrist, shoulder; see the module).

    Each is put back into the limits by whole turns where that suffices, else clamped.
    ``pairs`` is ignored (the chain's structure is cached). ``skip``: the index (in the order
    made, below :func:`flip_kinds`) of a flip not to make: the one that produced ``q``, which
    leads straight back to where ``q`` came from (a flip undoes itself).
    """
    structure = chain_structure(chain)
    values = [float(value) for value in q]
    size = len(values)
    axes, points, tip = _axes_points(chain, q)
    seeds = []
    kind = 0
    for index in structure.pairs:
        if kind != skip:
            seeds.append(_planar(values, axes, points, index, points[index + 2], mirror=True))
        kind += 1
    if size >= 3 and kind != skip:
        seed = list(values)
        seed[-3] += math.pi
        seed[-2] = -seed[-2]
        seed[-1] += math.pi
        if structure.pairs:
            # The orientation is kept; the flipped wrist moved the tip: the planar pair
            # takes it back (the links after the pair move along).
            index = structure.pairs[-1]
            moved_axes, moved, _ = _axes_points(chain, seed)
            goal = tuple(moved[index + 2][k] + points[-1][k] - moved[-1][k] for k in range(3))
            seed = _planar(seed, moved_axes, moved, index, goal, mirror=False)
        seeds.append(seed)
    kind += size >= 3
    if structure.pairs and kind != skip:
        seeds.append(_shoulder_flip(chain, structure, values, axes, points, tip))
    return list(_into_limits(np.array(seeds, dtype=float), lower, upper)) if seeds else []


def _rotated(vector, axis, angle: float):
    """Return ``vector`` turned by ``angle`` (rad) about the unit ``axis``."""
    cosine, sine = math.cos(angle), math.sin(angle)
    along, across = _dot(axis, vector) * (1.0 - cosine), _cross(axis, vector)
    return tuple(vector[k] * cosine + across[k] * sine + axis[k] * along for k in range(3))


def _shoulder_flip(chain, structure: ChainStructure, values: List[float], axes, points,
                   tip: np.ndarray) -> List[float]:
    """
    Return the shoulder flip of ``values`` (see the module's description).

    On an arm of a shoulder, one run of parallel axes and a wrist of two axes after it (a UR),
    the rest follows exactly: the wrist's first joint keeps the last axis' angle to the
    mirrored run axis, the run's last joint and the last joint then meet the orientation, and
    the planar pair the position. Otherwise the arm after the shoulder is mirrored.
    """
    first, size = structure.pairs[0], len(values)
    seed = list(values)
    if first == 0 or not structure.shoulder or structure.wrist is None:
        if first > 0:
            seed[first - 1] += math.pi
        seed[first] = -math.pi - values[first]
        seed[first + 1:] = [-value for value in values[first + 1:]]
        return seed
    axis = axes[first - 1]
    wrist = tip[:3, :3] @ structure.wrist + tip[:3, 3]
    wrist = _flat(_sub(wrist.tolist(), points[first - 1]), axis)
    if _dot(wrist, wrist) < 1e-18:
        seed[first - 1] += math.pi
        return seed
    # The run's normal mirrored across the wrist's direction keeps the wrist's distance from
    # the run's plane.
    shoulder = -2.0 * _signed_angle(wrist, axes[first], axis)
    seed[first - 1] += shoulder
    if structure.run_end + 3 != size:
        return seed
    normal = _rotated(axes[first], axis, shoulder)
    middle, last = axes[size - 2], axes[size - 1]
    # The last axis' angle to the run's normal depends on the wrist's first joint alone.
    # Turning the wrist's first joint by d gives it cosine * cos(d) + sine * sin(d) + fixed,
    # from the current run axis; the mirrored axis must see the fixed last axis at its angle.
    current = axes[first]
    fixed = _dot(middle, current) * _dot(middle, last)
    cosine = _dot(current, last) - fixed
    sine = _dot(current, _cross(middle, last))
    wanted = _dot(normal, last) - fixed
    amplitude = math.hypot(cosine, sine)
    if amplitude < 1e-12:
        return seed
    phase = math.atan2(sine, cosine)
    spread = math.acos(max(-1.0, min(1.0, wanted / amplitude)))
    # Of the two wrist angles, the one farther from the current (the other is its wrist flip
    # after the shoulder's, found by the flips of that solution).
    turn = phase + spread if abs(phase + spread) >= abs(phase - spread) else phase - spread
    seed[-2] += turn
    # The joints' turns, in the current base-frame axes, the downstream one first.
    tip_x = tip[:3, 0].tolist()
    moved_last = _rotated(_rotated(last, middle, turn), axis, shoulder)
    moved_x = _rotated(_rotated(tip_x, middle, turn), axis, shoulder)
    run = _signed_angle(_flat(moved_last, normal), _flat(last, normal), normal)
    seed[structure.run_end] += run * _dot(axes[structure.run_end], axes[first])
    moved_x = _rotated(moved_x, normal, run)
    seed[-1] += _signed_angle(moved_x, tip_x, last) * _dot(axes[size - 1], last)
    moved_axes, moved, _ = _axes_points(chain, seed)
    index = structure.pairs[0]
    goal = tuple(moved[index + 2][k] + points[-1][k] - moved[-1][k] for k in range(3))
    return _planar(seed, moved_axes, moved, index, goal, mirror=False)


def half_turns(q: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Return (N, N): ``q`` with joint i half a turn on in row i, put back into the limits."""
    q = np.asarray(q, dtype=float)
    return _into_limits(q + math.pi * np.eye(q.shape[0]), lower, upper)


def _into_limits(seed: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Move ``seed`` into the limits by whole turns where that suffices, else clamp it."""
    seed = np.where(seed > upper, seed - _TURN, seed)
    seed = np.where(seed < lower, seed + _TURN, seed)
    return np.clip(seed, lower, upper)
