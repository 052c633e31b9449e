# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ROS 2 glue of ik_solvers: the ``ik_node`` and what it is made of.

Importing this package does not import rclpy; :mod:`ik_solvers.ros.ik_node` does. The names
the node is known by are re-exported here for launch files and clients.
"""

from .names import (
    command_topic_for,
    DEFAULT_CONTROLLER_NAME,
    JOINT_STATES_TOPIC,
    MARKERS_TOPIC,
    NODE_NAME,
    ROBOT_DESCRIPTION_TOPIC,
    SOLVE_IK_SERVICE,
    STATUS_TOPIC,
    of_node,
    TARGET_POSE_TOPIC,
)

__all__ = [
    'DEFAULT_CONTROLLER_NAME',
    'JOINT_STATES_TOPIC',
    'MARKERS_TOPIC',
    'NODE_NAME',
    'ROBOT_DESCRIPTION_TOPIC',
    'SOLVE_IK_SERVICE',
    'STATUS_TOPIC',
    'TARGET_POSE_TOPIC',
    'command_topic_for',
    'of_node',
]
