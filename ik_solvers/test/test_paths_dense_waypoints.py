# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A line given as thousands of waypoints is timed as the same line given as two; corners stay."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.path_request import PathRequest, PathWaypoint
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.exceptions import PathTooLongError, TimeParametrizationError
from ik_solvers.kinematics import RobotModel
from ik_solvers.paths import cartesian_path, time_parametrize, trajectory_limits
from ik_solvers.paths.path_corners import path_corners
from ik_solvers.reach.named_robots import snake_robot

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
PANDA_READY = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
# A generated 7-joint arm (hinges about z and y in turn) bent within its limits; its line runs
# towards the base.
SNAKE_BENT = np.array([0.2, 0.7, -0.3, 0.8, 0.3, 0.6, -0.2])


def _panda():
    model = RobotModel.from_urdf((URDF_DIRECTORY / 'panda_like.urdf').read_text())
    return model.chain('panda_link0', 'panda_hand_tcp'), PANDA_READY, np.array([0.0, 0.0, -1.0])


def _snake():
    robot = snake_robot(7)
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    return chain, SNAKE_BENT, np.array([-1.0, 0.0, 0.0])


def _line(start, direction, length, count):
    poses = []
    for share in np.linspace(0.0, 1.0, count):
        pose = start.copy()
        pose[:3, 3] += share * length * direction
        poses.append(pose)
    return poses


def _duration(arm, length, count):
    chain, home, direction = arm
    limits = trajectory_limits(chain, default_acceleration=5.0, velocity_scale=0.5,
                               max_path_duration=3600.0)
    result = cartesian_path(chain, _line(chain.fk(home), direction, length, count), seed=home,
                            max_step=0.001, limits=limits, max_points=max(10000, count + 1))
    assert result.complete, result.message
    return result


@pytest.mark.parametrize('make_arm, length, count', [
    (_panda, 0.02, 2001), (_panda, 0.2, 10000), (_snake, 0.02, 10000), (_snake, 0.2, 2001)],
    ids=['panda_2cm_2001', 'panda_20cm_10000', 'snake7_2cm_10000', 'snake7_20cm_2001'])
def test_a_line_given_densely_takes_the_time_of_the_line_given_by_its_ends(
        make_arm, length, count):
    arm = make_arm()
    sparse = _duration(arm, length, 2)
    dense = _duration(arm, length, count)
    assert dense.positions.shape[0] == count  # every waypoint was solved ...
    # ... and confirmed by forward kinematics within the tolerance.
    assert dense.max_position_error <= 1e-5 and dense.max_orientation_error <= 1e-5
    ratio = dense.trajectory.duration / sparse.trajectory.duration
    assert 0.9 <= ratio <= 1.1, (sparse.trajectory.duration, dense.trajectory.duration)


def test_the_timed_dense_line_passes_its_corner_and_stays_on_its_lines():
    chain, home, _ = _panda()
    start = chain.fk(home)
    corner = start.copy()
    corner[2, 3] -= 0.02
    # Down 2 cm, then sideways 2 cm, each given as 1,000 waypoints 20 um apart.
    waypoints = (_line(start, np.array([0.0, 0.0, -1.0]), 0.02, 1001)[1:]
                 + _line(corner, np.array([0.0, 1.0, 0.0]), 0.02, 1001)[1:])
    limits = trajectory_limits(chain, default_acceleration=5.0, velocity_scale=0.5)
    result = cartesian_path(chain, waypoints, seed=home, max_step=0.001, limits=limits)
    assert result.complete, result.message
    trajectory = result.trajectory
    assert trajectory.positions.shape[0] < 100  # timed through few points ...
    tips = chain.fk_batch(trajectory.positions)[:, :3, 3]
    # ... the corner among them,
    assert np.min(np.linalg.norm(tips - corner[:3, 3], axis=1)) <= 1e-5
    # and between them the tool stays near one of the two lines.
    samples, _, _ = trajectory.sample(np.linspace(0.0, trajectory.duration, 2000))
    between = chain.fk_batch(samples)[:, :3, 3] - corner[:3, 3]
    off_down = np.hypot(between[:, 0], between[:, 1])
    off_side = np.hypot(between[:, 0], between[:, 2])
    assert np.max(np.minimum(off_down, off_side)) <= 1e-4


def test_waypoints_within_the_tolerances_of_a_line_are_no_corners():
    poses = np.tile(np.eye(4), (101, 1, 1))
    poses[:, 0, 3] = np.linspace(0.0, 0.01, 101)
    rng = np.random.default_rng(4)
    poses[1:-1, 1, 3] = rng.uniform(-0.5e-5, 0.5e-5, 99)  # jitter within 1e-5 m
    travel = np.linspace(0.0, 1.0, 101)
    assert list(path_corners(poses, travel, position_tolerance=1e-5,
                             orientation_tolerance=1e-5)) == [0, 100]
    poses[60, 1, 3] = 3e-5  # a bump of 3 tolerances is a corner
    assert 60 in path_corners(poses, travel, position_tolerance=1e-5, orientation_tolerance=1e-5)


def test_a_timing_over_max_path_duration_is_path_too_long_and_no_timing_is_not():
    chain, home, _ = _panda()
    limits = trajectory_limits(chain, default_acceleration=5.0, max_path_duration=0.01)
    path = np.array([home, home + 0.5])
    with pytest.raises(PathTooLongError):
        time_parametrize(path, limits)
    assert issubclass(PathTooLongError, TimeParametrizationError)


def test_the_node_times_5000_waypoints_4_um_apart_and_names_a_timing_failure_apart(
        monkeypatch):
    engine = IKEngine()
    chain = engine.robot.load_description(
        (URDF_DIRECTORY / 'panda_like.urdf').read_text(), '', 'panda_hand_tcp')
    engine.robot.joint_states.update(chain.joint_names, PANDA_READY)
    start = chain.fk(PANDA_READY)
    waypoints = [PathWaypoint(position=tuple(pose[:3, 3]),
                              orientation=tuple(xyzw_quaternion(pose)))
                 for pose in _line(start, np.array([0.0, 0.0, -1.0]), 0.02, 5001)[1:]]
    settings = NodeSettings(tip_link='panda_hand_tcp', timeout=0.5, cartesian_timeout=10.0,
                            position_tolerance=1e-5, orientation_tolerance=1e-5)
    outcome = engine.handle_path(PathRequest(waypoints=waypoints, max_step=0.001), settings)
    assert outcome.code == ErrorCode.SUCCESS, outcome.message
    assert outcome.trajectory.duration < 1.0
    assert ErrorCode.TIMING_FAILED not in (ErrorCode.PATH_TOO_LONG, ErrorCode.SUCCESS)

    def no_timing(*args, **kwargs):
        raise TimeParametrizationError('toppra found no timing of the path within the '
                                       'velocity and acceleration limits')

    monkeypatch.setattr('ik_solvers.engine.path_pipeline.cartesian_path', no_timing)
    failed = engine.handle_path(PathRequest(waypoints=waypoints[-1:]), settings)
    assert failed.code == ErrorCode.TIMING_FAILED, failed.message
    assert 'no timing' in failed.message
