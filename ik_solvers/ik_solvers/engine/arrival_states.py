# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Every state the arm can be in when a command reaches the controller, as a box per joint.

joint_trajectory_controller starts a command from its state (position and velocity) at the
moment the command arrives, which the node never sees: its latest joint state is some
milliseconds old, and the command takes some milliseconds to arrive. The node therefore times a
command for a *range* of start states:

- the latest joint state (position, and velocity where the message gives one), run forward
  over its age plus the delivery allowance ``latency``: over a horizon ``h`` a motion whose
  acceleration stays within ``a`` (every command the node sends keeps ``acceleration_limit``)
  changes its velocity by at most ``a h`` and its position by ``v h`` give or take ``a h^2 / 2``;
- the node's model of the command running (the controller's spline of the last one sent), at
  the times the new command may arrive, given that the last one may itself have arrived up to
  ``latency`` after it was sent;
- that command's mean velocity, at which a controller that interpolates linearly (the
  simulated executor) plays it.

Per joint the smallest and largest position and velocity of these states bound a box. The
controller's cubic from ``(p0, v0)`` to a point at rest is, at every instant, affine in
``(p0, v0)``: its position, velocity and acceleration at any time are largest over the box at
one of the box's corners. A duration whose cubic keeps the limits from the four corners
``(low or high position, low or high velocity)`` keeps them from every state in the box
(the joints are independent: four full-width states hold every joint's four corners).
"""

from typing import List, Optional, Sequence, Tuple

import numpy as np

__all__ = ['box_corners', 'extrapolated_bounds']

State = Tuple[np.ndarray, np.ndarray]


def extrapolated_bounds(position: np.ndarray, velocity: np.ndarray, age: float,
                        latency: float, acceleration: np.ndarray,
                        max_velocity: Optional[np.ndarray] = None) -> List[State]:
    """
    Bound the states a joint state can reach ``age`` to ``age + latency`` seconds on.

    :param position: (N,) the joint state's positions, rad or m.
    :param velocity: (N,) its velocities, rad/s.
    :param age: s since the joint state was taken (>= 0).
    :param latency: s the command may still take to arrive (>= 0).
    :param acceleration: (N,) the largest acceleration of the running motion, rad/s^2
        (infinite: no bound, which the caller must not pass).
    :param max_velocity: (N,) the velocity limits the motion keeps, or None.
    :returns: Two states, the lowest and highest corner: ``(low positions, low velocities)``
        and ``(high positions, high velocities)``.
    :raises ValueError: A time is negative or not finite.
    """
    if not (np.isfinite(age) and np.isfinite(latency) and age >= 0.0 and latency >= 0.0):
        raise ValueError('age and latency must be finite and >= 0, not %r and %r'
                         % (age, latency))
    position = np.asarray(position, dtype=float)
    velocity = np.asarray(velocity, dtype=float)
    acceleration = np.asarray(acceleration, dtype=float)
    early, late = float(age), float(age) + float(latency)
    # p + v h - a h^2 / 2 is concave in h and p + v h + a h^2 / 2 convex: over [early, late]
    # the first is lowest and the second highest at an end.
    low = np.minimum(position + velocity * early - 0.5 * acceleration * early ** 2,
                     position + velocity * late - 0.5 * acceleration * late ** 2)
    high = np.maximum(position + velocity * early + 0.5 * acceleration * early ** 2,
                      position + velocity * late + 0.5 * acceleration * late ** 2)
    slow, fast = velocity - acceleration * late, velocity + acceleration * late
    if max_velocity is not None:
        bound = np.asarray(max_velocity, dtype=float)
        slow, fast = np.maximum(slow, -bound), np.minimum(fast, bound)
        slow, fast = np.minimum(slow, fast), np.maximum(slow, fast)
    return [(low, slow), (high, fast)]


def box_corners(states: Sequence[State]) -> List[State]:
    """
    Return the four corners of the per-joint box around ``states``.

    :param states: ``(positions, velocities)`` pairs, (N,) each, finite.
    :returns: ``[(low p, low v), (low p, high v), (high p, low v), (high p, high v)]``.
    :raises ValueError: No state given.
    """
    if not states:
        raise ValueError('no state to bound')
    positions = np.array([np.asarray(p, dtype=float) for p, _ in states])
    velocities = np.array([np.asarray(v, dtype=float) for _, v in states])
    p_low, p_high = positions.min(axis=0), positions.max(axis=0)
    v_low, v_high = velocities.min(axis=0), velocities.max(axis=0)
    return [(p_low, v_low), (p_low, v_high), (p_high, v_low), (p_high, v_high)]
