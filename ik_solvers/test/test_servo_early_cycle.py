# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A changed command starts a cycle at once, from where the controller is along its point."""

import numpy as np
import pytest

from ik_solvers.paths.controller_spline import ControllerSpline
from ik_solvers.servo.early_cycle import asks_for_other_velocities, state_within_cycle
from ik_solvers.servo.servo_command import JointJogCommand, ServoSettings, TwistCommand
from ik_solvers.servo.servo_loop import ServoLoop

SETTINGS = ServoSettings(rate=100.0, incoming_command_timeout=0.1)
UR_START = np.array([0.3, -1.2, 1.5, -1.0, 1.2, 0.4])


def test_the_state_within_a_cycle_is_the_controllers_cubic_between_the_two_points():
    rng = np.random.default_rng(4)
    period = 0.01
    start, v0, v1 = rng.normal(size=6), rng.normal(size=6), rng.normal(size=6)
    end = start + 0.5 * (v0 + v1) * period  # how the loop places each point
    spline = ControllerSpline([period], [end], [v1], start_positions=start, start_velocities=v0)
    for elapsed in (0.0, 0.0013, 0.005, 0.0099):
        sample = spline.sample([elapsed])
        positions, velocities = state_within_cycle(start, v0, v1, period, elapsed)
        assert positions == pytest.approx(sample.positions[0], abs=1e-12)
        assert velocities == pytest.approx(sample.velocities[0], abs=1e-9)
    with pytest.raises(ValueError):
        state_within_cycle(start, v0, v1, period, 0.02)


def test_only_a_command_asking_for_other_velocities_counts_as_changed():
    twist = TwistCommand((0.02, 0.0, 0.0), (0.0, 0.0, 0.0), received=1.0)
    assert not asks_for_other_velocities(twist, TwistCommand((0.02, 0.0, 0.0), (0, 0, 0),
                                                             received=2.0))
    assert asks_for_other_velocities(twist, TwistCommand((0.0, 0.02, 0.0), (0, 0, 0)))
    assert asks_for_other_velocities(twist, TwistCommand((0.02, 0.0, 0.0), (0, 0, 0), 'tip'))
    assert asks_for_other_velocities(None, twist)
    jog = JointJogCommand({'a': 0.1})
    assert asks_for_other_velocities(twist, jog)
    assert not asks_for_other_velocities(jog, JointJogCommand({'a': 0.1, 'b': 0.0}))
    assert asks_for_other_velocities(jog, JointJogCommand({'a': 0.1, 'b': 0.05}))


def _moving_loop(ur5):
    loop = ServoLoop(ur5, SETTINGS)
    loop.start(UR_START)
    period = SETTINGS.period
    for cycle in range(20):
        now = cycle * period
        loop.command(TwistCommand((0.03, 0.0, 0.0), (0.0, 0.0, 0.0), received=now))
        step = loop.step(now)
    return loop, 19 * period, step


def test_a_changed_command_is_taken_up_at_once_unless_the_last_cycle_was_early(ur5):
    loop, last, _ = _moving_loop(ur5)
    period = SETTINGS.period
    turn = TwistCommand((0.0, 0.03, 0.0), (0.0, 0.0, 0.0), received=last + 0.6 * period)
    same = TwistCommand((0.03, 0.0, 0.0), (0.0, 0.0, 0.0), received=last + 0.6 * period)
    assert loop.takes_up_at_once(turn, last + 0.6 * period)
    assert loop.takes_up_at_once(turn, last + 0.1 * period)
    assert not loop.takes_up_at_once(same, last + 0.6 * period)
    # After an early cycle the next changed command waits for the timer: at most two cycles
    # per period, whatever the rate of the device.
    loop.command(turn)
    loop.step(last + 0.6 * period, early=True)
    back = TwistCommand((0.03, 0.0, 0.0), (0.0, 0.0, 0.0), received=last + 0.9 * period)
    assert not loop.takes_up_at_once(back, last + 0.9 * period)
    loop.step(last + 1.6 * period)
    assert loop.takes_up_at_once(back, last + 1.7 * period)


def test_an_early_cycle_starts_from_the_controllers_state_and_keeps_the_limits(ur5):
    loop, last, previous = _moving_loop(ur5)
    period = SETTINGS.period
    before = loop.step(last + period)  # the point the controller plays now, from previous
    start_position, start_velocity = previous.positions, previous.velocities
    now = last + period + 0.6 * period
    turn = TwistCommand((0.0, 0.03, 0.0), (0.0, 0.0, 0.0), received=now)
    loop.command(turn)
    early = loop.step(now, early=True)
    # The controller at the turn, along the point it plays.
    played = ControllerSpline([period], [before.positions], [before.velocities],
                              start_positions=start_position, start_velocities=start_velocity)
    here = played.sample([0.6 * period])
    # The new point is one period of a ramp from that state, within the loop's limits.
    ramp = (early.velocities - here.velocities[0]) / period
    assert early.positions == pytest.approx(
        here.positions[0] + 0.5 * (here.velocities[0] + early.velocities) * period, abs=1e-12)
    assert np.all(np.abs(ramp) <= SETTINGS.acceleration_limit * (1.0 + 1e-9))
    assert np.all(np.abs(early.velocities) <= ur5.velocity_limits * SETTINGS.velocity_scale
                  * (1.0 + 1e-9))
    # It moves the tip along the new command already.
    step = ur5.fk(early.positions)[:3, 3] - ur5.fk(here.positions[0])[:3, 3]
    assert step[1] > 1e-6
