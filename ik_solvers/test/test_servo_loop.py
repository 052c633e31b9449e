# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Servoing's cycle: tracking, singularities, joint limits, timeouts, obstacles, bad input."""

import math
from pathlib import Path

import numpy as np
import pytest

from ik_solvers.collision import (Box, CollisionModel, load_robot_geometry, Obstacle,
                                  ObstacleSet, Primitive)
from ik_solvers.servo.servo_command import (JointJogCommand, ServoSettings, TwistCommand)
from ik_solvers.servo.servo_limits import velocity_box
from ik_solvers.servo.servo_loop import ServoLoop
from ik_solvers.exceptions import IKError, InvalidParameterError
from ik_solvers.kinematics import RobotModel
from ik_solvers.solvers import SOLVERS


URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
SETTINGS = ServoSettings(rate=100.0, incoming_command_timeout=0.1)
# An elbow-bent UR pose well away from every singularity.
UR_START = np.array([0.3, -1.2, 1.5, -1.0, 1.2, 0.4])


def _run(loop: ServoLoop, command, cycles: int, start_time: float = 0.0):
    steps = []
    for cycle in range(cycles):
        now = start_time + cycle * loop.settings.period
        if command is not None:
            loop.command(_restamped(command, now))
        steps.append(loop.step(now))
    return steps


def _restamped(command, now: float):
    if isinstance(command, TwistCommand):
        return TwistCommand(command.linear, command.angular, command.frame, received=now)
    return JointJogCommand(command.velocities, received=now)


def _accelerations(steps, start_velocity, period: float) -> np.ndarray:
    velocities = np.array([start_velocity] + [step.velocities for step in steps])
    return np.abs(np.diff(velocities, axis=0)) / period


@pytest.mark.parametrize('solver', SOLVERS)
def test_a_twist_away_from_singularities_is_tracked_in_speed_and_direction(ur5, solver):
    loop = ServoLoop(ur5, SETTINGS, solver=solver)
    loop.start(UR_START)
    twist = TwistCommand(linear=(0.05, -0.03, 0.02), angular=(0.0, 0.0, 0.2))
    steps = _run(loop, twist, 80)
    pose_before = ur5.fk(steps[59].positions)
    pose_after = ur5.fk(steps[60].positions)
    achieved = (pose_after[:3, 3] - pose_before[:3, 3]) / SETTINGS.period
    wanted = np.array(twist.linear)
    cosine = achieved @ wanted / (np.linalg.norm(achieved) * np.linalg.norm(wanted))
    assert np.linalg.norm(achieved) >= 0.95 * np.linalg.norm(wanted)
    assert math.degrees(math.acos(min(1.0, cosine))) <= 2.0
    assert steps[60].fraction >= 0.95
    assert steps[60].limiter == 'none'


def test_at_a_wrist_singularity_the_arm_keeps_moving_along_the_achievable_part(ur5):
    """Wrist axes aligned: a turn about the singular direction plus a translation."""
    start = UR_START.copy()
    start[4] = 0.0
    jacobian = ur5.jacobian(start)
    values = np.linalg.svd(jacobian, compute_uv=False)
    assert values[-1] < 1e-9 * values[0]  # the start is singular indeed
    loop = ServoLoop(ur5, SETTINGS, solver='ccd')
    loop.start(start)
    twist = TwistCommand(linear=(0.0, 0.0, 0.05), angular=(0.3, 0.3, 0.0))
    steps = _run(loop, twist, 60)
    assert all(step.moving for step in steps)
    assert all(step.fraction > 0.0 for step in steps[5:])
    travel = ur5.fk(steps[-1].positions)[:3, 3] - ur5.fk(start)[:3, 3]
    assert travel[2] > 0.5 * 0.05 * 0.6  # the achievable translation went on
    assert np.max(_accelerations(steps, np.zeros(6), SETTINGS.period)) \
        <= SETTINGS.acceleration_limit * (1 + 1e-9)


