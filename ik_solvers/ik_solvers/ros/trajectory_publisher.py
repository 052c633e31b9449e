# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Where the node's commands leave it: today a JointTrajectory topic of a joint_trajectory_controller.

Sending commands some other way (a ``control_msgs/FollowJointTrajectory`` action client, say)
means changing this module and the parameter that names the destination; the engine and the
node hand over a plain :class:`~ik_solvers.engine.outcome.Command` through the
:class:`~ik_solvers.engine.command_sink.CommandSink` interface and never see the transport.
"""

import dataclasses
from typing import List, Tuple

from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from trajectory_msgs.msg import JointTrajectory

from .conversions import command_trajectory
from .path_conversions import path_command_trajectory
from .names import command_topic_for, DEFAULT_CONTROLLER_NAME
from ..engine.command_sink import CommandSink
from ..engine.controller_map import controller_map, uncontrolled
from ..engine.outcome import Command
from ..engine.path_request import PathCommand

__all__ = ['TopicCommandSink']


class TopicCommandSink(CommandSink):
    """Publishes each command as a JointTrajectory on the controller's command topic."""

    def __init__(self, node: Node) -> None:
        """
        Open the command topic named by the node's ``command_topic`` and ``controller_name``.

        When both are empty the commands go to the default controller's topic, and the node
        logs an error: a node that cannot command must still answer the service.

        :param node: The node that owns the publisher; its parameters are declared.
        """
        try:
            topic = command_topic_for(node.get_parameter('command_topic').value,
                                      node.get_parameter('controller_name').value)
        except ValueError as error:
            topic = command_topic_for('', DEFAULT_CONTROLLER_NAME)
            node.get_logger().error('%s; commanding %s' % (error, topic))
        # Depth 1, reliable: only the newest command matters, and it must not be lost.
        qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)
        self._node = node
        self._publisher = node.create_publisher(JointTrajectory, topic, qos)
        # One controller per group of joints (controller_joints): each gets only its joints.
        # The node refused a mapping naming a joint twice before it got here.
        self._controllers: List[Tuple[object, Tuple[str, ...]]] = [
            (node.create_publisher(JointTrajectory, controller_topic, qos), joints)
            for controller_topic, joints in controller_map(
                node.get_parameter('controller_joints').value or ())]

    @property
    def destination(self) -> str:
        """Return the fully qualified name of the command topic, for the node's log."""
        return self._publisher.topic_name

    def send(self, command: Command) -> None:
        """
        Send one command.

        :param command: Joint names, goal positions (rad or m) and duration (s).
        :raises ValueError: If the command has no joints or its sizes disagree.
        """
        if not self._controllers:
            self._publisher.publish(command_trajectory(command))
            return
        self._publish_split(command.joint_names, lambda columns, names: command_trajectory(
            Command(names, tuple(command.positions[i] for i in columns), command.duration)))

    def send_path(self, command: PathCommand) -> None:
        """
        Send one timed multi-point move.

        :param command: The executed path's trajectory.
        :raises ValueError: If the command has no joints or fewer than two points.
        """
        if not self._controllers:
            self._publisher.publish(path_command_trajectory(command))
            return
        self._publish_split(command.joint_names, lambda columns, names: path_command_trajectory(
            dataclasses.replace(command, joint_names=names,
                                positions=command.positions[:, columns],
                                velocities=command.velocities[:, columns],
                                accelerations=command.accelerations[:, columns])))

    def _publish_split(self, joint_names, build) -> None:
        """Send each controller the trajectory of its joints, all with one start stamp."""
        missing = uncontrolled(joint_names, tuple((topic, joints) for topic, joints in
                                                  self._controller_topics()))
        if missing:  # the engine refuses such commands; never send half of one
            raise ValueError('joint(s) %s are in no controller of controller_joints'
                             % ', '.join(missing))
        stamp = self._node.get_clock().now().to_msg()
        messages = []
        for publisher, joints in self._controllers:
            columns = [i for i, name in enumerate(joint_names) if name in joints]
            if columns:
                message = build(columns, tuple(joint_names[i] for i in columns))
                message.header.stamp = stamp
                messages.append((publisher, message))
        for publisher, message in messages:
            publisher.publish(message)

    def _controller_topics(self):
        return [(publisher.topic_name, joints) for publisher, joints in self._controllers]
