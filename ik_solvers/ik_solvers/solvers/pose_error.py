# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Errors between a reached tip pose and a target pose, as compiled kernels.

Orientation errors are rotation vectors (axis times angle, rad) in the base frame, so that they
combine with the angular rows of a geometric Jacobian.
"""

import math

import numpy as np

from ..kinematics.jit import compiled

__all__ = ['orientation_error', 'rotation_vector', 'rotation_vector_into']

# Below this angle the rotation vector equals the skew part of the rotation to float precision.
_SMALL_ANGLE = 1e-6


@compiled
def rotation_vector_into(r: np.ndarray, out: np.ndarray) -> float:
    """
    Write the logarithm of the rotation ``r`` (3x3) into ``out[:3]``; return its angle, rad.

    The angle is in [0, pi]; the vector is the unit axis times the angle.
    """
    sx = 0.5 * (r[2, 1] - r[1, 2])
    sy = 0.5 * (r[0, 2] - r[2, 0])
    sz = 0.5 * (r[1, 0] - r[0, 1])
    cosine = 0.5 * (r[0, 0] + r[1, 1] + r[2, 2] - 1.0)
    sine = math.sqrt(sx * sx + sy * sy + sz * sz)
    angle = math.atan2(sine, cosine)
    if angle < _SMALL_ANGLE:
        out[0], out[1], out[2] = sx, sy, sz
        return angle
    if cosine > -0.9:
        scale = angle / sine
        out[0], out[1], out[2] = sx * scale, sy * scale, sz * scale
        return angle
    # Near a half turn the skew part vanishes; the symmetric part, cos(angle) I + (1 -
    # cos(angle)) axis axis^T, still holds the axis.
    k = 0
    if r[1, 1] > r[k, k]:
        k = 1
    if r[2, 2] > r[k, k]:
        k = 2
    one_minus_cos = 1.0 - cosine
    largest = math.sqrt(max((r[k, k] - cosine) / one_minus_cos, 0.0))
    norm = 0.0
    for i in range(3):
        out[i] = 0.5 * (r[k, i] + r[i, k]) / (one_minus_cos * largest)
    out[k] = largest
    norm = math.sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2])
    # The skew part, however small, tells the sign of the axis.
    sign = -1.0 if out[0] * sx + out[1] * sy + out[2] * sz < 0.0 else 1.0
    for i in range(3):
        out[i] *= sign * angle / norm
    return angle


def rotation_vector(rotation: np.ndarray) -> np.ndarray:
    """
    Logarithm of a rotation matrix: the rotation vector (unit axis times angle).

    :param rotation: (3, 3) rotation matrix.

    :returns: (3,) rotation vector, rad, with an angle in [0, pi].
    """
    out = np.empty(3)
    rotation_vector_into(np.ascontiguousarray(rotation, dtype=float)[:3, :3], out)
    return out


def orientation_error(reached: np.ndarray, target: np.ndarray) -> float:
    """
    Angle of the rotation that carries ``reached`` onto ``target``, rad, in [0, pi].

    :param reached: (3, 3) or (4, 4) reached pose or rotation.
    :param target: (3, 3) or (4, 4) target pose or rotation.
    """
    target_rotation = np.asarray(target, dtype=float)[:3, :3]
    difference = target_rotation @ np.asarray(reached, dtype=float)[:3, :3].T
    return float(rotation_vector_into(np.ascontiguousarray(difference), np.empty(3)))
