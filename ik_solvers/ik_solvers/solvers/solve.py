# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The one entry point: a one-shot over one :class:`PreparedSolver` of the request.

Everything numeric happens in one compiled call (see :mod:`._core`): the heuristic's
iterations from the seed and from restarts, the hand-over to the finisher, the deadline and the
final measurement of the returned configuration by forward kinematics. Restarts come from a
generator with a fixed seed, and the first configuration that meets the tolerances is returned
at once: the output then depends only on the inputs, never on the machine's speed, whenever a
solution is found before the deadline. The defaults were chosen by measurement; the figures are
in docs/DECISIONS.md.
"""

import time
from typing import Any, Dict, Optional

import numpy as np

from .prepared import PreparedSolver
from .request import Goal, SearchOptions
from .result import IKResult
from ._core.nearest_turn import nearest_turn as _nearest_turn_kernel

__all__ = ['nearest_turn', 'solve']

# Prepared solvers by the request's keywords (or its Goal and SearchOptions) and the chain:
# checking and packing a request costs several microseconds, a look-up a fraction of one. This
# is the solvers' one cache of checked requests.
_PREPARED: Dict[tuple, PreparedSolver] = {}
_PREPARED_CAPACITY = 256


def solve(chain, target: np.ndarray, *, seed: Optional[np.ndarray] = None,
          solver: str = 'jacobian_transpose', orientation_mode: str = 'full',
          tip_axis: Any = (0.0, 0.0, 1.0), position_only: bool = False,
          position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
          position_bounds: Any = None, rotation_bounds: Any = None,
          orientation_fallback: bool = False, timeout: float = 0.005,
          polish: Optional[bool] = None, polish_iterations: int = 20,
          max_attempts: Optional[int] = None, collision: Any = None,
          goal: Optional[Goal] = None, options: Optional[SearchOptions] = None,
          **solver_options: Any) -> IKResult:
    """
    Find joint positions that bring the chain's tip to ``target``.

    Each start runs the heuristic until it meets the tolerances, stalls, or (with the
    finisher on) slows down (one iteration leaves more than the solver's ``handoff_ratio`` of
    the cost it started from) or comes within the solver's hand-over errors; then, with
    ``polish`` on, a few damped least-squares steps finish (see
    :mod:`ik_solvers.solvers._core.finisher`). A seed already within 5 % of the chain's length hands
    over after two steps. The first start is ``seed``; later ones are drawn by a generator with
    a fixed seed. The heuristic runs first in every start; its trust region keeps a seed close
    to a solution near that solution. The best configuration wins, each revolute joint on the
    turn nearest the seed, and its errors are measured by forward kinematics.

    The request is a :class:`Goal` and :class:`SearchOptions` (``goal=``, ``options=``); the
    keyword arguments below build them, as a convenience, when those are not given.

    :param chain: a :class:`ik_solvers.Chain`.
    :param target: (4, 4) pose of the tip in the chain's base frame (m).
    :param seed: start configuration, (N,), rad or m; values outside the limits are clamped.
        None starts from the middle of the limits.
    :param solver: one of :data:`ik_solvers.SOLVERS`.
    :param orientation_mode: what of the target's orientation counts: ``'full'`` (all of
        it), ``'axis'`` (the tip axis ``tip_axis`` must point along the same axis of the target
        frame; the spin about it is free) or ``'none'`` (position only).
    :param tip_axis: the aimed axis in ``'axis'`` mode, 3 numbers in the tip frame (normalised;
        default the tip's z axis).
    :param position_only: an alias of ``orientation_mode='none'``.
    :param position_tolerance: largest accepted position error (its norm), m.
    :param orientation_tolerance: largest accepted orientation error, rad: the rotation angle
        in ``'full'`` mode, the angle between the tip axis and the target direction in
        ``'axis'`` mode.
    :param position_bounds: optional largest position error per axis of the base frame, 3
        values, m (``math.inf`` leaves an axis free); when given they replace
        ``position_tolerance``.
    :param rotation_bounds: optional largest orientation error per axis of the target frame (the
        rotation vector's components), 3 values, rad (``math.inf`` free); ``'full'`` mode only;
        when given they replace ``orientation_tolerance``.
    :param orientation_fallback: ``'full'`` mode only: when no configuration meets the pose,
        return the one that meets the position with the orientation as close as the arm gets
        (for arms with fewer than six joints). Such a result has ``status``
        ``CLOSEST_ORIENTATION`` and is never a success. The search then has 70 % of the
        timeout, the fallback the rest.
    :param timeout: hard deadline, s, from the call.
    :param polish: run the finisher after the heuristic in every start; None takes the
        solver's ``polish_by_default`` (on for all four). Off, the heuristic alone must reach
        the tolerances.
    :param polish_iterations: cap on finisher steps per start.
    :param max_attempts: cap on the number of starts (None: until the deadline).
    :param goal: the whole goal; then no goal keyword may be given.
    :param options: the whole search options; then no search keyword (``solver``, ``timeout``,
        ``polish``, ``polish_iterations``, ``max_attempts``, solver options) may be given.
    :param collision: an exact collision check (e.g. ``ik_solvers.collision.CollisionModel``
        of this chain); every success is checked, and a colliding one is rejected and the
        search reseeded from random configurations until the deadline. None checks nothing.
    :param solver_options: options of the chosen solver (see its ``option_schema()``), plus
        ``orientation_weight`` (m per rad) to override how orientation errors weigh against
        position errors.

    :returns: An :class:`IKResult`; ``q`` is within the limits even when ``success`` is false.
        ``status`` (a :class:`Status`) is ``NO_SOLUTION`` when the target is beyond the chain's
        reach, when the best error stopped improving over the later half of the starts, or when
        ``max_attempts`` ran out; ``TIMED_OUT`` when the deadline came while it improved;
        ``IN_COLLISION`` when every solution found collided (``collision_pair`` names the
        pair).

    :raises InvalidTargetError: ``target`` is not a finite 4x4 rigid transform, a tolerance is
        not a finite positive number, or the goal options (mode, axis, bounds, fallback) are
        invalid or contradict each other.
    :raises InvalidSeedError: ``seed`` has the wrong length or non-finite values.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: an option is unknown or out of range, ``timeout`` is not
        a finite positive number, or ``collision`` has no ``check`` method.
    """
    start_time = time.perf_counter()
    arrays = chain.arrays
    if goal is None and options is None:
        # Equal values of other types (True and 1, 20 and 20.0) are checked differently.
        key = (solver, orientation_mode, tip_axis, position_only, position_tolerance,
               orientation_tolerance, position_bounds, rotation_bounds, orientation_fallback,
               polish, polish_iterations, max_attempts, id(arrays), type(position_only),
               type(position_tolerance), type(orientation_tolerance), type(orientation_fallback),
               type(polish), type(polish_iterations), type(max_attempts),
               tuple((name, value, type(value)) for name, value in solver_options.items())
               if solver_options else ())
    else:
        # Only the keywords given beside a Goal or SearchOptions, which then must not overlap.
        keywords = {name: value for name, value in _keywords(locals()).items()
                    if name not in _DEFAULTS or not _same(value, _DEFAULTS[name])}
        if options is not None:
            if not _same(timeout, 0.005):
                keywords['timeout'] = timeout  # refused beside options
            timeout = options.timeout
        key = (goal, options, id(arrays), tuple(keywords.items()))
    try:
        prepared = _PREPARED.get(key)
    except TypeError:  # an option is not hashable (a list, an array): checked every time
        prepared, key = None, None
    if prepared is None or prepared.chain.arrays is not arrays:
        if goal is None and options is None:
            keywords = _keywords(locals())  # built on a miss only: it costs a microsecond
        prepared = PreparedSolver(chain, goal, options, **keywords)
        # A first use may compile the kernels: never let that eat the deadline.
        start_time = max(start_time, prepared.ready_time)
        if key is not None:
            if len(_PREPARED) >= _PREPARED_CAPACITY:
                _PREPARED.clear()
            _PREPARED[key] = prepared
    return prepared.solve(target, seed, timeout=timeout, collision=collision,
                          start_time=start_time)


_DEFAULTS = dict(solver='jacobian_transpose', orientation_mode='full', tip_axis=(0.0, 0.0, 1.0),
                 position_only=False, position_tolerance=1e-5, orientation_tolerance=1e-5,
                 position_bounds=None, rotation_bounds=None, orientation_fallback=False,
                 polish=None, polish_iterations=20, max_attempts=None)


def _keywords(arguments: Dict[str, Any]) -> Dict[str, Any]:
    """Gather the request keywords from solve()'s ``locals()``, solver options included."""
    keywords = {name: arguments[name] for name in _DEFAULTS}
    keywords.update(arguments['solver_options'])
    return keywords


def _same(value: Any, default: Any) -> bool:
    return type(value) is type(default) and value == default


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
