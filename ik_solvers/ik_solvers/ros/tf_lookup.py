# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Target frames outside the robot description, looked up in tf2 where tf2_ros is installed."""

from typing import Optional

import numpy as np
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.time import Time

from .conversions import transform_to_matrix
from ..engine.frames import ExternalLookup, UnknownFrameError
from ..exceptions import InvalidTargetError

__all__ = ['start_tf_lookup']


class _TfLookup:
    """A tf2 buffer and listener on a node, asked for one transform at a time."""

    def __init__(self, node: Node, tf2_ros) -> None:
        self._buffer = tf2_ros.Buffer(node=node)
        self._listener = tf2_ros.TransformListener(self._buffer, node)
        self._failure = tf2_ros.TransformException

    def __call__(self, base_link: str, frame_id: str, timeout: float) -> np.ndarray:
        try:
            transform = self._buffer.lookup_transform(
                base_link, frame_id, Time(), timeout=Duration(seconds=timeout))
            return transform_to_matrix(transform.transform)
        except (self._failure, InvalidTargetError) as error:
            raise UnknownFrameError('no transform from %r to %r within %g s: %s'
                                    % (frame_id, base_link, timeout, error))


def start_tf_lookup(node: Node) -> Optional[ExternalLookup]:
    """
    Listen to tf2 on ``node`` when tf2_ros is installed.

    :param node: The node that owns the listener.
    :returns: ``lookup(base_link, frame_id, timeout_seconds) -> (4, 4)``, raising
        :class:`UnknownFrameError`; ``None`` without tf2_ros (the node logs it).
    """
    try:
        import tf2_ros
    except ImportError:
        node.get_logger().info('tf2_ros is not installed: target frames must be links of the '
                               'robot description')
        return None
    return _TfLookup(node, tf2_ros)