@pytest.mark.parametrize('solver', SOLVERS)
def test_pushed_past_the_edge_of_the_workspace_the_tip_never_goes_back(ur5, solver):
    """
    Straight out from the shoulder, then on past the reach: the elbow stretches.

    With bounded acceleration the arm brakes before the elbow is straight. Running through
    the straight elbow at speed onto the other branch, it would carry the tip back toward
    the shoulder against the command, then out again, over and over.
    """
    loop = ServoLoop(ur5, SETTINGS, solver=solver)
    loop.start(UR_START)
    frames, tip = ur5.joint_frames(UR_START)
    outward = tip[:3, 3] - frames[1, :3, 3]
    outward /= np.linalg.norm(outward)
    twist = TwistCommand(linear=tuple(0.1 * outward), angular=(0.0, 0.0, 0.0))
    steps = _run(loop, twist, 500)
    tips = np.array([ur5.fk(UR_START)[:3, 3]] + [ur5.fk(step.positions)[:3, 3]
                                                 for step in steps])
    along = np.diff(tips, axis=0) @ outward
    assert tips[-1] @ outward - tips[0] @ outward > 0.15  # it went out to the edge
    assert np.min(along) > -1e-5  # and never came back
    assert all(step.moving for step in steps[:100])
    assert np.max(_accelerations(steps, np.zeros(6), SETTINGS.period)) \
        <= SETTINGS.acceleration_limit * (1 + 1e-9)


def test_a_joint_brakes_to_stop_at_its_limit_and_the_others_go_on(ur5):
    loop = ServoLoop(ur5, SETTINGS)
    start = UR_START.copy()
    start[0] = ur5.upper[0] - 0.05
    loop.start(start)
    jog = JointJogCommand({ur5.joint_names[0]: 1.0, ur5.joint_names[2]: -0.2})
    steps = _run(loop, jog, 200)
    positions = np.array([step.positions for step in steps])
    assert np.max(positions[:, 0]) <= ur5.upper[0]
    assert positions[-1, 0] > ur5.upper[0] - 1e-3  # it reached the limit
    assert abs(steps[-1].velocities[0]) < 1e-9
    assert steps[-1].velocities[2] == pytest.approx(-0.2)
    assert any(step.limiter == 'joint_limit' for step in steps)
    assert np.max(_accelerations(steps, np.zeros(6), SETTINGS.period)) \
        <= SETTINGS.acceleration_limit * (1 + 1e-9)


def test_a_command_not_renewed_decelerates_to_rest_within_the_limits(ur5):
    loop = ServoLoop(ur5, SETTINGS)
    loop.start(UR_START)
    _run(loop, TwistCommand(linear=(0.1, 0.0, 0.0), angular=(0.0, 0.0, 0.0)), 40)
    moving = loop.step(0.4)
    assert moving.moving and np.max(np.abs(moving.velocities)) > 0.01
    steps = [loop.step(0.4 + SETTINGS.period * k) for k in range(1, 100)]
    assert not steps[-1].moving
    assert np.max(_accelerations(steps, moving.velocities, SETTINGS.period)) \
        <= SETTINGS.acceleration_limit * (1 + 1e-9)


def test_the_box_never_lets_a_joint_overrun_its_limit():
    lower, upper = np.array([-1.0]), np.array([1.0])
    q, v = np.array([0.0]), np.array([0.0])
    period, acceleration = 0.01, 5.0
    for _ in range(400):
        box = velocity_box(q, v, lower=lower, upper=upper, velocity_limit=np.array([2.0]),
                           acceleration=acceleration, period=period)
        following = box.high  # always the fastest allowed toward the upper limit
        assert abs(following[0] - v[0]) <= acceleration * period + 1e-12
        q, v = q + 0.5 * (v + following) * period, following
        assert q[0] <= upper[0] + 1e-12
    assert q[0] > upper[0] - 1e-3


