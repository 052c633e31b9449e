# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The switch between compiled and plain-Python kernels, and a clock both can read.

Every numeric kernel of the package is written once, in the subset of Python that numba
compiles, and decorated with :func:`compiled`. With numba installed the kernels are compiled on
first use and cached on disk next to their modules; without it (or with ``NUMBA_DISABLE_JIT=1``)
the very same functions run as plain Python: correct, and one to two orders of magnitude slower.
A warning says so once.

numba caches a function's machine code keyed on its own source file only, so a cached solver
loop would outlive an edit of a kernel it calls from another file. The first import therefore
compares a digest of every kernel module with the one stored beside the cache and clears the
cache when they differ.
"""

import glob
import hashlib
import math
import os
import time
from typing import Any, Callable, Optional, TypeVar
import warnings

__all__ = ['JIT_ENABLED', 'call_at', 'compiled', 'monotonic_seconds', 'native_address',
           'past_deadline', 'specialised']

_Function = TypeVar('_Function', bound=Callable)

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The modules whose functions are compiled: kinematics kernels, solver steps and loops, the
# collision broad phase.
_KERNEL_DIRS = ('kinematics', 'solvers', 'collision', 'paths')

try:
    import numba
except ImportError:  # the package still works, only slower
    numba = None

JIT_ENABLED = numba is not None and not numba.config.DISABLE_JIT

if numba is None:
    warnings.warn('numba is not installed: the ik_solvers kernels run as plain Python, about '
                  'a hundred times slower (pip install numba, or apt install python3-numba)',
                  RuntimeWarning, stacklevel=2)


def _clear_stale_cache() -> None:
    digest = hashlib.sha256()
    sources = []
    for folder in _KERNEL_DIRS:
        # Subpackages too (solvers/_core holds the search loop).
        sources.extend(sorted(glob.glob(os.path.join(_PACKAGE_DIR, folder, '**', '*.py'),
                                        recursive=True)))
    for path in sources:
        with open(path, 'rb') as source:
            digest.update(source.read())
    stamp = digest.hexdigest()
    stamp_path = os.path.join(_PACKAGE_DIR, '__pycache__', 'kernels.sha256')
    try:
        with open(stamp_path) as stored:
            if stored.read() == stamp:
                return
    except OSError:
        pass
    for folder in _KERNEL_DIRS:
        for cached in glob.glob(os.path.join(_PACKAGE_DIR, folder, '**', '__pycache__',
                                             '*.nb[ic]'), recursive=True):
            try:
                os.remove(cached)
            except OSError:  # another process cleared it first
                pass
    try:
        os.makedirs(os.path.dirname(stamp_path), exist_ok=True)
        with open(stamp_path, 'w') as stored:
            stored.write(stamp)
    except OSError:  # a read-only install: numba then caches elsewhere or not at all
        pass


if JIT_ENABLED:
    from llvmlite import ir
    from numba.core import cgutils
    from numba.core.cpu import CPUTargetOptions
    from numba.extending import intrinsic

    _clear_stale_cache()

    # Turning reference counting off is a private numba option (present since 0.49, so in every
    # version the requirements admit); should a release drop it, leaf kernels compile as
    # ordinary ones, slower but the same, rather than failing.
    _LEAF_OPTIONS = {'_nrt': False} if hasattr(CPUTargetOptions, '_nrt') else {}

    def compiled(function: Optional[_Function] = None, *, inline: bool = False,
                 leaf: bool = False) -> Any:
        """
        Compile ``function`` with numba on first call, caching the machine code on disk.

        With ``inline``, the function is compiled into each caller instead: a loop that takes
        another compiled function as an argument must be, or numba refuses to cache its
        callers (the argument would be a run-time object address).

        With ``leaf``, the function creates no array, nor calls a function that does (numba
        refuses to compile it otherwise): it is compiled without numba's reference counting.
        numba otherwise counts a reference to every array argument on entry and releases it on
        return, two atomic updates per array that its pruning pass removes only from
        straight-line code: a small kernel with a branch paid 30 ns per call for two arrays,
        more than its arithmetic (see docs/batch.md). The arrays stay alive as the caller holds
        them.
        """
        if function is None:
            return lambda function: compiled(function, inline=inline, leaf=leaf)
        options = _LEAF_OPTIONS if leaf else {}
        return numba.njit(cache=True, nogil=True, inline='always' if inline else 'never',
                          **options)(function)

    @intrinsic
    def _clock_monotonic(typing_context):
        # Solver loops check their deadline inside compiled code: numba offers no clock, so
        # this reads CLOCK_MONOTONIC straight from libc, the clock time.perf_counter uses on
        # Linux, so that deadlines computed in Python compare directly.
        def codegen(context, builder, signature, arguments):
            int32, int64, double = ir.IntType(32), ir.IntType(64), ir.DoubleType()
            timespec = ir.LiteralStructType([int64, int64])
            clock_gettime = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(int32, [int32, timespec.as_pointer()]),
                'clock_gettime')
            now = cgutils.alloca_once(builder, timespec)
            builder.call(clock_gettime, [ir.Constant(int32, 1), now])  # CLOCK_MONOTONIC
            seconds = builder.sitofp(builder.load(cgutils.gep_inbounds(builder, now, 0, 0)),
                                     double)
            nanoseconds = builder.sitofp(
                builder.load(cgutils.gep_inbounds(builder, now, 0, 1)), double)
            return builder.fadd(seconds, builder.fmul(nanoseconds, ir.Constant(double, 1e-9)))
        return numba.types.float64(), codegen

    @compiled
    def monotonic_seconds() -> float:
        """Return the monotonic clock, s, the same clock as ``time.perf_counter``."""
        return _clock_monotonic()

    def specialised(kernel: Any, *arguments: Any) -> Callable:
        """
        Return the machine code of ``kernel`` for the types of ``arguments``, to call directly.

        numba's dispatcher works out the type of every argument on every call: for a chain's
        arrays, a named tuple of nine fields, that costs 3-4 us, a tenth of a typical solve.
        The callable returned skips that step, so it must only ever be given arguments of
        exactly these types (dtypes, dimensions, layouts and writeability), which the caller
        guarantees by how it makes them; anything else goes to ``kernel`` itself. It compiles
        ``kernel`` for those types, or loads it from the disk cache, if that was not done yet.

        :param kernel: a function decorated with :func:`compiled`.
        :param arguments: one example of each argument.
        :returns: A callable taking the same arguments as ``kernel``.
        """
        return kernel.compile(tuple(numba.typeof(argument) for argument in arguments))

    def native_address(kernel: Any, *arguments: Any) -> int:
        """
        Return the address of ``kernel``'s machine code for the types of ``arguments``.

        It compiles (or loads) ``kernel`` for those types as :func:`specialised` does. The
        address stays valid while ``kernel`` lives; :func:`call_at` calls it from compiled code,
        so that one compiled loop can run any kernel of that signature (a batch over any
        heuristic's search) and still be cached on disk.

        :param kernel: a function decorated with :func:`compiled`.
        :param arguments: one example of each argument, of the types the caller will pass.
        :returns: The address, an int.
        """
        signature = tuple(numba.typeof(argument) for argument in arguments)
        kernel.compile(signature)
        result = kernel.overloads[signature]
        return int(result.library.get_pointer_to_function(result.fndesc.llvm_func_name))

    @intrinsic
    def call_at(typing_context, address, first, second, third, fourth, fifth, sixth):
        """
        Call the compiled function at ``address`` (:func:`native_address`) with six arguments.

        The function must return nothing and must have been compiled for exactly the types of
        these arguments; nothing can check that here. An exception it raises propagates.
        """
        arguments = (first, second, third, fourth, fifth, sixth)

        def codegen(context, builder, signature, values):
            function_type = context.call_conv.get_function_type(numba.types.none, arguments)
            function = builder.inttoptr(values[0], function_type.as_pointer())
            status, _ = context.call_conv.call_function(builder, function, numba.types.none,
                                                        arguments, values[1:])
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return context.get_dummy_value()
        return numba.types.none(address, *arguments), codegen
else:
    def compiled(function: Optional[_Function] = None, *, inline: bool = False,
                 leaf: bool = False) -> Any:
        """Return ``function`` unchanged: numba is missing or disabled."""
        if function is None:
            return lambda function: function
        return function

    monotonic_seconds = time.perf_counter

    def specialised(kernel: Any, *arguments: Any) -> Callable:
        """Return ``kernel`` itself: without numba there is no dispatch to skip."""
        return kernel

    def native_address(kernel: Any, *arguments: Any) -> int:
        """Return 0: without numba there is no machine code (see :func:`call_at`)."""
        return 0

    def call_at(address: int, *arguments: Any) -> None:
        """Refuse: without numba there is no machine code to call (callers check first)."""
        raise RuntimeError('call_at needs numba')


@compiled(inline=True)
def past_deadline(deadline: float) -> bool:
    """
    Whether the monotonic clock is past ``deadline`` (s, :func:`monotonic_seconds`' clock).

    An infinite deadline (a batch without a timeout) is never reached, and the clock is then not
    read: a read costs about 33 ns, and the search loops check once per iteration.
    """
    return deadline < math.inf and monotonic_seconds() > deadline
