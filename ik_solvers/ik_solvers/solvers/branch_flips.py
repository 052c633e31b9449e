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
* **shoulder and wrist**: the shoulder flip, then the wrist flip of that, then the planar pair
  moved so that the tip's position is met again. The shoulder flip keeps one of the two wrists
  the other shoulder has; where the elbow cannot reach with that one (a pose with four
  branches, two per shoulder or all four on one), only the other wrist leads there.
"""

import math
from typing import List, NamedTuple, Optional, Tuple
import weakref

import numpy as np

from ._core.flip_kernel import _axes_points, _replanar, flip_starts

__all__ = ['ChainStructure', 'branch_flips', 'chain_structure', 'flip_kinds', 'half_turns',
           'load_flip_kernels', 'parallel_pairs']

_TURN = 2.0 * math.pi
_PARALLEL = 1e-9
_STRUCTURES: 'weakref.WeakKeyDictionary' = weakref.WeakKeyDictionary()
# The wrist point of a chain without one (the compiled flips take an array either way).
_NO_WRIST = np.zeros(3)


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

    @property
    def pair_array(self) -> np.ndarray:
        """Return :attr:`pairs` as an int64 array (the compiled flips' argument)."""
        return np.array(self.pairs, dtype=np.int64)


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


def flip_kinds(chain) -> int:
    """Return how many flips :func:`branch_flips` makes on ``chain`` (the ``skip`` indices)."""
    structure = chain_structure(chain)
    pairs = len(structure.pairs)
    return pairs + (chain.num_joints >= 3) + (pairs > 0) + _crosses_both(chain, structure)


def _crosses_both(chain, structure: ChainStructure) -> bool:
    """Return whether the chain gets the shoulder-and-wrist flip (a shoulder and a wrist)."""
    return bool(structure.pairs and chain.num_joints >= 3 and structure.shoulder
                and structure.wrist is not None)


def branch_flips(chain, q: np.ndarray, lower: np.ndarray, upper: np.ndarray,
                 pairs=None, *, skip: Optional[int] = None) -> List[np.ndarray]:
    """
    Return the structured flips of ``q`` (elbow, wrist, shoulder; see the module).

    Each is put back into the limits by whole turns where that suffices, else clamped.
    ``pairs`` is ignored (the chain's structure is cached). ``skip``: the index (in the order
    made, below :func:`flip_kinds`) of a flip not to make: the one that produced ``q``, which
    leads straight back to where ``q`` came from (a flip undoes itself). The maths runs
    compiled (:func:`._core.flip_kernel.flip_starts`).
    """
    structure = chain_structure(chain)
    wrist = structure.wrist
    # A writable copy: a read-only q (a result's) would compile the kernel once more.
    q = np.array(q, dtype=float)
    seeds = flip_starts(chain.arrays, q, structure.pair_array,
                        wrist is not None, _NO_WRIST if wrist is None else wrist,
                        structure.shoulder, structure.run_end, -1 if skip is None else skip,
                        np.asarray(lower, dtype=float), np.asarray(upper, dtype=float))
    result = list(seeds)
    both = flip_kinds(chain) - 1
    if _crosses_both(chain, structure) and skip != both:
        result.append(_shoulder_and_wrist(chain, structure, q, np.asarray(lower, dtype=float),
                                          np.asarray(upper, dtype=float)))
    return result


def _shoulder_and_wrist(chain, structure: ChainStructure, q: np.ndarray, lower: np.ndarray,
                        upper: np.ndarray) -> np.ndarray:
    """Return the shoulder flip of ``q``, wrist-flipped, its tip back where ``q``'s is."""
    shoulder_kind = len(structure.pairs) + 1
    # Unbounded limits: the shoulder flip as computed, before it is put into the limits.
    # Read-only, as the chain's limits are: the kernel's compiled signature is the same one.
    unbounded, below = np.full(q.shape[0], np.inf), np.full(q.shape[0], -np.inf)
    unbounded.setflags(write=False)
    below.setflags(write=False)
    seeds = flip_starts(chain.arrays, q, structure.pair_array, True, structure.wrist, True,
                        structure.run_end, -1, below, unbounded)
    seed = seeds[shoulder_kind].copy()
    seed[-3] += math.pi
    seed[-2] = -seed[-2]
    seed[-1] += math.pi
    _, points, _ = _axes_points(chain.arrays, q)
    seed = _replanar(chain.arrays, seed, points, structure.pairs[-1])
    return _into_limits(seed, lower, upper)


def load_flip_kernels(chain) -> None:
    """
    Load the machine code of the kernels the shoulder-and-wrist flip calls from Python.

    Each is compiled (or read from the disk cache) on its first call; :func:`.warm_up.warm_up`
    calls this so that the first :func:`branch_flips` of a UR-like arm does not pay it.
    """
    q = chain.mid_configuration()
    _, points, _ = _axes_points(chain.arrays, q)
    if chain.num_joints >= 3:
        _replanar(chain.arrays, q.copy(), points, 0)


def half_turns(q: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Return (N, N): ``q`` with joint i half a turn on in row i, put back into the limits."""
    q = np.asarray(q, dtype=float)
    return _into_limits(q + math.pi * np.eye(q.shape[0]), lower, upper)


def _into_limits(seed: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Move ``seed`` into the limits by whole turns where that suffices, else clamp it."""
    seed = np.where(seed > upper, seed - _TURN, seed)
    seed = np.where(seed < lower, seed + _TURN, seed)
    return np.clip(seed, lower, upper)
