# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The one entry point: validate, run the compiled search of the named heuristic, report.

Everything numeric happens in one compiled call (see :mod:`.search`): the heuristic's
iterations from the seed and from restarts, the hand-over to the finisher, the deadline and the
final measurement of the returned configuration by forward kinematics. Restarts come from a
generator with a fixed seed, and the first configuration that meets the tolerances is returned
at once: the output then depends only on the inputs, never on the machine's speed, whenever a
solution is found before the deadline. The defaults were chosen by measurement; the figures are
in docs/DECISIONS.md.
"""

import math
import time
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ..exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from .base import Solver
from .registry import solver_class
from .result import IKResult, STATUS_NO_SOLUTION, STATUS_SUCCESS, STATUS_TIMED_OUT
from .search import (
    nearest_turn as _nearest_turn_kernel,
    REPORT_ATTEMPTS,
    REPORT_FINISHER_ITERATIONS,
    REPORT_HEURISTIC_ITERATIONS,
    REPORT_ORIENTATION_ERROR,
    REPORT_POSITION_ERROR,
    REPORT_SIZE,
    REPORT_STATUS,
    SETTINGS_SIZE,
)
from .warm_up import is_warm, warm_up

__all__ = ['nearest_turn', 'solve']

# Tolerance on the rigid-transform checks of a target: rotation orthonormality, last row.
_RIGID_TOLERANCE = 1e-6
# An orientation error of 1 rad weighs as much as this fraction of the chain's length.
_ORIENTATION_WEIGHT_PER_LENGTH = 0.2
_STATUS_NAMES = (STATUS_SUCCESS, STATUS_NO_SOLUTION, STATUS_TIMED_OUT)
# Solvers built without options, kept: building one checks every option each time.
_DEFAULT_SOLVERS: Dict[type, Solver] = {}


def solve(chain, target: np.ndarray, *, seed: Optional[np.ndarray] = None,
          solver: str = 'fabrik', position_only: bool = False,
          position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
          timeout: float = 0.005, polish: Optional[bool] = None,
          polish_iterations: int = 20, max_attempts: Optional[int] = None,
          **solver_options: Any) -> IKResult:
    """
    Find joint positions that bring the chain's tip to ``target``.

    Each start runs the heuristic until it meets the tolerances, stalls, or (with the
    finisher on) comes within the solver's hand-over errors; then, with ``polish`` on, a few
    damped least-squares steps finish (see :mod:`ik_solvers.solvers.finisher`). The first
    start is ``seed``; later ones are drawn by a generator with a fixed seed. The heuristic
    runs first in every start; its trust region keeps a seed close to a solution near that
    solution. The best configuration wins, each revolute joint on the turn nearest the seed,
    and its errors are measured by forward kinematics.

    :param chain: a :class:`ik_solvers.Chain`.
    :param target: (4, 4) pose of the tip in the chain's base frame (m).
    :param seed: start configuration, (N,), rad or m; values outside the limits are clamped.
        None starts from the middle of the limits.
    :param solver: one of :data:`ik_solvers.SOLVERS`.
    :param position_only: reach the target position and ignore its orientation.
    :param position_tolerance: largest accepted position error, m.
    :param orientation_tolerance: largest accepted orientation error, rad.
    :param timeout: hard deadline, s, from the call.
    :param polish: run the finisher after the heuristic in every start; None takes the
        solver's ``polish_by_default`` (on for all four). Off, the heuristic alone must reach
        the tolerances.
    :param polish_iterations: cap on finisher steps per start.
    :param max_attempts: cap on the number of starts (None: until the deadline).
    :param solver_options: options of the chosen solver (see its ``option_schema()``), plus
        ``orientation_weight`` (m per rad) to override how orientation errors weigh against
        position errors.

    :returns: An :class:`IKResult`; ``q`` is within the limits even when ``success`` is false.
        ``status`` is ``'no_solution'`` when the target is beyond the chain's reach, when the
        best error stopped improving over the later half of the starts, or when
        ``max_attempts`` ran out; ``'timed_out'`` when the deadline came while it improved.

    :raises InvalidTargetError: ``target`` is not a finite 4x4 rigid transform, or a tolerance is
        not a finite positive number.
    :raises InvalidSeedError: ``seed`` has the wrong length or non-finite values.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: an option is unknown or out of range, or ``timeout`` is not
        a finite positive number.
    """
    if not is_warm(solver):  # never let a compilation eat the deadline
        warm_up((solver,))
    start_time = time.perf_counter()
    target = _checked_target(target)
    position_tolerance = _checked_tolerance('position_tolerance', position_tolerance)
    orientation_tolerance = _checked_tolerance('orientation_tolerance', orientation_tolerance)
    if not _is_positive_number(timeout):
        raise InvalidSolverOptionError('timeout must be a finite positive number of seconds, '
                                       'got %r' % (timeout,))
    if (isinstance(polish_iterations, bool) or not isinstance(polish_iterations, (int, np.integer))
            or polish_iterations < 1):
        raise InvalidSolverOptionError('polish_iterations must be a positive integer, got %r'
                                       % (polish_iterations,))
    if max_attempts is not None and (isinstance(max_attempts, bool) or not isinstance(
            max_attempts, (int, np.integer)) or max_attempts < 1):
        raise InvalidSolverOptionError('max_attempts must be None or a positive integer, '
                                       'got %r' % (max_attempts,))
    implementation = solver_class(solver)
    orientation_weight = solver_options.pop('orientation_weight', None)
    heuristic, options = _solver_and_options(implementation, chain, solver_options)
    q = _checked_seed(seed, chain)
    if orientation_weight is None:
        orientation_weight = _ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale
    elif not _is_positive_number(orientation_weight):
        raise InvalidSolverOptionError('orientation_weight must be a finite positive number, '
                                       'got %r' % (orientation_weight,))
    finisher = implementation.polish_by_default if polish is None else bool(polish)

    settings = np.empty(SETTINGS_SIZE)
    settings[:] = (
        position_tolerance, orientation_tolerance, float(orientation_weight),
        1.0 if position_only else 0.0, start_time + float(timeout),
        max(position_tolerance, heuristic.handoff_position_tolerance),
        max(orientation_tolerance, heuristic.handoff_orientation_tolerance),
        heuristic.heuristic_iterations(finisher), heuristic.stall_limit(),
        heuristic.trust_gain(), polish_iterations if finisher else 0,
        math.inf if max_attempts is None else max_attempts)
    report = np.empty(REPORT_SIZE)
    implementation.search(chain.arrays, target, settings, options, q, report)

    position_error = float(report[REPORT_POSITION_ERROR])
    orientation_error = 0.0 if position_only else float(report[REPORT_ORIENTATION_ERROR])
    success = position_error <= position_tolerance and (
        position_only or orientation_error <= orientation_tolerance)
    status = _STATUS_NAMES[int(report[REPORT_STATUS])]
    if not success and status == STATUS_SUCCESS:  # lost to rounding on the nearest turn
        status = STATUS_NO_SOLUTION
    return IKResult(q=q, success=success, position_error=position_error,
                    orientation_error=orientation_error,
                    iterations=int(report[REPORT_HEURISTIC_ITERATIONS]
                                   + report[REPORT_FINISHER_ITERATIONS]),
                    elapsed=time.perf_counter() - start_time, status=status,
                    solver=implementation.name, attempts=int(report[REPORT_ATTEMPTS]),
                    polished=finisher)


def _solver_and_options(implementation: type, chain,
                        solver_options: Dict[str, Any]) -> Tuple[Solver, np.ndarray]:
    if solver_options:
        heuristic = implementation(**solver_options)
    else:
        heuristic = _DEFAULT_SOLVERS.get(implementation)
        if heuristic is None:
            heuristic = _DEFAULT_SOLVERS[implementation] = implementation()
    return heuristic, heuristic.pack_options(chain)


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


def _is_positive_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    return math.isfinite(number) and number > 0.0


def _checked_tolerance(name: str, value: Any) -> float:
    if not _is_positive_number(value):
        raise InvalidTargetError('%s must be a finite positive number, got %r' % (name, value))
    return float(value)


def _checked_target(target: Any) -> np.ndarray:
    try:
        pose = np.array(target, dtype=float)
    except (TypeError, ValueError):
        raise InvalidTargetError('target must be a 4x4 array of numbers') from None
    if pose.shape != (4, 4):
        raise InvalidTargetError('target must be a 4x4 homogeneous transform, got shape %s'
                                 % (pose.shape,))
    if not np.isfinite(pose).all():
        raise InvalidTargetError('target has non-finite values')
    # Scalar maths: on a 4x4 matrix numpy's per-call overhead would dominate the checks.
    (ax, bx, cx, _), (ay, by, cy, _), (az, bz, cz, _), last = pose.tolist()
    if (abs(last[0]) > _RIGID_TOLERANCE or abs(last[1]) > _RIGID_TOLERANCE
            or abs(last[2]) > _RIGID_TOLERANCE or abs(last[3] - 1.0) > _RIGID_TOLERANCE):
        raise InvalidTargetError('the last row of target must be [0, 0, 0, 1], got %s'
                                 % (pose[3],))
    # Columns a, b, c of the rotation: unit length, orthogonal, right-handed.
    deviation = max(abs(ax * ax + ay * ay + az * az - 1.0),
                    abs(bx * bx + by * by + bz * bz - 1.0),
                    abs(cx * cx + cy * cy + cz * cz - 1.0), abs(ax * bx + ay * by + az * bz),
                    abs(ax * cx + ay * cy + az * cz), abs(bx * cx + by * cy + bz * cz))
    handedness = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
    if deviation > _RIGID_TOLERANCE or handedness < 0.0:
        raise InvalidTargetError('the upper-left 3x3 block of target is not a rotation')
    return pose


def _checked_seed(seed: Any, chain) -> np.ndarray:
    if seed is None:
        return chain.clip(np.asarray(chain.mid_configuration(), dtype=float))
    try:
        q = np.array(seed, dtype=float)
    except (TypeError, ValueError):
        raise InvalidSeedError('seed must be an array of %d numbers' % chain.num_joints) \
            from None
    if q.shape != (chain.num_joints,):
        raise InvalidSeedError('seed must have shape (%d,) for this chain, got %s'
                               % (chain.num_joints, q.shape))
    if not np.all(np.isfinite(q)):
        raise InvalidSeedError('seed has non-finite values')
    return chain.clip(q)
