# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Large inputs away from the serving threads, and their memory given back afterwards.

A parse of megabytes holds the interpreter lock for as long as the parser runs in C (lxml
does not let go of it), which stalls every solve; and the memory it took stays in the
process's heap once freed, since the C allocator keeps it for later. :func:`run_apart` runs a
function in a child process (spawned: the node's DDS threads would not survive a fork; at a
lower priority, so that it takes the CPUs the solves leave), and
:func:`release_memory` collects Python's garbage and hands the allocator's free pages back to
the system (``malloc_trim``, where the C library has it).
"""

from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
import ctypes
import ctypes.util
import gc
import multiprocessing
import os
from typing import Any, Callable, Optional

__all__ = ['APART_INPUT_BYTES', 'release_memory', 'run_apart']

#: Inputs larger than this (characters of text) have their memory given back once handled. A
#: real SRDF is tens of kilobytes, a real URDF well under a megabyte.
APART_INPUT_BYTES = 1_000_000

#: Added to a child's niceness (Linux's CFS then gives it about a tenth of a CPU's share
#: against the node's threads when both want one).
CHILD_NICENESS = 10

_TRIM: Optional[Callable[[int], int]] = None
_TRIM_LOOKED_UP = False


def run_apart(function: Callable[..., Any], *arguments: Any) -> Any:
    """
    Call ``function(*arguments)`` in a child process and return its result.

    :param function: A module-level function (it is pickled by name).
    :param arguments: Its arguments, pickled.
    :returns: Its result, unpickled.
    :raises Exception: What the function raised, as it raised it.
    :raises OSError: If no child process could be started (BrokenProcessPool included).
    """
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context('spawn'),
                                 initializer=_lower_priority) as pool:
            return pool.submit(function, *arguments).result()
    except BrokenProcessPool as error:
        raise OSError('the child process ended: %s' % error) from None


def _lower_priority() -> None:
    # In the child, before the work: on a machine whose CPUs are all busy, the node's solving
    # threads get a CPU first and the parse takes what is left.
    try:
        os.nice(CHILD_NICENESS)
    except OSError:
        pass


def release_memory() -> bool:
    """
    Free Python's garbage and return the C allocator's free memory to the system.

    :returns: Whether the allocator could be asked (glibc's ``malloc_trim``).
    """
    global _TRIM, _TRIM_LOOKED_UP
    gc.collect()
    if not _TRIM_LOOKED_UP:
        _TRIM_LOOKED_UP = True
        try:
            library = ctypes.CDLL(ctypes.util.find_library('c') or 'libc.so.6')
            _TRIM = library.malloc_trim
            _TRIM.argtypes, _TRIM.restype = [ctypes.c_size_t], ctypes.c_int
        except (OSError, AttributeError):
            _TRIM = None
    if _TRIM is None:
        return False
    _TRIM(0)
    return True
