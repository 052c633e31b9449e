# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Express a target given in any frame in the chain's base frame.

A frame is, in order of preference: the base link itself (or an empty frame id), a link of the
robot description, resolved with the description's own transforms at the current joint
positions, or any other frame known to an external lookup (tf2, where it is installed).
"""

from typing import Callable, Mapping, Optional

import numpy as np

from ..exceptions import UnknownFrameError

__all__ = ['ExternalLookup', 'UnknownFrameError', 'frame_to_base']

#: ``lookup(base_link, frame_id, timeout_seconds)`` returns the (4, 4) pose of ``frame_id`` in
#: ``base_link`` or raises :class:`UnknownFrameError`.
ExternalLookup = Callable[[str, str, float], np.ndarray]


def frame_to_base(model, base_link: str, frame_id: str,
                  joint_positions: Mapping[str, float], *,
                  external_lookup: Optional[ExternalLookup] = None,
                  lookup_timeout: float = 0.1) -> np.ndarray:
    """
    Pose of ``frame_id`` in ``base_link``.

    :param model: The :class:`ik_solvers.kinematics.RobotModel` of the description.
    :param base_link: The chain's base link.
    :param frame_id: The frame a target is given in; empty means ``base_link``, and a leading
        slash (a ROS 1 habit) is ignored.
    :param joint_positions: Current positions (rad or m) by joint name, for frames that move
        with the joints; joints not listed count as 0.
    :param external_lookup: Fallback for frames outside the description, or ``None``.
    :param lookup_timeout: Seconds the external lookup may wait for a transform.
    :returns: A (4, 4) homogeneous transform.
    :raises UnknownFrameError: If no source knows the frame.
    """
    frame = frame_id.strip().lstrip('/')
    if not frame or frame == base_link:
        return np.eye(4)
    if frame in model.link_names:
        return np.asarray(model.transform(base_link, frame, dict(joint_positions)), dtype=float)
    if external_lookup is None:
        raise UnknownFrameError(
            'frame %r is not a link of the robot description, and TF lookups are not '
            'available (tf2_ros is not installed)' % frame_id)
    return np.asarray(external_lookup(base_link, frame, lookup_timeout), dtype=float)
