# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Approximate tracking: the best configuration near the last command, when no exact one is near.

A dragged goal is followed goal after goal from the last command. From a singular start (a UR
arm stretched out or pointing straight up) or toward a goal out of reach, no exact solution lies
within a few degrees of the arm, and commanding a far one would swing it. :func:`approach`
instead returns the configuration within a per-joint box around the start (and within the joint
limits) that brings the tip closest to the goal. Closest by the weighted pose error, the
norm of the residual the least-squares steps reduce (:func:`._core.goal_kernels.weighted_system`):
``sqrt(position_error^2 + (orientation_weight * orientation_error)^2)``, m, with the
orientation error of the goal's mode (0 for position only); components within per-axis bounds
do not count. Called once per goal, it moves the arm continuously toward the goal; once an
exact solution lies within the box, it finds that.

The compiled kernel takes Levenberg-Marquardt steps, each kept inside the box with the
polish's active set (a joint on the box's face whose step points outward is frozen, see
:mod:`._core.polish`), and keeps a step only if it lowers that error. A rejected step
quadruples the damping (a linearisation that fails, as near a singularity, gets shorter,
gradient-like steps) and an accepted one halves it. Where the steps stall with the goal still far,
the error may
still fall at second order (the gradient vanishes at a singular pose): the kernel then tries the
direction of most negative curvature (:mod:`._core.curvature`), both ways, scaled to the box.