def test_the_arm_stops_before_an_obstacle_it_is_driven_into():
    model = RobotModel.from_urdf((URDF_DIRECTORY / 'ur5_like.urdf').read_text())
    chain = model.chain('base_link', 'tool0')
    tip = chain.fk(UR_START)[:3, 3]
    pose = np.eye(4)
    pose[:3, 3] = tip + np.array([0.0, 0.0, 0.25])  # a 0.2 m box whose face is 0.15 m above
    padding = 0.01
    obstacles = ObstacleSet().apply(Obstacle('box', pose, (Primitive(Box((0.2, 0.2, 0.2))),)))
    collision = CollisionModel(model, chain, load_robot_geometry(model), padding=padding,
                               obstacles=obstacles)
    loop = ServoLoop(chain, SETTINGS, collision_model=collision)
    loop.start(UR_START)
    steps = _run(loop, TwistCommand(linear=(0.0, 0.0, 0.1), angular=(0.0, 0.0, 0.0)), 600)
    bare = collision.with_padding(0.0)
    assert not any(bare.check(step.positions).colliding for step in steps)
    clearance = bare.obstacle_distance(steps[-1].positions)
    assert 0.0 < clearance <= padding + 0.01
    assert steps[-1].limiter == 'obstacle'


def test_bad_commands_are_refused_with_a_clear_error(ur5):
    loop = ServoLoop(ur5, SETTINGS)
    with pytest.raises(IKError, match='not_a_joint'):
        loop.command(JointJogCommand({'not_a_joint': 0.1}))
    with pytest.raises(InvalidParameterError):
        TwistCommand(linear=(math.inf, 0.0, 0.0), angular=(0.0, 0.0, 0.0))
    with pytest.raises(InvalidParameterError):
        TwistCommand(linear=(0.0, 0.0, 0.0), angular=(0.0, 0.0, 0.0), frame='world')
    with pytest.raises(InvalidParameterError):
        ServoSettings(rate=1000.0)
    assert loop.step(0.0) is None  # not started: nothing to command


@pytest.mark.parametrize('rate', [100.0, 500.0])
def test_a_twist_turned_at_speed_never_backs_the_tip_off_along_the_new_command(ur5, rate):
    """
    Moving at 2 cm/s along x, the command turns to y; the arm cannot shed x at once.

    Keeping the new direction first while the old motion is shed must not carry the tip
    backward along the new command for the cycles the turn takes. The first point after the
    turn is not judged: half of its motion is the velocity the arm had (the point is
    ``q + (v + v') T / 2``), whatever the new velocity.
    """
    settings = ServoSettings(rate=rate)
    rng = np.random.default_rng(0)
    width = np.clip(ur5.upper - ur5.lower, -10.0, 10.0)
    worst = math.inf
    for _ in range(12):
        start = ur5.clip(ur5.mid_configuration() + 0.25 * width * rng.uniform(-1.0, 1.0, 6))
        loop = ServoLoop(ur5, settings, solver='ccd')
        loop.start(start)
        along_x = TwistCommand(linear=(0.02, 0.0, 0.0), angular=(0.0, 0.0, 0.0))
        steps = _run(loop, along_x, int(0.06 * rate))
        turned = TwistCommand(linear=(0.0, 0.02, 0.0), angular=(0.0, 0.0, 0.0))
        after = _run(loop, turned, 10, start_time=len(steps) * settings.period)
        tips = np.array([ur5.fk(step.positions)[:3, 3] for step in [steps[-1]] + after])
        worst = min(worst, float(np.min(np.diff(tips[1:, 1]))))
        assert tips[-1, 1] - tips[0, 1] > 0.0  # it went along the new command
    assert worst > -1e-9


def test_the_status_fraction_is_right_for_a_slow_turn_of_the_tool(ur5):
    """
    A twist turning the tool by about a microradian per cycle is followed in full.

    The status's achieved fraction compares the cycle's turn with the command's, and a turn
    that small must still be measured as one (a log map taken from an eigenvector is not).
    """
    rng = np.random.default_rng(0)
    for _ in range(20):
        start = UR_START + rng.uniform(-0.3, 0.3, 6)
        loop = ServoLoop(ur5, SETTINGS, solver='jacobian_transpose')
        loop.start(start)
        axis = rng.normal(size=3)
        twist = TwistCommand(linear=(0.0, 0.0, 0.0),
                             angular=tuple(1e-4 * axis / np.linalg.norm(axis)))
        steps = _run(loop, twist, 60)
        fractions = np.array([step.fraction for step in steps[30:]])  # after the ease
        assert np.all(fractions > 0.9)
