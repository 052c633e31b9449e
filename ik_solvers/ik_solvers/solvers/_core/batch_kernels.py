# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compiled loops that run one heuristic's search over a run of targets, without the GIL.

:func:`ik_solvers.solvers.batch.solve_batch` hands each thread a run of targets; the thread
spends all of it inside one of these loops, which calls the heuristic's compiled ``search``
directly. Like the heuristics' own ``search`` functions, each loop names its search in its
source: numba caches a compiled function only when the functions it calls are fixed there.
"""

import numpy as np

from ..ccd import ccd_search
from ..fabrik import fabrik_search
from ..jacobian_transpose import jacobian_transpose_search
from .layout import DEADLINE, REPORT_SIZE
from ..length_relaxation import length_relaxation_search
from ...kinematics.jit import compiled, monotonic_seconds

__all__ = ['BATCH_KERNELS', 'run_batch']


@compiled(inline=True)
def run_batch(search, chain, targets: np.ndarray, settings: np.ndarray, options: np.ndarray,
              q: np.ndarray, reports: np.ndarray, first: int, last: int,
              timeout: float) -> None:
    """
    Run ``search`` for ``targets[first:last]``, each from its row of ``q``.

    :param search: a heuristic's compiled search (see :mod:`.search`).
    :param targets: (K, 4, 4) target poses, base frame, m.
    :param settings: the settings of every search (its deadline is ignored: see ``timeout``).
    :param options: the heuristic's packed options.
    :param q: (K, N) seeds on entry; each row is replaced by its target's answer.
    :param reports: (K, REPORT_SIZE) written, one report per target.
    :param first: first index, inclusive.
    :param last: last index, exclusive.
    :param timeout: s per target on the monotonic clock; 0 for none (only the cap on starts
        ends a search: the answers then depend on the inputs alone).
    """
    own = settings.copy()
    own[DEADLINE] = np.inf
    row = np.empty(q.shape[1])
    report = np.empty(REPORT_SIZE)
    for k in range(first, last):
        if timeout > 0.0:
            own[DEADLINE] = monotonic_seconds() + timeout
        row[:] = q[k]
        search(chain, targets[k], own, options, row, report)
        q[k] = row
        reports[k] = report


@compiled
def _ccd_batch(chain, targets, settings, options, q, reports, first, last, timeout) -> None:
    run_batch(ccd_search, chain, targets, settings, options, q, reports, first, last, timeout)


@compiled
def _fabrik_batch(chain, targets, settings, options, q, reports, first, last, timeout) -> None:
    run_batch(fabrik_search, chain, targets, settings, options, q, reports, first, last,
              timeout)


@compiled
def _jacobian_transpose_batch(chain, targets, settings, options, q, reports, first, last,
                              timeout) -> None:
    run_batch(jacobian_transpose_search, chain, targets, settings, options, q, reports, first,
              last, timeout)


@compiled
def _length_relaxation_batch(chain, targets, settings, options, q, reports, first, last,
                             timeout) -> None:
    run_batch(length_relaxation_search, chain, targets, settings, options, q, reports, first,
              last, timeout)


#: The batch loop of each heuristic, by its compiled search.
BATCH_KERNELS = {
    ccd_search: _ccd_batch,
    fabrik_search: _fabrik_batch,
    jacobian_transpose_search: _jacobian_transpose_batch,
    length_relaxation_search: _length_relaxation_batch,
}
