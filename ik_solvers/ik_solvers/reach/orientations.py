# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Orientations spread evenly: whole rotations, or directions of one tool axis.

Whole rotations follow Alexa's super-Fibonacci spirals (CVPR 2022): unit quaternions on two
spirals with irrational steps, a low-discrepancy set of SO(3) for any count. Directions follow
the Fibonacci sphere (the golden-angle spiral of points of equal area). Both are fixed for a
given count, so that two maps of the same count test the same orientations.
"""

import math

import numpy as np
from transforms3d.quaternions import quat2mat

from ..exceptions import InvalidTargetError

__all__ = ['axis_rotations', 'fibonacci_directions', 'super_fibonacci_rotations']

# The spirals' two irrational steps, as the paper gives them: sqrt(2) and the root of
# x^4 = x + 4.
_PHI = math.sqrt(2.0)
_PSI = 1.533751168755204288118041


def _check_count(count: int) -> None:
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise InvalidTargetError('the number of orientations must be a positive integer, '
                                 'got %r' % (count,))


def super_fibonacci_rotations(count: int) -> np.ndarray:
    """
    Return ``count`` rotations spread evenly over SO(3).

    :returns: (count, 3, 3) rotation matrices.
    :raises InvalidTargetError: ``count`` is not a positive integer.
    """
    _check_count(count)
    s = np.arange(count) + 0.5
    r = np.sqrt(s / count)
    big_r = np.sqrt(1.0 - s / count)
    alpha = 2.0 * math.pi * s / _PHI
    beta = 2.0 * math.pi * s / _PSI
    quaternions = np.stack((big_r * np.cos(beta), r * np.sin(alpha), r * np.cos(alpha),
                            big_r * np.sin(beta)), axis=1)  # w, x, y, z
    return np.array([quat2mat(quaternion) for quaternion in quaternions])


def fibonacci_directions(count: int) -> np.ndarray:
    """
    Return ``count`` unit vectors spread evenly over the sphere.

    :returns: (count, 3).
    :raises InvalidTargetError: ``count`` is not a positive integer.
    """
    _check_count(count)
    s = np.arange(count) + 0.5
    z = 1.0 - 2.0 * s / count
    radius = np.sqrt(np.maximum(1.0 - z * z, 0.0))
    angle = math.pi * (3.0 - math.sqrt(5.0)) * np.arange(count)
    return np.stack((radius * np.cos(angle), radius * np.sin(angle), z), axis=1)


def axis_rotations(count: int, tip_axis=(0.0, 0.0, 1.0)) -> np.ndarray:
    """
    Return ``count`` rotations that carry ``tip_axis`` onto directions spread evenly.

    For maps of approach directions (``orientation_mode='axis'``): each rotation's image of the
    tip axis is one Fibonacci direction; the spin about it is free in that mode.

    :param tip_axis: 3 numbers in the tip frame (normalised).
    :returns: (count, 3, 3) rotation matrices.
    :raises InvalidTargetError: ``count`` is not a positive integer or the axis is zero.
    """
    axis = np.asarray(tip_axis, dtype=float)
    norm = np.linalg.norm(axis)
    if axis.shape != (3,) or not np.isfinite(norm) or norm == 0.0:
        raise InvalidTargetError('tip_axis must be 3 finite numbers, not all zero')
    axis = axis / norm
    rotations = []
    for direction in fibonacci_directions(count):
        rotations.append(_rotation_between(axis, direction))
    return np.array(rotations)


def _rotation_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the shortest rotation carrying unit ``a`` onto unit ``b`` (Rodrigues)."""
    cross = np.cross(a, b)
    sine = np.linalg.norm(cross)
    cosine = float(np.dot(a, b))
    if sine < 1e-12:
        if cosine > 0.0:
            return np.eye(3)
        # Opposite: a half turn about any axis perpendicular to a.
        other = np.eye(3)[np.argmin(np.abs(a))]
        axis = np.cross(a, other)
        axis /= np.linalg.norm(axis)
        return 2.0 * np.outer(axis, axis) - np.eye(3)
    axis = cross / sine
    skew = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]],
                     [-axis[1], axis[0], 0.0]])
    return np.eye(3) + sine * skew + (1.0 - cosine) * skew @ skew
