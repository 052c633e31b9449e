# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The logarithm of a rotation as compiled kernels: the search's orientation residual.

:mod:`ik_solvers.solvers.pose_error` offers them, with Python helpers, to the rest of the
package.
"""

import math

import numpy as np

from ...kinematics.jit import compiled

__all__ = ['rotation_vector_into', 'rotation_vector_of']

# Below this angle the rotation vector equals the skew part of the rotation to float precision.
_SMALL_ANGLE = 1e-6


@compiled(leaf=True)
def rotation_vector_into(r: np.ndarray, out: np.ndarray) -> float:
    """
    Write the logarithm of the rotation ``r`` (3x3) into ``out[:3]``; return its angle, rad.

    The angle is in [0, pi]; the vector is the unit axis times the angle.
    """
    return rotation_vector_of(r[0, 0], r[0, 1], r[0, 2], r[1, 0], r[1, 1], r[1, 2], r[2, 0],
                              r[2, 1], r[2, 2], out, 0)


@compiled(leaf=True)
def rotation_vector_of(r00: float, r01: float, r02: float, r10: float, r11: float, r12: float,
                       r20: float, r21: float, r22: float, out: np.ndarray, start: int) -> float:
    """
    Write the logarithm of the rotation with entries ``rij`` into ``out[start:start + 3]``.

    The same arithmetic as :func:`rotation_vector_into`, from the nine entries: a search
    measures every iterate's orientation error, and a 3x3 array or a view of ``out`` per call
    cost more than the arithmetic. Returns the angle, rad, in [0, pi].
    """
    sx = 0.5 * (r21 - r12)
    sy = 0.5 * (r02 - r20)
    sz = 0.5 * (r10 - r01)
    cosine = 0.5 * (r00 + r11 + r22 - 1.0)
    sine = math.sqrt(sx * sx + sy * sy + sz * sz)
    angle = math.atan2(sine, cosine)
    if angle < _SMALL_ANGLE:
        out[start], out[start + 1], out[start + 2] = sx, sy, sz
        return angle
    if cosine > -0.9:
        scale = angle / sine
        out[start], out[start + 1], out[start + 2] = sx * scale, sy * scale, sz * scale
        return angle
    # Near a half turn the skew part vanishes; the symmetric part, cos(angle) I + (1 -
    # cos(angle)) axis axis^T, still holds the axis.
    r = ((r00, r01, r02), (r10, r11, r12), (r20, r21, r22))
    k = 0
    if r11 > r00:
        k = 1
    if r22 > r[k][k]:
        k = 2
    one_minus_cos = 1.0 - cosine
    largest = math.sqrt(max((r[k][k] - cosine) / one_minus_cos, 0.0))
    for i in range(3):
        out[start + i] = 0.5 * (r[k][i] + r[i][k]) / (one_minus_cos * largest)
    out[start + k] = largest
    norm = math.sqrt(out[start] * out[start] + out[start + 1] * out[start + 1]
                     + out[start + 2] * out[start + 2])
    # The skew part, however small, tells the sign of the axis.
    sign = -1.0 if out[start] * sx + out[start + 1] * sy + out[start + 2] * sz < 0.0 else 1.0
    for i in range(3):
        out[start + i] *= sign * angle / norm
    return angle
