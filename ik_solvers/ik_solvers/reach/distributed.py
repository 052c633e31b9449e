# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A map's chunks as tasks of a Dask distributed cluster (docs/DECISIONS.md says why Dask).

The job (chain, orientations, options) is scattered to every worker once; each chunk is one
task that names it. A worker runs as many chunks at once as it has threads, each chunk's batch
on one thread (the compiled search releases the GIL, so a worker's threads use its cores).
Dask schedules; nothing here does.
"""

from typing import Callable, List, Optional

import numpy as np

from ..exceptions import IKError
from .voxel_grid import VoxelGrid
from .job import MapJob, solve_chunk

__all__ = ['run_on_cluster']


def _task(job: MapJob, number: int, centres: np.ndarray):
    return number, solve_chunk(job, number, centres, threads=1)


def run_on_cluster(address: str, job: MapJob, grid: VoxelGrid, chunks: List[np.ndarray],
                   store: Callable, progress: Optional[Callable[[int, int], None]]) -> int:
    """
    Run every chunk on the Dask scheduler at ``address``; ``store`` each result.

    :returns: The number of worker threads of the cluster.
    :raises IKError: Dask is not installed, or the scheduler cannot be reached.
    """
    try:
        from distributed import as_completed, Client
    except ImportError as error:
        raise IKError('a map on a cluster needs Dask distributed (pip install '
                      '"dask[distributed]")') from error
    try:
        client = Client(address, timeout=30)
    except OSError as error:
        raise IKError('cannot reach the Dask scheduler at %s: %s' % (address, error)) from error
    try:
        shared = client.scatter(job, broadcast=True)
        total = int(sum(chunk.size for chunk in chunks))
        futures = [client.submit(_task, shared, number, grid.centres(chunk), pure=False)
                   for number, chunk in enumerate(chunks)]
        done = 0
        for future in as_completed(futures):
            number, (solved, manipulability) = future.result()
            store(number, solved, manipulability)
            future.release()
            done += chunks[number].size
            if progress is not None:
                progress(done, total)
        return int(sum(client.nthreads().values()))
    finally:
        client.close()
