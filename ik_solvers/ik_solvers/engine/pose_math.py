# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Homogeneous transforms from a position and a ROS-ordered quaternion, with the node's checks.

ROS carries quaternions as (x, y, z, w), transforms3d as (w, x, y, z). A quaternion whose norm
is within :data:`QUATERNION_NORM_TOLERANCE` of 1 is normalised; anything further (a zero
quaternion in particular) is refused, because it is more likely a mistake than rounding.
"""

from typing import Sequence

import numpy as np
import transforms3d

from ..exceptions import InvalidTargetError

__all__ = ['QUATERNION_NORM_TOLERANCE', 'pose_matrix', 'rotation_matrix', 'xyzw_quaternion']

#: Largest accepted | ||q|| - 1 | of a quaternion. Interactive markers send unit quaternions and
#: values typed with three decimals, such as (0, 0, 0.707, 0.707), stay within 2e-4 of unit norm.
QUATERNION_NORM_TOLERANCE = 1e-3


def rotation_matrix(quaternion: Sequence[float]) -> np.ndarray:
    """
    Build the rotation of a ROS-ordered quaternion, normalised.

    :param quaternion: (x, y, z, w), the order of ROS messages.
    :returns: A (3, 3) rotation matrix.
    :raises InvalidTargetError: If a component is NaN or infinite, or the quaternion is further
        than :data:`QUATERNION_NORM_TOLERANCE` from unit norm.
    """
    x, y, z, w = (float(value) for value in quaternion)
    wxyz = np.array([w, x, y, z])
    if not np.all(np.isfinite(wxyz)):
        raise InvalidTargetError('the orientation has NaN or infinite components')
    norm = float(np.linalg.norm(wxyz))
    if abs(norm - 1.0) > QUATERNION_NORM_TOLERANCE:
        raise InvalidTargetError(
            'the orientation quaternion has norm %.6g; it must be within %g of 1'
            % (norm, QUATERNION_NORM_TOLERANCE))
    return transforms3d.quaternions.quat2mat(wxyz / norm)


def pose_matrix(position: Sequence[float], quaternion: Sequence[float], *,
                what: str = 'the position') -> np.ndarray:
    """
    Build the homogeneous transform of a position and an orientation.

    :param position: (x, y, z) in metres.
    :param quaternion: (x, y, z, w), the order of ROS messages.
    :param what: How the refusal names the translation ('the position', 'the transform').
    :returns: A (4, 4) array, the pose of the frame in its parent.
    :raises InvalidTargetError: If a number is NaN or infinite, or the quaternion is further
        than :data:`QUATERNION_NORM_TOLERANCE` from unit norm.
    """
    translation = np.array(position, dtype=float)
    if not np.all(np.isfinite(translation)):
        raise InvalidTargetError('%s has NaN or infinite components' % what)
    matrix = np.eye(4)
    matrix[:3, :3] = rotation_matrix(quaternion)
    matrix[:3, 3] = translation
    return matrix


def xyzw_quaternion(matrix: np.ndarray) -> np.ndarray:
    """
    Return the unit quaternion of a transform's rotation, (x, y, z, w) with w >= 0.

    :param matrix: A (4, 4) rigid transform or a (3, 3) rotation.
    :returns: A (4,) array; one orientation has two quaternions, a fixed sign keeps them
        comparable.
    """
    w, x, y, z = transforms3d.quaternions.mat2quat(np.asarray(matrix, dtype=float)[:3, :3])
    if w < 0.0:
        w, x, y, z = -w, -x, -y, -z
    return np.array([x, y, z, w])
