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
rotation are vectors from any point of the axis. All functions are compiled kernels.
"""

import math

import numpy as np

from ..kinematics.jit import compiled

__all__ = ['best_joint_value', 'rotate_about_axis', 'sinusoid_coefficients']

_TWO_PI = 2.0 * math.pi
# Relative to the squared chain length, amplitudes below this are rounding noise (doubles keep
# about 16 digits; products of two lengths lose a few).
NEGLIGIBLE_RELATIVE_AMPLITUDE = 1e-12


@compiled
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


@compiled
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


@compiled
def rotate_about_axis(ux: float, uy: float, uz: float, angle: float, origin: np.ndarray,
                      points: np.ndarray, vectors: np.ndarray) -> None:
    """
    Turn points and free vectors in place by ``angle`` (rad) about an axis through ``origin``.

    :param ux: first component of the unit axis (``uy``, ``uz`` the others).
    :param origin: (3,) a point of the axis, m.
    :param points: (K, 3) points, m, turned about the axis (K may be 0).
    :param vectors: (L, 3) directions, turned with the rotation alone (L may be 0).
    """
    cosine, sine = math.cos(angle), math.sin(angle)
    for k in range(points.shape[0] + vectors.shape[0]):
        if k < points.shape[0]:
            row = points[k]
            x, y, z = row[0] - origin[0], row[1] - origin[1], row[2] - origin[2]
        else:
            row = vectors[k - points.shape[0]]
            x, y, z = row[0], row[1], row[2]
        along = (ux * x + uy * y + uz * z) * (1.0 - cosine)
        rx = x * cosine + (uy * z - uz * y) * sine + ux * along
        ry = y * cosine + (uz * x - ux * z) * sine + uy * along
        rz = z * cosine + (ux * y - uy * x) * sine + uz * along
        if k < points.shape[0]:
            row[0], row[1], row[2] = rx + origin[0], ry + origin[1], rz + origin[2]
        else:
            row[0], row[1], row[2] = rx, ry, rz
