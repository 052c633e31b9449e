# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A command keeps the limits from the state the arm is really in when it arrives.

joint_trajectory_controller splices a command from its own state at arrival (position and
velocity), not from the node's model of it. These tests give the node a joint state that says
the arm moves (with its velocity, a few milliseconds old), let a command arrive a little later,
and replay the controller's cubic from the state the arm is then in, sampled every 1 ms.
"""

from pathlib import Path

from ik_solvers.engine.arrival_states import box_corners, extrapolated_bounds
from ik_solvers.engine.command_gate import publication
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.paths.controller_spline import ControllerSpline, limit_excess
import numpy as np
import pytest

UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
SETTINGS = NodeSettings(tip_link='tool0', timeout=0.5, max_joint_jump=0.0)


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def _request(chain, goal):
    pose = chain.fk(goal)
    return IKRequest(position=tuple(pose[:3, 3]), orientation=tuple(xyzw_quaternion(pose)),
                     execute=True)


def _played_excess(chain, start, velocity, command):
    """Sample the cubic from ``(start, velocity)`` to a one-point command every 1 ms."""
    spline = ControllerSpline([command.duration], [command.positions],
                              np.zeros((1, chain.num_joints)), start_positions=start,
                              start_velocities=velocity)
    return limit_excess(spline.sample_every(0.001),
                        max_velocity=SETTINGS.velocity_scale * chain.velocity_limits,
                        max_acceleration=np.full(chain.num_joints, SETTINGS.acceleration_limit),
                        lower=chain.lower, upper=chain.upper)


@pytest.mark.parametrize('age, delivery', [(0.003, 0.0), (0.004, 0.002), (0.005, 0.004)])
@pytest.mark.parametrize('sign', [1.0, -1.0])
def test_a_command_that_meets_a_moving_arm_keeps_the_limits_from_its_state_at_arrival(
        age, delivery, sign):
    clock = _Clock()
    engine = IKEngine(clock=clock)
    chain = engine.robot.load_description(UR5, '', 'tool0')
    # The arm moves at about 0.27 rad/s (moved by something the node did not command, or
    # played differently from the node's model); the joint state says so.
    velocity = sign * np.array([0.27, -0.2, 0.27, 0.1, -0.27, 0.27])
    engine.robot.joint_states.update(chain.joint_names, HOME, velocity)
    clock.now += age
    # A goal close by: from rest the shortest duration would do.
    goal = HOME + np.array([0.01, 0.0, -0.01, 0.0, 0.01, 0.0])
    outcome = engine.handle(_request(chain, goal), SETTINGS)
    assert outcome.command is not None, outcome.message
    with publication(engine.robot, engine.timing, outcome, SETTINGS) as checked:
        command = checked.command
    assert command is not None
    # Where the arm is when the command reaches the controller.
    elapsed = age + delivery
    excess = _played_excess(chain, HOME + velocity * elapsed, velocity, command)
    assert excess.velocity_ratio <= 1.0 and excess.acceleration_ratio <= 1.0, excess
    # Not idle: the limits are used, not a duration far beyond what is needed.
    assert max(excess.velocity_ratio, excess.acceleration_ratio) > 0.3, excess


def _duration_from_rest(velocities, age):
    clock = _Clock()
    engine = IKEngine(clock=clock)
    chain = engine.robot.load_description(UR5, '', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, HOME, velocities)
    clock.now += age
    goal = HOME + np.array([0.01, 0.0, -0.01, 0.0, 0.01, 0.0])
    outcome = engine.handle(_request(chain, goal), SETTINGS)
    assert outcome.command is not None, outcome.message
    return outcome.command.duration


def test_an_arm_at_rest_is_not_slowed_by_the_age_of_its_joint_state():
    # Without velocities, or with zeros, an arm the node never moved stays where it is.
    fresh = _duration_from_rest((), 0.0)
    assert _duration_from_rest((), 0.004) == pytest.approx(fresh)
    assert _duration_from_rest(np.zeros(6), 0.004) == pytest.approx(fresh)
    # A moving arm takes longer for the same small step.
    assert _duration_from_rest(np.full(6, 0.27), 0.004) > 1.2 * fresh


def test_the_box_of_arrival_states_holds_every_state_a_bounded_motion_reaches():
    rng = np.random.default_rng(5)
    acceleration, limit = np.full(3, 5.0), np.full(3, 1.0)
    for _ in range(200):
        position, velocity = rng.uniform(-1.0, 1.0, 3), rng.uniform(-0.9, 0.9, 3)
        age, latency = rng.uniform(0.0, 0.05), rng.uniform(0.0, 0.02)
        (p_low, v_low), (p_high, v_high) = extrapolated_bounds(
            position, velocity, age, latency, acceleration, limit)
        # Any constant acceleration within the bound, run for any time in the window.
        push = rng.uniform(-5.0, 5.0, 3)
        time = rng.uniform(age, age + latency)
        speed = np.clip(velocity + push * time, -limit, limit)
        reached = position + velocity * time + 0.5 * push * time ** 2
        assert np.all(p_low <= reached + 1e-12) and np.all(reached <= p_high + 1e-12)
        assert np.all(v_low <= speed + 1e-12) and np.all(speed <= v_high + 1e-12)
    corners = box_corners([(np.zeros(2), np.ones(2)), (np.array([1.0, -1.0]), np.zeros(2))])
    assert len(corners) == 4
    assert np.array_equal(corners[0][0], [0.0, -1.0]) and np.array_equal(corners[3][1], [1, 1])


@pytest.mark.parametrize('age, latency', [(-0.001, 0.0), (0.0, float('nan')),
                                          (float('inf'), 0.0)])
def test_bad_times_are_refused(age, latency):
    with pytest.raises(ValueError):
        extrapolated_bounds(np.zeros(1), np.zeros(1), age, latency, np.ones(1))
