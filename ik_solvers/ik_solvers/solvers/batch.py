# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Many targets in one call, on every core: :func:`solve_batch`.

The options are checked once; the targets are cut into runs that threads take in turn, and
each run is one compiled call (:mod:`._core.batch_kernels`) that holds no GIL, so the threads
run on all cores at once. Each target is solved on its own, from its own seed, by the same compiled
search as :func:`ik_solvers.solve` (the same restarts, polish and final measurement of the
returned configuration by forward kinematics), so its answer does not depend on which thread
ran it nor on how many there were: a batch is deterministic as long as only the cap on starts
(``max_attempts``) ends a search. A per-target ``timeout`` can be added, as ``solve()`` has;
the answers then depend on the machine's speed and load.
"""

from concurrent.futures import ThreadPoolExecutor
import math
import os
import time
from typing import Any, NamedTuple, Optional

import numpy as np

from ..exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from ._core.batch_kernels import batch_entry, run_batch
from ._core.collision_avoidance import avoid_collisions, CollisionCheck
from ._core.full_turns import search_arrays
from ._core.input_checks import invalid_targets
from ._core.pack import new_report, new_reports, pack, set_deadline, unpack_rows
from .request import Goal, is_positive_number, SearchOptions
from .status import Status
from .tuning import SearchTuning, split_tuning
from .warm_up import is_warm, warm_up

__all__ = ['BATCH_STATUS_NAMES', 'BatchResult', 'default_threads', 'solve_batch']

#: Status codes of a batch, by index: the names of :class:`ik_solvers.IKResult`'s statuses.
BATCH_STATUS_NAMES = tuple(status.label for status in Status)[:4]
_IN_COLLISION = int(Status.IN_COLLISION)
# Targets per run handed to a thread: each thread takes about _RUNS_PER_THREAD runs, so that
# the threads finish within one short run of each other, and handing a run out (a Python call
# that holds the GIL while the other thread may want it) stays rare; never fewer than
# _SHORTEST_RUN targets, never more than _LONGEST_RUN (a few ms of search).
_RUNS_PER_THREAD = 64
_SHORTEST_RUN = 32
_LONGEST_RUN = 256


class BatchResult(NamedTuple):
    """
    The answers of :func:`solve_batch`, one row per target.

    :ivar q: (K, N) configurations within the limits, rad or m (the closest found on failure).
    :ivar status: (K,) int8 index into :data:`BATCH_STATUS_NAMES`.
    :ivar success: (K,) bool, the forward kinematics of ``q`` meets the goal (and, with a
        collision check, ``q`` is collision-free).
    :ivar position_error: (K,) m, by forward kinematics of ``q``.
    :ivar orientation_error: (K,) rad, by forward kinematics of ``q``, as the mode defines it.
    :ivar iterations: (K,) heuristic and polish iterations, summed over starts.
    :ivar attempts: (K,) starts tried, the seed's included.
    """

    q: np.ndarray
    status: np.ndarray
    success: np.ndarray
    position_error: np.ndarray
    orientation_error: np.ndarray
    iterations: np.ndarray
    attempts: np.ndarray


def default_threads() -> int:
    """Return the number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def solve_batch(chain, targets: Any, seeds: Any = None, *, solver: str = 'jacobian_transpose',
                orientation_mode: str = 'full', tip_axis: Any = (0.0, 0.0, 1.0),
                position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
                position_bounds: Any = None, rotation_bounds: Any = None,
                polish: Optional[bool] = None, polish_iterations: int = 20,
                max_attempts: int = 64, timeout: Optional[float] = None,
                collision: Optional[CollisionCheck] = None, threads: Optional[int] = None,
                tuning: Optional[SearchTuning] = None, **solver_options: Any) -> BatchResult:
    """
    Solve K targets with one set of options, on ``threads`` cores.

    The goal options, tolerances, limits and statuses are those of :func:`ik_solvers.solve`
    (no orientation fallback). Each target's search stops at its first solution or after
    ``max_attempts`` starts; with no ``timeout`` the answers are the same whatever the number
    of threads, run after run.

    :param chain: a :class:`ik_solvers.Chain`.
    :param targets: (K, 4, 4) poses of the tip in the chain's base frame, m.
    :param seeds: (K, N) or (N,) start configurations, rad or m (clamped into the limits);
        None starts every target from the middle of the limits.
    :param solver: one of :data:`ik_solvers.SOLVERS`.
    :param max_attempts: starts per target: the budget that keeps a batch deterministic.
    :param timeout: optional deadline per target, s (a search then also stops at it, and its
        status may be ``'timed_out'``); the answers then depend on the machine's load.
    :param collision: an exact check of configurations (see :func:`ik_solvers.solve`); each
        success is checked, and a colliding one reseeded within the rest of its starts. The
        checks run on the calling thread, one target after another.
    :param threads: threads to run on; None for every core of the process.
    :param tuning: advanced: the search's :class:`ik_solvers.solvers.tuning.SearchTuning`
        (None: the heuristic's defaults). Its fields given as solver options (the previous
        release's form) still work, with a :class:`DeprecationWarning`.
    :param solver_options: the solver's own options and ``orientation_weight``.
    :returns: A :class:`BatchResult`.
    :raises InvalidTargetError: ``targets`` is not (K, 4, 4) or a target is not a finite rigid
        transform (the message gives the first such index), or a goal option is invalid.
    :raises InvalidSeedError: ``seeds`` has the wrong shape or non-finite values.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: an option is unknown or out of range.
    """
    goal = Goal(mode=orientation_mode, tip_axis=tip_axis,
                position_tolerance=position_tolerance,
                orientation_tolerance=orientation_tolerance, position_bounds=position_bounds,
                rotation_bounds=rotation_bounds)
    # stacklevel 2: the warning names the caller of solve_batch().
    solver_options, tuning = split_tuning(solver_options, tuning,
                                          form='tuning=SearchTuning(%s)', stacklevel=2)
    search_options = SearchOptions(solver=solver, polish=polish,
                                   polish_iterations=polish_iterations,
                                   max_attempts=max_attempts, solver_options=solver_options,
                                   tuning=tuning)
    if timeout is not None and not is_positive_number(timeout):
        raise InvalidSolverOptionError('timeout must be None or a finite positive number of '
                                       'seconds, got %r' % (timeout,))
    if threads is None:
        threads = default_threads()
    elif isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise InvalidSolverOptionError('threads must be a positive integer, got %r'
                                       % (threads,))
    if collision is not None and not callable(getattr(collision, 'check', None)):
        raise InvalidSolverOptionError('collision must offer check(q, stop_at_first), got %s'
                                       % type(collision).__name__)
    heuristic = search_options.heuristic
    implementation = type(heuristic)
    options = heuristic.packed_options(chain)
    settings = pack(goal, heuristic, polish=search_options.runs_polish,
                    orientation_weight=search_options.orientation_weight(chain),
                    polish_iterations=polish_iterations, max_attempts=max_attempts,
                    tuning=search_options.tuning)
    poses = _checked_targets(targets)
    q = _checked_seeds(seeds, chain, poses.shape[0])
    if not is_warm(solver):
        warm_up((solver,))

    count = poses.shape[0]
    starts = q.copy() if collision is not None else None
    reports = new_reports(count)
    # Joints whose limits span a turn are searched freely (see _core/full_turns.py).
    _run(implementation.search, search_arrays(chain.arrays), poses, settings, options, q, reports,
         0.0 if timeout is None else float(timeout), int(threads))
    status, success, attempts, iterations, _, _ = unpack_rows(reports)
    status[(status == 0) & ~success] = 1  # lost to rounding on the nearest turn: as solve()
    if collision is not None:
        _avoid_collisions(implementation, chain, poses, settings, options, q, reports,
                          collision, starts, status, success, iterations, attempts,
                          0.0 if timeout is None else float(timeout))
    position_error, orientation_error = unpack_rows(reports)[4:]
    return BatchResult(q=q, status=status, success=success, position_error=position_error,
                       orientation_error=orientation_error, iterations=iterations,
                       attempts=attempts)


