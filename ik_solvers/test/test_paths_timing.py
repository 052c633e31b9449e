# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Timed Cartesian paths keep the velocity and acceleration limits, by finite differences."""

import math

import numpy as np
import pytest

from ik_solvers.exceptions import InvalidLimitsError, InvalidPathError, TimeParametrizationError
from ik_solvers.paths import (
    cartesian_path,
    JointLimit,
    parse_joint_limits,
    time_parametrize,
    trajectory_limits,
)

UR5_HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
# Finite differences of the sampled motion may see a hair more than the checked points.
RELATIVE_SLACK = 1e-3
POINT_TIMEOUT = 1.0  # generous: a loaded machine must not cut the path short


def _line(chain, home, offset, max_step=0.001, **options):
    goal = chain.fk(home)
    goal[:3, 3] += offset
    return cartesian_path(chain, [goal], seed=home, max_step=max_step,
                          point_timeout=POINT_TIMEOUT, **options)


def _finite_differences(times, positions):
    steps = np.diff(times)
    velocities = np.diff(positions, axis=0) / steps[:, None]
    middles = 0.5 * (times[1:] + times[:-1])
    accelerations = np.diff(velocities, axis=0) / np.diff(middles)[:, None]
    return velocities, accelerations


def _assert_within(values, limits, slack):
    shares = np.abs(values) / limits
    assert shares.max() <= 1.0 + slack, 'at %.6f of the limit' % shares.max()


@pytest.mark.parametrize('arm, home, offset', [
    ('ur5', UR5_HOME, (0.0, 0.0, -0.3)),
    ('panda', PANDA_HOME, (0.0, 0.0, -0.3)),
    ('ur5', UR5_HOME, (0.0, 0.0, 0.28)),  # up, close to the edge of the workspace
    ('panda', PANDA_HOME, (0.0, 0.3, 0.0)),
])
def test_the_timed_line_keeps_every_limit(request, arm, home, offset):
    chain = request.getfixturevalue(arm)
    limits = trajectory_limits(chain, default_acceleration=5.0, velocity_scale=0.5)
    result = _line(chain, home, np.array(offset), limits=limits)
    assert result.reason == 'complete', result.message
    trajectory = result.trajectory
    assert np.array_equal(trajectory.positions, result.positions)
    assert trajectory.times[0] == 0.0 and np.all(np.diff(trajectory.times) > 0.0)
    assert np.all(trajectory.velocities[[0, -1]] == 0.0)
    # The limits at the points, as reported.
    _assert_within(trajectory.velocities, limits.max_velocity, 1e-9)
    _assert_within(trajectory.accelerations, limits.max_acceleration, 1e-9)
    # Finite differences over the path points: averages of the motion between them.
    velocities, accelerations = _finite_differences(trajectory.times, trajectory.positions)
    _assert_within(velocities, limits.max_velocity, RELATIVE_SLACK)
    _assert_within(accelerations, limits.max_acceleration, RELATIVE_SLACK)
    # And of the same motion resampled every millisecond.
    times = np.linspace(0.0, trajectory.duration, int(trajectory.duration / 0.001) + 1)
    positions, sampled_velocities, _ = trajectory.sample(times)
    assert np.allclose(positions[[0, -1]], result.positions[[0, -1]], atol=1e-12)
    velocities, accelerations = _finite_differences(times, positions)
    _assert_within(velocities, limits.max_velocity, RELATIVE_SLACK)
    _assert_within(accelerations, limits.max_acceleration, RELATIVE_SLACK)
    _assert_within(sampled_velocities, limits.max_velocity, RELATIVE_SLACK)
    # Time-optimal: some joint uses (nearly) all of a limit somewhere.
    peak = max(np.max(np.abs(velocities) / limits.max_velocity),
               np.max(np.abs(accelerations) / limits.max_acceleration))
    assert peak > 0.9


def test_the_points_of_the_timed_path_are_where_the_sampled_motion_is(panda):
    limits = trajectory_limits(panda, default_acceleration=3.0, velocity_scale=0.3)
    result = _line(panda, PANDA_HOME, np.array([0.1, 0.0, 0.0]), limits=limits)
    trajectory = result.trajectory
    positions, velocities, accelerations = trajectory.sample(trajectory.times)
    assert np.allclose(positions, trajectory.positions, atol=1e-9)
    assert np.allclose(velocities, trajectory.velocities, atol=1e-7)


def test_velocity_scale_slows_the_path_down(panda):
    fast = trajectory_limits(panda, default_acceleration=50.0, velocity_scale=1.0)
    slow = trajectory_limits(panda, default_acceleration=50.0, velocity_scale=0.25)
    path = _line(panda, PANDA_HOME, np.array([0.0, 0.0, -0.2]), max_step=0.002).positions
    fast_duration = time_parametrize(path, fast).duration
    slow_duration = time_parametrize(path, slow).duration
    # With accelerations this high the velocity limit governs: a quarter of it, about four
    # times as long.
    assert 3.5 < slow_duration / fast_duration < 4.1


