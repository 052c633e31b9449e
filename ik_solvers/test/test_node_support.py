# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Support for the node tests (no tests here): a probe node that drives an ik_node over DDS.

Every test talks to its own namespace, so tests never see each other's messages.
"""

import math
from pathlib import Path
import threading
import time
from typing import Callable, List, Sequence
import uuid

from conftest import rotation_angle as oracle_rotation_angle, UrdfOracle
from geometry_msgs.msg import PoseStamped
from ik_solvers.kinematics import RobotModel
from ik_solvers.ros.conversions import matrix_to_pose
from ik_solvers.ros.ik_node import IKNode
from ik_solvers_interfaces.msg import ErrorCodes, IKStatus
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from rcl_interfaces.msg import Log
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, qos_profile_sensor_data, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory
from visualization_msgs.msg import MarkerArray

__all__ = [
    'Collector',
    'Probe',
    'Ros',
    'Spinner',
    'jtc_accepts',
    'fk_of_command',
    'oracle_confirms',
    'oracle_confirms_errors',
    'rotation_angle',
    'same_position',
    'unique_namespace',
    'wait_until',
]

#: Seconds: generous, because CI machines are shared; waits end as soon as the event happens.
WAIT = 30.0
COMMAND_TOPIC = 'commands'


def unique_namespace() -> str:
    """Return a namespace no other test uses."""
    return '/ik_test_' + uuid.uuid4().hex[:10]


def wait_until(predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` seconds pass; return its last value."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return predicate()
        time.sleep(0.01)
    return True


class Spinner:
    """Spins a single-threaded executor in a thread, and stops it with no callback in flight."""

    def __init__(self, context) -> None:
        self.executor = SingleThreadedExecutor(context=context)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.05)

    def stop(self) -> None:
        # Joining first: shutting an executor down while a callback runs makes rclpy report an
        # unretrieved InvalidHandle from the callback's task.
        self._stop.set()
        self._thread.join(timeout=WAIT)
        self.executor.shutdown()


class Collector:
    """Keeps every message of one subscription and lets a test wait for one that matches."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self.messages: List = []

    def __call__(self, message) -> None:
        with self._condition:
            self.messages.append(message)
            self._condition.notify_all()

    def count(self) -> int:
        with self._condition:
            return len(self.messages)

    def wait_for(self, predicate: Callable[[object], bool], *, start: int = 0,
                 timeout: float = WAIT):
        """Return the first message from index ``start`` on that satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while True:
                for message in self.messages[start:]:
                    if predicate(message):
                        return message
                remaining = deadline - time.monotonic()
                if remaining <= 0.0:
                    raise AssertionError('no matching message within %g s (%d received)'
                                         % (timeout, len(self.messages)))
                self._condition.wait(remaining)


def same_position(pose, matrix: np.ndarray, tolerance: float = 1e-9) -> bool:
    """Tell whether a pose message has the position of a (4, 4) transform."""
    position = np.array([pose.position.x, pose.position.y, pose.position.z])
    return bool(np.linalg.norm(position - matrix[:3, 3]) <= tolerance)


class Probe:
    """Publishes descriptions, joint states and targets; records commands and statuses."""

    def __init__(self, context, namespace: str, *, node_name: str = 'ik_node') -> None:
        self.node = Node('probe', namespace=namespace, context=context)
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.description = self.node.create_publisher(String, 'robot_description', latched)
        self.joint_states = self.node.create_publisher(JointState, 'joint_states',
                                                       qos_profile_sensor_data)
        self.targets = self.node.create_publisher(PoseStamped, 'target_pose', 1000)
        self.commands = Collector()
        self.statuses = Collector()
        self.markers = Collector()
        self.node.create_subscription(JointTrajectory, COMMAND_TOPIC, self.commands, 1000)
        self.node.create_subscription(
            IKStatus, node_name + '/status',
            self.statuses, QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE))
        self.node.create_subscription(MarkerArray, node_name + '/markers', self.markers, 100)
        # Deep enough for the answers to a burst of calls, which arrive together.
        self.solve_ik = self.node.create_client(
            SolveIK, node_name + '/solve_ik',
            qos_profile=QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE))
        # The ik_node's log lines (its loggers are named after its namespace).
        self.logs = Collector()
        self._logger_prefix = (namespace.strip('/').replace('/', '.') + '.' + node_name)
        self.node.create_subscription(Log, '/rosout', self._on_log, QoSProfile(
            depth=1000, reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self._joint_state = None
        # Like a robot driver: joint states keep coming, so a lost best-effort sample is harmless.
        self.node.create_timer(0.05, self._republish_joint_states)

    def _on_log(self, message: Log) -> None:
        if message.name.startswith(self._logger_prefix):
            self.logs(message)

    def stop_joint_states(self) -> None:
        """Stop publishing joint states, as a driver that died."""
        self._joint_state = None

    def _republish_joint_states(self) -> None:
        if self._joint_state is not None:
            self.publish_joint_states(*self._joint_state)

    def stream_joint_states(self, names: Sequence[str], positions: Sequence[float]) -> None:
        """Publish these joint states now and every 50 ms from then on."""
        self._joint_state = (list(names), [float(value) for value in positions])
        self.publish_joint_states(*self._joint_state)

    def wait_for_model(self, *, code=None) -> SolveIK.Response:
        """Call the service until the node has a robot model; return that first response."""
        responses = []

        def has_model():
            responses.append(self.call(SolveIK.Request()))
            return responses[-1].error_code != ErrorCodes.NO_ROBOT_MODEL

        assert wait_until(has_model), 'the ik_node never loaded the robot description'
        return responses[-1]

    def wait_for_ik_node(self) -> None:
        """Wait until the ik_node's endpoints and ours have discovered each other."""
        assert wait_until(lambda: (
            self.targets.get_subscription_count() > 0
            and self.description.get_subscription_count() > 0
            and self.joint_states.get_subscription_count() > 0
            and self.node.count_publishers(self.node.resolve_topic_name(COMMAND_TOPIC)) > 0
            and self.node.count_publishers(
                self.node.resolve_topic_name('ik_node/status')) > 0)), 'ik_node not discovered'
        assert self.solve_ik.wait_for_service(timeout_sec=WAIT), 'no solve_ik service'

    def publish_description(self, urdf_xml: str) -> None:
        self.description.publish(String(data=urdf_xml))

    def publish_joint_states(self, names: Sequence[str], positions: Sequence[float]) -> None:
        message = JointState()
        message.header.stamp = self.node.get_clock().now().to_msg()
        message.name = list(names)
        message.position = [float(value) for value in positions]
        self.joint_states.publish(message)

    def publish_target(self, matrix: np.ndarray, frame_id: str = '') -> None:
        message = PoseStamped()
        message.header.frame_id = frame_id
        message.pose = matrix_to_pose(matrix)
        self.targets.publish(message)

    def publish_raw_target(self, position, quaternion, frame_id: str = '') -> None:
        message = PoseStamped()
        message.header.frame_id = frame_id
        message.pose.position.x, message.pose.position.y, message.pose.position.z = position
        orientation = message.pose.orientation
        orientation.x, orientation.y, orientation.z, orientation.w = quaternion
        self.targets.publish(message)

    def call(self, request: SolveIK.Request, timeout: float = WAIT) -> SolveIK.Response:
        future = self.solve_ik.call_async(request)
        done = threading.Event()
        future.add_done_callback(lambda _: done.set())
        assert done.wait(timeout), 'no SolveIK response within %g s' % timeout
        return future.result()

    def target_request(self, matrix: np.ndarray, **fields) -> SolveIK.Request:
        request = SolveIK.Request()
        request.target.pose = matrix_to_pose(matrix)
        for name, value in fields.items():
            setattr(request, name, value)
        return request