def _run(search: Any, arrays: Any, poses: np.ndarray, settings: np.ndarray,
         options: np.ndarray, q: np.ndarray, reports: np.ndarray, timeout: float,
         threads: int) -> None:
    """Run the heuristic's batch loop over every target, in runs spread over the threads."""
    address = batch_entry(search, arrays)
    count = poses.shape[0]
    if address is None:  # the kernels run as plain Python: one call per target
        row_settings = settings.copy()
        for k in range(count):
            set_deadline(row_settings, math.inf if timeout == 0.0
                         else time.perf_counter() + timeout)
            row = q[k].copy()
            report = new_report()
            search(arrays, poses[k], row_settings, options, row, report)
            q[k], reports[k] = row, report
        return
    if threads == 1 or count <= _SHORTEST_RUN:
        run_batch(address, arrays, poses, settings, options, q, reports, 0, count, timeout)
        return
    length = _run_length(count, threads)
    # The compiled loop releases the GIL: the threads truly run at once, and each writes only
    # its own rows.
    with ThreadPoolExecutor(max_workers=threads) as pool:
        runs = [pool.submit(run_batch, address, arrays, poses, settings, options, q, reports,
                            first, min(first + length, count), timeout)
                for first in range(0, count, length)]
        for run in runs:
            run.result()


