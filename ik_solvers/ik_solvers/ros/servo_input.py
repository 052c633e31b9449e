# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Servoing's ROS side: velocity commands in, one controller point per cycle out, and the status.

The cycle itself is :class:`~ik_solvers.servo.servo_loop.ServoLoop`; this module converts
messages, runs it on a timer at ``servo_rate`` and publishes what it returns (docs/servo.md).
"""

import threading
import time
import traceback
from typing import Optional, Tuple

from builtin_interfaces.msg import Duration
from geometry_msgs.msg import TwistStamped
from ik_solvers_interfaces.msg import ServoStatus
import numpy as np
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from .node_parameters import NodeParameters
from ..engine.frames import frame_to_base
from ..engine.robot_state import RobotState
from ..servo.servo_command import (JointJogCommand, ServoSettings, ServoStep, TwistCommand)
from ..servo.servo_loop import ServoLoop
from ..exceptions import IKError
from ..kinematics import RobotModel

try:  # rclpy's executor in C++ (Kilted on); older distributions spin the Python one
    from rclpy.experimental import EventsExecutor as _ServoExecutor
except ImportError:  # pragma: no cover - depends on the ROS 2 distribution
    _ServoExecutor = SingleThreadedExecutor

__all__ = ['DELTA_JOINT_TOPIC', 'DELTA_TWIST_TOPIC', 'SERVO_STATUS_TOPIC', 'ServoInput']

DELTA_TWIST_TOPIC = '~/delta_twist_cmds'
DELTA_JOINT_TOPIC = '~/delta_joint_cmds'
SERVO_STATUS_TOPIC = '~/servo_status'
# s; how often the servo's thread looks whether the node is closing.
_SPIN_PERIOD = 0.05


class ServoInput:
    """Follows twist and joint velocity commands at a fixed rate."""

    def __init__(self, node: Node, robot: RobotState, parameters: NodeParameters,
                 trajectory_topic: str) -> None:
        """
        Open the command topics, the outputs and the cycle's timer on a node of their own.

        :param node: the node whose name, namespace, remappings, clock and logger the servo's
            topics and messages take.
        :param robot: the engine's model and joint states.
        :param parameters: the node's parameters (``servo_*``, ``solver``, limits).
        :param trajectory_topic: the JointTrajectory command topic.
        """
        # The servo's topics and timer live on a node of their own, spun by rclpy's events
        # executor on a thread of its own: at 500 Hz the single-threaded executor's Python wait
        # set cost more CPU than the cycles (a third of the node's CPU, docs/benchmarks.md).
        # Its topic names are resolved by the ik_node, remappings included; the process's own
        # arguments (a launch file's __node:= among them) would rename this node like the other.
        self._main_node = node
        node = rclpy.create_node(node.get_name() + '_servo', namespace=node.get_namespace(),
                                 context=node.context, start_parameter_services=False,
                                 use_global_arguments=False)
        self._node = node
        self._robot = robot
        self._parameters = parameters
        self._lock = threading.Lock()
        self._loop: Optional[ServoLoop] = None
        self._loop_key: Tuple = ()
        settings = parameters.settings
        reliable = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)
        resolve = self._main_node.resolve_topic_name
        self._trajectories = node.create_publisher(JointTrajectory, resolve(trajectory_topic),
                                                   reliable)
        self._positions = node.create_publisher(
            Float64MultiArray, resolve(settings.servo_position_topic), reliable)
        self._status = node.create_publisher(ServoStatus, resolve(SERVO_STATUS_TOPIC), 10)
        # Best effort matches reliable and best-effort senders alike (teleop_twist_joy and web
        # bridges publish with sensor-data QoS).
        commands = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
        node.create_subscription(TwistStamped, resolve(DELTA_TWIST_TOPIC), self._on_twist,
                                 commands)
        node.create_subscription(JointState, resolve(DELTA_JOINT_TOPIC), self._on_joints,
                                 commands)
        # Runs only while servoing: an idle 100 Hz callback would cost the executor's thread
        # (and every other callback on it) for nothing.
        self._timer = node.create_timer(1.0 / settings.servo_rate, self._on_timer)
        self._timer.cancel()
        self._timer_rate = settings.servo_rate
        self._executor = _ServoExecutor(context=node.context)
        self._executor.add_node(node)
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._spin, name='servo_executor', daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the servo's executor and destroy its node."""
        self._closing.set()
        self._thread.join(timeout=1.0)
        self._node.destroy_node()

    def _spin(self) -> None:
        # rclpy's events executor is shut down, and its node's timers made, on the thread that
        # spins it: from another thread either waits forever on the executor's lock.
        while not self._closing.is_set() and self._node.context.ok():
            try:
                self._executor.spin_once(timeout_sec=_SPIN_PERIOD)
            except Exception as error:  # noqa: B902 - one callback's failure, never the servo's
                self._main_node.get_logger().error(
                    'a servo callback failed; servoing goes on: %r\n%s'
                    % (error, traceback.format_exc()), throttle_duration_sec=1.0)
        self._executor.shutdown()

    @property
    def active(self) -> bool:
        """Whether servoing drives the arm now."""
        with self._lock:
            return self._loop is not None and self._loop.active

    def stop(self) -> None:
        """Hand the arm over to another motion: the command and the loop's state are dropped."""
        with self._lock:
            if self._loop is not None:
                self._loop.stop()

    # --- commands -------------------------------------------------------------------------

    def _on_twist(self, message: TwistStamped) -> None:
        try:
            loop, model = self._ready_loop()
            frame = message.header.frame_id.strip().lstrip('/')
            linear = np.array([message.twist.linear.x, message.twist.linear.y,
                               message.twist.linear.z])
            angular = np.array([message.twist.angular.x, message.twist.angular.y,
                                message.twist.angular.z])
            if frame == loop.chain.tip_link:
                command = TwistCommand(linear, angular, 'tip', received=time.monotonic())
            else:
                # Any other frame: its orientation now turns the twist into the base frame.
                rotation = frame_to_base(
                    model, loop.chain.base_link, frame,
                    self._robot.joint_states.positions(),
                    external_lookup=self._robot.external_lookup)[:3, :3]
                command = TwistCommand(rotation @ linear, rotation @ angular, 'base',
                                       received=time.monotonic())
            self._take(loop, command)
        except IKError as error:
            self._main_node.get_logger().warning('delta_twist_cmds ignored: %s' % error,
                                                 throttle_duration_sec=1.0)

    def _on_joints(self, message: JointState) -> None:
        try:
            if len(message.velocity) != len(message.name):
                raise IKError('a joint command needs one velocity per name (%d names, %d '
                              'velocities)' % (len(message.name), len(message.velocity)))
            loop, _ = self._ready_loop()
            self._take(loop, JointJogCommand(dict(zip(message.name, message.velocity)),
                                             received=time.monotonic()))
        except IKError as error:
            self._main_node.get_logger().warning('delta_joint_cmds ignored: %s' % error,
                                                 throttle_duration_sec=1.0)

    def _take(self, loop: ServoLoop, command) -> None:
        with self._lock:
            early = loop.active and loop.takes_up_at_once(command, time.monotonic())
            loop.command(command)
            if loop.active and not early:
                return  # the next cycle takes it up
            if not loop.active:
                start, notes = self._robot.current_configuration(loop.chain)
                if notes:
                    loop.stop()
                    raise IKError('servoing starts from the joint states; %s'
                                  % '; '.join(notes))
                loop.start(start)
            self._timer.reset()
        # From rest the first cycle runs now rather than one period later (a command shorter
        # than a period would otherwise expire before it); so does a changed command while
        # moving, from where the controller is along its point. The timer counts on from here.
        self._on_cycle(early=early)

    def _ready_loop(self) -> Tuple[ServoLoop, RobotModel]:
        """Return the loop for the chain, solver and limits set now (new if they changed)."""
        settings = self._parameters.settings
        chain, model = self._robot.chain_and_model(settings)
        collision = self._robot.collision_model(settings)
        key = (id(chain), settings.solver, settings.servo_rate, settings.velocity_scale,
               settings.acceleration_limit, settings.incoming_command_timeout,
               settings.slow_down_distance, id(collision))
        with self._lock:
            if settings.servo_rate != self._timer_rate:  # set at runtime: a new period
                self._node.destroy_timer(self._timer)
                self._timer = self._node.create_timer(1.0 / settings.servo_rate, self._on_timer)
                self._timer.cancel()
                self._timer_rate = settings.servo_rate
            if self._loop is None or key != self._loop_key:
                self._loop = ServoLoop(chain, ServoSettings(
                    rate=settings.servo_rate,
                    incoming_command_timeout=settings.incoming_command_timeout,
                    velocity_scale=settings.velocity_scale,
                    acceleration_limit=settings.acceleration_limit,
                    slow_down_distance=settings.slow_down_distance),
                    solver=settings.solver, collision_model=collision)
                self._loop_key = key
            return self._loop, model

    # --- the cycle ------------------------------------------------------------------------

    def _on_timer(self) -> None:
        # No parameter: rclpy's events executor hands a timer's callback a TimerInfo when it
        # takes one, which _on_cycle would read as an early cycle.
        self._on_cycle()

    def _on_cycle(self, early: bool = False) -> None:
        with self._lock:
            loop = self._loop
            if loop is None or not loop.active:
                self._timer.cancel()
                return
            step = loop.step(time.monotonic(), early=early)
            if step is None:
                return
            if not step.moving:
                loop.stop()  # at rest with no command: the arm is free for other motions
                self._timer.cancel()
        if step.moving:
            self._publish(loop, step)
        status = ServoStatus(fraction=step.fraction, limiter=step.limiter, moving=step.moving)
        status.header.stamp = self._main_node.get_clock().now().to_msg()
        status.header.frame_id = loop.chain.base_link
        self._status.publish(status)

    def _publish(self, loop: ServoLoop, step: ServoStep) -> None:
        self._robot.set_last_command(loop.chain.joint_names, step.positions)
        if self._parameters.settings.servo_output == 'position_array':
            self._positions.publish(Float64MultiArray(data=step.positions.tolist()))
            return
        nanoseconds = int(round(loop.settings.period * 1e9))
        point = JointTrajectoryPoint(
            positions=step.positions.tolist(), velocities=step.velocities.tolist(),
            time_from_start=Duration(sec=nanoseconds // 1_000_000_000,
                                     nanosec=nanoseconds % 1_000_000_000))
        # An empty stamp: the controller starts the trajectory when it arrives.
        self._trajectories.publish(JointTrajectory(joint_names=list(loop.chain.joint_names),
                                                   points=[point]))
