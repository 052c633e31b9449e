# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Cartesian path requests to the engine, without ROS: the path, the command and every code."""

import math
from pathlib import Path

import numpy as np
import pytest

from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.path_request import PathRequest, PathWaypoint
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
# A generous per-point timeout: a loaded machine must not stop a reachable path.
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5, cartesian_timeout=10.0,
                        position_tolerance=1e-5, orientation_tolerance=1e-5)


@pytest.fixture
def engine():
    engine = IKEngine()
    chain = engine.robot.load_description(URDF, '', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, HOME)
    return engine


def _waypoint(pose, frame_id=''):
    return PathWaypoint(position=tuple(pose[:3, 3]), orientation=tuple(xyzw_quaternion(pose)),
                        frame_id=frame_id)


def _down(engine, depth=0.1):
    goal = engine.robot.chain('', 'tool0').fk(HOME)
    goal[2, 3] -= depth
    return goal


def test_a_line_is_solved_timed_and_not_commanded_without_execute(engine):
    chain = engine.robot.chain('', 'tool0')
    start = chain.fk(HOME)
    outcome = engine.handle_path(PathRequest(waypoints=[_waypoint(_down(engine))],
                                             max_step=0.002), SETTINGS)
    assert outcome.code == ErrorCode.SUCCESS, outcome.message
    assert outcome.fraction == 1.0 and outcome.command is None
    trajectory = outcome.trajectory
    assert trajectory.positions.shape == (51, 6)
    assert np.allclose(trajectory.positions[0], HOME)
    for index, q in enumerate(trajectory.positions):
        expected = start[:3, 3] + np.array([0.0, 0.0, -0.1 * index / 50])
        assert np.linalg.norm(chain.fk(q)[:3, 3] - expected) <= 1e-5
    assert np.all(np.abs(trajectory.velocities) <= 0.5 * chain.velocity_limits + 1e-9)
    assert np.all(np.abs(trajectory.accelerations) <= 5.0 + 1e-9)


def test_with_execute_the_command_starts_at_the_joint_states(engine):
    outcome = engine.handle_path(PathRequest(waypoints=[_waypoint(_down(engine))],
                                             execute=True), SETTINGS)
    assert outcome.code == ErrorCode.SUCCESS, outcome.message
    command = outcome.command
    assert command is not None and command.positions.shape[0] > 2
    assert np.allclose(command.positions[0], HOME)
    assert command.times[0] == 0.0 and np.all(np.diff(command.times) > 0.0)
    assert not command.velocities[[0, -1]].any()
    assert 'commanded' in outcome.message


def test_a_waypoint_in_a_link_frame_is_resolved(engine):
    chain = engine.robot.chain('', 'tool0')
    goal = _down(engine, 0.05)
    # The same goal, given in the frame of the first link (the root link is the base here).
    outcome = engine.handle_path(PathRequest(waypoints=[_waypoint(goal, 'base_link')]),
                                 SETTINGS)
    assert outcome.code == ErrorCode.SUCCESS, outcome.message
    assert np.linalg.norm(chain.fk(outcome.trajectory.positions[-1])[:3, 3] - goal[:3, 3]) \
        <= 1e-5


def test_a_line_out_of_reach_returns_its_reachable_part_with_no_solution(engine):
    goal = _down(engine, 0.0)
    goal[0, 3] -= 2.0
    outcome = engine.handle_path(PathRequest(waypoints=[_waypoint(goal)], max_step=0.02,
                                             execute=True), SETTINGS)
    assert outcome.code == ErrorCode.NO_SOLUTION
    assert 0.0 < outcome.fraction < 1.0
    assert outcome.command is None
    assert 'execute_partial' in outcome.message
    partial = engine.handle_path(PathRequest(waypoints=[_waypoint(goal)], max_step=0.02,
                                             execute=True, execute_partial=True), SETTINGS)
    assert partial.code == ErrorCode.NO_SOLUTION
    assert partial.command is not None
    assert partial.command.positions.shape[0] == partial.trajectory.positions.shape[0]


def _code(engine, request, settings=SETTINGS):
    return engine.handle_path(request, settings).code


