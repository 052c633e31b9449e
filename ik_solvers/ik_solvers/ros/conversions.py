# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Conversions between ROS messages and numpy arrays, with the checks the node needs.

Quaternions: ROS carries them as (x, y, z, w), transforms3d as (w, x, y, z). A quaternion whose
norm is within :data:`QUATERNION_NORM_TOLERANCE` of 1 is normalised; anything further (a zero
quaternion in particular) is rejected, because it is more likely a mistake than rounding.
"""

import math
from typing import Dict, List, Sequence, Tuple

from builtin_interfaces.msg import Duration
from geometry_msgs.msg import Pose, Transform
import numpy as np
from sensor_msgs.msg import JointState
import transforms3d

from ..exceptions import InvalidSeedError, InvalidTargetError

__all__ = [
    'QUATERNION_NORM_TOLERANCE',
    'duration_to_seconds',
    'finite_joint_positions',
    'joint_state_message',
    'joint_state_to_mapping',
    'matrix_to_pose',
    'pose_to_matrix',
    'seconds_to_duration',
    'transform_to_matrix',
]

#: Largest accepted | ||q|| - 1 | of a quaternion. Interactive markers send unit quaternions and
#: values typed with three decimals, such as (0, 0, 0.707, 0.707), stay within 2e-4 of unit norm.
QUATERNION_NORM_TOLERANCE = 1e-3

# Names quoted in one error message; a hostile message may repeat thousands.
_MAX_NAMES_SHOWN = 10


def _rotation_from_quaternion(x: float, y: float, z: float, w: float) -> np.ndarray:
    quaternion = np.array([w, x, y, z], dtype=float)
    if not np.all(np.isfinite(quaternion)):
        raise InvalidTargetError('the orientation has NaN or infinite components')
    norm = float(np.linalg.norm(quaternion))
    if abs(norm - 1.0) > QUATERNION_NORM_TOLERANCE:
        raise InvalidTargetError(
            'the orientation quaternion has norm %.6g; it must be within %g of 1'
            % (norm, QUATERNION_NORM_TOLERANCE))
    return transforms3d.quaternions.quat2mat(quaternion / norm)


def _homogeneous(rotation: np.ndarray, translation: Sequence[float]) -> np.ndarray:
    matrix = np.eye(4)
    matrix[:3, :3] = rotation
    matrix[:3, 3] = translation
    return matrix


def pose_to_matrix(pose: Pose) -> np.ndarray:
    """
    Convert a pose to a homogeneous transform.

    :param pose: Position in metres and orientation quaternion.
    :return: A (4, 4) array, the pose of the frame in its parent.
    :raises InvalidTargetError: If a number is NaN or infinite, or the quaternion is further
        than :data:`QUATERNION_NORM_TOLERANCE` from unit norm.
    """
    position = np.array([pose.position.x, pose.position.y, pose.position.z], dtype=float)
    if not np.all(np.isfinite(position)):
        raise InvalidTargetError('the position has NaN or infinite components')
    orientation = pose.orientation
    rotation = _rotation_from_quaternion(orientation.x, orientation.y, orientation.z,
                                         orientation.w)
    return _homogeneous(rotation, position)


def transform_to_matrix(transform: Transform) -> np.ndarray:
    """
    Convert a geometry_msgs/Transform (as tf2 returns it) to a homogeneous transform.

    :param transform: Translation in metres and rotation quaternion.
    :return: A (4, 4) array.
    :raises InvalidTargetError: On the same conditions as :func:`pose_to_matrix`.
    """
    translation = np.array(
        [transform.translation.x, transform.translation.y, transform.translation.z],
        dtype=float)
    if not np.all(np.isfinite(translation)):
        raise InvalidTargetError('the transform has NaN or infinite components')
    rotation = transform.rotation
    return _homogeneous(
        _rotation_from_quaternion(rotation.x, rotation.y, rotation.z, rotation.w), translation)


def matrix_to_pose(matrix: np.ndarray) -> Pose:
    """
    Convert a homogeneous transform to a pose with a unit quaternion (w >= 0).

    :param matrix: A (4, 4) rigid transform, translation in metres.
    :return: The pose message.
    """
    matrix = np.asarray(matrix, dtype=float)
    w, x, y, z = transforms3d.quaternions.mat2quat(matrix[:3, :3])
    if w < 0.0:
        # One orientation has two quaternions; a fixed sign keeps the messages comparable.
        w, x, y, z = -w, -x, -y, -z
    pose = Pose()
    pose.position.x, pose.position.y, pose.position.z = (float(v) for v in matrix[:3, 3])
    pose.orientation.x, pose.orientation.y = float(x), float(y)
    pose.orientation.z, pose.orientation.w = float(z), float(w)
    return pose


def duration_to_seconds(duration: Duration) -> float:
    """
    Convert a builtin_interfaces/Duration to seconds.

    :param duration: Whole seconds (may be negative) and nanoseconds.
    :return: Seconds.
    """
    return float(duration.sec) + float(duration.nanosec) * 1e-9


def seconds_to_duration(seconds: float) -> Duration:
    """
    Convert seconds to a builtin_interfaces/Duration, rounded to the nanosecond.

    :param seconds: A finite, non-negative number of seconds.
    :return: The duration.
    :raises ValueError: If ``seconds`` is negative, NaN or infinite.
    """
    if not math.isfinite(seconds) or seconds < 0.0:
        raise ValueError('a duration must be finite and non-negative, not %r' % seconds)
    nanoseconds = int(round(seconds * 1e9))
    return Duration(sec=nanoseconds // 1_000_000_000, nanosec=nanoseconds % 1_000_000_000)


def joint_state_to_mapping(names: Sequence[str], positions: Sequence[float]) -> Dict[str, float]:
    """
    Pair joint names with positions, checking the pairing.

    :param names: Joint names.
    :param positions: Positions in rad or m, one per name.
    :return: A mapping from name to position.
    :raises InvalidSeedError: If the lengths differ, a name repeats or is empty, or a position
        is NaN or infinite.
    """
    mapping, not_finite = finite_joint_positions(names, positions)
    if not_finite:
        raise InvalidSeedError(
            'positions of %s are NaN or infinite' % ', '.join(not_finite))
    return mapping


def finite_joint_positions(names: Sequence[str], positions: Sequence[float]
                           ) -> Tuple[Dict[str, float], List[str]]:
    """
    Pair joint names with positions, leaving out the positions that are not finite.

    A joint_states message covers every joint of the robot; one NaN on a joint that does not
    matter must not hide the valid positions of the others.

    :param names: Joint names.
    :param positions: Positions in rad or m, one per name.
    :return: The mapping from name to finite position, and the names left out.
    :raises InvalidSeedError: If the lengths differ, or a name repeats or is empty.
    """
    names = list(names)
    positions = list(positions)
    if len(names) != len(positions):
        raise InvalidSeedError(
            '%d joint names but %d positions' % (len(names), len(positions)))
    if any(not name for name in names):
        raise InvalidSeedError('a joint name is empty')
    if len(set(names)) != len(names):
        # One pass with a set: counting each name would take time quadratic in the message.
        seen, repeated = set(), set()
        for name in names:
            (repeated if name in seen else seen).add(name)
        listed = sorted(repeated)
        shown = ', '.join(listed[:_MAX_NAMES_SHOWN])
        if len(listed) > _MAX_NAMES_SHOWN:
            shown += ', ... (%d more)' % (len(listed) - _MAX_NAMES_SHOWN)
        raise InvalidSeedError('joint names repeat: %s' % shown)
    dropped = [name for name, value in zip(names, positions) if not math.isfinite(value)]
    kept = {name: float(value) for name, value in zip(names, positions) if math.isfinite(value)}
    return kept, dropped


def joint_state_message(names: List[str], positions: Sequence[float]) -> JointState:
    """
    Build a JointState with positions only; the caller stamps the header.

    :param names: Joint names.
    :param positions: Positions in rad or m, one per name.
    :return: The message.
    """
    message = JointState()
    message.name = list(names)
    message.position = [float(value) for value in positions]
    return message