The error of the returned configuration is never above the start's: the start is the first
configuration kept, and only lower errors replace it.
"""

import dataclasses
import time
from typing import Any, Optional

import numpy as np

from ..exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from ._core.approach_kernel import approach_search
from ._core.input_arrays import seed_array, target_array, target_problem
from ._core.input_checks import STATUS_INVALID_SEED, STATUS_INVALID_TARGET
from ._core.pack import new_report, pack_goal, unpack
from .request import Goal, is_positive_number, ORIENTATION_WEIGHT_PER_LENGTH
from .result import IKResult
from .status import Status

__all__ = ['APPROACH_SOLVER_NAME', 'STREAMED_EXACT_ATTEMPTS', 'STREAMED_EXACT_BUDGET',
           'approach']

#: The ``solver`` field of the results of :func:`approach`.
APPROACH_SOLVER_NAME = 'approach'
#: Budget of the exact search for one goal of a drag that approximate tracking follows: its
#: deadline, s, and its starts (the seed and the first two restarts near it, 0.05 and 0.1 rad
#: away; a solution farther from the seed than the few degrees a drag may move is of no use).
#: A goal with no exact solution near then costs about a millisecond, not the whole timeout.
#: Measured choice: docs/DECISIONS.md.
STREAMED_EXACT_BUDGET = 0.001
STREAMED_EXACT_ATTEMPTS = 3


def approach(chain, target: np.ndarray, *, start: np.ndarray, max_joint_step: Any,
             orientation_mode: str = 'full', tip_axis: Any = (0.0, 0.0, 1.0),
             position_only: bool = False, position_tolerance: float = 1e-5,
             orientation_tolerance: float = 1e-5, position_bounds: Any = None,
             rotation_bounds: Any = None, orientation_weight: Optional[float] = None,
             max_iterations: int = 30, timeout: float = 0.002,
             goal: Optional[Goal] = None) -> IKResult:
    """
    Return the configuration near ``start`` that brings the tip closest to ``target``.

    "Near" is a box: every joint within ``max_joint_step`` of its start value, and within its
    limits. "Closest" is the weighted pose error ``sqrt(position_error^2 + (orientation_weight
    * orientation_error)^2)``, with the orientation error of the mode (the angle of the
    rotation, of the tip axis, or 0); components within per-axis bounds do not count. The
    error of the result is never above the start's.

    :param chain: a :class:`ik_solvers.Chain`.
    :param target: (4, 4) pose of the tip in the chain's base frame, m.
    :param start: (N,) where the arm is (the last command), rad or m; values outside the
        limits are clamped.
    :param max_joint_step: largest motion of a joint from ``start``, rad or m: one positive
        number for every joint, or N of them.
    :param orientation_mode: ``'full'``, ``'axis'`` or ``'none'``, as in :func:`~.solve.solve`;
        so are ``tip_axis``, ``position_only``, the tolerances and the per-axis bounds.
    :param orientation_weight: m per rad; None takes 0.2 times the chain's length, as
        :func:`~.solve.solve` does.
    :param max_iterations: cap on least-squares steps.
    :param timeout: deadline, s, from the call.
    :param goal: the whole goal, in place of the goal keywords above (then left at their
        defaults); its ``orientation_fallback`` is not used (no fallback here).
    :returns: An :class:`IKResult`; its status is ``'success'`` (and ``success`` true) only
        when forward kinematics of ``q`` meets the tolerances, else ``'approximate'``.
        ``solver`` is ``'approach'``.
    :raises InvalidTargetError: ``target`` is not a rigid 4x4 transform, or the goal options
        are invalid (see :func:`~.solve.solve`), or a goal keyword is given beside ``goal``.
    :raises InvalidSeedError: ``start`` has the wrong length or non-finite values.
    :raises InvalidSolverOptionError: ``max_joint_step``, ``orientation_weight``,
        ``max_iterations`` or ``timeout`` is not positive and finite (or has the wrong length).
    """
    started = time.perf_counter()
    keywords = dict(orientation_mode=orientation_mode, tip_axis=tip_axis,
                    position_only=position_only, position_tolerance=position_tolerance,
                    orientation_tolerance=orientation_tolerance,
                    position_bounds=position_bounds, rotation_bounds=rotation_bounds)
    if goal is None:
        goal = Goal.of(**keywords)
    elif not isinstance(goal, Goal):
        raise InvalidTargetError('goal must be a Goal, got %s' % type(goal).__name__)
    elif any(not _same(value, _GOAL_DEFAULTS[name]) for name, value in keywords.items()):
        raise InvalidTargetError('goal= replaces the goal keywords; give them in Goal')
    elif goal.orientation_fallback:
        goal = dataclasses.replace(goal, orientation_fallback=False)
    if not is_positive_number(timeout):
        raise InvalidSolverOptionError('timeout must be a finite positive number of seconds, '
                                       'got %r' % (timeout,))
    if (isinstance(max_iterations, bool) or not isinstance(max_iterations, (int, np.integer))
            or max_iterations < 1):
        raise InvalidSolverOptionError('max_iterations must be a positive integer, got %r'
                                       % (max_iterations,))
    if orientation_weight is None:
        orientation_weight = ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale
    elif not is_positive_number(orientation_weight):
        raise InvalidSolverOptionError('orientation_weight must be a finite positive number, '
                                       'got %r' % (orientation_weight,))
    bounds = _step_bounds(max_joint_step, chain.num_joints)
    if start is None:
        raise InvalidSeedError('approach needs the start configuration')
    q = seed_array(start, chain)
    pose = target_array(target)
    settings = pack_goal(goal, float(orientation_weight), started + float(timeout))
    report = new_report()
    approach_search(chain.arrays, pose, settings, q, bounds, int(max_iterations), report)
    found = unpack(report)
    if found.status == STATUS_INVALID_TARGET:
        raise InvalidTargetError(target_problem(pose))
    if found.status == STATUS_INVALID_SEED:
        raise InvalidSeedError('start has non-finite values')
    return IKResult(q=q, success=found.met, position_error=float(found.position_error),
                    orientation_error=float(found.orientation_error),
                    iterations=found.iterations, elapsed=time.perf_counter() - started,
                    status=Status.SUCCESS if found.met else Status.APPROXIMATE,
                    solver=APPROACH_SOLVER_NAME, attempts=1, polished=False)


_GOAL_DEFAULTS = dict(orientation_mode='full', tip_axis=(0.0, 0.0, 1.0), position_only=False,
                      position_tolerance=1e-5, orientation_tolerance=1e-5,
                      position_bounds=None, rotation_bounds=None)


def _same(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _step_bounds(max_joint_step: Any, count: int) -> np.ndarray:
    """Return the per-joint box half-widths, (N,), or raise InvalidSolverOptionError."""
    try:
        bounds = np.array(max_joint_step, dtype=float)
    except (TypeError, ValueError):
        bounds = None
    if bounds is not None and bounds.ndim == 0:
        bounds = np.full(count, float(bounds))
    if (bounds is None or isinstance(max_joint_step, bool) or bounds.shape != (count,)
            or not np.all(np.isfinite(bounds)) or not np.all(bounds > 0.0)):
        raise InvalidSolverOptionError(
            'max_joint_step must be one positive finite number (rad or m) or %d of them, got %r'
            % (count, max_joint_step))
    return bounds
