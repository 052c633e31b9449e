# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Cartesian paths reach every point of the line, stop where they must, and say why.

Every pose is checked by Pinocchio's forward kinematics against a line built here from the
start pose, not by the library's own kinematics or interpolation.
"""

import math
from pathlib import Path

import numpy as np
import pytest

from ik_solvers import IKError, InvalidSeedError, InvalidSolverOptionError, solve
from ik_solvers.exceptions import InvalidPathError
from ik_solvers.paths import cartesian_path

pinocchio = pytest.importorskip('pinocchio', reason='Pinocchio (PyPI: pin) is the FK reference')

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
UR5_HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
TOLERANCE = 1e-5
JUMP_THRESHOLD = 0.1
# Generous per point: a loaded machine must not turn a reachable point into a timeout.
POINT_TIMEOUT = 1.0


class ReferenceKinematics:
    """Tip pose in the base frame by Pinocchio, for a chain of revolute joints."""

    def __init__(self, file_name: str, chain) -> None:
        self.model = pinocchio.buildModelFromXML(
            (URDF_DIRECTORY / file_name).read_text(encoding='utf-8'))
        self.data = self.model.createData()
        self.base = self.model.getFrameId(chain.base_link)
        self.tip = self.model.getFrameId(chain.tip_link)
        self.indices = [self.model.joints[self.model.getJointId(name)].idx_q
                        for name in chain.joint_names]

    def pose(self, q: np.ndarray) -> np.ndarray:
        configuration = pinocchio.neutral(self.model)
        configuration[self.indices] = q
        pinocchio.framesForwardKinematics(self.model, self.data, configuration)
        return (self.data.oMf[self.base].inverse() * self.data.oMf[self.tip]).homogeneous


def _rotation_angle(first: np.ndarray, second: np.ndarray) -> float:
    cosine = 0.5 * (np.trace(first[:3, :3].T @ second[:3, :3]) - 1.0)
    return math.acos(max(-1.0, min(1.0, cosine)))


def _arm(request, name):
    chain = request.getfixturevalue(name)
    if name == 'ur5':
        return chain, ReferenceKinematics('ur5_like.urdf', chain), UR5_HOME
    return chain, ReferenceKinematics('panda_like.urdf', chain), PANDA_HOME


def _assert_on_line(result, reference, start, direction, length, steps):
    """Every row of the result reaches its point of the ideal line, by the reference FK."""
    for index, q in enumerate(result.positions):
        pose = reference.pose(q)
        expected = start[:3, 3] + direction * length * index / steps
        assert np.linalg.norm(pose[:3, 3] - expected) <= TOLERANCE, index
        assert _rotation_angle(pose, start) <= TOLERANCE, index


@pytest.mark.parametrize('arm', ['ur5', 'panda'])
def test_a_30_cm_line_from_home_is_followed_to_the_end(request, arm):
    chain, reference, home = _arm(request, arm)
    start = reference.pose(home)
    goal = start.copy()
    goal[2, 3] -= 0.3
    result = cartesian_path(chain, [goal], seed=home, max_step=0.001,
                            jump_threshold=JUMP_THRESHOLD, point_timeout=POINT_TIMEOUT)
    assert result.reason == 'complete', result.message
    assert result.fraction == 1.0
    assert result.positions.shape == (301, chain.num_joints)
    assert np.array_equal(result.positions[0], home)
    _assert_on_line(result, reference, start, np.array([0.0, 0.0, -1.0]), 0.3, 300)
    steps = np.abs(np.diff(result.positions, axis=0)).max()
    assert steps <= JUMP_THRESHOLD
    assert result.max_joint_step == pytest.approx(steps)
    assert result.max_position_error <= TOLERANCE
    assert all(chain.within_limits(q) for q in result.positions)


def test_a_square_in_a_vertical_plane_visits_every_corner(panda):
    reference = ReferenceKinematics('panda_like.urdf', panda)
    start = reference.pose(PANDA_HOME)
    corners = []
    for offset in ((0.0, 0.1, 0.0), (0.0, 0.1, -0.1), (0.0, 0.0, -0.1), (0.0, 0.0, 0.0)):
        corner = start.copy()
        corner[:3, 3] += offset
        corners.append(corner)
    result = cartesian_path(panda, corners, seed=PANDA_HOME, max_step=0.005,
                            point_timeout=POINT_TIMEOUT)
    assert result.reason == 'complete', result.message
    assert result.fraction == 1.0
    assert result.positions.shape[0] == 1 + 4 * 20
    for corner_index, corner in enumerate(corners):
        pose = reference.pose(result.positions[20 * (corner_index + 1)])
        assert np.linalg.norm(pose[:3, 3] - corner[:3, 3]) <= TOLERANCE


def test_a_line_leaving_the_workspace_stops_at_its_edge(panda):
    reference = ReferenceKinematics('panda_like.urdf', panda)
    start = reference.pose(PANDA_HOME)
    goal = start.copy()
    goal[0, 3] += 1.0  # far beyond the arm's reach, straight out
    result = cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.01,
                            point_timeout=POINT_TIMEOUT)
    assert result.reason == 'unreachable', result.message
    assert result.handed_over >= 1  # the point it stopped at was the solver's to judge
    reached_steps = result.positions.shape[0] - 1
    assert result.stop_index == reached_steps + 1
    assert result.fraction == pytest.approx(reached_steps / 100.0)
    assert 0.0 < result.fraction < 1.0
    _assert_on_line(result, reference, start, np.array([1.0, 0.0, 0.0]), 1.0, 100)
    # The point where it stopped is out of reach for any start, not only for this branch.
    stop = start.copy()
    stop[0, 3] += 1.0 * result.stop_index / 100.0
    retry = solve(panda, stop, timeout=0.5, max_attempts=200)
    assert not retry.success


def test_a_joint_step_over_the_threshold_is_a_jump_and_nothing_after_it_is_kept(ur5):
    start = ur5.fk(UR5_HOME)
    goal = start.copy()
    goal[2, 3] -= 0.05
    result = cartesian_path(ur5, [goal], seed=UR5_HOME, max_step=0.001, jump_threshold=1e-4,
                            point_timeout=POINT_TIMEOUT)
    assert result.reason == 'jump', result.message
    assert result.fraction == 0.0
    assert result.stop_index == 1
    assert result.handed_over == 1  # the walk takes no step beyond the threshold itself
    assert np.array_equal(result.positions, UR5_HOME[None])


def test_the_relative_jump_test_stops_at_the_first_outsized_step(ur5):
    start = ur5.fk(UR5_HOME)
    goal = start.copy()
    goal[2, 3] -= 0.05
    # A factor below 1 makes some step larger than factor x mean: the first one found stops.
    result = cartesian_path(ur5, [goal], seed=UR5_HOME, max_step=0.001,
                            relative_jump_threshold=0.5, point_timeout=POINT_TIMEOUT)
    assert result.reason == 'jump', result.message
    full = cartesian_path(ur5, [goal], seed=UR5_HOME, max_step=0.001,
                          point_timeout=POINT_TIMEOUT)
    distances = np.linalg.norm(np.diff(full.positions, axis=0), axis=1)
    first = int(np.flatnonzero(distances > 0.5 * distances.mean())[0]) + 1
    assert result.stop_index == first
    assert result.positions.shape[0] == first


def test_points_the_walk_does_not_settle_are_solved_and_the_line_is_followed(panda):
    reference = ReferenceKinematics('panda_like.urdf', panda)
    start = reference.pose(PANDA_HOME)
    goal = start.copy()
    goal[2, 3] -= 0.3
    # 2 cm steps and one damped step each: the walk leaves points to the solver.
    result = cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.02, walk_steps=1,
                            point_timeout=POINT_TIMEOUT)
    assert result.reason == 'complete', result.message
    assert result.fraction == 1.0
    assert 0 < result.handed_over <= 15
    _assert_on_line(result, reference, start, np.array([0.0, 0.0, -1.0]), 0.3, 15)


def test_without_walk_steps_every_point_goes_to_the_solver(panda):
    reference = ReferenceKinematics('panda_like.urdf', panda)
    start = reference.pose(PANDA_HOME)
    goal = start.copy()
    goal[2, 3] -= 0.05
    result = cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.001, walk_steps=0,
                            jump_threshold=JUMP_THRESHOLD, point_timeout=POINT_TIMEOUT)
    assert result.reason == 'complete', result.message
    assert result.handed_over == 50
    _assert_on_line(result, reference, start, np.array([0.0, 0.0, -1.0]), 0.05, 50)
    assert np.abs(np.diff(result.positions, axis=0)).max() <= JUMP_THRESHOLD


def test_a_line_leaving_the_workspace_stops_at_the_same_point_with_or_without_the_walk(panda):
    goal = panda.fk(PANDA_HOME)
    goal[0, 3] += 1.0
    walked, solved = (cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.01,
                                     walk_steps=steps, point_timeout=POINT_TIMEOUT)
                      for steps in (4, 0))
    assert (walked.reason, walked.stop_index, walked.fraction) == (
        solved.reason, solved.stop_index, solved.fraction)
    assert walked.reason == 'unreachable'


class TableCollision:
    """A test collision model: the tool collides below a horizontal plane."""

    class Report:
        def __init__(self, colliding: bool) -> None:
            self.colliding = colliding
            self.pairs = [('tool', 'table')] if colliding else []

    def __init__(self, reference: ReferenceKinematics, height: float) -> None:
        self.reference = reference
        self.height = height
        self.checked = 0

    def check(self, q):
        self.checked += 1
        return self.Report(bool(self.reference.pose(q)[2, 3] < self.height))


def test_a_line_into_an_obstacle_stops_before_it(panda):
    reference = ReferenceKinematics('panda_like.urdf', panda)
    start = reference.pose(PANDA_HOME)
    goal = start.copy()
    goal[2, 3] -= 0.3
    table = TableCollision(reference, start[2, 3] - 0.1005)
    result = cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.001, collision=table,
                            point_timeout=POINT_TIMEOUT)
    assert result.reason == 'collision', result.message
    assert result.stop_index == 101  # 100 mm down is free, 101 mm is in the table
    assert result.fraction == pytest.approx(100 / 300)
    assert result.collision_report.colliding
    assert result.collision_report.pairs == [('tool', 'table')]
    assert all(reference.pose(q)[2, 3] >= table.height for q in result.positions)


def test_a_start_in_collision_reaches_nothing(panda):
    reference = ReferenceKinematics('panda_like.urdf', panda)
    start = reference.pose(PANDA_HOME)
    goal = start.copy()
    goal[2, 3] -= 0.1
    table = TableCollision(reference, start[2, 3] + 0.01)
    result = cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.01, collision=table)
    assert (result.reason, result.fraction, result.stop_index) == ('collision', 0.0, 0)
    assert np.array_equal(result.positions, PANDA_HOME[None])
    assert table.checked == 1


def test_the_path_timeout_keeps_what_was_reached(panda):
    goal = panda.fk(PANDA_HOME)
    goal[2, 3] -= 0.1
    result = cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.001, timeout=1e-9)
    assert result.reason == 'timed_out'
    assert result.fraction == 0.0
    assert result.positions.shape[0] == 1


def _goal_below(chain, q, depth=0.1):
    goal = chain.fk(q)
    goal[2, 3] -= depth
    return goal


@pytest.mark.parametrize('waypoints, message', [
    ([], 'at least one waypoint'),
    ([np.full((4, 4), np.nan)], 'non-finite'),
    ([np.eye(3)], 'shape'),
    ([np.diag([1.0, 1.0, -1.0, 1.0])], 'not a rotation'),
])
def test_bad_waypoints_are_refused(panda, waypoints, message):
    with pytest.raises(InvalidPathError, match=message):
        cartesian_path(panda, waypoints, seed=PANDA_HOME)


@pytest.mark.parametrize('options', [
    {'max_step': 0.0}, {'max_step': -0.01}, {'max_step': math.nan}, {'max_step': math.inf},
    {'max_angle_step': 0.0}, {'jump_threshold': 0.0}, {'jump_threshold': -1.0},
    {'relative_jump_threshold': -1.0}, {'point_timeout': 0.0}, {'timeout': -1.0},
])
def test_bad_steps_thresholds_and_timeouts_are_refused(panda, options):
    with pytest.raises(InvalidPathError):
        cartesian_path(panda, [_goal_below(panda, PANDA_HOME)], seed=PANDA_HOME, **options)


def test_more_points_than_the_cap_are_refused_before_any_solve(panda):
    with pytest.raises(InvalidPathError, match='1001 points.*max_points \\(1000\\)'):
        cartesian_path(panda, [_goal_below(panda, PANDA_HOME, 1.0)], seed=PANDA_HOME,
                       max_step=0.001, max_points=1000)


@pytest.mark.parametrize('seed', [np.zeros(3), np.full(7, np.nan), np.full(7, 10.0)])
def test_a_bad_start_configuration_is_refused(panda, seed):
    with pytest.raises(InvalidSeedError):
        cartesian_path(panda, [_goal_below(panda, PANDA_HOME)], seed=seed)


@pytest.mark.parametrize('walk_steps', [-1, 1.5, True])
def test_bad_walk_steps_are_refused(panda, walk_steps):
    with pytest.raises(InvalidSolverOptionError):
        cartesian_path(panda, [_goal_below(panda, PANDA_HOME)], seed=PANDA_HOME,
                       walk_steps=walk_steps)


def test_every_refusal_belongs_to_the_library_family(panda):
    with pytest.raises(IKError):
        cartesian_path(panda, [], seed=PANDA_HOME)
