# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Errors between a reached tip pose and a target pose.

Orientation errors are rotation vectors (axis times angle, rad) in the base frame, so that they
combine with the angular rows of a geometric Jacobian. Scalar Python maths is used on purpose:
for a single 3x3 rotation it is several times faster than a chain of numpy calls.
"""

import math
from typing import Sequence

import numpy as np

__all__ = ['orientation_error', 'rotation_vector']

# Below this angle the rotation vector equals the skew part of the rotation to float precision.
_SMALL_ANGLE = 1e-6


def rotation_vector(rotation: np.ndarray) -> np.ndarray:
    """
    Logarithm of a rotation matrix: the rotation vector (unit axis times angle).

    :param rotation: (3, 3) rotation matrix.

    :returns: (3,) rotation vector, rad, with an angle in [0, pi].
    """
    return np.array(_rotation_vector(rotation.tolist()))


def _rotation_vector(r: Sequence[Sequence[float]]) -> list:
    sx = 0.5 * (r[2][1] - r[1][2])
    sy = 0.5 * (r[0][2] - r[2][0])
    sz = 0.5 * (r[1][0] - r[0][1])
    cosine = 0.5 * (r[0][0] + r[1][1] + r[2][2] - 1.0)
    sine = math.sqrt(sx * sx + sy * sy + sz * sz)
    angle = math.atan2(sine, cosine)
    if angle < _SMALL_ANGLE:
        return [sx, sy, sz]
    if cosine > -0.9:
        scale = angle / sine
        return [sx * scale, sy * scale, sz * scale]
    # Near a half turn the skew part vanishes; the symmetric part still holds the axis.
    diagonal = (r[0][0], r[1][1], r[2][2])
    k = max(range(3), key=lambda i: diagonal[i])
    one_minus_cos = 1.0 - cosine
    # The symmetric part is cos(angle) I + (1 - cos(angle)) axis axis^T.
    largest = math.sqrt(max((diagonal[k] - cosine) / one_minus_cos, 0.0))
    axis = [0.5 * (r[k][i] + r[i][k]) / (one_minus_cos * largest) for i in range(3)]
    axis[k] = largest
    norm = math.sqrt(axis[0] ** 2 + axis[1] ** 2 + axis[2] ** 2)
    axis = [a / norm for a in axis]
    # The skew part, however small, tells the sign of the axis.
    if axis[0] * sx + axis[1] * sy + axis[2] * sz < 0.0:
        axis = [-a for a in axis]
    return [a * angle for a in axis]


def orientation_error(reached: np.ndarray, target: np.ndarray) -> float:
    """
    Angle of the rotation that carries ``reached`` onto ``target``, rad, in [0, pi].

    :param reached: (3, 3) or (4, 4) reached pose or rotation.
    :param target: (3, 3) or (4, 4) target pose or rotation.
    """
    difference = (target[:3, :3] @ reached[:3, :3].T).tolist()
    sx = difference[2][1] - difference[1][2]
    sy = difference[0][2] - difference[2][0]
    sz = difference[1][0] - difference[0][1]
    trace = difference[0][0] + difference[1][1] + difference[2][2]
    return math.atan2(0.5 * math.sqrt(sx * sx + sy * sy + sz * sz), 0.5 * (trace - 1.0))
