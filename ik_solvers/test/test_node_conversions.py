# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Message <-> numpy conversions of the ik_node, and the checks they make."""

import math
import time

from builtin_interfaces.msg import Duration
from geometry_msgs.msg import Pose, Transform
from ik_solvers.exceptions import InvalidSeedError, InvalidTargetError
from ik_solvers.ros.conversions import (
    duration_to_seconds,
    joint_state_message,
    matrix_to_pose,
    pose_to_matrix,
    seconds_to_duration,
    transform_to_matrix,
)
from ik_solvers.engine.joint_positions import joint_state_to_mapping
from ik_solvers.engine.pose_math import QUATERNION_NORM_TOLERANCE
import numpy as np
import pytest
import transforms3d


def _pose(xyz, xyzw):
    pose = Pose()
    pose.position.x, pose.position.y, pose.position.z = xyz
    pose.orientation.x, pose.orientation.y, pose.orientation.z, pose.orientation.w = xyzw
    return pose


def test_pose_to_matrix_uses_ros_quaternion_order():
    half = math.sqrt(0.5)
    matrix = pose_to_matrix(_pose((0.1, -0.2, 0.3), (0.0, 0.0, half, half)))
    # 90 degrees about z: x maps to y.
    assert matrix[:3, 3] == pytest.approx([0.1, -0.2, 0.3])
    assert matrix[:3, :3] @ np.array([1.0, 0.0, 0.0]) == pytest.approx([0.0, 1.0, 0.0])
    assert matrix[3] == pytest.approx([0.0, 0.0, 0.0, 1.0])


def test_round_trip_keeps_the_pose():
    rotation = transforms3d.euler.euler2mat(0.3, -1.1, 2.5)
    matrix = np.eye(4)
    matrix[:3, :3] = rotation
    matrix[:3, 3] = [0.4, 0.5, -0.6]
    pose = matrix_to_pose(matrix)
    assert pose.orientation.w >= 0.0
    assert pose_to_matrix(pose) == pytest.approx(matrix, abs=1e-12)


def test_slightly_off_unit_quaternion_is_normalised():
    scale = 1.0 + 0.5 * QUATERNION_NORM_TOLERANCE
    matrix = pose_to_matrix(_pose((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, scale)))
    assert matrix[:3, :3] == pytest.approx(np.eye(3))


def test_three_decimal_quaternion_is_accepted():
    matrix = pose_to_matrix(_pose((0.0, 0.0, 0.0), (0.0, 0.0, 0.707, 0.707)))
    assert np.linalg.det(matrix[:3, :3]) == pytest.approx(1.0)


@pytest.mark.parametrize('xyzw', [
    (0.0, 0.0, 0.0, 0.0),
    (0.0, 0.0, 0.0, 1.0 + 3.0 * QUATERNION_NORM_TOLERANCE),
    (0.0, 0.0, 0.0, 0.5),
    (0.0, 0.0, float('nan'), 1.0),
    (float('inf'), 0.0, 0.0, 1.0),
])
def test_bad_quaternions_are_rejected(xyzw):
    with pytest.raises(InvalidTargetError, match='orientation'):
        pose_to_matrix(_pose((0.0, 0.0, 0.0), xyzw))


@pytest.mark.parametrize('xyz', [(float('nan'), 0.0, 0.0), (0.0, float('-inf'), 0.0)])
def test_non_finite_positions_are_rejected(xyz):
    with pytest.raises(InvalidTargetError, match='position'):
        pose_to_matrix(_pose(xyz, (0.0, 0.0, 0.0, 1.0)))


def test_transform_to_matrix_matches_pose_to_matrix():
    transform = Transform()
    transform.translation.x, transform.translation.z = 1.0, -2.0
    transform.rotation.x, transform.rotation.w = math.sqrt(0.5), math.sqrt(0.5)
    pose = _pose((1.0, 0.0, -2.0), (math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5)))
    assert transform_to_matrix(transform) == pytest.approx(pose_to_matrix(pose))
    transform.rotation.w = 0.0
    transform.rotation.x = 0.0
    with pytest.raises(InvalidTargetError):
        transform_to_matrix(transform)


def test_durations_round_trip():
    duration = seconds_to_duration(2.75)
    assert (duration.sec, duration.nanosec) == (2, 750_000_000)
    assert duration_to_seconds(duration) == pytest.approx(2.75)
    assert duration_to_seconds(Duration(sec=-1, nanosec=500_000_000)) == pytest.approx(-0.5)
    with pytest.raises(ValueError):
        seconds_to_duration(-0.1)
    with pytest.raises(ValueError):
        seconds_to_duration(float('nan'))


def test_joint_state_mapping_pairs_names_and_positions():
    assert joint_state_to_mapping(['a', 'b'], [0.5, -1.0]) == {'a': 0.5, 'b': -1.0}


@pytest.mark.parametrize('names, positions, match', [
    (['a', 'b'], [0.5], '2 joint names but 1 positions'),
    (['a', 'a'], [0.5, 1.0], 'repeat'),
    (['a', ''], [0.5, 1.0], 'empty'),
    (['a', 'b'], [0.5, float('nan')], 'NaN'),
])
def test_joint_state_mapping_rejects_bad_pairs(names, positions, match):
    with pytest.raises(InvalidSeedError, match=match):
        joint_state_to_mapping(names, positions)


def test_a_repeated_name_in_a_huge_message_is_found_in_linear_time():
    # 50,000 names with one repeat: counting every name takes tens of seconds, one pass with a
    # set takes milliseconds. The bound is generous for a loaded machine.
    names = ['joint_%d' % index for index in range(50_000)]
    names[-1] = 'joint_7'
    started = time.monotonic()
    with pytest.raises(InvalidSeedError, match="joint names repeat: joint_7$"):
        joint_state_to_mapping(names, [0.0] * len(names))
    assert time.monotonic() - started < 5.0


def test_many_repeated_names_are_listed_briefly():
    names = ['joint_%d' % (index % 50) for index in range(100)]
    with pytest.raises(InvalidSeedError, match=r'repeat: joint_0, .*\(40 more\)$'):
        joint_state_to_mapping(names, [0.0] * len(names))


def test_joint_state_message_carries_names_and_positions():
    message = joint_state_message(['a', 'b'], np.array([1.0, 2.0]))
    assert list(message.name) == ['a', 'b']
    assert list(message.position) == [1.0, 2.0]
