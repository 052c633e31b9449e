# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The one entry point: validate, run a heuristic with restarts until a deadline, verify.

Restarts draw their starting configurations from a generator with a fixed seed, and the first
configuration that meets the tolerances is returned at once: the output then depends only on
the inputs, never on the machine's speed, whenever a solution is found before the deadline.

Order within an attempt: the chosen heuristic always runs first, from the seed as from every
restart, and the polish (when on) only finishes what it brought near. A warm seed stays near
its solution because every heuristic bounds each joint's motion per iteration in proportion
to the current error (its ``trust_region`` option), not because the heuristic is skipped.

Defaults, chosen by measurement (``ik_solvers_bench --robots ur5_like panda_like --targets
200 --budgets 0.005 --seeds random warm --modes pose position --polish --grid
max_iterations=1,2,4,8``, full pose and position only at 1e-5): every heuristic runs with the
polish on and hands over to it after one iteration per start, or earlier once within 1 mm and
0.01 rad. One iteration solved as many targets as two or more for all four heuristics, or
more: full pose from random seeds, 94.5-100 % (CCD), 96.5-99.5 % (FABRIK), 97.5-98 %
(Jacobian transpose), 88.5-94 % (length relaxation) with one iteration against 80.5-98 %,
80.5-81.5 %, 83.5-94.5 % and 52-80 % with eight, since each start costs more and the 5 ms
budget allows fewer restarts. The heuristics alone stall at a few millimetres on full poses
(0-40 % solved at 1e-5), which is why the polish is on by default.
FABRIK is the default solver: it had the best success rate on both arms before this order was
introduced, and it is kept for a stable default.
"""

import math
import time
from typing import Any, Optional

import numpy as np

from ..exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from .base import IKProblem
from .polish import polish as run_polish
from .registry import solver_class
from .result import IKResult, STATUS_NO_SOLUTION, STATUS_SUCCESS, STATUS_TIMED_OUT

__all__ = ['nearest_turn', 'solve']

_FULL_TURN = 2.0 * math.pi
# Restart configurations come from this seed, so the same inputs give the same output.
RESTART_SEED = 20260101
# Tolerance on the rigid-transform checks of a target: rotation orthonormality, last row.
_RIGID_TOLERANCE = 1e-6
# An orientation error of 1 rad weighs as much as this fraction of the chain's length.
_ORIENTATION_WEIGHT_PER_LENGTH = 0.2


def solve(chain, target: np.ndarray, *, seed: Optional[np.ndarray] = None,
          solver: str = 'fabrik', position_only: bool = False,
          position_tolerance: float = 1e-5, orientation_tolerance: float = 1e-5,
          timeout: float = 0.005, polish: Optional[bool] = None,
          polish_iterations: int = 20, max_attempts: Optional[int] = None,
          **solver_options: Any) -> IKResult:
    """
    Find joint positions that bring the chain's tip to ``target``.

    Each attempt runs the heuristic from a start until it meets the tolerances or stalls,
    (with the polish on: until it comes within the solver's hand-over errors, or after
    ``iterations_before_polish`` iterations), then, if ``polish`` is on, a few damped
    least-squares steps (see :mod:`ik_solvers.solvers.polish`). The first attempt starts from
    ``seed``; later ones from configurations drawn by a generator with a fixed seed. The
    heuristic runs first in every attempt; its trust region keeps a seed close to a solution
    near that solution. The best configuration wins and its errors are measured by the
    chain's own forward kinematics.

    :param chain: a :class:`ik_solvers.Chain`.
    :param target: (4, 4) pose of the tip in the chain's base frame (m).
    :param seed: start configuration, (N,), rad or m; values outside the limits are clamped.
        None starts from the middle of the limits.
    :param solver: one of :data:`ik_solvers.SOLVERS`.
    :param position_only: reach the target position and ignore its orientation.
    :param position_tolerance: largest accepted position error, m.
    :param orientation_tolerance: largest accepted orientation error, rad.
    :param timeout: hard deadline, s, from the call.
    :param polish: run the local polish after the heuristic; None takes the solver's default.
    :param polish_iterations: cap on polish steps per attempt.
    :param max_attempts: cap on the number of starts (None: until the deadline).
    :param solver_options: options of the chosen solver (see its class), plus
        ``orientation_weight`` (m per rad) to override how orientation errors weigh
        against position errors.

    :returns: An :class:`IKResult`; ``q`` is within the limits even when ``success`` is false.

    :raises InvalidTargetError: ``target`` is not a finite 4x4 rigid transform, or a tolerance is
        not a finite positive number.
    :raises InvalidSeedError: ``seed`` has the wrong length or non-finite values.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: an option is unknown or out of range, or ``timeout`` is not
        a finite positive number.
    """
    start_time = time.perf_counter()
    target = _checked_target(target)
    position_tolerance = _checked_tolerance('position_tolerance', position_tolerance)
    orientation_tolerance = _checked_tolerance('orientation_tolerance', orientation_tolerance)
    if not _is_positive_number(timeout):
        raise InvalidSolverOptionError('timeout must be a finite positive number of seconds, '
                                       'got %r' % (timeout,))
    if not isinstance(polish_iterations, (int, np.integer)) or polish_iterations < 1:
        raise InvalidSolverOptionError('polish_iterations must be a positive integer, got %r'
                                       % (polish_iterations,))
    if max_attempts is not None and (not isinstance(max_attempts, (int, np.integer))
                                     or max_attempts < 1):
        raise InvalidSolverOptionError('max_attempts must be None or a positive integer, '
                                       'got %r' % (max_attempts,))
    implementation = solver_class(solver)
    orientation_weight = solver_options.pop('orientation_weight', None)
    if polish is None:
        polish = implementation.polish_by_default
    if polish and 'max_iterations' in implementation.defaults:
        solver_options.setdefault('max_iterations', implementation.iterations_before_polish)
    heuristic = implementation(**solver_options)
    heuristic.check_chain(chain)
    q = _checked_seed(seed, chain)
    start = q
    if orientation_weight is None:
        orientation_weight = _ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale
    elif not _is_positive_number(orientation_weight):
        raise InvalidSolverOptionError('orientation_weight must be a finite positive number, '
                                       'got %r' % (orientation_weight,))
    deadline = start_time + float(timeout)

    problem = IKProblem(chain, target, position_only=bool(position_only),
                        position_tolerance=position_tolerance,
                        orientation_tolerance=orientation_tolerance,
                        orientation_weight=float(orientation_weight))
    heuristic_problem = problem
    if polish:
        # The heuristic only needs to bring the polish into its quadratic basin.
        heuristic_problem = problem.with_tolerances(
            max(position_tolerance, implementation.handoff_position_tolerance),
            max(orientation_tolerance, implementation.handoff_orientation_tolerance))

    rng = None
    best_q, best_cost = q, math.inf
    iterations = 0
    attempts = 0
    while True:
        attempts += 1
        # The chosen heuristic always moves first, from the seed as from every restart; the
        # polish only finishes what it brought near. A warm seed stays near because the
        # heuristics limit each joint's motion in proportion to the error (their trust
        # region), not because the heuristic is skipped.
        q, used = heuristic.improve(heuristic_problem, q, deadline=deadline)
        iterations += used
        if polish:
            q, used, _ = run_polish(problem, q, deadline=deadline,
                                    max_iterations=polish_iterations)
            iterations += used
        error, position_error, orientation_error = problem.residual(chain.poses(q)[-1])
        cost = problem.cost(position_error, orientation_error)
        if cost < best_cost:
            best_q, best_cost = q, cost
        if problem.is_solved(position_error, orientation_error):
            break
        if time.perf_counter() >= deadline:
            break
        if max_attempts is not None and attempts >= max_attempts:
            break
        if rng is None:  # made only when needed: it costs as much as a polish step
            rng = np.random.default_rng(RESTART_SEED)
        q = chain.clip(chain.random_configuration(rng))

    q = nearest_turn(np.clip(best_q, chain.lower, chain.upper), start, chain)
    # Measured afresh on the chain's forward kinematics of the very q returned.
    _, position_error, orientation_error = problem.residual(chain.fk(q))
    success = problem.is_solved(position_error, orientation_error)
    if success:
        status = STATUS_SUCCESS
    elif time.perf_counter() >= deadline:
        status = STATUS_TIMED_OUT
    else:
        status = STATUS_NO_SOLUTION
    return IKResult(q=q, success=success, position_error=position_error,
                    orientation_error=orientation_error, iterations=iterations,
                    elapsed=time.perf_counter() - start_time, status=status,
                    solver=implementation.name, attempts=attempts, polished=bool(polish))


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
    with np.errstate(invalid='ignore'):  # infinite limits give infinite bounds, never NaN
        fewest = np.ceil((chain.lower - q) / _FULL_TURN)
        most = np.floor((chain.upper - q) / _FULL_TURN)
    turns = np.clip(np.round((start - q) / _FULL_TURN), fewest, most)
    turns[chain.is_prismatic] = 0.0
    return q + turns * _FULL_TURN


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
