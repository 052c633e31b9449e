# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Move a solution of a redundant chain along its self-motion, up a preference's gradient.

Once a configuration meets the pose, the joints still have a null space of the task Jacobian
J (dimension N - rows). A step ``dq = (I - J+ J) grad`` changes the pose only to second order;
a few Gauss-Newton corrections ``J+ e`` take that drift back out, and the new configuration is
measured again by forward kinematics. It is kept only when it meets the tolerances, lies within
the limits, stays within ``max_change`` of where the step series started, and scores better;
otherwise the step halves. The answer therefore never leaves the tolerances and never scores
worse than the solution it started from.

**Early stop** (``stop_gain``). A step of largest joint change ``s`` along the projected
gradient ``d = (I - J+ J) g`` gains ``s |d|^2 / max|d|`` to first order (``g . d = |d|^2`` as the
projection is orthogonal). Once that expected gain, or the gain of the last kept step, falls
below ``stop_gain`` times ``|score|``, no further step can move the solution by more than a
small share of its score, so it cannot change how it ranks against solutions that differ by
more: the climb ends there instead of halving its step down to :data:`_SMALLEST_STEP` or
running to the deadline.
"""

import time
from typing import Optional

import numpy as np

from .pose_error import rotation_vector_into

__all__ = ['NullSpaceOutcome', 'null_space_improve']

# First step, largest joint change, rad or m; it grows by half after an accepted step and
# halves after a refused one, until it is below _SMALLEST_STEP.
_FIRST_STEP = 0.05
_LARGEST_STEP = 0.2
_SMALLEST_STEP = 1e-4
# Gauss-Newton corrections of the pose after each null-space step.
_CORRECTIONS = 4
# A correction stops once both errors are below this share of their tolerance.
_CORRECTION_SHARE = 0.01
# Smallest improvement of the score worth another step, relative to |score| + 1e-9.
_RELATIVE_GAIN = 1e-9
# Smallest |score| the early stop's relative gain is taken of (a score at 0 would stop none).
_SCORE_FLOOR = 1e-6


class NullSpaceOutcome:
    """
    Where the null-space steps ended.

    :ivar q: (N,) the configuration, rad or m; the start when no step was kept.
    :ivar score: the preference's score of ``q``.
    :ivar steps: steps kept.
    :ivar position_error: m, by forward kinematics of ``q``.
    :ivar orientation_error: rad, by forward kinematics of ``q`` (0 when orientation is free).
    """

    __slots__ = ('q', 'score', 'steps', 'position_error', 'orientation_error')

    def __init__(self, q, score, steps, position_error, orientation_error) -> None:
        self.q = q
        self.score = score
        self.steps = steps
        self.position_error = position_error
        self.orientation_error = orientation_error


def _least_norm(jacobian: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Return ``J+ value`` for a full-rank wide ``J``: ``J^T (J J^T)^-1 value``, else by lstsq."""
    try:
        return jacobian.T @ np.linalg.solve(jacobian @ jacobian.T, value)
    except np.linalg.LinAlgError:  # rank-deficient: the least-squares least-norm answer
        return np.linalg.lstsq(jacobian, value, rcond=None)[0]


def _measured(chain, q: np.ndarray, target: np.ndarray, rows: int):
    """
    Return the error (rows,), its position (m) and orientation (rad) norms, and the Jacobian.

    The Jacobian (rows, N) comes from the same frames as the error: the climb steps from the
    configuration it has just measured, so that each configuration's frames are made once.
    """
    reached, jacobian = chain.fk_and_jacobian(q)
    position = target[:3, 3] - reached[:3, 3]
    if rows == 3:
        return position, float(np.linalg.norm(position)), 0.0, jacobian[:3]
    rotation = np.ascontiguousarray(target[:3, :3] @ reached[:3, :3].T)
    vector = np.empty(3)
    angle = float(rotation_vector_into(rotation, vector))  # the angle orientation_error gives
    return (np.concatenate((position, vector)), float(np.linalg.norm(position)), angle,
            jacobian)


