# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Support for the node's collision tests (no tests here): obstacles over DDS, an independent check.

The check of a command never asks the node: it builds its own collision model of the same
description (and obstacles) and tests every checked pair with coal directly
(:mod:`collision_oracle`), shapes posed by the description's joint-by-joint transforms.
"""

from typing import Iterable, Sequence, Tuple

from collision_oracle import contacts
from geometry_msgs.msg import Pose
from ik_solvers.collision import (
    ADD,
    Box,
    CollisionModel,
    load_robot_geometry,
    Obstacle,
    ObstacleSet,
    Primitive,
)
from ik_solvers.kinematics import RobotModel
from ik_solvers.ros.conversions import matrix_to_pose
from ik_solvers_interfaces.msg import CollisionObject
import numpy as np
from rclpy.qos import QoSProfile, ReliabilityPolicy
from shape_msgs.msg import SolidPrimitive
from test_node_support import wait_until

__all__ = ['IndependentCheck', 'ObstaclePublisher', 'box_message', 'translation']


def translation(x: float, y: float, z: float) -> np.ndarray:
    """Return the (4, 4) pose of a pure translation, m."""
    pose = np.eye(4)
    pose[:3, 3] = (x, y, z)
    return pose


def box_message(name: str, pose: np.ndarray, size: Sequence[float], *,
                frame_id: str = '', operation: int = CollisionObject.ADD) -> CollisionObject:
    """Build a CollisionObject of one box centred on the obstacle's frame."""
    message = CollisionObject()
    message.header.frame_id = frame_id
    message.id = name
    message.operation = operation
    message.pose = matrix_to_pose(pose)
    if operation == CollisionObject.ADD:
        primitive = SolidPrimitive(type=SolidPrimitive.BOX)
        primitive.dimensions = [float(value) for value in size]
        message.primitives = [primitive]
        identity = Pose()
        identity.orientation.w = 1.0
        message.primitive_poses = [identity]
    return message


class ObstaclePublisher:
    """Publishes on a node's ``~/obstacles`` and waits for the node to log each outcome."""

    def __init__(self, probe, node_name: str = 'ik_node') -> None:
        self.probe = probe
        self.publisher = probe.node.create_publisher(
            CollisionObject, node_name + '/obstacles',
            QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE))
        assert wait_until(lambda: self.publisher.get_subscription_count() > 0), \
            'the ik_node never subscribed to its obstacles'

    def send(self, message: CollisionObject, expect: str = '') -> str:
        """
        Publish ``message`` and return the node's log line about it.

        :param expect: Text the line must contain; empty means any line naming the obstacle.
        """
        start = self.probe.logs.count()
        self.publisher.publish(message)
        line = self.probe.logs.wait_for(
            lambda log: "obstacle '%s'" % message.id in log.msg and expect in log.msg,
            start=start)
        return line.msg


class IndependentCheck:
    """Collision checks of a chain's configurations, built apart from the node's."""

    def __init__(self, urdf_xml: str, base_link: str, tip_link: str,
                 obstacles: Iterable[Tuple[str, np.ndarray, Sequence[float]]] = ()) -> None:
        """
        Build the check.

        :param obstacles: ``(id, pose in the base frame, box size)`` of each box in place.
        """
        self.robot_model = RobotModel.from_urdf(urdf_xml)
        self.chain = self.robot_model.chain(base_link, tip_link)
        self.geometry = load_robot_geometry(urdf_xml)
        self.boxes = [(name, np.asarray(pose, dtype=float), Box(size=tuple(size)))
                      for name, pose, size in obstacles]
        scene = ObstacleSet()
        for name, pose, box in self.boxes:
            scene = scene.apply(Obstacle(name, pose, (Primitive(box),), ADD))
        self.model = CollisionModel(self.robot_model, self.chain, self.geometry,
                                    obstacles=scene)

    def contacts(self, q) -> Tuple[Tuple[str, str], ...]:
        """Return the pairs in contact at ``q`` by both checks (they must agree)."""
        by_model = self.model.check(np.asarray(q, dtype=float)).pairs
        by_coal = contacts(self.robot_model, self.chain, self.geometry, q,
                           self.model.checked_pairs, obstacles=self.boxes)
        assert tuple(by_model) == tuple(by_coal), (by_model, by_coal)
        return tuple(by_coal)
