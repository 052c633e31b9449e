# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
An ik_node in a process of its own, and a client node that drives it over DDS.

Used by :mod:`.node_stress`. The node runs as ``python -m ik_solvers.ros.ik_node`` so that a
crash is a real process exit and its interpreter lock is not shared with the client.
"""

import os
from pathlib import Path
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple
import uuid

__all__ = ['DescriptionPublisher', 'IKNodeProcess', 'new_namespace', 'runnable_wait_seconds',
           'StressClient', 'TimedCall']

#: Topic of the commands, relative to the namespace of the run.
COMMAND_TOPIC = 'commands'


def new_namespace() -> str:
    """Return a namespace no other run uses, for an ik_node and its client."""
    return '/stress_' + uuid.uuid4().hex[:10]


def runnable_wait_seconds(pid: int) -> float:
    """
    Return the time (s) the threads of process ``pid`` waited on the run queue so far.

    From ``/proc/<pid>/task/*/schedstat`` (its second figure); threads that ended are not
    counted; 0 where the kernel does not say.
    """
    total = 0
    for path in Path('/proc/%d/task' % pid).glob('*/schedstat'):
        try:
            total += int(path.read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


class IKNodeProcess:
    """The ik_node as a child process in a namespace of its own."""

    def __init__(self, *, base_link: str, tip_link: str, log_path: Path,
                 parameters: Optional[Dict[str, str]] = None,
                 namespace: Optional[str] = None,
                 environment: Optional[Dict[str, str]] = None) -> None:
        """
        Start the node.

        :param base_link: Chain base.
        :param tip_link: Chain tip.
        :param log_path: File that receives the node's output.
        :param parameters: More ``name: value`` parameters, as on the command line.
        :param namespace: The node's namespace; a new unique one by default (see
            :func:`new_namespace`), so that a client may be set up before the node starts.
        :param environment: Variables set for the node's process on top of this one's.
        """
        self.namespace = namespace or new_namespace()
        values = {'base_link': base_link, 'tip_link': tip_link,
                  'command_topic': COMMAND_TOPIC}
        values.update(parameters or {})
        arguments = [sys.executable, '-m', 'ik_solvers.ros.ik_node', '--ros-args',
                     '-r', '__ns:=' + self.namespace]
        for name, value in values.items():
            arguments += ['-p', '%s:=%s' % (name, value)]
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(log_path, 'w')
        self._process = subprocess.Popen(arguments, stdout=self._log, stderr=subprocess.STDOUT,
                                         env={**os.environ, **(environment or {})})

    @property
    def alive(self) -> bool:
        """Tell whether the process still runs."""
        return self._process.poll() is None

    @property
    def returncode(self) -> Optional[int]:
        """Return the exit status, or ``None`` while it runs."""
        return self._process.poll()

    def rss_megabytes(self) -> float:
        """Return the resident memory of the process in MB (0 when it is gone)."""
        try:
            for line in Path('/proc/%d/status' % self._process.pid).read_text().splitlines():
                if line.startswith('VmRSS:'):
                    return int(line.split()[1]) / 1024.0
        except OSError:
            pass
        return 0.0

    def cpu_seconds(self) -> float:
        """Return the CPU time (user + system, s) the process used so far (0 when it is gone)."""
        try:
            fields = Path('/proc/%d/stat' % self._process.pid).read_text().rsplit(')', 1)[1]
        except OSError:
            return 0.0
        values = fields.split()
        return (int(values[11]) + int(values[12])) / os.sysconf('SC_CLK_TCK')

    def runnable_wait_seconds(self) -> float:
        """Return the time (s) the process's threads spent ready to run but waiting for a CPU."""
        return runnable_wait_seconds(self._process.pid)

    def stop(self, timeout: float = 20.0) -> Optional[int]:
        """Interrupt the node as Ctrl-C would, kill it if it lingers; return its status."""
        if self.alive:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=timeout)
        self._log.close()
        return self._process.returncode


