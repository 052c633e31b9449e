# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The client of the goals-once benchmark: publishes goals once, records what the arm does.

It publishes the description (and SRDF), each goal once on ``target_pose``, and records the
ik_node's statuses and every joint state the simulated executor plays, with its arrival time.
Messages are imported here, not at the module's top, so that the core never needs ROS.
"""

import threading
import time
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from .stress_client import COMMAND_TOPIC

__all__ = ['GoalsClient']


class GoalsClient:
    """A client node in the ik_node's namespace, spinning on a thread of its own."""

    def __init__(self, namespace: str, joint_names: Sequence[str]) -> None:
        """
        Create the node and start spinning it.

        :param namespace: The ik_node's (and the executor's) namespace.
        :param joint_names: The chain's joints, in the order positions are returned.
        """
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
        from geometry_msgs.msg import PoseStamped
        from ik_solvers_interfaces.msg import IKStatus
        from sensor_msgs.msg import JointState
        from std_msgs.msg import String
        from trajectory_msgs.msg import JointTrajectory
        from ik_solvers.demo.played_limits import CommandLog

        self._rclpy = rclpy
        self._pose_type, self._string_type = PoseStamped, String
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('goals_client', namespace=namespace, context=self.context)
        self._names = list(joint_names)
        deep = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE)
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.description = self.node.create_publisher(String, 'robot_description', latched)
        self.semantic = self.node.create_publisher(String, 'robot_description_semantic',
                                                   latched)
        self.targets = self.node.create_publisher(PoseStamped, 'target_pose', deep)
        self._lock = threading.Lock()
        self.statuses: List[Any] = []
        #: (arrival time s, (N,) positions) of every joint state received.
        self.states: List[Tuple[float, np.ndarray]] = []
        self.node.create_subscription(IKStatus, 'ik_node/status', self._on_status, deep)
        self.node.create_subscription(JointState, 'joint_states', self._on_state,
                                      QoSProfile(depth=5000,
                                                 reliability=ReliabilityPolicy.RELIABLE))
        #: The first joint states of the joints off the chain (fingers), or ``None``.
        self.others: Optional[dict] = None
        #: The final positions of the latest command, (N,), or ``None``.
        self.last_command: Optional[np.ndarray] = None
        self.node.create_subscription(JointTrajectory, COMMAND_TOPIC, self._on_command, deep)
        #: Every command with its arrival and the arm's latest joint state then.
        self.commands = CommandLog(self.node, COMMAND_TOPIC)
        self._executor = SingleThreadedExecutor(context=self.context)
        self._executor.add_node(self.node)
        self._thread = threading.Thread(target=self._executor.spin, daemon=True)
        self._thread.start()

    def _on_status(self, message) -> None:
        with self._lock:
            self.statuses.append(message)

    def _on_command(self, message) -> None:
        if not message.points:
            return
        final = dict(zip(message.joint_names, message.points[-1].positions))
        if all(name in final for name in self._names):
            with self._lock:
                self.last_command = np.array([final[name] for name in self._names])

    def _on_state(self, message) -> None:
        by_name = dict(zip(message.name, message.position))
        if self.others is None:
            self.others = {name: value for name, value in by_name.items()
                           if name not in self._names}
        if not all(name in by_name for name in self._names):
            return
        q = np.array([by_name[name] for name in self._names])
        with self._lock:
            self.states.append((time.monotonic(), q))

    def publish_description(self, urdf_xml: str, srdf_xml: Optional[str]) -> None:
        """Publish the URDF (and the SRDF), latched."""
        self.description.publish(self._string_type(data=urdf_xml))
        if srdf_xml is not None:
            self.semantic.publish(self._string_type(data=srdf_xml))

    def publish_goal(self, frame_id: str, position: Sequence[float],
                     quaternion_xyzw: Sequence[float]) -> None:
        """Publish one goal on ``target_pose``, once."""
        message = self._pose_type()
        message.header.frame_id = frame_id
        pose = message.pose
        pose.position.x, pose.position.y, pose.position.z = (float(v) for v in position)
        (pose.orientation.x, pose.orientation.y, pose.orientation.z,
         pose.orientation.w) = (float(v) for v in quaternion_xyzw)
        self.targets.publish(message)

    def status_count(self) -> int:
        """Return how many statuses arrived so far."""
        with self._lock:
            return len(self.statuses)

    def statuses_since(self, start: int) -> List[Any]:
        """Return the statuses from index ``start`` on."""
        with self._lock:
            return list(self.statuses[start:])

    def state_count(self) -> int:
        """Return how many joint states arrived so far."""
        with self._lock:
            return len(self.states)

    def states_since(self, start: int) -> List[Tuple[float, np.ndarray]]:
        """Return the joint states from index ``start`` on."""
        with self._lock:
            return list(self.states[start:])

    def latest(self) -> Optional[np.ndarray]:
        """Return the latest joint positions, or ``None``."""
        with self._lock:
            return self.states[-1][1].copy() if self.states else None

    def wait_at_rest(self, quiet: float, timeout: float, *,
                     arrived: bool = False) -> Optional[np.ndarray]:
        """
        Wait until the joint states stop changing for ``quiet`` s; return them.

        :param arrived: Also wait until they are where the latest command ends (a command
            may reach the executor after the status that announced it).
        """
        deadline = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.02)
            q = self.latest()
            if q is None:
                continue
            if last is None or float(np.max(np.abs(q - last))) > 1e-12:
                last, since = q, time.monotonic()
            elif time.monotonic() - since >= quiet:
                with self._lock:
                    goal = self.last_command
                if not arrived or goal is None or float(np.max(np.abs(q - goal))) < 1e-6:
                    return q
        return None

    def close(self) -> None:
        """Stop spinning and destroy the node."""
        self._executor.shutdown(timeout_sec=1.0)
        self.node.destroy_node()
        self._rclpy.shutdown(context=self.context)