def test_every_bad_request_gets_its_code(engine):
    good = _waypoint(_down(engine))
    nan = PathWaypoint(position=(math.nan, 0.0, 0.0), orientation=(0.0, 0.0, 0.0, 1.0))
    cases = [
        (PathRequest(waypoints=[]), ErrorCode.INVALID_TARGET),
        (PathRequest(waypoints=[good, nan]), ErrorCode.INVALID_TARGET),
        (PathRequest(waypoints=[PathWaypoint((0.3, 0.0, 0.3), (0.0, 0.0, 0.0, 0.0))]),
         ErrorCode.INVALID_TARGET),
        (PathRequest(waypoints=[good], max_step=-0.01), ErrorCode.INVALID_STEP),
        (PathRequest(waypoints=[good], max_step=math.nan), ErrorCode.INVALID_STEP),
        (PathRequest(waypoints=[good], jump_threshold=-1.0), ErrorCode.INVALID_STEP),
        (PathRequest(waypoints=[good], max_step=1e-5), ErrorCode.TOO_MANY_POINTS),
        (PathRequest(waypoints=[_waypoint(_down(engine), 'no_such_frame')]),
         ErrorCode.UNKNOWN_FRAME),
        (PathRequest(waypoints=[good], solver='no_such_solver'), ErrorCode.UNKNOWN_SOLVER),
        (PathRequest(waypoints=[good], timeout=-1.0), ErrorCode.INVALID_TIMEOUT),
        (PathRequest(waypoints=[good], velocity_scale=1.5), ErrorCode.INVALID_LIMITS),
        (PathRequest(waypoints=[good], avoid_collisions=True),
         ErrorCode.COLLISION_CHECKING_UNAVAILABLE),
        (PathRequest(waypoints=[good], execute=True, start_names=('shoulder_pan_joint',),
                     start_positions=(0.0,)), ErrorCode.INVALID_SEED),
        (PathRequest(waypoints=[good], start_names=('no_such_joint',), start_positions=(0.0,)),
         ErrorCode.INVALID_SEED),
    ]
    for request, code in cases:
        assert _code(engine, request) == code, request


def test_a_path_slower_than_max_path_duration_is_refused(engine):
    settings = NodeSettings(tip_link='tool0', timeout=0.5, cartesian_timeout=10.0,
                            max_path_duration=0.01)
    assert _code(engine, PathRequest(waypoints=[_waypoint(_down(engine))]), settings) == \
        ErrorCode.PATH_TOO_LONG


def test_no_model_means_no_robot_model():
    outcome = IKEngine().handle_path(PathRequest(waypoints=[PathWaypoint(
        (0.3, 0.0, 0.3), (0.0, 0.0, 0.0, 1.0))]), SETTINGS)
    assert outcome.code == ErrorCode.NO_ROBOT_MODEL


def test_per_joint_acceleration_limits_from_the_yaml_shape_are_kept(engine):
    limits = {'joint_limits': {'shoulder_lift_joint': {'has_acceleration_limits': True,
                                                       'max_acceleration': 0.5}}}
    outcome = engine.handle_path(PathRequest(waypoints=[_waypoint(_down(engine))]), SETTINGS,
                                 joint_limits=limits)
    assert outcome.code == ErrorCode.SUCCESS, outcome.message
    accelerations = np.abs(outcome.trajectory.accelerations)
    assert accelerations[:, 1].max() <= 0.5 + 1e-9
    assert accelerations.max() <= 5.0 + 1e-9


class _Table:
    """A test collision model: the tool collides below a horizontal plane."""

    class Report:
        def __init__(self, colliding):
            self.colliding = colliding
            self.pairs = (('tool0', 'table'),) if colliding else ()

    def __init__(self, chain, height):
        self.chain, self.height = chain, height

    def check(self, q):
        return self.Report(bool(self.chain.fk(q)[2, 3] < self.height))


def test_with_avoid_collisions_a_line_into_an_obstacle_stops_before_it(engine):
    chain = engine.robot.chain('', 'tool0')
    table = _Table(chain, chain.fk(HOME)[2, 3] - 0.0505)
    request = PathRequest(waypoints=[_waypoint(_down(engine))], max_step=0.001,
                          avoid_collisions=True)
    outcome = engine.handle_path(request, SETTINGS, collision=table)
    assert outcome.code == ErrorCode.IN_COLLISION, outcome.message
    assert outcome.fraction == pytest.approx(0.5)
    assert all(chain.fk(q)[2, 3] >= table.height for q in outcome.trajectory.positions)
    # Without avoid_collisions the model is not asked.
    free = engine.handle_path(PathRequest(waypoints=[_waypoint(_down(engine))]), SETTINGS,
                              collision=table)
    assert free.code == ErrorCode.SUCCESS
