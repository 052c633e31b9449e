# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Closed-form one-joint optimum shared by CCD and by the angle recovery of the point methods.

Rotating vectors ``v_k`` (taken from a point on a joint axis ``u``) by an angle ``t`` about
``u`` and scoring them against desired vectors ``d_k`` with weights ``w_k`` gives

    f(t) = sum_k w_k d_k . R(t) v_k = c0 + a cos(t) + b sin(t)

(Welman 1993), where, with ``M = sum_k w_k v_k d_k^T``, ``a = trace(M) - u^T M u`` and ``b``
is ``u`` dotted with the vector of the antisymmetric part of ``M``. Its maximum is at
``atan2(b, a)``. Orientation terms fit the same form: the columns of the reached and the target
rotation are vectors from any point of the axis. All functions are compiled kernels, inlined
into their callers: they run for every joint of every sweep, where calls cost a measurable
share of the time.
"""

import math

import numpy as np

from ..kinematics.jit import compiled

__all__ = ['add_outer_product', 'best_joint_value', 'best_turn', 'sinusoid_coefficients',
           'turn_rows']

_TWO_PI = 2.0 * math.pi
# Relative to the squared chain length, amplitudes below this are rounding noise (doubles keep
# about 16 digits; products of two lengths lose a few).
NEGLIGIBLE_RELATIVE_AMPLITUDE = 1e-12


@compiled(inline=True)
def add_outer_product(moment: np.ndarray, vx: float, vy: float, vz: float, dx: float,
                      dy: float, dz: float) -> None:
    """Add the outer product ``v d^T`` of two 3-vectors to the (3, 3) ``moment``, in place."""
    moment[0, 0] += vx * dx
    moment[0, 1] += vx * dy
    moment[0, 2] += vx * dz
    moment[1, 0] += vy * dx
    moment[1, 1] += vy * dy
    moment[1, 2] += vy * dz
    moment[2, 0] += vz * dx
    moment[2, 1] += vz * dy
    moment[2, 2] += vz * dz


@compiled(inline=True)
def sinusoid_coefficients(ux: float, uy: float, uz: float, moment: np.ndarray):
    """
    Return ``(a, b)`` of ``f(t) = c0 + a cos(t) + b sin(t)`` for a unit joint axis and a moment.

    :param ux: first component of the unit joint axis (``uy``, ``uz`` the others).
    :param moment: (3, 3) weighted sum of outer products ``v d^T``.
    """
    m = moment
    along = (ux * (m[0, 0] * ux + m[0, 1] * uy + m[0, 2] * uz)
             + uy * (m[1, 0] * ux + m[1, 1] * uy + m[1, 2] * uz)
             + uz * (m[2, 0] * ux + m[2, 1] * uy + m[2, 2] * uz))
    a = m[0, 0] + m[1, 1] + m[2, 2] - along
    b = ux * (m[1, 2] - m[2, 1]) + uy * (m[2, 0] - m[0, 2]) + uz * (m[0, 1] - m[1, 0])
    return a, b


@compiled(inline=True)
def best_joint_value(value: float, a: float, b: float, lower: float, upper: float,
                     gain: float, negligible: float) -> float:
    """
    Return the value of a revolute joint that maximises ``a cos(t) + b sin(t)`` within limits.

    :param value: current joint angle, rad.
    :param a: coefficient from :func:`sinusoid_coefficients` (``b`` likewise).
    :param lower: lowest allowed angle, rad (may be infinite; ``upper`` likewise).
    :param gain: multiple of the optimal rotation actually taken: below 1 a stiff joint,
        above 1 an over-relaxed step.
    :param negligible: amplitude ``sqrt(a^2 + b^2)`` at or below which the joint stays where
        it is: a joint whose axis passes through every point it should move (a wrist roll when
        only the position counts) has an objective made of rounding noise, and following it
        would swing the joint to an arbitrary angle.

    :returns: The new joint angle, rad, within ``[lower, upper]``.
    """
    if a * a + b * b <= negligible * negligible:
        return value
    new = value + math.atan2(b, a) * gain
    if lower <= new <= upper:
        return new
    if gain != 1.0:
        return min(max(new, lower), upper)
    # Limits wider than a turn may hold the same direction one turn away.
    if lower <= new - _TWO_PI <= upper:
        return new - _TWO_PI
    if lower <= new + _TWO_PI <= upper:
        return new + _TWO_PI
    # The objective is unimodal on the circle: the better end of the interval wins.
    low_score = a * math.cos(lower - value) + b * math.sin(lower - value)
    high_score = a * math.cos(upper - value) + b * math.sin(upper - value)
    return lower if low_score > high_score else upper


@compiled(inline=True)
def best_turn(value: float, a: float, b: float, lower: float, upper: float, gain: float,
              negligible: float):
    """
    Return :func:`best_joint_value` with the cosine and sine of the turn it makes.

    Where the joint takes its whole optimum (gain 1, within the limits on this turn or the
    next), the turn is ``atan2(b, a)`` (plus or minus a whole turn), whose cosine and sine are
    ``a / r`` and ``b / r`` with ``r = sqrt(a^2 + b^2)``: a square root instead of two
    trigonometric calls, once per joint of every sweep. Otherwise they are computed from the
    clamped or scaled turn.

    :returns: ``(new, cosine, sine)``: the new joint angle (rad, within ``[lower, upper]``)
        and the cosine and sine of ``new - value``; ``(value, 1, 0)`` when the joint stays.
    """
    squared = a * a + b * b
    if squared <= negligible * negligible:
        return value, 1.0, 0.0
    if gain == 1.0:
        new = value + math.atan2(b, a)
        if not lower <= new <= upper:
            if lower <= new - _TWO_PI <= upper:
                new -= _TWO_PI
            elif lower <= new + _TWO_PI <= upper:
                new += _TWO_PI
            else:
                new = math.nan
        if new == new:  # not NaN: the whole optimum is within the limits
            scale = 1.0 / math.sqrt(squared)
            return new, a * scale, b * scale
    new = best_joint_value(value, a, b, lower, upper, gain, negligible)
    angle = new - value
    return new, math.cos(angle), math.sin(angle)


@compiled(inline=True)
def turn_rows(rows: np.ndarray, start: int, stop: int, ux: float, uy: float, uz: float,
              cosine: float, sine: float, ox: float, oy: float, oz: float) -> None:
    """
    Turn ``rows[start:stop]`` in place about an axis through ``(ox, oy, oz)``.

    Rows are points (m); with the origin at zero they are free directions, turned by the
    rotation alone. The rows are indexed in place, not sliced: on a chain this small, making
    array views costs more than the arithmetic.

    :param rows: (K, 3) points or directions.
    :param start: first row turned; ``stop`` one past the last (``start == stop``: none).
    :param ux: first component of the unit axis (``uy``, ``uz`` the others).
    :param cosine: cosine of the angle of rotation (``sine`` its sine).
    :param ox: first coordinate of a point of the axis, m (``oy``, ``oz`` the others).
    """
    for k in range(start, stop):
        x, y, z = rows[k, 0] - ox, rows[k, 1] - oy, rows[k, 2] - oz
        along = (ux * x + uy * y + uz * z) * (1.0 - cosine)
        rows[k, 0] = x * cosine + (uy * z - uz * y) * sine + ux * along + ox
        rows[k, 1] = y * cosine + (uz * x - ux * z) * sine + uy * along + oy
        rows[k, 2] = z * cosine + (ux * y - uy * x) * sine + uz * along + oz
