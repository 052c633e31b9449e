# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The simulated executor over real DDS: trajectories in, interpolated joint states out."""

import os
from pathlib import Path
import threading
import time
import uuid

import numpy as np
import pytest

rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')

from rclpy.duration import Duration  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile  # noqa: E402
from rclpy.time import Time  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import String  # noqa: E402
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint  # noqa: E402

from ik_solvers.visualization.sim_executor import SimulatedExecutor  # noqa: E402
from test_node_support import Spinner  # noqa: E402

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'planar_3link.urdf').read_text()
# One namespace per test process: nothing another run left in the graph can interfere.
NAMESPACE = '/sim_executor_test_%d' % os.getpid()
JOINTS = ['joint_1', 'joint_2', 'joint_3']


class Probe:
    """A test node that records joint states and publishes commands."""

    def __init__(self, context, namespace=NAMESPACE):
        self.node = rclpy.create_node('probe', namespace=namespace, context=context)
        self.lock = threading.Lock()
        self.states = []
        self.node.create_subscription(JointState, 'joint_states', self._on_state, 100)
        self.commands = self.node.create_publisher(
            JointTrajectory, namespace + '/arm_controller/joint_trajectory', 10)

    def _on_state(self, message):
        with self.lock:
            self.states.append(message)

    def received(self):
        with self.lock:
            return list(self.states)

    def publish_command(self, message):
        # A command published before discovery matched the executor would be lost.
        self.wait_for(lambda _: self.commands.get_subscription_count() > 0)
        self.commands.publish(message)

    # Hang bound: discovery and the executor's messages take milliseconds; only a hang
    # waits 10 s.
    def wait_for(self, condition, timeout=10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition(self.received()):
                return self.received()
            time.sleep(0.01)
        raise AssertionError('condition not met within %.0f s' % timeout)


@pytest.fixture
def ros():
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    nodes = []

    def add(node):
        nodes.append(node)
        spinner.executor.add_node(node)
        return node

    try:
        yield context, add
    finally:
        spinner.stop()
        for node in nodes:
            node.destroy_node()
        rclpy.shutdown(context=context)


def _executor(context, namespace=NAMESPACE, **parameters):
    overrides = [Parameter('command_topic', value=namespace + '/arm_controller/joint_trajectory'),
                 Parameter('publish_rate', value=100.0)]
    overrides += [Parameter(name, value=value) for name, value in parameters.items()]
    return SimulatedExecutor(context=context, namespace=namespace, parameter_overrides=overrides)


def _seconds(stamp):
    return Time.from_msg(stamp).nanoseconds * 1e-9


def _command(names, points, start):
    message = JointTrajectory()
    message.header.stamp = start.to_msg()
    message.joint_names = names
    for seconds, positions in points:
        point = JointTrajectoryPoint(positions=positions)
        point.time_from_start = Duration(seconds=seconds).to_msg()
        message.points.append(point)
    return message


def test_publishes_every_joint_at_rest_once_the_description_arrives_on_the_topic(ros):
    context, add = ros
    probe = Probe(context)
    add(probe.node)
    add(_executor(context))
    latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    publisher = probe.node.create_publisher(String, 'robot_description', latched)
    publisher.publish(String(data=URDF))
    states = probe.wait_for(lambda states: len(states) >= 3)
    assert list(states[-1].name) == JOINTS
    assert list(states[-1].position) == pytest.approx([0.0, 0.0, 0.0])  # middle of the limits
    assert list(states[-1].velocity) == pytest.approx([0.0, 0.0, 0.0])


def test_plays_a_trajectory_by_linear_interpolation_on_time(ros):
    context, add = ros
    probe = Probe(context)
    add(probe.node)
    add(_executor(context, robot_description=URDF))
    probe.wait_for(lambda states: len(states) >= 2)
    probe.wait_for(lambda _: probe.commands.get_subscription_count() > 0)
    # Far enough ahead that the command arrives before it starts, even on a busy machine.
    start = probe.node.get_clock().now() + Duration(seconds=0.5)
    knots = [0.0, 0.4, 0.6]
    path = np.array([[0.0, 0.0, 0.0], [0.5, -0.5, 1.0], [1.0, 0.0, 1.0]])
    probe.publish_command(_command(
        JOINTS, [(0.4, path[1].tolist()), (0.6, path[2].tolist())], start))
    end = _seconds(start.to_msg()) + 0.6
    states = probe.wait_for(lambda states: _seconds(states[-1].header.stamp) > end + 0.1)

    inside = {0: 0, 1: 0}
    for state in states:
        elapsed = _seconds(state.header.stamp) - _seconds(start.to_msg())
        expected = [np.interp(elapsed, knots, path[:, j]) for j in range(3)]
        assert list(state.position) == pytest.approx(expected, abs=1e-5)
        if 0.0 < elapsed < 0.4:
            inside[0] += 1
            assert list(state.velocity) == pytest.approx([1.25, -1.25, 2.5])
        elif 0.4 < elapsed < 0.6:
            inside[1] += 1
    # States strictly inside each segment show the motion instead of a jump to the goal; how
    # many arrive depends on the machine's load, so only their presence is required.
    assert inside[0] >= 1 and inside[1] >= 1
    assert list(states[-1].position) == pytest.approx(path[-1].tolist())
    assert list(states[-1].velocity) == pytest.approx([0.0, 0.0, 0.0])


def test_bad_trajectories_are_ignored_and_the_arm_stays_where_it_was(ros):
    context, add = ros
    probe = Probe(context)
    add(probe.node)
    add(_executor(context, robot_description=URDF))
    probe.wait_for(lambda states: len(states) >= 2)
    now = probe.node.get_clock().now()
    probe.publish_command(_command(JOINTS, [(0.1, [0.3, 0.2, 0.1])], now))
    reached = probe.wait_for(
        lambda states: list(states[-1].position) == pytest.approx([0.3, 0.2, 0.1]))
    for bad in (_command(['joint_1', 'elbow'], [(0.1, [1.0, 1.0])], now),
                _command(JOINTS, [(0.1, [4.0, 0.0, 0.0])], now),  # beyond the limits
                _command(JOINTS, [(0.1, [1.0, 0.0])], now)):
        probe.publish_command(bad)
    # Every state published after the bad commands went out still shows the last good goal.
    states = probe.wait_for(lambda states: len(states) >= len(reached) + 20)
    after = [list(s.position) for s in states[len(reached):]]
    assert after == [pytest.approx([0.3, 0.2, 0.1])] * len(after)


def test_falls_silent_while_another_node_publishes_joint_states(ros):
    context, add = ros
    # A namespace of its own: the executors of earlier tests in this process published joint
    # states in the shared one, and their endpoints can linger in the graph for a while.
    namespace = '%s_%s' % (NAMESPACE, uuid.uuid4().hex[:8])
    probe = Probe(context, namespace)
    add(probe.node)
    executor = add(_executor(context, namespace, robot_description=URDF))
    topic = namespace + '/joint_states'
    probe.wait_for(lambda states: len(states) >= 2)
    assert not executor.yielding
    controller = probe.node.create_publisher(JointState, 'joint_states', 10)
    # The executor sees the second publisher and pauses (it looks at the graph once a second).
    probe.wait_for(lambda _: executor.yielding, timeout=30.0)
    assert executor.count_publishers(topic) == 2
    silent_from = executor.get_clock().now()
    time.sleep(0.3)
    silent_until = executor.get_clock().now()
    assert executor.yielding
    probe.node.destroy_publisher(controller)
    count = len(probe.received())
    states = probe.wait_for(lambda states: len(states) > count + 5, timeout=30.0)
    assert not executor.yielding
    # Nothing was published while paused: no state is stamped inside the silent stretch.
    window = (silent_from.nanoseconds * 1e-9, silent_until.nanoseconds * 1e-9)
    assert not [s for s in states if window[0] <= _seconds(s.header.stamp) <= window[1]]
