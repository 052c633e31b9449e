# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A single-point command keeps the limits at every instant of the controller's cubic.

joint_trajectory_controller joins its state (position and velocity) to a point given with
positions and velocities by a cubic; these tests sample that cubic every millisecond, from rest
and from the motion of the previous command, still running when the next one arrives.
"""

from pathlib import Path

from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.command_gate import publication
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.engine.controller_motion import command_duration, trajectory_duration
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


def _send_checked(engine, outcome, settings, send):
    """Send an outcome's command as the node does: checked and timed as it leaves."""
    with publication(engine.robot, engine.timing, outcome, settings) as checked:
        if checked.command is not None:
            send(checked.command)
    return checked


def _spline(start, velocity, command):
    width = len(command.positions)
    return ControllerSpline([command.duration], [command.positions], np.zeros((1, width)),
                            start_positions=start, start_velocities=velocity)


def _excess(spline, chain, settings):
    return limit_excess(spline.sample_every(0.001),
                        max_velocity=settings.velocity_scale * chain.velocity_limits,
                        max_acceleration=np.full(chain.num_joints, settings.acceleration_limit),
                        lower=chain.lower, upper=chain.upper)


def test_distance_over_velocity_is_too_short_and_the_command_duration_is_not():
    start, goal = np.zeros(2), np.array([1.0, -0.2])
    limits = dict(max_velocity=np.array([1.0, 1.0]), max_acceleration=np.array([5.0, 5.0]))
    old = trajectory_duration(start, goal, limits['max_velocity'], velocity_scale=1.0)
    new = command_duration(start, goal, **limits)
    for duration, within in ((old, False), (new, True)):
        spline = ControllerSpline([duration], [goal], [[0.0, 0.0]], start_positions=start,
                                  start_velocities=[0.0, 0.0])
        excess = limit_excess(spline.sample_every(0.001), **limits)
        assert excess.within() == within, excess
    # From a motion away from the goal the cubic must turn round: still within the limits.
    velocity = np.array([-0.9, 0.5])
    duration = command_duration(start, goal, start_velocity=velocity, lower=[-0.5, -0.5],
                                upper=[1.0, 1.0], **limits)
    spline = ControllerSpline([duration], [goal], [[0.0, 0.0]], start_positions=start,
                              start_velocities=velocity)
    assert limit_excess(spline.sample_every(0.001), lower=[-0.5, -0.5], upper=[1.0, 1.0],
                        **limits).within()


def test_commands_in_a_row_keep_the_limits_from_the_motion_they_interrupt():
    clock = _Clock()
    engine = IKEngine(clock=clock)
    chain = engine.robot.load_description(UR5, '', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, HOME)
    goals = [HOME + np.array([0.6, -0.3, 0.4, 0.5, -0.6, 0.8]),
             HOME + np.array([-0.2, 0.1, -0.3, 0.2, 0.3, -0.4]),
             HOME + np.array([0.3, 0.2, 0.1, -0.3, 0.2, 0.5])]
    start, velocity = HOME, np.zeros(chain.num_joints)
    for goal in goals:
        pose = chain.fk(goal)
        outcome = engine.handle(IKRequest(position=tuple(pose[:3, 3]),
                                          orientation=tuple(xyzw_quaternion(pose)),
                                          execute=True), SETTINGS)
        assert outcome.command is not None, outcome.message
        spline = _spline(start, velocity, outcome.command)
        excess = _excess(spline, chain, SETTINGS)
        assert excess.within(slack=1e-9), excess
        assert max(excess.velocity_ratio, excess.acceleration_ratio) > 0.5  # not idle
        # The next goal arrives a third of the way through, while the arm moves fast.
        clock.now += outcome.command.duration / 3.0
        start, velocity, _ = spline.state_at(outcome.command.duration / 3.0)
        assert np.max(np.abs(velocity)) > 0.1
        engine.robot.joint_states.update(chain.joint_names, start)


@pytest.mark.parametrize('options', [dict(min_duration=0.0), dict(max_velocity=[1.0, 1.0])])
def test_bad_command_duration_options_are_refused(options):
    arguments = dict(max_velocity=[1.0], max_acceleration=[1.0])
    arguments.update(options)
    with pytest.raises(ValueError):
        command_duration([0.0], [1.0], **arguments)


def test_a_command_sent_late_is_timed_from_the_state_the_controller_is_in_when_sent():
    # The controller starts a command when it arrives, from its state then. A command planned
    # just after the previous one started (the arm nearly at rest) and sent later, while the
    # previous one moves fast the other way, must be timed from that later state.
    clock = _Clock()
    engine = IKEngine(clock=clock)
    chain = engine.robot.load_description(UR5, '', 'tool0')
    engine.robot.joint_states.update(chain.joint_names, HOME)

    def request(goal):
        pose = chain.fk(goal)
        return IKRequest(position=tuple(pose[:3, 3]), orientation=tuple(xyzw_quaternion(pose)),
                         execute=True)

    first = engine.handle(request(HOME + np.array([0.5, -0.3, 0.4, 0.5, -0.5, 0.6])), SETTINGS)
    sent = []
    first = _send_checked(engine, first, SETTINGS, sent.append)
    first_spline = _spline(HOME, np.zeros(chain.num_joints), sent[-1])
    clock.now += 0.002
    second = engine.handle(request(HOME + np.array([-0.1, 0.1, -0.1, -0.1, 0.1, -0.1])),
                           SETTINGS)
    assert second.command is not None, second.message
    # Sent a third of the way through the first command, the arm then moving fast.
    late = first.command.duration / 3.0
    clock.now = 100.0 + late
    start, velocity, _ = first_spline.state_at(late)
    assert np.max(np.abs(velocity)) > 0.1
    # As planned, from the state it was planned from, it would break a limit from this one.
    assert not _excess(_spline(start, velocity, second.command), chain, SETTINGS).within(
        slack=1e-9)
    sent_second = _send_checked(engine, second, SETTINGS, sent.append)
    assert sent_second.command is not None and sent[-1] == sent_second.command
    excess = _excess(_spline(start, velocity, sent[-1]), chain, SETTINGS)
    assert excess.within(slack=1e-9), excess
    # The arrival allowance: the state 10 ms later is covered as well.
    start, velocity, _ = first_spline.state_at(late + 0.01)
    assert _excess(_spline(start, velocity, sent[-1]), chain, SETTINGS).within(slack=1e-9)


def test_the_motion_sampled_at_several_times_at_once_gives_each_state_alone():
    from ik_solvers.engine.controller_motion import CommandedMotion
    rng = np.random.default_rng(3)
    names = ('a', 'b', 'c')
    motion = CommandedMotion()
    assert motion.states(names, (0.0, 1.0)) == [(None, pytest.approx(np.zeros(3)))] * 2
    for _ in range(200):
        start, goal, velocity = (rng.uniform(-1.0, 1.0, 3) for _ in range(3))
        duration = rng.uniform(0.05, 1.0)
        motion.record(names, ControllerSpline([duration], [goal], np.zeros((1, 3)),
                                              start_positions=start,
                                              start_velocities=velocity), 10.0)
        # Times before, during and after the motion, in any order.
        times = 10.0 + rng.uniform(-0.1, 1.2 * duration, int(rng.integers(1, 4)))
        for asked in (names, ('a', 'b')):
            together = motion.states(asked, times)
            for time, (position, velocity) in zip(times, together):
                alone = motion.state(asked, time)
                assert (position is None) == (alone[0] is None)
                assert position is None or np.array_equal(position, alone[0])
                assert np.array_equal(velocity, alone[1])
