# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The launch file, started for real with launch_testing (where launch_ros is installed).

Without RViz: the nodes come up, the simulated executor publishes every joint, and a target
near the tip is solved and played until the joint states reach the solution.
"""

from pathlib import Path
import threading
import time
import unittest

import pytest

pytest.importorskip(
    'launch_ros', reason='launch_ros is not installed, so the launch file cannot be started '
                         '(rosdep key launch_ros); test_launch_files.py checks it statically')
launch_testing = pytest.importorskip(
    'launch_testing', reason='launch_testing is not installed (rosdep key launch_testing)')
pytest.importorskip(
    'interactive_markers',
    reason='interactive_markers is not installed, so the goal marker node cannot start')

from ament_index_python.packages import (  # noqa: E402
    get_package_share_directory, PackageNotFoundError)

try:
    get_package_share_directory('robot_state_publisher')
except PackageNotFoundError:
    pytest.skip('robot_state_publisher is not installed', allow_module_level=True)

from geometry_msgs.msg import PoseStamped  # noqa: E402
from ik_solvers_interfaces.msg import IKStatus  # noqa: E402
from launch import LaunchDescription  # noqa: E402
from launch.actions import IncludeLaunchDescription  # noqa: E402
from launch.launch_description_sources import PythonLaunchDescriptionSource  # noqa: E402
import launch_testing.actions  # noqa: E402
import numpy as np  # noqa: E402
import rclpy  # noqa: E402
from rclpy.executors import SingleThreadedExecutor  # noqa: E402
from rclpy.qos import qos_profile_sensor_data  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402

from ik_solvers.kinematics import RobotModel  # noqa: E402
from ik_solvers.visualization import GoalPose  # noqa: E402
from ik_solvers.visualization.goal_marker_shape import pose_to_message  # noqa: E402

SHARE = Path(get_package_share_directory('ik_solvers'))
BASE_LINK, TIP_LINK = 'panda_link0', 'panda_hand_tcp'


@pytest.mark.launch_test
def generate_test_description():
    launch_file = SHARE / 'launch' / 'ik_solvers.launch.py'
    return LaunchDescription([
        IncludeLaunchDescription(
            PythonLaunchDescriptionSource(str(launch_file)),
            launch_arguments={'use_rviz': 'false'}.items()),
        launch_testing.actions.ReadyToTest(),
    ])


class TestLaunchedPipeline(unittest.TestCase):

    def setUp(self):
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('launch_test_probe', context=self.context)
        self.lock = threading.Lock()
        self.positions = {}
        self.statuses = []
        self.node.create_subscription(JointState, '/joint_states', self._on_state,
                                      qos_profile_sensor_data)
        self.node.create_subscription(IKStatus, '/ik_node/status', self._on_status, 10)
        self.targets = self.node.create_publisher(PoseStamped, '/target_pose', 10)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.spinner = threading.Thread(target=self.executor.spin, daemon=True)
        self.spinner.start()

    def tearDown(self):
        self.executor.shutdown()
        self.spinner.join(timeout=5.0)  # hang bound: the spinner ends once shut down
        self.node.destroy_node()
        rclpy.shutdown(context=self.context)

    def _on_state(self, message):
        with self.lock:
            self.positions.update(zip(message.name, message.position))

    def _on_status(self, message):
        with self.lock:
            self.statuses.append(message)

    # Every timeout given to _wait is a hang bound: the launched nodes start within seconds.
    def _wait(self, condition, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                value = condition()
            if value:
                return value
            time.sleep(0.05)
        self.fail('%s within %.0f s' % (what, timeout))

    def test_the_nodes_start_and_the_arm_follows_a_target(self):
        expected = {'ik_node', 'goal_marker', 'sim_executor', 'robot_state_publisher'}
        self._wait(lambda: expected <= set(self.node.get_node_names()), 30.0,
                   'not all of %s started' % sorted(expected))
        model = RobotModel.from_urdf((SHARE / 'urdf' / 'panda_like.urdf').read_text())
        chain = model.chain(BASE_LINK, TIP_LINK)
        self._wait(lambda: all(name in self.positions for name in chain.joint_names), 20.0,
                   'no joint state for every chain joint')
        with self.lock:
            start = np.array([self.positions[name] for name in chain.joint_names])
        goal = chain.fk(start)
        goal[:3, 3] += [0.0, 0.05, -0.05]
        target = PoseStamped()
        target.header.frame_id = BASE_LINK
        target.pose = pose_to_message(GoalPose.from_matrix(goal))
        self._wait(lambda: self.targets.get_subscription_count() > 0, 10.0,
                   'the ik_node does not subscribe target_pose')
        # Until the ik_node has the description it answers NO_ROBOT_MODEL; sending the same
        # target again until it is solved keeps the test independent of start-up order. Hang
        # bound: the node has the description seconds after start-up.
        deadline = time.monotonic() + 60.0
        status = None
        while status is None and time.monotonic() < deadline:
            with self.lock:
                answered = len(self.statuses)
            self.targets.publish(target)
            resend_at = time.monotonic() + 2.0
            while time.monotonic() < resend_at:
                with self.lock:
                    fresh = self.statuses[answered:]
                if fresh:
                    status = next((each for each in fresh if each.success), None)
                    break
                time.sleep(0.05)
            if status is None:
                time.sleep(0.5)
        with self.lock:
            last = self.statuses[-1] if self.statuses else None
        self.assertIsNotNone(status, 'no successful IKStatus for the target within 60 s '
                             '(last: %s)' % (last.message if last else 'none'))
        self.assertTrue(status.commanded)
        solution = dict(zip(status.solution.name, status.solution.position))

        def arrived():
            return all(abs(self.positions[name] - solution[name]) < 1e-6
                       for name in chain.joint_names)

        self._wait(arrived, 10.0, 'the joint states did not reach the solution')
        with self.lock:
            reached = chain.fk(np.array([self.positions[n] for n in chain.joint_names]))
        self.assertLess(np.linalg.norm(reached[:3, 3] - goal[:3, 3]), 1e-3)