class DescriptionPublisher:
    """
    A process of its own that publishes one robot description, as robot_state_publisher does.

    Megabytes sent from the client's own participant would queue the client's calls behind
    them in the middleware, and the calls' latencies would measure the client, not the node.
    """

    def __init__(self, namespace: str, urdf_xml: str, directory: Path,
                 topic: str = 'robot_description') -> None:
        """
        Start publishing; the description stays latched until :meth:`stop`.

        :param namespace: The ik_node's namespace.
        :param urdf_xml: The description.
        :param directory: Where the text is written for the child process.
        :param topic: The topic, relative to the namespace (an SRDF's too).
        """
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / ('description_%s.urdf' % uuid.uuid4().hex[:8])
        path.write_text(urdf_xml)
        self._path = path
        self._process = subprocess.Popen(
            [sys.executable, '-m', 'ik_solvers_benchmarks.stress_client', namespace, str(path),
             topic],
            env=dict(os.environ))

    def stop(self) -> None:
        """End the process and remove the text."""
        self._process.send_signal(signal.SIGINT)
        try:
            self._process.wait(timeout=20.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(timeout=20.0)
        self._path.unlink()


def _publish_description(namespace: str, path: str, topic: str) -> None:
    """Body of :class:`DescriptionPublisher`'s process: publish latched, spin until Ctrl-C."""
    import rclpy
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from std_msgs.msg import String

    rclpy.init()
    node = rclpy.create_node('stress_description', namespace=namespace)
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    node.create_publisher(String, topic, latched).publish(
        String(data=Path(path).read_text()))
    try:
        rclpy.spin(node)
    except KeyboardInterrupt:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


class TimedCall:
    """One SolveIK call: when it was sent, its deadline, and its answer once it comes."""

    def __init__(self, future: Any, deadline: float, label: str) -> None:
        """Wrap ``future``; ``deadline`` is on the ``time.monotonic`` clock."""
        self.sent = time.monotonic()
        self.deadline = deadline
        self.label = label
        self.answered: Optional[float] = None
        self._done = threading.Event()
        future.add_done_callback(self._finish)
        self._future = future

    def _finish(self, _future: Any) -> None:
        self.answered = time.monotonic()
        self._done.set()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the answer; tell whether it came."""
        return self._done.wait(max(0.0, timeout))

    @property
    def response(self) -> Any:
        """Return the response, or ``None`` without one."""
        return self._future.result() if self._done.is_set() else None

    @property
    def latency(self) -> Optional[float]:
        """Return seconds from sending to the answer, or ``None`` without one."""
        return None if self.answered is None else self.answered - self.sent


class StressClient:
    """A client node: publishes to the ik_node, calls its service, records what it sends back."""

    def __init__(self, namespace: str, joint_names: Sequence[str],
                 joint_positions: Sequence[float]) -> None:
        """
        Create the node and start spinning it; publish joint states at 50 Hz.

        :param namespace: The ik_node's namespace.
        :param joint_names: Joints to report on joint_states.
        :param joint_positions: Their positions, rad or m.
        """
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                               ReliabilityPolicy)
        from geometry_msgs.msg import PoseStamped
        from ik_solvers_interfaces.msg import CollisionObject, IKStatus
        from ik_solvers_interfaces.srv import CartesianPath, SolveIK
        from rcl_interfaces.msg import Log
        from rcl_interfaces.srv import SetParameters, SetParametersAtomically
        from sensor_msgs.msg import JointState
        from std_msgs.msg import String
        from trajectory_msgs.msg import JointTrajectory

        self._rclpy = rclpy
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('stress_client', namespace=namespace,
                                      context=self.context)
        self.namespace = namespace
        deep = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE)
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.description = self.node.create_publisher(String, 'robot_description', latched)
        self.semantic_description = self.node.create_publisher(
            String, 'robot_description_semantic', latched)
        self.joint_states = self.node.create_publisher(JointState, 'joint_states',
                                                       qos_profile_sensor_data)
        self.targets = self.node.create_publisher(PoseStamped, 'target_pose', deep)
        # A burst's responses arrive together: a client queue of 10 would lose some.
        self.solve_ik = self.node.create_client(SolveIK, 'ik_node/solve_ik', qos_profile=deep)
        self.obstacles = self.node.create_publisher(CollisionObject, 'ik_node/obstacles', deep)
        self.cartesian_path = self.node.create_client(CartesianPath, 'ik_node/cartesian_path',
                                                      qos_profile=deep)
        self.set_parameters = self.node.create_client(SetParameters, 'ik_node/set_parameters')
        self.set_parameters_atomically = self.node.create_client(
            SetParametersAtomically, 'ik_node/set_parameters_atomically')
        self.commands: List[Tuple[float, Any]] = []
        self.statuses: List[Tuple[float, Any]] = []
        self.logs: List[Any] = []
        #: When set, the joint states report each command's last point as soon as it arrives:
        #: an executor that reaches every command at once (see :meth:`_on_command`).
        self.follow = False
        self.node.create_subscription(JointTrajectory, COMMAND_TOPIC, self._on_command, deep)
        self.node.create_subscription(IKStatus, 'ik_node/status', self._stamped(self.statuses),
                                      deep)
        self.node.create_subscription(Log, '/rosout', self._on_log, QoSProfile(
            depth=1000, reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self._joint_state = JointState(name=list(joint_names),
                                       position=[float(value) for value in joint_positions])
        self.node.create_timer(0.02, self._publish_joint_states)
        self._message_types = {'PoseStamped': PoseStamped, 'JointState': JointState,
                               'String': String, 'Request': SolveIK.Request,
                               'CollisionObject': CollisionObject,
                               'PathRequest': CartesianPath.Request,
                               'SetParameters': SetParameters.Request,
                               'SetParametersAtomically': SetParametersAtomically.Request}
        self._executor = SingleThreadedExecutor(context=self.context)
        self._executor.add_node(self.node)
        self._spinner = threading.Thread(target=self._executor.spin, daemon=True)
        self._spinner.start()

    def message(self, type_name: str) -> Any:
        """Return a new message or request by its short name (``PoseStamped``, ``Request``...)."""
        return self._message_types[type_name]()

    @staticmethod
    def _stamped(store: List[Tuple[float, Any]]) -> Callable[[Any], None]:
        return lambda message: store.append((time.monotonic(), message))

    def report_joint_positions(self, positions: Sequence[float]) -> None:
        """Report these positions (rad or m, in the order of the joint names) from now on."""
        self._joint_state.position = [float(value) for value in positions]

    def _on_command(self, message: Any) -> None:
        self.commands.append((time.monotonic(), message))
        if self.follow and message.points:
            # By name: a command may list the joints in another order than the joint states.
            reached = dict(zip(message.joint_names, message.points[-1].positions))
            self._joint_state.position = [float(reached.get(name, value)) for name, value
                                          in zip(self._joint_state.name,
                                                 self._joint_state.position)]

    def _on_log(self, message: Any) -> None:
        if message.name.startswith(self.namespace.strip('/').replace('/', '.')):
            self.logs.append(message)

    def _publish_joint_states(self) -> None:
        self._joint_state.header.stamp = self.node.get_clock().now().to_msg()
        self.joint_states.publish(self._joint_state)

    def wait_for_node(self, timeout: float) -> bool:
        """Wait until the ik_node's service and subscriptions are discovered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (self.solve_ik.service_is_ready() and self.targets.get_subscription_count() > 0
                    and self.description.get_subscription_count() > 0):
                return True
            time.sleep(0.05)
        return False

    def call(self, request: Any, deadline: float, label: str = '',
             client: Any = None) -> TimedCall:
        """Send one request (SolveIK unless ``client`` is another); returns at once."""
        return TimedCall((client or self.solve_ik).call_async(request), deadline, label)

    def logged_since(self, count: int, text: str) -> bool:
        """Tell whether a log line of the ik_node from index ``count`` on contains ``text``."""
        return any(text in message.msg for message in self.logs[count:])

    def close(self) -> None:
        """Stop spinning and shut the client's context down."""
        self._executor.shutdown()
        self._spinner.join(timeout=10.0)
        self.node.destroy_node()
        self._rclpy.try_shutdown(context=self.context)


if __name__ == '__main__':
    _publish_description(sys.argv[1], sys.argv[2],
                         sys.argv[3] if len(sys.argv) > 3 else 'robot_description')
