# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A solver's compiled search for one chain, called without numba's per-call type dispatch.

Typing a chain's arrays, a named tuple of nine fields, costs numba's dispatcher 3-4 us on every
call: a tenth of a typical solve, and as much again for each reseed of a collision-checked one.
A chain's arrays keep their types for life, and :func:`ik_solvers.solve` makes every other
argument itself, as a fresh writeable C-contiguous float64 array, so the machine code for that
one signature can be called directly (see :func:`ik_solvers.kinematics.jit.specialised`).
"""

import threading
from typing import Callable, Dict, Tuple

import numpy as np

from .layout import REPORT_SIZE, SETTINGS_SIZE
from ...kinematics.jit import specialised
from ...kinematics.kernels import ChainArrays

__all__ = ['search_entry']

# Entries by (search, chain arrays); each keeps both alive, so that their ids cannot be reused
# by other objects while it is stored. Few chains live in one process.
_ENTRIES: Dict[Tuple[int, int], Tuple[Callable, ChainArrays, Callable]] = {}
_CAPACITY = 64
_LOCK = threading.Lock()


def search_entry(search: Callable, arrays: ChainArrays) -> Callable:
    """
    Return ``search`` compiled for ``arrays``, to be called without type dispatch.

    The callable takes ``(arrays, target, settings, options, q, report)`` as ``search`` does,
    and only these types: ``arrays`` this very chain's, ``target`` a writeable C-contiguous
    (4, 4) float64 array, the others writeable C-contiguous 1-D float64 arrays. Any other
    argument must go to ``search`` itself.

    :param search: a solver's compiled search (``Solver.search``).
    :param arrays: the chain's :class:`ChainArrays`.
    :returns: The callable.
    """
    key = (id(search), id(arrays))
    found = _ENTRIES.get(key)
    if found is not None and found[0] is search and found[1] is arrays:
        return found[2]
    with _LOCK:
        floats = np.zeros(max(SETTINGS_SIZE, REPORT_SIZE))
        entry = specialised(search, arrays, np.eye(4), floats, floats, floats, floats)
        if len(_ENTRIES) >= _CAPACITY:
            _ENTRIES.clear()
        _ENTRIES[key] = (search, arrays, entry)
    return entry
