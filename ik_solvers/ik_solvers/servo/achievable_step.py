# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The achievable part of a twist near a singularity, and braking before the command runs out.

Two pieces of one servo cycle (:class:`ik_solvers.servo.servo_loop.ServoLoop`), in weighted
task space: linear rows in m, angular rows times the orientation weight (m per rad), so that
one norm compares both.

- :func:`bounded_velocity`: where no exact step fits the cycle's
  :class:`~.servo_limits.VelocityBox`, the velocity within it whose cycle brings the tip closest
  to the integrated pose. One cycle moves the joints by a small fraction of a radian, so the
  tip's motion is linear in it to well below the cycle's own motion: a bounded linear
  least-squares problem (solved with scipy's NNLS). A least-squares step of the heuristic's
  search from the middle of the box would be clipped joint by joint into a box a few
  hundredths of a degree wide, which bends it until it is rejected, and the arm would coast
  at its last velocity.
- :func:`fold_limited`: stretched to the edge of the workspace (an elbow straightening), the tip
  gains less and less along the command per radian, and past the fold it goes back. With
  bounded acceleration the arm must start braking before it gets there, as it does before a
  position limit: the gain is measured at the point and where the arm would come to rest if it
  braked from the next cycle (at half the acceleration limit, a margin for the estimate);
  where it falls to zero in between (a secant through the two), the speed is held to what can
  still stop before that, all joints slowed by one factor.
"""

from typing import Tuple

import numpy as np
from scipy.optimize import nnls

from .servo_limits import stopping_speed, VelocityBox

__all__ = ['bounded_velocity', 'fold_limited']

# Share of the Jacobian's largest singular value that weighs the joint velocities in
# :func:`bounded_velocity`: enough to pick the slowest of equally good motions (no drift along
# a singular direction), far too little to bend a motion that moves the tip.
_REGULARISATION = 1e-3
# Braking before a fold is planned at this share of the acceleration limit: the fold is
# estimated from two Jacobians, and the margin absorbs what the estimate misses.
_PLANNED_BRAKING = 0.5
# Weight of the bounds' equations in :func:`_box_least_squares`, times the rows' norm.
_BOUND_WEIGHT = 1e3
# A joint whose interval is narrower than this (rad/s or m/s) is held at it.
_FIXED_WIDTH = 1e-12


def bounded_velocity(jacobian: np.ndarray, error: np.ndarray, v: np.ndarray,
                     box: VelocityBox, period: float, *,
                     direction_priority: float = 1.0) -> np.ndarray:
    """
    Return the velocity in ``box`` whose cycle best moves the tip by ``error``, to first order.

    The cycle moves the joints by ``(v + v') period / 2``; this minimises
    ``|M (J (v + v') period / 2 - error)|^2`` plus a small multiple of ``|v'|^2`` over
    ``v'`` in the box, where ``M`` multiplies the part of the residual across ``error`` by
    ``direction_priority`` (1: the closest motion; above 1: a motion along ``error``, shorter
    if it must be, before one that is longer but off its direction).

    :param jacobian: (6, N) the weighted Jacobian at the last point, m per rad (or per m).
    :param error: (6,) the weighted pose error from the last point's tip to the integrated
        pose, m.
    :param v: (N,) the last point's velocities, rad/s or m/s.
    :param box: this cycle's :class:`~.servo_limits.VelocityBox`.
    :param period: one cycle, s.
    :param direction_priority: the weight of the residual across ``error``, >= 1.
    :returns: (N,) the velocity at the next point, within the box.
    """
    half = 0.5 * period
    free = box.high - box.low > _FIXED_WIDTH
    velocity = box.low.copy()  # a fixed joint's interval is one value
    count = int(np.count_nonzero(free))
    if count == 0:
        return box.clip(velocity)
    size = float(np.linalg.norm(error))
    emphasis = np.eye(error.shape[0])
    if size > 0.0 and direction_priority != 1.0:
        along = error / size
        emphasis = np.outer(along, along) + direction_priority * (emphasis
                                                                  - np.outer(along, along))
    model = emphasis @ (half * jacobian)
    largest = float(np.linalg.norm(jacobian, 2))
    moved = model @ v + model[:, ~free] @ velocity[~free]
    error = emphasis @ error
    rows = np.vstack([model[:, free], _REGULARISATION * largest * half * np.eye(count)])
    right = np.concatenate([error - moved, np.zeros(count)])
    velocity[free] = _box_least_squares(rows, right, box.low[free], box.high[free])
    return box.clip(velocity)


def _box_least_squares(rows: np.ndarray, right: np.ndarray, low: np.ndarray,
                       high: np.ndarray) -> np.ndarray:
    """
    Return ``x`` in ``[low, high]`` that minimises ``|rows x - right|``, with scipy's NNLS.

    ``x = low + y`` with ``0 <= y`` and a slack ``0 <= z`` for ``y + z = high - low``, that
    equation weighed so heavily (``_BOUND_WEIGHT`` times the rows' norm) that it holds to far
    below a joint's resolution: scipy's compiled NNLS answers in tens of microseconds where its
    bounded least-squares (BVLS, in Python) takes a large share of a 2 ms cycle.
    """
    count = low.shape[0]
    width = high - low
    weight = _BOUND_WEIGHT * max(float(np.linalg.norm(rows, 2)), 1e-12)
    identity = weight * np.eye(count)
    system = np.block([[rows, np.zeros((rows.shape[0], count))], [identity, identity]])
    target = np.concatenate([right - rows @ low, weight * width])
    solution, _ = nnls(system, target)
    return np.minimum(np.maximum(low + solution[:count], low), high)


def _gain(chain, q: np.ndarray, direction: np.ndarray, weights: np.ndarray,
          heading: np.ndarray) -> float:
    """Return the tip's weighted motion along ``heading`` per unit along ``direction``."""
    return float(heading @ (weights * (chain.jacobian(q) @ direction)))


def fold_limited(chain, q: np.ndarray, v: np.ndarray, velocity: np.ndarray, *,
                 heading: np.ndarray, weights: np.ndarray, box: VelocityBox,
                 acceleration: float, period: float) -> Tuple[np.ndarray, bool]:
    """
    Hold ``velocity`` to a speed that can stop before the tip's gain along the command vanishes.

    :param chain: the :class:`ik_solvers.Chain` (its Jacobian is evaluated twice).
    :param q: (N,) the last point, rad or m.
    :param v: (N,) its velocities.
    :param velocity: (N,) the velocity chosen for the next point, within ``box``.
    :param heading: (6,) the commanded twist, weighted, of unit length.
    :param weights: (6,) the weights of the Jacobian's rows (1 for linear, m per rad for
        angular).
    :param box: this cycle's :class:`~.servo_limits.VelocityBox`.
    :param acceleration: largest joint acceleration, rad/s^2 or m/s^2.
    :param period: one cycle, s.
    :returns: The velocity (``velocity`` itself, or slower along the same joint direction and
        within the box) and whether it was held back.
    """
    speed = float(np.max(np.abs(velocity)))
    if speed <= 0.0:
        return velocity, False
    direction = velocity / speed  # the fastest joint moves at ``speed``
    here = _gain(chain, q, direction, weights, heading)
    if here <= 0.0:
        return velocity, False  # not moving the tip along the command: nothing to run out
    now = max(0.0, float(v @ direction) / float(direction @ direction))
    braking = _PLANNED_BRAKING * acceleration
    # Where the arm would rest if it took ``speed`` now and braked from the next cycle.
    reach = 0.5 * (now + speed) * period + speed * speed / (2.0 * braking)
    ahead = _gain(chain, chain.clip(q + reach * direction), direction, weights, heading)
    if ahead > 0.0:
        return velocity, False
    fold = reach * here / (here - ahead)
    allowed = float(stopping_speed(np.array(fold), np.array(now), braking, period))
    if speed <= allowed:
        return velocity, False
    slower = direction * allowed
    scale = box.scale_toward(v, slower) if box.contains(v) else 0.0
    return box.clip(v + scale * (slower - v)), True
