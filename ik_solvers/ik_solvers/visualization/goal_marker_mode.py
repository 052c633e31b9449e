# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What part of the goal's orientation counts: the goal marker's orientation mode and tip axis.

``full``: the whole pose. ``axis``: the tip's ``tip_axis`` (a direction in the tip frame) must
point along the same axis of the goal frame, i.e. along ``R @ tip_axis`` where ``R`` is the
goal's rotation; the spin about it is free. ``none``: the position alone. Free of ROS, so that
the checks run the same in the node and in tests.
"""

from __future__ import annotations

import math
import numbers
from typing import Sequence

import numpy as np
import transforms3d

from .goal_tracker import GoalPose

__all__ = [
    'DEFAULT_TIP_AXIS',
    'ORIENTATION_MODES',
    'arrow_direction',
    'check_orientation_mode',
    'check_tip_axis',
    'perpendicular_axes',
    'rotation_taking_x_to',
]

#: The accepted orientation modes, the default first.
ORIENTATION_MODES = ('full', 'axis', 'none')
#: The tip's z axis: the approach direction of most tool frames.
DEFAULT_TIP_AXIS = (0.0, 0.0, 1.0)

# Shorter than this (in the units the user typed) the axis has no direction to speak of.
_MIN_AXIS_LENGTH = 1e-6


def check_orientation_mode(mode: str) -> str:
    """
    Check an orientation mode.

    :param mode: ``'full'``, ``'axis'`` or ``'none'``.
    :returns: ``mode`` itself.
    :raises ValueError: ``mode`` is not one of :data:`ORIENTATION_MODES`.
    """
    if not isinstance(mode, str) or mode not in ORIENTATION_MODES:
        raise ValueError('orientation_mode must be one of %s, got %r'
                         % (', '.join(repr(known) for known in ORIENTATION_MODES), mode))
    return mode


def check_tip_axis(axis: Sequence[float]) -> tuple[float, float, float]:
    """
    Check a tip axis and scale it to unit length.

    :param axis: three finite numbers, a direction in the tip frame (any non-zero length).
    :returns: the unit vector along ``axis``.
    :raises ValueError: ``axis`` is not three finite numbers, or is (nearly) zero.
    """
    try:
        values = [axis] if isinstance(axis, (str, bytes)) else list(axis)
    except TypeError:
        values = [axis]
    # bool is a number to Python, but True for a coordinate is surely a mistake.
    if len(values) != 3 or not all(isinstance(value, numbers.Real)
                                   and not isinstance(value, bool) for value in values):
        raise ValueError('tip_axis must be three numbers (x, y, z in the tip frame), got %r'
                         % (axis,))
    vector = np.array(values, dtype=float)
    if not np.all(np.isfinite(vector)):
        raise ValueError('tip_axis must be finite, got %r' % (values,))
    length = float(np.linalg.norm(vector))
    if length < _MIN_AXIS_LENGTH:
        raise ValueError('tip_axis must have a direction; %r is (nearly) zero' % (values,))
    return tuple(float(value) for value in vector / length)


def arrow_direction(pose: GoalPose, tip_axis: Sequence[float]) -> np.ndarray:
    """
    Target direction of the tip axis in axis mode: the goal's rotation applied to ``tip_axis``.

    :param pose: the goal, in the chain's base frame.
    :param tip_axis: a direction in the tip frame; scaled to unit length.
    :returns: (3,) unit vector in the base frame.
    :raises ValueError: ``tip_axis`` is invalid (see :func:`check_tip_axis`).
    """
    return pose.to_matrix()[:3, :3] @ np.array(check_tip_axis(tip_axis))


def perpendicular_axes(tip_axis: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """
    Two unit axes that, with ``tip_axis``, form a right-handed orthonormal frame (u, v, axis).

    The tilts of the arrow are the rotations about these two axes; ``u`` is the base axis least
    aligned with ``tip_axis`` made perpendicular to it, so that for the default ``(0, 0, 1)``
    they are x and y.

    :param tip_axis: a direction; scaled to unit length.
    :returns: ``(u, v)`` with ``u x v = tip_axis``.
    :raises ValueError: ``tip_axis`` is invalid (see :func:`check_tip_axis`).
    """
    axis = np.array(check_tip_axis(tip_axis))
    # argmin picks the first of equally small components, which keeps x before y.
    seed = np.eye(3)[int(np.argmin(np.abs(axis)))]
    u = seed - float(seed @ axis) * axis
    u /= np.linalg.norm(u)
    v = np.cross(axis, u)
    return u, v


def rotation_taking_x_to(direction: Sequence[float]) -> tuple[float, float, float, float]:
    """
    Quaternion (x, y, z, w) of a rotation that turns the x axis onto ``direction``.

    Interactive marker controls move along and turn about their own x axis, so this is the
    orientation a control needs to act along ``direction``.

    :param direction: a non-zero vector.
    :returns: the unit quaternion, ordered as in ROS.
    :raises ValueError: ``direction`` is invalid (see :func:`check_tip_axis`).
    """
    x_axis = np.array(check_tip_axis(direction))
    y_axis, z_axis = perpendicular_axes(x_axis)
    w, x, y, z = transforms3d.quaternions.mat2quat(np.column_stack([x_axis, y_axis, z_axis]))
    norm = math.sqrt(w * w + x * x + y * y + z * z)
    return (x / norm, y / norm, z / norm, w / norm)
