# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The client side of the servo latency benchmark: servo commands out, the servo output in.

Messages are imported inside the class, so that importing this module needs no ROS.
"""

import threading
import time
from typing import List, Optional, Tuple

import numpy as np

from .stress_client import COMMAND_TOPIC, IKNodeProcess, StressClient

__all__ = ['LOST_AFTER', 'POSITION_TOPIC', 'ServoProbe']

#: Topic of the position_array output, relative to the run's namespace.
POSITION_TOPIC = 'servo_positions'
TWIST_SPEED = 0.02  # m/s
JOINT_SPEED = 0.1  # rad/s
#: Tip motion (m) along a twist's new direction that shows it in an output.
TIP_STEP = 1e-6
#: s without a matching output after which a sample counts as lost.
LOST_AFTER = 2.0


def _axis_and_sign(direction: int) -> Tuple[int, float]:
    """Return the axis (x or y; the first or second joint) and sign of a square's side 0-3."""
    return direction % 2, 1.0 - 2.0 * (direction // 2)


class ServoProbe:
    """The client's servo side: commands out, the node's servo output and status in."""

    def __init__(self, client: StressClient, chain, start: np.ndarray) -> None:
        """
        Add the publishers and subscriptions to ``client``'s node (it keeps spinning).

        :param client: The client in the ik_node's namespace.
        :param chain: The servoed chain (its FK tells where the tip went).
        :param start: (N,) the joint positions the client reports, rad.
        """
        from geometry_msgs.msg import TwistStamped
        from ik_solvers_interfaces.msg import ServoStatus
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from sensor_msgs.msg import JointState
        from std_msgs.msg import Float64MultiArray
        from trajectory_msgs.msg import JointTrajectory

        self.client, self.chain, self.start = client, chain, np.asarray(start, dtype=float)
        #: The ik_node's process, once started.
        self.node: Optional[IKNodeProcess] = None
        self._twist_type, self._joint_type = TwistStamped, JointState
        node = client.node
        deep = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE)
        self._twists = node.create_publisher(TwistStamped, 'ik_node/delta_twist_cmds', 10)
        self._joints = node.create_publisher(JointState, 'ik_node/delta_joint_cmds', 10)
        self._arrived = threading.Condition()
        #: (arrival s, (N,) positions) of every servo output, both kinds.
        self.outputs: List[Tuple[float, np.ndarray]] = []
        #: ``moving`` of every servo status.
        self.statuses: List[bool] = []
        node.create_subscription(JointTrajectory, COMMAND_TOPIC, self._on_trajectory, deep)
        node.create_subscription(Float64MultiArray, POSITION_TOPIC, self._on_positions, deep)
        node.create_subscription(ServoStatus, 'ik_node/servo_status', self._on_status, deep)

    def _on_trajectory(self, message) -> None:
        arrival = time.monotonic()
        if message.points:
            self._record(arrival, message.points[0].positions)

    def _on_positions(self, message) -> None:
        self._record(time.monotonic(), message.data)

    def _record(self, arrival: float, positions) -> None:
        with self._arrived:
            self.outputs.append((arrival, np.array(positions, dtype=float)))
            self._arrived.notify_all()

    def _on_status(self, message) -> None:
        with self._arrived:
            self.statuses.append(bool(message.moving))
            self._arrived.notify_all()

    def wait_for(self, predicate, timeout: float) -> bool:
        """Wait until ``predicate()`` holds (checked at each arrival); tell whether it did."""
        with self._arrived:
            return self._arrived.wait_for(predicate, timeout)

    def send(self, source: str, direction: Optional[int]) -> float:
        """
        Publish a command: ``direction`` 0-3 of the square (+x, +y, -x, -y), None for zero.

        :returns: When it was sent, s of ``time.monotonic``.
        """
        axis, sign = (0, 0.0) if direction is None else _axis_and_sign(direction)
        if source == 'twist':
            message = self._twist_type()
            message.header.frame_id = self.chain.base_link
            setattr(message.twist.linear, 'xy'[axis], sign * TWIST_SPEED)
            sent = time.monotonic()
            self._twists.publish(message)
            return sent
        velocities = [0.0] * self.chain.num_joints
        velocities[axis] = sign * JOINT_SPEED
        message = self._joint_type(name=list(self.chain.joint_names), velocity=velocities)
        sent = time.monotonic()
        self._joints.publish(message)
        return sent

    def reflects(self, source: str, direction: int, before: np.ndarray,
                 after: np.ndarray) -> bool:
        """Tell whether the step ``before`` -> ``after`` goes along ``direction``."""
        axis, sign = _axis_and_sign(direction)
        if source == 'twist':
            step = self.chain.fk(after)[:3, 3] - self.chain.fk(before)[:3, 3]
            return sign * step[axis] > TIP_STEP
        return sign * (after[axis] - before[axis]) > 0.0

    def first_effect(self, source: str, direction: int, mark: int,
                     before: np.ndarray) -> Optional[float]:
        """
        Return the arrival (s) of the first output from index ``mark`` on along ``direction``.

        :param before: (N,) the positions before output ``mark`` (the output before it, or
            where the loop starts from rest).
        :returns: None when none came within :data:`LOST_AFTER` s.
        """
        scan = {'index': mark, 'previous': before, 'arrival': None}

        def arrived() -> bool:
            for index in range(scan['index'], len(self.outputs)):
                arrival, positions = self.outputs[index]
                if self.reflects(source, direction, scan['previous'], positions):
                    scan['arrival'] = arrival
                    return True
                scan['index'], scan['previous'] = index + 1, positions
            return False

        self.wait_for(arrived, LOST_AFTER)
        return scan['arrival']

    def wait_at_rest(self, timeout: float = 2.0) -> bool:
        """Send zero commands until the node's servo loop says it stopped."""
        for _ in range(int(timeout / 0.1)):
            mark = len(self.statuses)
            self.send('twist', None)
            if self.wait_for(lambda: not all(self.statuses[mark:]), 0.1):
                return True
        return False
