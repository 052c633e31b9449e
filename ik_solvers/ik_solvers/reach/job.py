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
    :ivar neighbour_rounds: rounds of the second pass (see :func:`solve_chunk`).
    :ivar neighbour_attempts: starts per pose in each round of the second pass.
    :ivar adjacent_rounds: rounds of the third pass (see :func:`solve_chunk`).
    :ivar adjacent_attempts: starts per pose in each round of the third pass.
    :ivar passes: times the second and third passes run, while they find more.
    """

    chain: Any
    rotations: np.ndarray
    options: Dict[str, Any]
    seed: int
    collision: Optional[Any] = None
    neighbour_rounds: int = 3
    neighbour_attempts: int = 1
    adjacent_rounds: int = 2
    adjacent_attempts: int = 1
    passes: int = 2


def solve_chunk(job: MapJob, number: int, centres: np.ndarray,
                threads: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
    """
    Solve every orientation at each voxel of one chunk.

    A first pass solves every pose from a random seed with the job's ``max_attempts``. At a
    voxel where no orientation was solved, the position alone is solved (from the middle of the
    limits) and, when reached, every orientation starts once more from that configuration. A
    second pass then starts each pose still unsolved, at a voxel where some orientation was
    solved, from the solution of the nearest solved orientation of the same voxel (a few
    starts), in up to ``neighbour_rounds`` rounds, each from the next nearest: a solution of a
    near orientation is a far better start than a random configuration. A third pass starts
    each pose still unsolved from the same orientation's solution at the nearest adjacent
    voxel of the chunk (sharing a face, edge or corner), in up to ``adjacent_rounds`` rounds.
    The second and third passes run again, up to ``passes`` times, while they find more. The
    third pass reads the chunk's other voxels: a voxel's values depend on how the grid is cut
    into chunks, which is fixed by ``chunk_voxels``, so a map is the same locally and on a
    cluster.

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
    answers = result.q.reshape(voxels, orientations, -1)
    targets = targets.reshape(voxels, orientations, 4, 4)
    if job.options['orientation_mode'] != 'none':
        _probe_empty_voxels(job, targets, success, answers,
                            dict(job.options, max_attempts=job.neighbour_attempts), threads)
    for _ in range(job.passes):
        found = success.sum()
        _second_pass(job, targets, success, answers, threads)
        _neighbour_voxel_pass(job, centres, targets, success, answers, threads)
        if success.sum() == found:
            break
    solved = success.sum(axis=1).astype(np.int32)
    values = np.zeros((voxels, orientations))
    if success.any():
        rows = 6 if chain.num_joints >= 6 else 3
        chosen = np.ascontiguousarray(answers[success])
        values[success] = manipulability(chain.arrays, chosen, rows)
    totals = values.sum(axis=1)
    mean = np.divide(totals, solved, out=np.zeros(voxels), where=solved > 0)
    return solved, mean


def _second_pass(job: MapJob, targets: np.ndarray, success: np.ndarray, answers: np.ndarray,
                 threads: Optional[int]) -> None:
    """Start unsolved poses from the nearest solved orientation's answer (in place)."""
    rotations = job.rotations
    count = rotations.shape[0]
    if count < 2:
        return
    # Angle between orientations a and b: cos = (trace(Ra^T Rb) - 1) / 2; nearest first.
    traces = np.einsum('aij,bij->ab', rotations, rotations)
    np.fill_diagonal(traces, -np.inf)
    order = np.argsort(-traces, axis=1, kind='stable')[:, :count - 1]
    options = dict(job.options, max_attempts=job.neighbour_attempts)
    for round_number in range(job.neighbour_rounds):
        open_poses = ~success & success.any(axis=1)[:, None]
        voxel, orientation = np.nonzero(open_poses)
        if voxel.size == 0:
            return
        # For each open pose, its neighbours in order of angle, and which of them are solved:
        # the (round_number + 1)-th solved one gives the seed.
        solved_neighbours = success[voxel[:, None], order[orientation]]
        rank = np.cumsum(solved_neighbours, axis=1)
        has = rank[:, -1] > round_number
        voxel, orientation = voxel[has], orientation[has]
        if voxel.size == 0:
            return
        position = np.argmax(rank[has] > round_number, axis=1)
        neighbour = order[orientation, position]
        result = solve_batch(job.chain, targets[voxel, orientation],
                             answers[voxel, neighbour], collision=job.collision,
                             threads=threads, **options)
        won = result.success
        success[voxel[won], orientation[won]] = True
        answers[voxel[won], orientation[won]] = result.q[won]


def _neighbour_voxel_pass(job: MapJob, centres: np.ndarray, targets: np.ndarray,
                          success: np.ndarray, answers: np.ndarray,
                          threads: Optional[int]) -> None:
    """Start unsolved poses from the same orientation's answer at an adjacent voxel."""
    voxels = centres.shape[0]
    if voxels < 2 or job.adjacent_rounds < 1:
        return
    distance = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(distance, np.inf)
    # Adjacent: sharing a face, an edge or a corner (sqrt(3) voxel edges, and some slack).
    adjacent = distance <= 1.8 * distance.min()
    order = np.argsort(distance, axis=1, kind='stable')
    options = dict(job.options, max_attempts=job.adjacent_attempts)
    for round_number in range(job.adjacent_rounds):
        voxel, orientation = np.nonzero(~success)
        if voxel.size == 0:
            return
        # For each open pose, the voxels in order of distance that solved its orientation.
        usable = (success[order[voxel], orientation[:, None]]
                  & adjacent[voxel[:, None], order[voxel]])
        rank = np.cumsum(usable, axis=1)
        has = rank[:, -1] > round_number
        voxel, orientation = voxel[has], orientation[has]
        if voxel.size == 0:
            return
        source = order[voxel, np.argmax(rank[has] > round_number, axis=1)]
        result = solve_batch(job.chain, targets[voxel, orientation],
                             answers[source, orientation], collision=job.collision,
                             threads=threads, **options)
        won = result.success
        success[voxel[won], orientation[won]] = True
        answers[voxel[won], orientation[won]] = result.q[won]


def _probe_empty_voxels(job: MapJob, targets: np.ndarray, success: np.ndarray,
                        answers: np.ndarray, options: dict, threads: Optional[int]) -> None:
    """At voxels with nothing solved, start every orientation from a position-only answer."""
    voxel = np.flatnonzero(~success.any(axis=1))
    if voxel.size == 0:
        return
    probe = solve_batch(job.chain, targets[voxel, 0], None, threads=threads,
                        **dict(options, orientation_mode='none',
                               max_attempts=2 * job.neighbour_attempts))
    voxel, start = voxel[probe.success], probe.q[probe.success]
    if voxel.size == 0:
        return
    count = targets.shape[1]
    result = solve_batch(job.chain, targets[voxel].reshape(-1, 4, 4),
                         np.repeat(start, count, axis=0), collision=job.collision,
                         threads=threads, **options)
    won = result.success.reshape(voxel.size, count)
    rows, columns = np.nonzero(won)
    success[voxel[rows], columns] = True
    answers[voxel[rows], columns] = result.q.reshape(voxel.size, count, -1)[rows, columns]
