# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
One chunk of a reachability map: the unit of work, local or on a cluster's worker.

A :class:`MapJob` holds everything every chunk shares (the chain, the orientations, the
options); it goes to each worker once. :func:`solve_chunk` solves every orientation at each
voxel of one chunk. Its random seeds come from a generator seeded by the map's seed and the
chunk's number alone, and :func:`ik_solvers.solvers.batch.solve_batch` is deterministic, so a
chunk gives the same values wherever and on however many threads it runs.
"""

from typing import Any, Dict, NamedTuple, Optional, Tuple

import numpy as np

from ..kinematics.kernels import LIMIT_SAMPLE_LOW, LIMIT_SAMPLE_WIDTH
from ..kinematics.manipulability import manipulability
from ..solvers.batch import solve_batch

__all__ = ['MapJob', 'solve_chunk']


class MapJob(NamedTuple):
    """
    What every chunk of one map shares.

    :ivar chain: the chain.
    :ivar rotations: (M, 3, 3) orientations tested at each voxel, base frame.
    :ivar options: keyword options of :func:`solve_batch` (solver, goal, tolerances,
        ``max_attempts``).
    :ivar seed: the map's seed.
    :ivar collision: an exact collision check, or None (local maps only).
    """

    chain: Any
    rotations: np.ndarray
    options: Dict[str, Any]
    seed: int
    collision: Optional[Any] = None


def solve_chunk(job: MapJob, number: int, centres: np.ndarray,
                threads: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
    """
    Solve every orientation at each voxel of one chunk.

    :param job: the map's shared part.
    :param number: the chunk's number (it seeds the chunk's random seeds).
    :param centres: (V, 3) voxel centres, m, base frame.
    :param threads: threads of the batch; None for every core.
    :returns: ``(solved, manipulability)``: (V,) int32 count of orientations solved (and
        collision-free with a check), and (V,) float64 mean Yoshikawa manipulability of those
        solutions (0 where none).
    """
    chain = job.chain
    rotations = job.rotations
    voxels, orientations = centres.shape[0], rotations.shape[0]
    targets = np.zeros((voxels, orientations, 4, 4))
    targets[:, :, :3, :3] = rotations
    targets[:, :, :3, 3] = centres[:, None, :]
    targets[:, :, 3, 3] = 1.0
    targets = targets.reshape(-1, 4, 4)
    limits = chain.arrays.joint_limits
    generator = np.random.default_rng([job.seed, number])
    seeds = (limits[:, LIMIT_SAMPLE_LOW] + limits[:, LIMIT_SAMPLE_WIDTH]
             * generator.random((targets.shape[0], chain.num_joints)))
    result = solve_batch(chain, targets, seeds, collision=job.collision, threads=threads,
                         **job.options)
    success = result.success.reshape(voxels, orientations)
    solved = success.sum(axis=1).astype(np.int32)
    values = np.zeros(targets.shape[0])
    if success.any():
        rows = 6 if chain.num_joints >= 6 else 3
        chosen = np.ascontiguousarray(result.q[result.success])
        values[result.success] = manipulability(chain.arrays, chosen, rows)
    totals = values.reshape(voxels, orientations).sum(axis=1)
    mean = np.divide(totals, solved, out=np.zeros(voxels), where=solved > 0)
    return solved, mean
