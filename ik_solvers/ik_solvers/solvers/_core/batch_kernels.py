# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
One compiled loop that runs any heuristic's search over a run of targets, without the GIL.

:func:`ik_solvers.solvers.batch.solve_batch` hands each thread a run of targets; the thread
spends all of it inside :func:`run_batch`, which calls the heuristic's compiled ``search``
through the address of its machine code (:func:`batch_entry`). The loop names no heuristic, so
it is compiled and cached once for all of them, those registered from outside the package
included; a search called through an address costs what a direct call does.
"""

from typing import Callable, Dict, Optional, Tuple

import numpy as np

from .layout import DEADLINE, REPORT_SIZE, SETTINGS_SIZE
from ...kinematics.jit import call_at, compiled, JIT_ENABLED, monotonic_seconds, native_address
from ...kinematics.kernels import ChainArrays

__all__ = ['batch_entry', 'run_batch']

# Addresses by (search, chain arrays); each entry keeps both alive (so that their ids are not
# reused), and with the search the machine code the address points to.
_ADDRESSES: Dict[Tuple[int, int], Tuple[Callable, ChainArrays, int]] = {}
_CAPACITY = 64


@compiled
def run_batch(search: int, chain, targets: np.ndarray, settings: np.ndarray,
              options: np.ndarray, q: np.ndarray, reports: np.ndarray, first: int, last: int,
              timeout: float) -> None:
    """
    Run the search at address ``search`` for ``targets[first:last]``, each from its row of ``q``.

    :param search: :func:`batch_entry` of a heuristic's compiled search for these arrays.
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
        call_at(search, chain, targets[k], own, options, row, report)
        q[k] = row
        reports[k] = report


def batch_entry(search: Callable, arrays: ChainArrays) -> Optional[int]:
    """
    Return the address :func:`run_batch` calls ``search`` at, for chains typed as ``arrays``.

    :param search: a heuristic's compiled search (``Solver.search``), as it was registered.
    :param arrays: the chain's :class:`ChainArrays`.
    :returns: The address, or None when the kernels are not compiled (numba missing or
        disabled): the caller then calls ``search`` once per target.
    """
    if not JIT_ENABLED:
        return None
    key = (id(search), id(arrays))
    found = _ADDRESSES.get(key)
    if found is not None and found[0] is search and found[1] is arrays:
        return found[2]
    floats = np.zeros(max(SETTINGS_SIZE, REPORT_SIZE))
    # The types run_batch passes: a row of the targets, fresh 1-D arrays, the options as given.
    address = native_address(search, arrays, np.zeros((1, 4, 4))[0], floats, floats, floats,
                             floats)
    if len(_ADDRESSES) >= _CAPACITY:
        _ADDRESSES.clear()
    _ADDRESSES[key] = (search, arrays, address)
    return address
