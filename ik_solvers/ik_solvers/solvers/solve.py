# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The one entry point: a one-shot over one :class:`PreparedSolver` of the request.

Everything numeric happens in one compiled call (see :mod:`._core`): the heuristic's
iterations from the seed and from restarts, the hand-over to the polish, the deadline and the
final measurement of the returned configuration by forward kinematics. Restarts come from a
generator with a fixed seed, and the first configuration that meets the tolerances is returned
at once: the output then depends only on the inputs, never on the machine's speed, whenever a
solution is found before the deadline. The defaults were chosen by measurement; the figures are
in docs/DECISIONS.md.
"""

import time
from typing import Any, Dict, Optional
import warnings

import numpy as np

from .prepared import PreparedSolver
from .request import Goal, GOAL_KEYWORDS, SEARCH_KEYWORDS, SearchOptions, TUNING_KEYWORDS
from .result import IKResult
from ._core.collision_avoidance import CollisionCheck
from ._core.nearest_turn import nearest_turn as _nearest_turn_kernel

__all__ = ['nearest_turn', 'solve']

# Prepared solvers by the request's keywords (or its Goal and SearchOptions) and the chain:
# checking and packing a request costs several microseconds, a look-up a fraction of one. This
# is the solvers' one cache of checked requests.
_PREPARED: Dict[tuple, PreparedSolver] = {}
_PREPARED_CAPACITY = 256
# The last request served, as (goal, options, chain arrays, solver, position tolerance,
# orientation tolerance, prepared): a caller that repeats one request passes the very same
# objects, which identity tells apart in a fraction of the time the cache key takes to hash
# (about 1 us of a 25 us solve). Anything not identical goes through the cache; the tuple is
# replaced whole, so that threads read one consistent request.
_LAST_REQUEST: tuple = (None,) * 7


def solve(chain, target: np.ndarray, seed: Optional[np.ndarray] = None, *,
          goal: Optional[Goal] = None, options: Optional[SearchOptions] = None,
          solver: Optional[str] = None, timeout: Optional[float] = None,
          position_tolerance: Optional[float] = None,
          orientation_tolerance: Optional[float] = None,
          collision: Optional[CollisionCheck] = None, **deprecated: Any) -> IKResult:
    """
    Find joint positions that bring the chain's tip to ``target``.

    Each start runs the heuristic until it meets the tolerances, stalls, or (with the
    polish on) slows down (one iteration leaves more than the tuning's ``handoff_ratio`` of
    the cost it started from) or comes within the solver's hand-over errors; then, with the
    polish on, a few damped least-squares steps finish (see
    :mod:`ik_solvers.solvers._core.polish`). A seed already within 5 % of the chain's length
    hands over after two steps. The first start is ``seed``; later ones are drawn by a generator
    with a fixed seed. The heuristic runs first in every start; its trust region keeps a seed close
    to a solution near that solution. The best configuration wins, each revolute joint on the
    turn nearest the seed, and its errors are measured by forward kinematics.

    A request is a :class:`Goal` (what counts as reaching the target) and
    :class:`SearchOptions` (how to search). The everyday keywords fill in those two when they
    are not given whole; beside a whole ``goal`` or ``options`` their keywords are refused,
    except ``timeout``, which is this call's deadline either way.

    :param chain: a :class:`ik_solvers.Chain`.
    :param target: (4, 4) pose of the tip in the chain's base frame (m).
    :param seed: start configuration, (N,), rad or m; values outside the limits are clamped.
        None starts from the middle of the limits.
    :param goal: the whole goal: orientation mode, tip axis, tolerances, bounds, fallback.
        None: the whole pose within ``position_tolerance`` and ``orientation_tolerance``.
    :param options: the whole search options: solver, timeout, polish, starts, the solver's
        own options. None: the defaults with ``solver`` and ``timeout``.
    :param solver: one of :data:`ik_solvers.SOLVERS` (default ``'jacobian_transpose'``).
    :param timeout: hard deadline, s, from the call (default: the options', 0.005 s); beside
        ``options`` it replaces their timeout for this call.
    :param position_tolerance: largest accepted position error (its norm), m (default 1e-5).
    :param orientation_tolerance: largest accepted orientation error, rad (default 1e-5).
    :param collision: an exact collision check (e.g. ``ik_solvers.collision.CollisionModel``
        of this chain); every success is checked, and a colliding one is rejected and the
        search reseeded from random configurations until the deadline. None checks nothing.
    :param deprecated: the keywords of the previous release (``orientation_mode``,
        ``tip_axis``, ``position_only``, ``position_bounds``, ``rotation_bounds``,
        ``orientation_fallback``, ``polish``, ``polish_iterations``, ``max_attempts``, the
        search's tuning and the solver's options) still work for one release, each with a
        :class:`DeprecationWarning` naming its place in :class:`Goal`, :class:`SearchOptions`
        or :class:`ik_solvers.solvers.tuning.SearchTuning`.

    :returns: An :class:`IKResult`; ``q`` is within the limits even when ``success`` is false.
        ``status`` (a :class:`Status`) is ``NO_SOLUTION`` when the target is beyond the chain's
        reach, when the best error stopped improving over the later half of the starts, or when
        ``max_attempts`` ran out; ``TIMED_OUT`` when the deadline came while it improved;
        ``IN_COLLISION`` when every solution found collided (``collision_pair`` names the
        pair); ``CLOSEST_ORIENTATION`` with the goal's orientation fallback.

    :raises InvalidTargetError: ``target`` is not a finite 4x4 rigid transform, a tolerance is
        not a finite positive number, a tolerance is given beside ``goal``, or the goal options
        (mode, axis, bounds, fallback) are invalid or contradict each other.
    :raises InvalidSeedError: ``seed`` has the wrong length or non-finite values.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: an option is unknown or out of range, ``solver`` is
        given beside ``options``, ``timeout`` is not a finite positive number, or
        ``collision`` has no ``check`` method.
    """
    global _LAST_REQUEST
    start_time = time.perf_counter()
    arrays = chain.arrays
    last = _LAST_REQUEST
    if (last[2] is arrays and last[0] is goal and last[1] is options and last[3] is solver
            and last[4] is position_tolerance and last[5] is orientation_tolerance
            and not deprecated):
        return last[6].solve(target, seed, timeout=options.timeout
                             if timeout is None and options is not None else timeout,
                             collision=collision, start_time=start_time)
    if deprecated:
        _warn_deprecated(deprecated)
    if options is not None and timeout is None:
        timeout = options.timeout
    # Equal values of other types (True and 1, 20 and 20.0) are checked differently.
    key = (goal, options, id(arrays), solver, position_tolerance, type(position_tolerance),
           orientation_tolerance, type(orientation_tolerance),
           tuple((name, value, type(value)) for name, value in deprecated.items())
           if deprecated else ())
    try:
        prepared = _PREPARED.get(key)
    except TypeError:  # an option is not hashable (a list, an array): checked every time
        prepared, key = None, None
    if prepared is None or prepared.chain.arrays is not arrays:
        keywords = {name: value for name, value in (
            ('solver', solver), ('position_tolerance', position_tolerance),
            ('orientation_tolerance', orientation_tolerance)) if value is not None}
        keywords.update(deprecated)
        prepared = PreparedSolver(chain, goal, options, **keywords)
        # A first use may compile the kernels: never let that eat the deadline.
        start_time = max(start_time, prepared.ready_time)
        if key is not None:
            if len(_PREPARED) >= _PREPARED_CAPACITY:
                _PREPARED.clear()
            _PREPARED[key] = prepared
    if key is not None and not deprecated:  # hashable, so nothing in it can change
        _LAST_REQUEST = (goal, options, arrays, solver, position_tolerance,
                         orientation_tolerance, prepared)
    return prepared.solve(target, seed, timeout=timeout, collision=collision,
                          start_time=start_time)


def _warn_deprecated(keywords: Dict[str, Any]) -> None:
    """Name the new form of each keyword of the previous release's ``solve()``."""
    forms = []
    for name, value in sorted(keywords.items()):
        if name == 'orientation_mode':
            forms.append('goal=Goal(mode=%r)' % (value,))
        elif name == 'position_only':
            forms.append("goal=Goal(mode='none')" if value is True else 'nothing (full pose)')
        elif name in GOAL_KEYWORDS:
            forms.append('goal=Goal(%s=%r)' % (name, value))
        elif name in SEARCH_KEYWORDS:
            forms.append('options=SearchOptions(%s=%r)' % (name, value))
        elif name in TUNING_KEYWORDS:
            forms.append('options=SearchOptions(tuning=SearchTuning(%s=%r))' % (name, value))
        else:
            forms.append('options=SearchOptions(solver_options={%r: %r})' % (name, value))
    # stacklevel 3: the warning names the caller of solve().
    warnings.warn('solve() keyword%s %s %s deprecated; give %s'
                  % ('s' if len(keywords) > 1 else '', ', '.join(sorted(keywords)),
                     'are' if len(keywords) > 1 else 'is', ', '.join(forms)),
                  DeprecationWarning, stacklevel=3)


def nearest_turn(q: np.ndarray, start: np.ndarray, chain) -> np.ndarray:
    """
    Move each revolute joint by whole turns to the value nearest ``start`` within its limits.

    The pose is the same, but a joint whose limits span more than a turn (continuous joints,
    and many industrial arms' +-2 pi) would otherwise be commanded a full spin to get there.

    :param q: (N,) configuration within the limits, rad or m.
    :param start: (N,) the configuration the solution should stay near (the seed).
    :param chain: the chain, for its limits and joint types.
    :returns: A new (N,) configuration with the same forward kinematics, within the limits.
    """
    result = np.array(q, dtype=float)
    _nearest_turn_kernel(result, np.asarray(start, dtype=float), chain.arrays)
    return result
