# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The goal marker per orientation mode: an arrow along the tip axis, and the controls it has."""

import math

import numpy as np
import pytest
import transforms3d

messages = pytest.importorskip(
    'visualization_msgs.msg', reason='visualization_msgs is not installed')

from ik_solvers.visualization import COLOURS, GoalPose, Reachability  # noqa: E402
from ik_solvers.visualization.goal_marker_mode import (  # noqa: E402
    arrow_direction, check_orientation_mode, check_tip_axis, perpendicular_axes)
from ik_solvers.visualization.goal_marker_shape import (  # noqa: E402
    control_names, make_goal_marker)

Control = messages.InteractiveMarkerControl
Marker = messages.Marker
COLOUR = COLOURS[Reachability.REACHABLE]
TIP_AXES = [(0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (1.0, 1.0, 0.0),
            (0.3, -0.5, 0.8), (0.0, 0.0, -2.0)]


def _random_pose(rng):
    quaternion = rng.normal(size=4)
    quaternion /= np.linalg.norm(quaternion)
    w, x, y, z = quaternion
    return GoalPose(tuple(rng.uniform(-1.0, 1.0, 3)), (x, y, z, w))


def _rotation(orientation):
    """Rotation matrix of a geometry_msgs Quaternion."""
    return transforms3d.quaternions.quat2mat(
        [orientation.w, orientation.x, orientation.y, orientation.z])


def _marker(pose, mode, tip_axis=(0.0, 0.0, 1.0), scale=0.2):
    return make_goal_marker(pose, frame_id='base', reachability=Reachability.REACHABLE,
                            colour=COLOUR, scale=scale, orientation_mode=mode,
                            tip_axis=tip_axis)


def _controls(marker):
    return {control.name: control for control in marker.controls}


def _arrow_world_direction(marker):
    """Direction of the axis-mode arrow in the marker's frame_id, from the message alone."""
    arrow = marker.controls[0].markers[0]
    assert arrow.type == Marker.ARROW
    start, end = (np.array([p.x, p.y, p.z]) for p in arrow.points)
    # The arrow starts at the goal position, the point the tip must reach.
    np.testing.assert_allclose(start, 0.0)
    return _rotation(marker.pose.orientation) @ (end - start)


@pytest.mark.parametrize('tip_axis', TIP_AXES)
def test_the_arrow_points_along_the_pose_rotation_of_the_tip_axis(tip_axis):
    rng = np.random.default_rng(TIP_AXES.index(tip_axis))
    unit = np.array(tip_axis) / np.linalg.norm(tip_axis)
    for _ in range(5):
        pose = _random_pose(rng)
        marker = _marker(pose, 'axis', tip_axis, scale=0.4)
        direction = _arrow_world_direction(marker)
        expected = transforms3d.quaternions.quat2mat(
            [pose.orientation[3], *pose.orientation[:3]]) @ unit
        np.testing.assert_allclose(direction / np.linalg.norm(direction), expected, atol=1e-9)
        np.testing.assert_allclose(arrow_direction(pose, tip_axis), expected, atol=1e-9)
        # Three quarters of the marker scale, whatever length the axis was given with.
        assert np.linalg.norm(direction) == pytest.approx(0.3)
        arrow = marker.controls[0].markers[0]
        assert (arrow.color.r, arrow.color.g, arrow.color.b, arrow.color.a) == \
            pytest.approx(COLOUR)
        assert 0.0 < arrow.scale.x < arrow.scale.y


def test_full_mode_is_the_six_degree_of_freedom_marker():
    marker = _marker(GoalPose((0.1, 0.2, 0.3)), 'full')
    controls = _controls(marker)
    assert tuple(controls) == control_names('full')
    assert controls['move_rotate_3d'].interaction_mode == Control.MOVE_ROTATE_3D
    assert controls['move_rotate_3d'].markers[0].type == Marker.SPHERE
    for axis in 'xyz':
        assert controls['move_' + axis].interaction_mode == Control.MOVE_AXIS
        assert controls['rotate_' + axis].interaction_mode == Control.ROTATE_AXIS
        # The move arrows follow the tool's axes, as they always have.
        assert controls['move_' + axis].orientation_mode == Control.INHERIT
    # The defaults are full mode.
    default = make_goal_marker(GoalPose((0.1, 0.2, 0.3)), frame_id='base',
                               reachability=Reachability.REACHABLE, colour=COLOUR)
    assert [c.name for c in default.controls] == [c.name for c in marker.controls]


def test_none_mode_only_moves_a_sphere_along_the_base_axes():
    marker = _marker(GoalPose((0.1, 0.2, 0.3), (0.0, 0.0, math.sin(0.4), math.cos(0.4))),
                     'none')
    controls = _controls(marker)
    assert tuple(controls) == ('move_3d', 'move_x', 'move_y', 'move_z')
    assert controls['move_3d'].interaction_mode == Control.MOVE_3D
    assert controls['move_3d'].markers[0].type == Marker.SPHERE
    assert all(c.interaction_mode not in (Control.ROTATE_AXIS, Control.MOVE_ROTATE,
                                          Control.MOVE_ROTATE_3D, Control.ROTATE_3D)
               for c in marker.controls)
    axes = set()
    for axis in 'xyz':
        control = controls['move_' + axis]
        assert control.interaction_mode == Control.MOVE_AXIS
        # Fixed: the base axes, not the turned marker's.
        assert control.orientation_mode == Control.FIXED
        axes.add(tuple(np.round(np.abs(_rotation(control.orientation)[:, 0]), 9)))
    assert axes == {(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)}


@pytest.mark.parametrize('tip_axis', TIP_AXES)
def test_axis_mode_moves_in_3d_and_tilts_but_does_not_spin_the_arrow(tip_axis):
    pose = _random_pose(np.random.default_rng(3))
    marker = _marker(pose, 'axis', tip_axis)
    controls = _controls(marker)
    assert tuple(controls) == control_names('axis')
    assert tuple(controls) == ('move_3d', 'move_x', 'move_y', 'move_z', 'tilt_u', 'tilt_v')
    assert controls['move_3d'].interaction_mode == Control.MOVE_3D
    for axis in 'xyz':
        assert controls['move_' + axis].interaction_mode == Control.MOVE_AXIS
        assert controls['move_' + axis].orientation_mode == Control.FIXED
    unit = np.array(tip_axis) / np.linalg.norm(tip_axis)
    tilt_axes = []
    for name in ('tilt_u', 'tilt_v'):
        control = controls[name]
        assert control.interaction_mode == Control.ROTATE_AXIS
        # Inherited: the ring is in the marker's frame and turns with it.
        assert control.orientation_mode == Control.INHERIT
        # A control turns about its own x axis.
        tilt_axes.append(_rotation(control.orientation)[:, 0])
    u, v = tilt_axes
    assert abs(u @ unit) < 1e-12 and abs(v @ unit) < 1e-12 and abs(u @ v) < 1e-12
    # Dragging a ring turns the marker about that axis, in its own frame: the arrow tilts by
    # the angle dragged; a turn about the tip axis itself would leave the arrow where it was.
    before = arrow_direction(pose, tip_axis)
    for axis in (u, v):
        turn = transforms3d.axangles.axangle2mat(axis, 0.3)
        tilted = pose.to_matrix()
        tilted[:3, :3] = tilted[:3, :3] @ turn
        after = arrow_direction(GoalPose.from_matrix(tilted), tip_axis)
        assert math.acos(np.clip(before @ after, -1.0, 1.0)) == pytest.approx(0.3)
    spun = pose.to_matrix()
    spun[:3, :3] = spun[:3, :3] @ transforms3d.axangles.axangle2mat(unit, 1.0)
    np.testing.assert_allclose(arrow_direction(GoalPose.from_matrix(spun), tip_axis), before,
                               atol=1e-12)


def test_the_default_tip_axis_tilts_about_x_and_y():
    u, v = perpendicular_axes((0, 0, 1))
    np.testing.assert_allclose(u, [1.0, 0.0, 0.0])
    np.testing.assert_allclose(v, [0.0, 1.0, 0.0])


@pytest.mark.parametrize('mode', ['Full', 'position', '', 'axis ', None, 1])
def test_an_unknown_orientation_mode_is_refused(mode):
    with pytest.raises(ValueError, match='orientation_mode must be one of'):
        check_orientation_mode(mode)
    with pytest.raises(ValueError, match='orientation_mode'):
        control_names(mode)
    with pytest.raises(ValueError, match='orientation_mode'):
        _marker(GoalPose((0.0, 0.0, 0.0)), mode)


@pytest.mark.parametrize('tip_axis, reason', [
    ((0.0, 0.0, 0.0), 'direction'), ((1e-9, 0.0, 0.0), 'direction'),
    ((1.0, 0.0), 'three numbers'), ((1.0, 0.0, 0.0, 0.0), 'three numbers'),
    ((math.nan, 0.0, 1.0), 'finite'), ((0.0, math.inf, 1.0), 'finite'),
    (('0', '0', '1'), 'three numbers'), ((True, False, False), 'three numbers'),
    (1.0, 'three numbers'), ('z', 'three numbers')])
def test_an_invalid_tip_axis_is_refused(tip_axis, reason):
    with pytest.raises(ValueError, match='tip_axis must .*' + reason):
        check_tip_axis(tip_axis)
    with pytest.raises(ValueError, match='tip_axis'):
        _marker(GoalPose((0.0, 0.0, 0.0)), 'axis', tip_axis)


def test_a_valid_tip_axis_is_scaled_to_unit_length():
    assert check_tip_axis([0, 0, 3]) == (0.0, 0.0, 1.0)
    np.testing.assert_allclose(check_tip_axis(np.array([1.0, 1.0, 0.0])),
                               [math.sqrt(0.5), math.sqrt(0.5), 0.0])