def _run_length(count: int, threads: int) -> int:
    """Return the targets per run handed to a thread (see ``_RUNS_PER_THREAD``)."""
    return min(_LONGEST_RUN, max(_SHORTEST_RUN, count // (threads * _RUNS_PER_THREAD)))


def _avoid_collisions(implementation: Any, chain, poses: np.ndarray, settings: np.ndarray,
                      options: np.ndarray, q: np.ndarray, reports: np.ndarray,
                      collision: CollisionCheck, starts: np.ndarray, status: np.ndarray,
                      success: np.ndarray, iterations: np.ndarray, attempts: np.ndarray,
                      timeout: float) -> None:
    """Check every success; reseed a colliding one within its remaining starts."""
    own = settings.copy()
    for k in np.flatnonzero(success):
        set_deadline(own, math.inf if timeout == 0.0 else time.perf_counter() + timeout)
        report = reports[k].copy()
        answer, finding, reseeds, more = avoid_collisions(
            implementation, chain, poses[k], own, options, q[k].copy(), report, collision,
            starts[k])
        attempts[k] += reseeds
        iterations[k] += more
        if finding.colliding:
            status[k], success[k] = _IN_COLLISION, False
        elif reseeds:
            q[k] = answer
            reports[k] = report


def _checked_targets(targets: Any) -> np.ndarray:
    """Copy the targets into one C-contiguous (K, 4, 4) float array, checking each."""
    try:
        poses = np.array(targets, dtype=np.float64, order='C')
    except (TypeError, ValueError):
        raise InvalidTargetError('targets must be a (K, 4, 4) array of numbers') from None
    if poses.ndim != 3 or poses.shape[1:] != (4, 4):
        raise InvalidTargetError('targets must have shape (K, 4, 4), got %s' % (poses.shape,))
    # One compiled pass, the search's own check of a target (about 30 ns a pose; the same
    # checks as numpy array operations took 0.6 us a pose, a serial part of every batch).
    wrong, first = invalid_targets(poses)
    if wrong:
        raise InvalidTargetError('%d target(s) are not finite rigid transforms, the first at '
                                 'index %d' % (wrong, first))
    return poses


def _checked_seeds(seeds: Any, chain, count: int) -> np.ndarray:
    """Return a fresh (K, N) float array of seeds (the search writes its answers into it)."""
    joints = chain.num_joints
    if seeds is None:
        return np.tile(chain.mid_configuration(), (count, 1))
    try:
        q = np.array(seeds, dtype=np.float64, order='C')
    except (TypeError, ValueError):
        raise InvalidSeedError('seeds must be an array of numbers') from None
    if q.shape == (joints,):
        q = np.tile(q, (count, 1))
    if q.shape != (count, joints):
        raise InvalidSeedError('seeds must have shape (%d,) or (%d, %d), got %s'
                               % (joints, count, joints, q.shape))
    if not np.isfinite(q).all():
        raise InvalidSeedError('seeds have non-finite values, the first in row %d'
                               % np.flatnonzero(~np.isfinite(q).all(axis=1))[0])
    return q