def test_a_path_longer_than_max_path_duration_is_refused(panda):
    limits = trajectory_limits(panda, default_acceleration=5.0, velocity_scale=0.1,
                               max_path_duration=0.2)
    with pytest.raises(TimeParametrizationError, match='max_path_duration'):
        _line(panda, PANDA_HOME, np.array([0.0, 0.0, -0.2]), max_step=0.005, limits=limits)


def test_a_path_that_does_not_move_is_one_point_at_rest(panda):
    limits = trajectory_limits(panda, default_acceleration=5.0)
    trajectory = time_parametrize(np.tile(PANDA_HOME, (5, 1)), limits)
    assert trajectory.duration == 0.0
    assert trajectory.positions.shape == (1, 7)
    positions, velocities, _ = trajectory.sample([0.0, 1.0])
    assert np.array_equal(positions, np.tile(PANDA_HOME, (2, 1)))
    assert not velocities.any()


def test_a_two_point_path_is_timed(panda):
    limits = trajectory_limits(panda, default_acceleration=5.0)
    end = PANDA_HOME + 0.01
    trajectory = time_parametrize(np.vstack((PANDA_HOME, end)), limits)
    assert trajectory.duration > 0.0
    assert np.array_equal(trajectory.positions[-1], end)


def test_bad_joint_paths_are_refused(panda):
    limits = trajectory_limits(panda, default_acceleration=5.0)
    with pytest.raises(InvalidPathError):
        time_parametrize(np.zeros((3, 6)), limits)
    with pytest.raises(InvalidPathError):
        time_parametrize(np.full((3, 7), np.nan), limits)


YAML_SHAPE = {
    'default_velocity_scaling_factor': 0.1,
    'joint_limits': {
        'shoulder_pan_joint': {'has_acceleration_limits': True, 'max_acceleration': 2.0},
        'shoulder_lift_joint': {'has_velocity_limits': True, 'max_velocity': 1.0,
                                'has_acceleration_limits': True, 'max_acceleration': 3.0},
        'elbow_joint': {'has_acceleration_limits': False, 'max_acceleration': 0.0},
        'gripper_joint': {'has_acceleration_limits': True, 'max_acceleration': 9.0},
    },
}


def test_joint_limits_yaml_shape_is_read_into_plain_numbers(ur5):
    parsed = parse_joint_limits(YAML_SHAPE)
    assert parsed['shoulder_lift_joint'] == JointLimit(max_velocity=1.0, max_acceleration=3.0)
    assert parsed['elbow_joint'] == JointLimit()
    limits = trajectory_limits(ur5, joint_limits=YAML_SHAPE, default_acceleration=4.0,
                               velocity_scale=0.5, acceleration_scale=0.5)
    assert limits.joint_names == ur5.joint_names
    assert limits.max_acceleration.tolist() == [1.0, 1.5, 2.0, 2.0, 2.0, 2.0]
    expected_velocity = 0.5 * np.asarray(ur5.velocity_limits, dtype=float)
    expected_velocity[1] = 0.5 * min(1.0, ur5.velocity_limits[1])
    assert np.allclose(limits.max_velocity, expected_velocity)


def test_the_inner_mapping_alone_is_accepted_too(ur5):
    inner = YAML_SHAPE['joint_limits']
    assert parse_joint_limits(inner) == parse_joint_limits(YAML_SHAPE)


@pytest.mark.parametrize('data, message', [
    ({'joint_limits': {'elbow_joint': {'has_acceleration_limits': True}}}, 'max_acceleration'),
    ({'joint_limits': {'elbow_joint': {'has_acceleration_limits': True,
                                       'max_acceleration': -1.0}}}, 'positive'),
    ({'joint_limits': {'elbow_joint': {'has_acceleration_limits': 'yes'}}}, 'true or false'),
    ({'joint_limits': {'elbow_joint': {'max_accel': 1.0}}}, 'unknown keys'),
    ({'joint_limits': {'elbow_joint': 5.0}}, 'mapping'),
    ({'joint_limits': {}, 'extra': 1}, 'unknown keys'),
    ([1.0], 'mapping'),
])
def test_malformed_joint_limits_are_refused(data, message):
    with pytest.raises(InvalidLimitsError, match=message):
        parse_joint_limits(data)


def test_a_joint_without_any_acceleration_limit_is_named(ur5):
    entries = {joint: {'has_acceleration_limits': True, 'max_acceleration': 1.0}
               for joint in ur5.joint_names if joint != 'elbow_joint'}
    with pytest.raises(InvalidLimitsError, match='no acceleration limit for elbow_joint'):
        trajectory_limits(ur5, joint_limits=entries)


@pytest.mark.parametrize('options', [
    {'velocity_scale': 0.0}, {'velocity_scale': 1.5}, {'acceleration_scale': math.nan},
    {'max_path_duration': 0.0}, {'default_acceleration': -2.0},
    {'default_acceleration': math.inf},
])
def test_bad_scales_and_limits_are_refused(ur5, options):
    with pytest.raises(InvalidLimitsError):
        trajectory_limits(ur5, **{'default_acceleration': 1.0, **options})
