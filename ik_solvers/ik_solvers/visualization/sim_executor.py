# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The simulated executor: a stand-in for ros2_control that plays JointTrajectory commands.

It listens where a joint_trajectory_controller would (``/<controller_name>/joint_trajectory``,
or the ``command_topic`` parameter) and publishes the interpolated joint positions on
``joint_states`` at ``publish_rate``, so that robot_state_publisher and RViz show the arm move
without any controller or hardware. With a real controller running, leave it out (launch
argument ``sim_execution:=false``); should it run anyway, it falls silent as soon as another
node publishes ``joint_states``, so that the two never fight over the displayed arm.
"""

from __future__ import annotations

from typing import Optional

from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory

from ..exceptions import RobotModelError
from ..ros.names import (
    command_topic_for,
    DEFAULT_CONTROLLER_NAME,
    JOINT_STATES_TOPIC,
    ROBOT_DESCRIPTION_TOPIC,
)
from ..ros.node_main import run_node
from .robot_joints import moving_joints
from .trajectory_player import InvalidTrajectoryError, JointLimits, TrajectoryPlayer

__all__ = ['SimulatedExecutor', 'main']

NODE_NAME = 'sim_executor'
#: How often (s) to look for another joint_states publisher; graph queries are not free.
_GRAPH_CHECK_PERIOD = 1.0


def _seconds(time: Time) -> float:
    return time.nanoseconds * 1e-9


class SimulatedExecutor(Node):
    """
    Plays JointTrajectory commands into ``joint_states`` by linear interpolation.

    Parameters: ``command_topic`` (empty: ``/<controller_name>/joint_trajectory``),
    ``controller_name``, ``publish_rate`` (Hz), ``robot_description`` (URDF used until one
    arrives on the topic) and ``yield_to_other_publishers``.
    """

    def __init__(self, *, node_name: str = NODE_NAME, **node_options) -> None:
        """
        Create the node; it starts publishing once it knows the robot's joints.

        :param node_name: name of the node.
        :param node_options: passed on to :class:`rclpy.node.Node` (``context``,
            ``parameter_overrides``, ``namespace``...).
        :raises ValueError: ``command_topic`` and ``controller_name`` are both empty.
        """
        super().__init__(node_name, **node_options)
        command_topic = self.declare_parameter(
            'command_topic', '', ParameterDescriptor(
                description='JointTrajectory commands to play; empty means '
                            '/<controller_name>/joint_trajectory.',
                read_only=True)).value
        controller_name = self.declare_parameter(
            'controller_name', DEFAULT_CONTROLLER_NAME, ParameterDescriptor(
                description='Controller whose command topic is listened to when '
                            'command_topic is empty.',
                read_only=True)).value
        rate = self.declare_parameter(
            'publish_rate', 50.0, ParameterDescriptor(
                description='Rate of the joint_states messages, in Hz.',
                floating_point_range=[
                    FloatingPointRange(from_value=1.0, to_value=1000.0, step=0.0)],
                read_only=True)).value
        fallback_description = self.declare_parameter(
            'robot_description', '', ParameterDescriptor(
                description='URDF used until one arrives on the robot_description topic.',
                read_only=True)).value
        self._yield = self.declare_parameter(
            'yield_to_other_publishers', True, ParameterDescriptor(
                description='Stop publishing while another node publishes joint_states '
                            '(a real controller).')).value

        # The ik_node resolves the same two parameters the same way: both ends always agree.
        command_topic = command_topic_for(command_topic, controller_name)

        self._player: Optional[TrajectoryPlayer] = None
        self._yielding = False
        self._last_graph_check = -float('inf')
        self._publisher = self.create_publisher(JointState, JOINT_STATES_TOPIC, 10)
        # Same QoS as joint_trajectory_controller's command subscription, so that a command
        # publisher that would not reach the real controller does not reach this one either.
        self.create_subscription(JointTrajectory, command_topic, self._on_command, 10)
        description_qos = QoSProfile(
            depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
            reliability=ReliabilityPolicy.RELIABLE)
        self.create_subscription(
            String, ROBOT_DESCRIPTION_TOPIC, self._on_description, description_qos)
        self.create_timer(1.0 / rate, self._on_timer)
        if fallback_description:
            self._load_description(fallback_description, source='parameter')
        self.get_logger().info(
            'playing %s into %s at %.0f Hz' % (
                self.resolve_topic_name(command_topic),
                self.resolve_topic_name(JOINT_STATES_TOPIC), rate))

    @property
    def yielding(self) -> bool:
        """Whether publishing is paused because another node publishes ``joint_states``."""
        return self._yielding

    @property
    def joint_names(self) -> tuple[str, ...]:
        """Return the joints published on ``joint_states``; empty before a description."""
        return self._player.joint_names if self._player is not None else ()

    def _on_description(self, message: String) -> None:
        self._load_description(message.data, source='topic')

    def _load_description(self, urdf_xml: str, *, source: str) -> None:
        try:
            joints = moving_joints(urdf_xml)
        except RobotModelError as error:
            self.get_logger().error(
                'ignoring the robot description from the %s: %s' % (source, error))
            return
        if not joints:
            self.get_logger().error(
                'ignoring the robot description from the %s: it has no moving joints' % source)
            return
        # A description published again (same robot, or a tweaked one) keeps the arm where it
        # is for every joint that still exists.
        kept = {}
        if self._player is not None:
            positions, _ = self._player.sample(_seconds(self.get_clock().now()))
            kept = dict(zip(self._player.joint_names, positions))
        self._player = TrajectoryPlayer(
            [joint.name for joint in joints],
            [kept.get(joint.name, joint.rest_position) for joint in joints],
            limits={joint.name: JointLimits(joint.lower, joint.upper) for joint in joints})
        self.get_logger().info(
            'robot description from the %s: %d moving joints' % (source, len(joints)))

    def _on_command(self, message: JointTrajectory) -> None:
        if self._player is None:
            self.get_logger().warning(
                'ignoring a trajectory: no robot description yet, so the joints are unknown')
            return
        now = _seconds(self.get_clock().now())
        start = _seconds(Time.from_msg(message.header.stamp))
        # A zero stamp means "now" for joint_trajectory_controller; so does a stamp already
        # past, which here would otherwise make the arm jump.
        start = max(start, now)
        try:
            self._player.play(
                message.joint_names,
                [Duration.from_msg(point.time_from_start).nanoseconds * 1e-9
                 for point in message.points],
                [list(point.positions) for point in message.points],
                start_time=start)
        except InvalidTrajectoryError as error:
            self.get_logger().warning('ignoring a trajectory: %s' % error)

    def _on_timer(self) -> None:
        if self._player is None or self._yields_to_another_publisher():
            return
        now = self.get_clock().now()
        positions, velocities = self._player.sample(_seconds(now))
        message = JointState()
        message.header.stamp = now.to_msg()
        message.name = list(self._player.joint_names)
        message.position = positions.tolist()
        message.velocity = velocities.tolist()
        self._publisher.publish(message)

    def _yields_to_another_publisher(self) -> bool:
        if not self._yield:
            return False
        now = _seconds(self.get_clock().now())
        if now - self._last_graph_check < _GRAPH_CHECK_PERIOD:
            return self._yielding
        self._last_graph_check = now
        others = self.count_publishers(self.resolve_topic_name(JOINT_STATES_TOPIC)) - 1
        if others > 0 and not self._yielding:
            self.get_logger().warning(
                'another node publishes joint_states (a controller?): pausing the simulation')
        elif others <= 0 and self._yielding:
            self.get_logger().info('no other joint_states publisher: resuming the simulation')
        self._yielding = others > 0
        return self._yielding


def main(args: Optional[list[str]] = None) -> None:
    """Run the simulated executor until interrupted."""
    run_node(SimulatedExecutor, args)
