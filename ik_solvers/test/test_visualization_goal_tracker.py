# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The goal marker's logic: latest wins, rate limit, mouse-up, reachability, marker message."""

import math

import numpy as np
import pytest
import transforms3d

from ik_solvers.visualization import COLOURS, GoalPose, GoalTracker, Reachability


def _pose(x, angle=0.0):
    w, qx, qy, qz = transforms3d.quaternions.axangle2quat([0.0, 0.0, 1.0], angle)
    return GoalPose((x, 0.2, 0.3), (qx, qy, qz, w))


def test_a_burst_of_drags_sends_only_the_newest_pose():
    tracker = GoalTracker(send_rate=20.0)
    tracker.reset(_pose(0.0))
    for k in range(1, 50):
        tracker.drag(_pose(0.001 * k))
    assert tracker.due(1.0) == _pose(0.049)
    assert tracker.due(1.0) is None


def test_sends_at_the_send_rate_while_dragging_however_fast_it_is_polled():
    tracker = GoalTracker(send_rate=20.0)
    tracker.reset(_pose(0.0))
    sent = []
    for step in range(400):  # two seconds of mouse moves at 200 Hz, polled at 200 Hz
        now = 10.0 + step / 200.0
        tracker.drag(_pose(0.001 * (step + 1)))
        due = tracker.due(now)
        if due is not None:
            sent.append((step, due))
    # at most one more than 20 Hz allows over two seconds, and never fewer
    assert 40 <= len(sent) <= 41
    # every pose sent was the newest one at the time
    assert all(pose == _pose(0.001 * (step + 1)) for step, pose in sent)


def test_a_timer_at_the_send_rate_with_late_callbacks_never_skips_a_tick():
    tracker = GoalTracker(send_rate=25.0)
    tracker.reset(_pose(0.0))
    rng = np.random.default_rng(7)
    # a timer fires on a fixed schedule; its callbacks run up to 15 ms late
    ticks = 0.04 * np.arange(100) + rng.uniform(0.0, 0.015, size=100)
    sent = 0
    for k, now in enumerate(ticks):
        tracker.drag(_pose(0.001 * (k + 1)))
        sent += tracker.due(float(now)) is not None
    assert sent == 100


def test_mouse_up_sends_the_final_pose_at_once_and_only_once():
    tracker = GoalTracker(send_rate=10.0)
    tracker.reset(_pose(0.0))
    tracker.drag(_pose(0.1))
    assert tracker.due(0.0) == _pose(0.1)
    tracker.drag(_pose(0.2))
    assert tracker.release(_pose(0.25), 0.01) == _pose(0.25)  # within the period: still sent
    assert tracker.due(5.0) is None
    assert tracker.release(_pose(0.25), 6.0) is None
    assert tracker.pose == _pose(0.25)


def test_reachability_follows_results_for_the_pose_last_sent_only():
    tracker = GoalTracker()
    tracker.reset(_pose(0.0))
    assert tracker.reachability is Reachability.UNKNOWN
    assert not tracker.report(_pose(0.0), True)  # nothing sent yet
    tracker.drag(_pose(0.1))
    tracker.due(0.0)
    assert not tracker.report(_pose(0.05), False)  # an older goal
    assert tracker.reachability is Reachability.UNKNOWN
    assert tracker.report(_pose(0.1), False)
    assert tracker.reachability is Reachability.UNREACHABLE
    assert COLOURS[tracker.reachability] == COLOURS[Reachability.UNREACHABLE]
    assert not tracker.report(_pose(0.1), False)  # no change
    assert tracker.report(_pose(0.1), True)
    assert COLOURS[tracker.reachability] == COLOURS[Reachability.REACHABLE]


def test_a_result_with_the_opposite_quaternion_matches():
    tracker = GoalTracker()
    pose = _pose(0.3, angle=0.7)
    tracker.release(pose, 0.0)
    flipped = GoalPose(pose.position, tuple(-v for v in pose.orientation))
    assert tracker.report(flipped, True)


def test_a_result_for_a_slightly_rotated_goal_does_not_match():
    tracker = GoalTracker()
    tracker.release(_pose(0.3, angle=0.7), 0.0)
    assert not tracker.report(_pose(0.3, angle=0.7 + 1e-3), True)


def test_colours_are_green_for_reachable_and_red_for_unreachable():
    red, green, _, _ = COLOURS[Reachability.REACHABLE]
    assert green > red
    red, green, _, _ = COLOURS[Reachability.UNREACHABLE]
    assert red > green


@pytest.mark.parametrize('rate', [0.0, -1.0, math.inf, math.nan])
def test_bad_rates_are_refused(rate):
    with pytest.raises(ValueError):
        GoalTracker(send_rate=rate)


def test_pose_matrix_round_trip_and_distance():
    rotation = transforms3d.euler.euler2mat(0.3, -0.2, 1.1)
    matrix = np.eye(4)
    matrix[:3, :3] = rotation
    matrix[:3, 3] = [0.4, -0.1, 0.7]
    pose = GoalPose.from_matrix(matrix)
    assert pose.to_matrix() == pytest.approx(matrix)
    metres, radians = pose.distance_to(_pose(0.4))
    assert metres == pytest.approx(math.dist((0.4, -0.1, 0.7), (0.4, 0.2, 0.3)))
    assert 0.0 < radians <= math.pi


def test_from_values_normalises_and_refuses_nonsense():
    pose = GoalPose.from_values([1, 2, 3], [0, 0, 0, 2])
    assert pose.orientation == (0.0, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        GoalPose.from_values([1, 2, 3], [0, 0, 0, 0])
    with pytest.raises(ValueError):
        GoalPose.from_values([1, math.nan, 3], [0, 0, 0, 1])
    with pytest.raises(ValueError):
        GoalPose.from_matrix(np.full((4, 4), math.inf))


def test_the_goal_marker_has_six_degrees_of_freedom_and_the_colour():
    messages = pytest.importorskip(
        'visualization_msgs.msg', reason='visualization_msgs is not installed')
    from ik_solvers.visualization.goal_marker_shape import make_goal_marker, pose_from_message
    control = messages.InteractiveMarkerControl
    colour = COLOURS[Reachability.UNREACHABLE]
    marker = make_goal_marker(_pose(0.5, 0.3), frame_id='base', scale=0.3,
                              reachability=Reachability.UNREACHABLE, colour=colour)
    assert marker.header.frame_id == 'base'
    assert pose_from_message(marker.pose).distance_to(_pose(0.5, 0.3)) == \
        pytest.approx((0.0, 0.0), abs=1e-7)
    assert 'unreachable' in marker.description
    modes = [c.interaction_mode for c in marker.controls]
    assert modes.count(control.MOVE_AXIS) == 3 and modes.count(control.ROTATE_AXIS) == 3
    # each pair moves along / rotates about a different base axis (a control's own x axis)
    axes = set()
    for c in marker.controls:
        if c.interaction_mode == control.MOVE_AXIS:
            q = c.orientation
            axis = transforms3d.quaternions.quat2mat([q.w, q.x, q.y, q.z])[:, 0]
            axes.add(tuple(np.round(np.abs(axis), 6)))
    assert axes == {(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)}
    sphere = marker.controls[0].markers[0]
    assert (sphere.color.r, sphere.color.g, sphere.color.b, sphere.color.a) == \
        pytest.approx(colour)
    with pytest.raises(ValueError):
        make_goal_marker(_pose(0.0), frame_id='base', scale=0.0,
                         reachability=Reachability.UNKNOWN, colour=colour)
