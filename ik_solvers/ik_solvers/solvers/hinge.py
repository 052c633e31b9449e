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
rotation are vectors from any point of the axis.
"""

import math
from typing import Sequence, Tuple

__all__ = ['best_joint_value', 'negligible_amplitude', 'sinusoid_coefficients']

_TWO_PI = 2.0 * math.pi
# Relative to the squared chain length, amplitudes below this are rounding noise (doubles keep
# about 16 digits; products of two lengths lose a few).
_NEGLIGIBLE_RELATIVE_AMPLITUDE = 1e-12


def negligible_amplitude(length_scale: float) -> float:
    """Return the amplitude, m^2, below which a one-joint objective is noise for a chain."""
    return _NEGLIGIBLE_RELATIVE_AMPLITUDE * length_scale * length_scale


def sinusoid_coefficients(axis: Sequence[float],
                          moment: Sequence[Sequence[float]]) -> Tuple[float, float]:
    """
    Return ``(a, b)`` of ``f(t) = c0 + a cos(t) + b sin(t)`` for a joint axis and a moment.

    :param axis: 3 components of the unit joint axis (a list: scalar maths is faster here).
    :param moment: 3x3 nested lists, the weighted sum of outer products ``v d^T``.
    """
    m = moment
    ux, uy, uz = axis
    along = (ux * (m[0][0] * ux + m[0][1] * uy + m[0][2] * uz)
             + uy * (m[1][0] * ux + m[1][1] * uy + m[1][2] * uz)
             + uz * (m[2][0] * ux + m[2][1] * uy + m[2][2] * uz))
    a = m[0][0] + m[1][1] + m[2][2] - along
    b = (ux * (m[1][2] - m[2][1]) + uy * (m[2][0] - m[0][2]) + uz * (m[0][1] - m[1][0]))
    return a, b


def best_joint_value(value: float, a: float, b: float, lower: float, upper: float,
                     stiffness: float = 1.0, *, negligible: float = 0.0) -> float:
    """
    Return the value of a revolute joint that maximises ``a cos(t) + b sin(t)`` within its limits.

    :param value: current joint angle, rad.
    :param a: coefficients from :func:`sinusoid_coefficients`.
    :param b: coefficients from :func:`sinusoid_coefficients`.
    :param lower: joint limits, rad (may be infinite).
    :param upper: joint limits, rad (may be infinite).
    :param stiffness: fraction in [0, 1] of the optimal rotation actually taken.
    :param negligible: amplitude ``sqrt(a^2 + b^2)`` (units of ``a`` and ``b``) at or below
        which the joint stays where it is: a joint whose axis passes through every point it
        should move (a wrist roll when only the position counts) has an objective made of
        rounding noise, and following it would swing the joint to an arbitrary angle.

    :returns: The new joint angle, rad, within ``[lower, upper]``.
    """
    if a * a + b * b <= negligible * negligible:
        return value
    new = value + math.atan2(b, a) * stiffness
    if lower <= new <= upper:
        return new
    if stiffness != 1.0:
        return min(max(new, lower), upper)
    # Limits wider than a turn may hold the same direction one turn away.
    for candidate in (new - _TWO_PI, new + _TWO_PI):
        if lower <= candidate <= upper:
            return candidate
    # The objective is unimodal on the circle: the better end of the interval wins.
    low_score = a * math.cos(lower - value) + b * math.sin(lower - value)
    high_score = a * math.cos(upper - value) + b * math.sin(upper - value)
    return lower if low_score > high_score else upper
