# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The simulated executor's arithmetic: interpolation, replacement, refusals that lose nothing."""

import math

import numpy as np
import pytest

from ik_solvers.exceptions import IKError
from ik_solvers.visualization import InvalidTrajectoryError, JointLimits, TrajectoryPlayer


def _player():
    return TrajectoryPlayer(['a', 'b', 'c'], [0.0, 1.0, -1.0],
                            limits={'a': JointLimits(-2.0, 2.0), 'b': JointLimits(-2.0, 2.0)})


def test_rests_at_the_initial_positions():
    positions, velocities = _player().sample(123.0)
    assert positions.tolist() == [0.0, 1.0, -1.0]
    assert velocities.tolist() == [0.0, 0.0, 0.0]


def test_interpolates_linearly_through_every_point_and_holds_the_last():
    player = _player()
    player.play(['a', 'b'], [1.0, 3.0], [[1.0, 0.0], [-1.0, 0.0]], start_time=10.0)
    assert player.sample(10.0)[0].tolist() == [0.0, 1.0, -1.0]
    positions, velocities = player.sample(10.5)
    assert positions == pytest.approx([0.5, 0.5, -1.0])
    assert velocities == pytest.approx([1.0, -1.0, 0.0])
    assert player.sample(11.0)[0] == pytest.approx([1.0, 0.0, -1.0])
    positions, velocities = player.sample(12.0)
    assert positions == pytest.approx([0.0, 0.0, -1.0])
    assert velocities == pytest.approx([-1.0, 0.0, 0.0])
    positions, velocities = player.sample(20.0)
    assert positions == pytest.approx([-1.0, 0.0, -1.0])
    assert velocities.tolist() == [0.0, 0.0, 0.0]
    # The last point is reached at 10 + 1 + 2 s and held from then on.
    positions, velocities = player.sample(13.0)
    assert positions == pytest.approx([-1.0, 0.0, -1.0])
    assert velocities.tolist() == [0.0, 0.0, 0.0]
    assert player.sample(12.99)[1][0] == pytest.approx(-1.0)


def test_a_future_trajectory_lets_the_current_motion_run_until_it_starts():
    player = _player()
    player.play(['a'], [2.0], [[2.0]], start_time=0.0)
    player.play(['a'], [1.0], [[0.0]], start_time=1.0)
    assert player.sample(0.5)[0][0] == pytest.approx(0.5)
    # At 1.0 the first motion had reached 1.0; the second goes from there back to 0 in 1 s.
    assert player.sample(1.0)[0][0] == pytest.approx(1.0)
    assert player.sample(1.5)[0][0] == pytest.approx(0.5)
    assert player.sample(2.5)[0][0] == pytest.approx(0.0)


def test_replacing_mid_motion_starts_from_where_the_joints_are():
    player = _player()
    player.play(['a'], [1.0], [[1.0]], start_time=0.0)
    assert player.sample(0.25)[0][0] == pytest.approx(0.25)
    player.play(['a'], [1.0], [[-1.0]], start_time=0.25)
    assert player.sample(0.25)[0][0] == pytest.approx(0.25)
    assert player.sample(0.75)[0][0] == pytest.approx(0.25 - 0.5 * 1.25)


def test_an_empty_trajectory_stops_where_the_joints_are():
    player = _player()
    player.play(['a'], [1.0], [[1.0]], start_time=0.0)
    player.play([], [], [], start_time=0.5)
    assert player.sample(0.5)[0][0] == pytest.approx(0.5)
    assert player.sample(5.0)[0][0] == pytest.approx(0.5)


def test_a_first_point_at_time_zero_is_reached_at_once():
    player = _player()
    player.play(['b'], [0.0, 1.0], [[0.0], [2.0]], start_time=4.0)
    assert player.sample(4.0)[0][1] == pytest.approx(0.0)
    assert player.sample(4.5)[0][1] == pytest.approx(1.0)


@pytest.mark.parametrize('names, times, points, reason', [
    (['a', 'nope'], [1.0], [[0.0, 0.0]], 'unknown joints'),
    (['a', 'a'], [1.0], [[0.0, 0.0]], 'repeat'),
    (['a', 'b'], [1.0], [[0.0]], 'every point needs 2 positions'),
    (['a'], [1.0, 2.0], [[0.0]], 'every point needs'),
    (['a'], [1.0], [[math.nan]], 'finite'),
    (['a'], [math.inf], [[0.0]], 'finite'),
    (['a'], [-1.0], [[0.0]], '>= 0'),
    (['a'], [1.0, 1.0], [[0.0], [0.5]], 'increase strictly'),
    (['a'], [1.0], [[2.5]], 'beyond its limits'),
])
def test_bad_trajectories_are_refused_and_the_motion_goes_on(names, times, points, reason):
    player = _player()
    player.play(['a'], [1.0], [[1.0]], start_time=0.0)
    with pytest.raises(InvalidTrajectoryError, match=reason) as caught:
        player.play(names, times, points, start_time=0.5)
    assert isinstance(caught.value, IKError)
    assert player.sample(0.75)[0][0] == pytest.approx(0.75)
    assert player.sample(2.0)[0].tolist() == [1.0, 1.0, -1.0]


def test_joints_without_limits_go_anywhere():
    player = _player()
    player.play(['c'], [1.0], [[100.0]], start_time=0.0)
    assert player.sample(1.0)[0][2] == pytest.approx(100.0)


@pytest.mark.parametrize('names, positions', [
    (['a', 'a'], [0.0, 0.0]),
    (['a', 'b'], [0.0]),
    (['a'], [math.inf]),
])
def test_bad_initial_states_are_refused(names, positions):
    with pytest.raises(InvalidTrajectoryError):
        TrajectoryPlayer(names, positions)


def test_sampling_many_times_agrees_with_the_segments():
    player = TrajectoryPlayer(['x'], [0.0])
    player.play(['x'], [0.5, 1.0, 2.0], [[1.0], [1.0], [3.0]], start_time=0.0)
    times = np.linspace(0.0, 3.0, 61)
    expected = np.interp(times, [0.0, 0.5, 1.0, 2.0], [0.0, 1.0, 1.0, 3.0])
    sampled = [player.sample(t)[0][0] for t in times]
    assert sampled == pytest.approx(expected.tolist())
