# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Errors between a reached tip pose and a target pose (the kernels are in the private core).

Orientation errors are rotation vectors (axis times angle, rad) in the base frame, so that they
combine with the angular rows of a geometric Jacobian.
"""

import numpy as np

from ._core.rotations import rotation_vector_into, rotation_vector_of

__all__ = ['orientation_error', 'rotation_vector', 'rotation_vector_into', 'rotation_vector_of']


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