def null_space_improve(chain, q: np.ndarray, target: np.ndarray, preference, *,
                       position_tolerance: float, orientation_tolerance: float,
                       position_only: bool = False, max_steps: int = 30,
                       max_change: Optional[float] = None,
                       anchor: Optional[np.ndarray] = None,
                       deadline: Optional[float] = None,
                       stop_gain: float = 0.0) -> NullSpaceOutcome:
    """
    Climb ``preference`` along the self-motion of ``q`` without leaving the tolerances.

    :param chain: the :class:`ik_solvers.Chain`.
    :param q: (N,) a configuration that meets ``target`` within the tolerances, rad or m.
    :param target: (4, 4) tip pose in the base frame, m.
    :param preference: a :class:`ik_solvers.preferences.Preference`.
    :param position_tolerance: m; :param orientation_tolerance: rad (ignored with
        ``position_only``).
    :param max_steps: cap on null-space steps tried.
    :param max_change: largest change of any joint from ``anchor``, rad or m (None: no bound).
    :param anchor: (N,) the configuration ``max_change`` is counted from (default ``q``; a
        streamed path passes the last command, so the whole step stays bounded).
    :param deadline: ``time.perf_counter()`` value after which no step starts.
    :param stop_gain: relative gain (a share of ``|score|``) below which the climb ends, see
        the module's description (0: climb until the step is below its smallest).
    :returns: A :class:`NullSpaceOutcome`; its ``q`` is ``q`` itself when no step helped.
    """
    start = np.array(q, dtype=float)
    centre = start if anchor is None else np.asarray(anchor, dtype=float)
    target = np.asarray(target, dtype=float)
    rows = 3 if position_only else 6
    lower, upper = chain.lower, chain.upper
    current = start
    _, position_error, rotation_error, jacobian = _measured(chain, current, target, rows)
    score = preference.score(current)
    kept = 0
    step = _FIRST_STEP if max_change is None else min(_FIRST_STEP, max_change)
    for _ in range(max_steps):
        if step < _SMALLEST_STEP or (deadline is not None and time.perf_counter() > deadline):
            break
        direction = preference.gradient(current)
        direction = direction - _least_norm(jacobian, jacobian @ direction)
        largest = float(np.max(np.abs(direction)))
        if not np.isfinite(largest) or largest < 1e-12:
            break
        floor = stop_gain * max(abs(score), _SCORE_FLOOR)
        if stop_gain > 0.0 and step * float(direction @ direction) / largest < floor:
            break  # even the first-order gain of this step is too small to matter
        candidate = current + direction * (step / largest)
        if max_change is not None:
            candidate = np.clip(candidate, centre - max_change, centre + max_change)
        candidate = np.clip(candidate, lower, upper)
        # The verdict is forward kinematics of the very configuration kept: the last
        # measurement of the corrections when it is of that configuration.
        error, position_error_c, rotation_error_c, jacobian_c = _measured(
            chain, candidate, target, rows)
        for _ in range(_CORRECTIONS):
            if (position_error_c <= _CORRECTION_SHARE * position_tolerance
                    and rotation_error_c <= _CORRECTION_SHARE * orientation_tolerance):
                break
            candidate = candidate + _least_norm(jacobian_c, error)
            if max_change is not None:
                candidate = np.clip(candidate, centre - max_change, centre + max_change)
            candidate = np.clip(candidate, lower, upper)
            error, position_error_c, rotation_error_c, jacobian_c = _measured(
                chain, candidate, target, rows)
        candidate_score = preference.score(candidate)
        if (position_error_c <= position_tolerance
                and (position_only or rotation_error_c <= orientation_tolerance)
                and candidate_score > score + _RELATIVE_GAIN * (abs(score) + 1e-9)):
            gain = candidate_score - score
            current, score, kept = candidate, candidate_score, kept + 1
            position_error, rotation_error, jacobian = (position_error_c, rotation_error_c,
                                                        jacobian_c)
            if gain < floor:
                break  # the step was kept, but the climb has flattened out
            step = min(step * 1.5, _LARGEST_STEP if max_change is None
                       else min(_LARGEST_STEP, max_change))
        else:
            step *= 0.5
    return NullSpaceOutcome(current, score, kept, position_error,
                            0.0 if position_only else rotation_error)