class Ros:
    """One rclpy context with a spinning executor; starts ik_nodes and probes in it."""

    #: Parameters every started ik_node gets unless a test overrides them.
    DEFAULTS = {'command_topic': COMMAND_TOPIC, 'timeout': 0.5,
                'position_tolerance': 1e-4, 'orientation_tolerance': 1e-3}

    def __init__(self) -> None:
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self._spinner = Spinner(self.context)
        self.executor = self._spinner.executor
        self.nodes = []

    def start(self, *, cli_args=None, **parameters):
        namespace = unique_namespace()
        overrides = dict(self.DEFAULTS, **parameters)
        node = IKNode(namespace=namespace, context=self.context, cli_args=cli_args,
                      parameter_overrides=[Parameter(name, value=value)
                                           for name, value in overrides.items()])
        probe = Probe(self.context, namespace)
        for each in (node, probe.node):
            self.nodes.append(each)
            self.executor.add_node(each)
        probe.wait_for_ik_node()
        return node, probe

    def close(self) -> None:
        self._spinner.stop()
        for node in self.nodes:
            node.destroy_node()
        rclpy.shutdown(context=self.context)


def jtc_accepts(trajectory: JointTrajectory, controller_joints: Sequence[str]) -> bool:
    """Restate joint_trajectory_controller's checks of a trajectory arriving on its topic."""
    names = list(trajectory.joint_names)
    if len(names) != len(controller_joints) or not names or not trajectory.points:
        return False
    if any(name not in controller_joints for name in names):
        return False
    if any(abs(v) > np.finfo(np.float32).eps for v in trajectory.points[-1].velocities):
        return False
    stamp = trajectory.header.stamp
    if stamp.sec != 0 or stamp.nanosec != 0:
        return False  # the node always means "start now"
    previous = None
    for point in trajectory.points:
        time_from_start = point.time_from_start.sec + 1e-9 * point.time_from_start.nanosec
        if time_from_start <= 0.0 or (previous is not None and time_from_start <= previous):
            return False
        previous = time_from_start
        if len(point.positions) != len(names):
            return False
        if any(len(field) not in (0, len(names))
               for field in (point.velocities, point.accelerations)):
            return False
        if len(point.effort):
            return False
    return True


