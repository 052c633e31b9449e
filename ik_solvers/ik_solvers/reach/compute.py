# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
:func:`reachability_map`: the map of a chain, chunk by chunk, locally or on a Dask cluster.

The voxels that reach into the ball of the chain's reach around its first joint are cut into
chunks of ``chunk_voxels`` in a fixed order; each chunk is one :func:`.job.solve_chunk`. Only
a chunk's problems (voxels x orientations poses and answers) are in memory at a time, besides
the map's own arrays (about 11 bytes a voxel).
"""

import math
import time
from typing import Any, Callable, Dict, Optional

import numpy as np

from ..exceptions import InvalidSolverOptionError, InvalidTargetError
from ..solvers.batch import default_threads, solve_batch
from .voxel_grid import VoxelGrid
from .job import MapJob, solve_chunk
from .map_data import ReachabilityMap
from .orientations import axis_rotations, super_fibonacci_rotations

__all__ = ['Progress', 'reachability_map']

#: ``progress(done, total)``: voxels done so far and in all, after every chunk.
Progress = Callable[[int, int], None]


def reachability_map(chain, *, resolution: float = 0.05, orientations: int = 32,
                     orientation_mode: str = 'full', tip_axis: Any = (0.0, 0.0, 1.0),
                     solver: str = 'jacobian_transpose', max_attempts: int = 4,
                     position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
                     collision: Any = None, seed: int = 0, chunk_voxels: int = 128,
                     threads: Optional[int] = None, address: Optional[str] = None,
                     progress: Optional[Progress] = None,
                     metadata: Optional[Dict[str, Any]] = None) -> ReachabilityMap:
    """
    Compute the reachability map of ``chain`` over a voxel grid.

    :param chain: a :class:`ik_solvers.Chain`.
    :param resolution: voxel edge, m.
    :param orientations: M, orientations per voxel: whole rotations spread over SO(3)
        (``'full'``), tool-axis directions spread over the sphere (``'axis'``), or M = 1 for
        positions alone (``'none'``).
    :param orientation_mode: ``'full'``, ``'axis'`` or ``'none'``, as :func:`ik_solvers.solve`.
    :param tip_axis: the tool axis in ``'axis'`` mode, tip frame.
    :param solver: one of :data:`ik_solvers.SOLVERS`.
    :param max_attempts: starts per pose (the budget; the brute-force check in the benchmark
        bounds what it misses).
    :param position_tolerance: m.
    :param orientation_tolerance: rad.
    :param collision: an exact collision check of the chain (local maps only): a pose counts
        only with a collision-free solution.
    :param seed: seeds the random start of every pose (with the chunk's number).
    :param chunk_voxels: voxels per chunk (a task on a cluster).
    :param threads: threads of a local map; None for every core.
    :param address: a Dask scheduler's address (``tcp://host:port``); None computes locally.
    :param progress: called after every chunk.
    :param metadata: more entries for the map's metadata.
    :returns: A :class:`ReachabilityMap`; equal values locally and on a cluster for the same
        arguments.
    :raises InvalidTargetError: ``resolution``, ``orientations`` or a goal option is invalid.
    :raises InvalidSolverOptionError: another option is out of range, or a collision check
        is given with ``address``.
    """
    if orientation_mode == 'full':
        rotations = super_fibonacci_rotations(orientations)
    elif orientation_mode == 'axis':
        rotations = axis_rotations(orientations, tip_axis)
    elif orientation_mode == 'none':
        if orientations != 1:
            raise InvalidTargetError('a position-only map tests one orientation per voxel, '
                                     'got orientations=%r' % (orientations,))
        rotations = np.eye(3)[None]
    else:
        raise InvalidTargetError("orientation_mode must be 'full', 'axis' or 'none', got %r"
                                 % (orientation_mode,))
    if isinstance(chunk_voxels, bool) or not isinstance(chunk_voxels, int) or chunk_voxels < 1:
        raise InvalidSolverOptionError('chunk_voxels must be a positive integer, got %r'
                                       % (chunk_voxels,))
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidSolverOptionError('seed must be a non-negative integer, got %r' % (seed,))
    if collision is not None and address is not None:
        raise InvalidSolverOptionError('a collision check cannot be sent to a cluster: compute '
                                       'a collision-checked map locally (address=None)')
    options = dict(solver=solver, orientation_mode=orientation_mode, tip_axis=tuple(tip_axis),
                   position_tolerance=position_tolerance,
                   orientation_tolerance=orientation_tolerance, max_attempts=max_attempts)
    # Every option checked once here, on no target, before any chunk is cut.
    solve_batch(chain, np.zeros((0, 4, 4)), threads=1, **options)
    job = MapJob(chain=chain, rotations=rotations, options=options, seed=seed,
                 collision=collision)

    centre = chain.arrays.segments[0][:3, 3]
    grid = VoxelGrid.around(centre, chain.arrays.reach, resolution)
    candidates = grid.within(centre, chain.arrays.reach + position_tolerance)
    chunks = [candidates[first:first + chunk_voxels]
              for first in range(0, candidates.size, chunk_voxels)]
    solved = np.zeros(grid.size, dtype=np.uint16)
    manipulability = np.zeros(grid.size, dtype=np.float32)
    started_wall, started_cpu = time.perf_counter(), time.process_time()

    def store(number: int, chunk_solved: np.ndarray, chunk_manipulability: np.ndarray) -> None:
        solved[chunks[number]] = chunk_solved
        manipulability[chunks[number]] = chunk_manipulability

    if address is None:
        done = 0
        for number, chunk in enumerate(chunks):
            store(number, *solve_chunk(job, number, grid.centres(chunk), threads=threads))
            done += chunk.size
            if progress is not None:
                progress(done, candidates.size)
        workers = default_threads() if threads is None else threads
    else:
        from .distributed import run_on_cluster
        workers = run_on_cluster(address, job, grid, chunks, store, progress)
    evaluated = np.zeros(grid.size, dtype=bool)
    evaluated[candidates] = True
    count = rotations.shape[0]
    info = dict(
        base_link=chain.base_link, tip_link=chain.tip_link,
        joint_names=list(chain.joint_names), orientations=count, seed=seed,
        collision_checked=collision is not None, chunk_voxels=chunk_voxels,
        voxels_evaluated=int(candidates.size), problems=int(candidates.size) * count,
        wall_time_s=time.perf_counter() - started_wall,
        cpu_time_s=time.process_time() - started_cpu, engine='local' if address is None
        else 'dask', workers=workers, manipulability_rows=6 if chain.num_joints >= 6 else 3)
    info.update({key: value for key, value in options.items()})
    info['tip_axis'] = list(tip_axis)
    info.update(metadata or {})
    shape = grid.shape
    return ReachabilityMap(
        origin=grid.origin, resolution=grid.resolution,
        index=(solved / float(count)).astype(np.float32).reshape(shape),
        manipulability=manipulability.reshape(shape), solved=solved.reshape(shape),
        evaluated=evaluated.reshape(shape), rotations=rotations,
        metadata={key: (value if not isinstance(value, float) or math.isfinite(value)
                        else str(value)) for key, value in info.items()})
