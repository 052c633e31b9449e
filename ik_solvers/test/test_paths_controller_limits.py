# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What the controller runs keeps the limits: the spline through the points, every millisecond.

ros2_control's joint_trajectory_controller joins the points by cubics (positions and
velocities given) or quintics (accelerations too), starting from its state when the trajectory
arrives. ``ControllerSpline`` is that curve; these tests judge the timed paths by it, sampled
every millisecond, and check that timing does not depend on how finely a line is cut.
"""

import numpy as np
import pytest

from ik_solvers.paths import cartesian_path, time_parametrize, trajectory_limits, TrajectoryLimits
from ik_solvers.paths.controller_replay import ControllerReplay
from ik_solvers.paths.controller_spline import ControllerSpline, limit_excess

UR5_HOME = np.array([0.0, -1.57, 1.57, -1.57, -1.57, 0.0])
PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
# The node's default tolerances: a path cut finer than them is where timing went wrong.
NODE_TOLERANCES = dict(position_tolerance=1e-4, orientation_tolerance=1e-3)


def _excess(trajectory, limits):
    spline = ControllerSpline(trajectory.times, trajectory.positions, trajectory.velocities,
                              trajectory.accelerations)
    return limit_excess(spline.sample_every(0.001), max_velocity=limits.max_velocity,
                        max_acceleration=limits.max_acceleration, lower=limits.lower,
                        upper=limits.upper)


def test_the_spline_is_the_controllers_hermite_curve():
    rng = np.random.default_rng(30)
    times = np.array([0.0, 0.3, 0.7, 1.0])
    positions, velocities, accelerations = rng.normal(size=(3, 4, 2))
    for given in ((velocities, None), (velocities, accelerations)):
        spline = ControllerSpline(times, positions, *given)
        before_each = spline.sample(np.append(0.0, times[1:] - 1e-12))
        assert np.allclose(before_each.positions, positions, atol=1e-9)
        assert np.allclose(before_each.velocities, velocities, atol=1e-8)
        if given[1] is not None:
            assert np.allclose(before_each.accelerations, accelerations, atol=1e-6)
    # One rest-to-rest point timed as distance / velocity limit: 1.5 and 1.875 times it.
    for accelerations, peak in ((None, 1.5), ([[0.0]], 1.875)):
        spline = ControllerSpline([1.0], [[1.0]], [[0.0]], accelerations, start_positions=[0.0],
                                  start_velocities=[0.0],
                                  start_accelerations=None if accelerations is None else [0.0])
        excess = limit_excess(spline.sample_every(0.001), max_velocity=[1.0])
        assert excess.velocity_ratio == pytest.approx(peak, rel=1e-5)


@pytest.mark.parametrize('arm, home, offset', [
    ('ur5', UR5_HOME, (0.0, 0.0, -0.3)),
    ('ur5', UR5_HOME, (0.0, 0.3, 0.0)),
    ('panda', PANDA_HOME, (0.0, 0.0, -0.3)),
    ('panda', PANDA_HOME, (0.2, 0.0, 0.1)),
])
def test_the_controllers_spline_of_a_timed_line_keeps_every_limit(request, arm, home, offset):
    chain = request.getfixturevalue(arm)
    limits = trajectory_limits(chain, default_acceleration=5.0, velocity_scale=0.5)
    goal = chain.fk(home)
    goal[:3, 3] += offset
    result = cartesian_path(chain, [goal], seed=home, max_step=0.001, point_timeout=1.0,
                            limits=limits)
    assert result.reason == 'complete', result.message
    excess = _excess(result.trajectory, limits)
    assert excess.within(slack=1e-9), excess
    # Time-optimal still: some joint reaches (nearly) a limit.
    assert max(excess.velocity_ratio, excess.acceleration_ratio) > 0.9, excess
    # And the trajectory samples the same curve.
    times = np.linspace(0.0, result.trajectory.duration, 50)
    positions, _, _ = result.trajectory.sample(times)
    spline = ControllerSpline(result.trajectory.times, result.trajectory.positions,
                              result.trajectory.velocities, result.trajectory.accelerations)
    assert np.allclose(positions, spline.sample(times).positions, atol=1e-12)


def test_a_joint_that_runs_into_its_limit_never_passes_it_between_points():
    # Up to the limit, along it, and back: the spline through such points overshoots unless
    # the joint is brought to rest where it touches the limit.
    ramp = np.concatenate((np.linspace(0.0, 1.0, 12), np.ones(6), np.linspace(1.0, 0.2, 10)))
    positions = np.column_stack((ramp, np.linspace(0.0, 0.5, ramp.size)))
    limits = TrajectoryLimits(joint_names=('a', 'b'), max_velocity=np.array([1.0, 1.0]),
                              max_acceleration=np.array([4.0, 4.0]),
                              lower=np.array([-1.0, -1.0]), upper=np.array([1.0, 1.0]))
    trajectory = time_parametrize(positions, limits)
    excess = _excess(trajectory, limits)
    assert excess.within(slack=1e-9), excess


@pytest.mark.parametrize('arm, home', [('ur5', UR5_HOME), ('panda', PANDA_HOME)])
def test_a_line_is_timed_alike_however_finely_it_is_cut(request, arm, home):
    chain = request.getfixturevalue(arm)
    limits = trajectory_limits(chain, default_acceleration=5.0, velocity_scale=0.5,
                               max_path_duration=60.0)
    goal = chain.fk(home)
    goal[2, 3] -= 0.09
    durations = []
    for points in (100, 1000, 9000):
        result = cartesian_path(chain, [goal], seed=home, max_step=0.09 / (points - 1.0001),
                                point_timeout=1.0, limits=limits, **NODE_TOLERANCES)
        assert result.reason == 'complete' and result.positions.shape[0] == points
        excess = _excess(result.trajectory, limits)
        assert excess.within(slack=1e-9), (points, excess)
        durations.append(result.trajectory.duration)
    assert max(durations) <= 1.1 * min(durations), durations


def test_a_replayed_command_starts_from_the_state_the_one_before_left():
    replay = ControllerReplay(('a', 'b'), [0.0, 0.0])
    replay.receive(10.0, ('b', 'a'), [1.0], [[2.0, 1.0]], [[0.0, 0.0]])
    replay.receive(10.4, ('a', 'b'), [0.5], [[0.0, 0.0]], [[0.0, 0.0]])
    first, second = replay.commands
    assert first.ran_for == pytest.approx(0.4) and second.ran_for == pytest.approx(0.5)
    position, velocity, _ = first.spline.state_at(0.4)
    assert position[0] == pytest.approx(1.0 * (3 * 0.16 - 2 * 0.064))  # the cubic, joint a
    assert np.allclose(second.spline.state_at(0.0)[0], position)
    assert np.allclose(second.spline.state_at(0.0)[1], velocity)
    # Turning round within 0.5 s from that speed: beyond 1 rad/s^2, judged on what ran.
    excess = replay.excess(max_velocity=[10.0, 10.0], max_acceleration=[1.0, 1.0])
    assert excess.acceleration_ratio > 1.0
    assert replay.excess(max_velocity=[10.0, 10.0], max_acceleration=[100.0, 100.0],
                         lower=[-0.1, -0.1], upper=[2.1, 2.1]).within()


def test_a_replayed_command_starts_from_the_measured_state_when_one_is_given():
    from ik_solvers.paths.controller_replay import ControllerReplay
    limits = dict(max_velocity=np.array([1.0]), max_acceleration=np.array([5.0]))
    replays = []
    for actual in (None, (np.array([0.0]), np.array([-0.27]))):
        replay = ControllerReplay(['a'], [0.0])
        replay.receive(1.0, ['a'], [0.1], [[0.01]], [[0.0]], actual=actual)
        replays.append(replay.excess(**limits))
    # From the arm moving away at 0.27 rad/s the same step asks far more acceleration.
    assert replays[0].acceleration_ratio <= 1.2
    assert replays[1].acceleration_ratio > replays[0].acceleration_ratio + 1.0
    found = ControllerReplay(['a'], [0.0])
    found.receive(1.0, ['a'], [0.1], [[0.01]], judged=False)
    assert found.excesses(**limits) == [None]