def fk_of_command(chain, command: JointTrajectory) -> np.ndarray:
    """Return the tip pose of a command's last point, by the chain's FK."""
    assert list(command.joint_names) == list(chain.joint_names)
    return chain.fk(np.array(command.points[-1].positions))


def rotation_angle(a: np.ndarray, b: np.ndarray) -> float:
    """Return the angle in radians of the rotation between two (4, 4) poses."""
    cosine = (np.trace(a[:3, :3].T @ b[:3, :3]) - 1.0) / 2.0
    return math.acos(min(1.0, max(-1.0, cosine)))


#: The bundled UR5-like arm that the node tests drive, and a pose away from its singularities.
UR5 = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
UR5_CHAIN = RobotModel.from_urdf(UR5).chain('base_link', 'tool0')
UR5_HOME = np.array([0.2, -1.2, 1.4, -0.6, 0.5, 0.1])
#: The tests' own FK and limits of that arm, read from the URDF text (see conftest.py).
UR5_ORACLE = UrdfOracle(UR5, 'base_link', 'tool0')


def oracle_confirms(oracle: UrdfOracle, names: Sequence[str], positions: Sequence[float],
                    target: np.ndarray, **options) -> np.ndarray:
    """
    Assert that joint positions from a reply or a command reach ``target``, by the oracle.

    :param oracle: The chain's oracle.
    :param names: Joint names of the reply or command, in the chain's order.
    :param positions: Their positions.
    :param target: (4, 4) target pose in the chain's base frame.
    :param options: Tolerances and mode of :meth:`UrdfOracle.check`; the tolerances default to
        those every started node gets.
    :returns: The reached pose.
    :raises AssertionError: Other joints, a missed target, or a joint beyond its URDF limits.
    """
    assert list(names) == oracle.joint_names, (list(names), oracle.joint_names)
    options.setdefault('position_tolerance', Ros.DEFAULTS['position_tolerance'])
    options.setdefault('orientation_tolerance', Ros.DEFAULTS['orientation_tolerance'])
    return oracle.check(list(positions), target, **options)


def oracle_confirms_errors(oracle: UrdfOracle, names: Sequence[str], positions: Sequence[float],
                           target: np.ndarray, position_error: float, orientation_error: float,
                           *, rounding: float = 1e-9) -> np.ndarray:
    """
    Assert that an answer short of ``target`` keeps the URDF limits and reports true errors.

    For an approximate answer, or any other that is not a success: the errors it reports must
    be those of the oracle's FK, whole rotation angle as the orientation error.

    :param oracle: The chain's oracle.
    :param names: Joint names of the reply, status or command, in the chain's order.
    :param positions: Their positions.
    :param target: (4, 4) target pose in the chain's base frame.
    :param position_error: The reported distance to the target, m.
    :param orientation_error: The reported rotation angle to the target, rad.
    :param rounding: Allowed difference between the reported and the oracle's errors.
    :returns: The reached pose, by the oracle.
    :raises AssertionError: Other joints, a joint beyond its URDF limits, or a reported error
        that the oracle does not find.
    """
    assert list(names) == oracle.joint_names, (list(names), oracle.joint_names)
    violations = oracle.limit_violations(list(positions))
    assert not violations, 'oracle: beyond the URDF limits: ' + '; '.join(violations)
    reached = oracle.fk(list(positions))
    distance = float(np.linalg.norm(reached[:3, 3] - np.asarray(target)[:3, 3]))
    assert abs(position_error - distance) <= rounding, (
        'reported position error %r m, oracle %r m' % (position_error, distance))
    angle = oracle_rotation_angle(reached, target)
    assert abs(orientation_error - angle) <= rounding, (
        'reported orientation error %r rad, oracle %r rad' % (orientation_error, angle))
    return reached


def start_ur5_node(ros: 'Ros', **parameters):
    """
    Start a node with the UR5-like arm at home, and wait until it has the model.

    :param ros: The harness of the ``ros`` fixture.
    :param parameters: Node parameters.
    :returns: The node and its probe.
    """
    node, probe = ros.start(**parameters)
    probe.stream_joint_states(UR5_CHAIN.joint_names, UR5_HOME)
    probe.publish_description(UR5)
    probe.wait_for_model()
    return node, probe
