# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Where the node's commands leave it: today a JointTrajectory topic of a joint_trajectory_controller.

Sending commands some other way (a ``control_msgs/FollowJointTrajectory`` action client, say)
means changing this module and the parameter that names the destination; the engine and the
node hand over a plain :class:`~ik_solvers.engine.outcome.Command` through the
:class:`~ik_solvers.engine.command_sink.CommandSink` interface and never see the transport.
"""

from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from trajectory_msgs.msg import JointTrajectory

from .conversions import command_trajectory
from .path_conversions import path_command_trajectory
from .names import command_topic_for, DEFAULT_CONTROLLER_NAME
from ..engine.command_sink import CommandSink
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
        self._publisher = node.create_publisher(
            JointTrajectory, topic,
            QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE))

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
        self._publisher.publish(command_trajectory(command))

    def send_path(self, command: PathCommand) -> None:
        """
        Send one timed multi-point move.

        :param command: The executed path's trajectory.
        :raises ValueError: If the command has no joints or fewer than two points.
        """
        self._publisher.publish(path_command_trajectory(command))
