# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's ROS side: it plays the user's hand and watches what the IK node does.

Like robot_state_publisher it publishes the URDF on ``robot_description`` (transient local);
like the goal marker it streams ``target_pose`` at a steady rate; and it records the node's
``~/status`` messages and the JointTrajectory commands that the simulated executor plays.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Callable, Optional, Sequence

from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.msg import ErrorCodes, IKStatus
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
from rcl_interfaces.srv import SetParameters
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from ..exceptions import DemoError
from ..ros.conversions import matrix_to_pose
from ..ros.names import (
    command_topic_for,
    DEFAULT_CONTROLLER_NAME,
    JOINT_STATES_TOPIC,
    NODE_NAME,
    of_node,
    ROBOT_DESCRIPTION_TOPIC,
    SOLVE_IK_SERVICE,
    STATUS_TOPIC,
    TARGET_POSE_TOPIC,
)
from ..engine.pose_math import xyzw_quaternion
from ..engine.robot_state import OPEN_LOOP_NOTE
from .metrics import DragRecording, SolveRecord
from .scripted_drag import ScriptedGoal

__all__ = ['DemoError', 'DragDriver', 'Progress']

#: Called while a drag runs with (goals sent, goals in total, solves recorded).
Progress = Callable[[int, int, int], None]

# A status answers a goal when its target is this close to the goal (m, and quaternion
# components): the node hands the target back, only renormalised.
_MATCH_TOLERANCE = 1e-6


class DragDriver(Node):
    """Publishes the description and the goals; records statuses, commands, joint states."""

    def __init__(
        self,
        *,
        urdf_xml: str,
        base_link: str,
        joint_names: Sequence[str],
        ik_node: str = NODE_NAME,
        command_topic: str = command_topic_for('', DEFAULT_CONTROLLER_NAME),
        **node_options,
    ) -> None:
        """
        Create the driver node and publish the robot description at once.

        :param urdf_xml: the robot description.
        :param base_link: frame of every goal.
        :param joint_names: the chain's joints, base to tip, as the node commands them.
        :param ik_node: name of the IK node, in the root namespace.
        :param command_topic: where the node's commands go (and the driver's resets).
        :param node_options: passed on to :class:`rclpy.node.Node` (``context``...).
        """
        super().__init__('ik_solvers_demo', **node_options)
        self._base_link = base_link
        self._joint_names = list(joint_names)
        self._lock = threading.Lock()
        self._joint_positions: dict[str, float] = {}
        self._recording: Optional[DragRecording] = None
        self._record_commands = False
        self._goal_vectors = np.zeros((0, 7))
        self._sent = 0
        self._answered: set[int] = set()
        self._last_command_time = 0.0
        self._state_log: Optional[list] = None

        latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                             reliability=ReliabilityPolicy.RELIABLE)
        self.create_publisher(String, ROBOT_DESCRIPTION_TOPIC, latched).publish(
            String(data=urdf_xml))
        self._targets = self.create_publisher(PoseStamped, TARGET_POSE_TOPIC, 10)
        self._commands = self.create_publisher(JointTrajectory, command_topic, 10)
        self.create_subscription(IKStatus, of_node(STATUS_TOPIC, ik_node), self._on_status, 100)
        self.create_subscription(JointTrajectory, command_topic, self._on_command, 100)
        self.create_subscription(JointState, JOINT_STATES_TOPIC, self._on_joint_state, 10)
        self._set_parameters = self.create_client(SetParameters,
                                                  of_node('~/set_parameters', ik_node))
        self._solve_ik = self.create_client(SolveIK, of_node(SOLVE_IK_SERVICE, ik_node))

    # -- queries -------------------------------------------------------------------------------

    def joint_positions(self) -> Optional[np.ndarray]:
        """Latest positions of the chain's joints (rad or m), or None before all were seen."""
        with self._lock:
            if any(name not in self._joint_positions for name in self._joint_names):
                return None
            return np.array([self._joint_positions[name] for name in self._joint_names])

    def wait_for_joint_states(self, *, timeout: float) -> np.ndarray:
        """
        Wait for a joint state naming every chain joint.

        :raises DemoError: none within ``timeout`` seconds.
        """
        return self._wait_for(self.joint_positions, timeout,
                              'no joint_states for the chain joints %s' % self._joint_names)

    def wait_for_model(self, goal: np.ndarray, *, timeout: float) -> None:
        """
        Wait until the IK node answers a one-shot solve with anything but NO_ROBOT_MODEL.

        :param goal: a 4x4 pose to ask for (the tip's current pose).
        :raises DemoError: the service did not appear or the node never got the model.
        """
        deadline = time.monotonic() + timeout
        if not self._solve_ik.wait_for_service(timeout_sec=timeout):
            raise DemoError('the IK node offers no %s service' % self._solve_ik.srv_name)
        request = SolveIK.Request()
        request.target.header.frame_id = self._base_link
        request.target.pose = matrix_to_pose(goal)
        while True:
            response = self._call(self._solve_ik, request, deadline - time.monotonic())
            if response.error_code != ErrorCodes.NO_ROBOT_MODEL:
                return
            if time.monotonic() > deadline:
                raise DemoError('the IK node has no robot model: %s' % response.message)
            time.sleep(0.1)

    # -- actions -------------------------------------------------------------------------------

    def set_solver(self, solver: str, *, timeout: float = 5.0) -> None:
        """
        Set the IK node's ``solver`` parameter.

        :raises DemoError: the node refused it or did not answer.
        """
        if not self._set_parameters.wait_for_service(timeout_sec=timeout):
            raise DemoError('no %s service' % self._set_parameters.srv_name)
        request = SetParameters.Request()
        request.parameters = [Parameter(name='solver', value=ParameterValue(
            type=ParameterType.PARAMETER_STRING, string_value=solver))]
        response = self._call(self._set_parameters, request, timeout)
        result = response.results[0]
        if not result.successful:
            raise DemoError('the IK node refused solver %r: %s' % (solver, result.reason))

    def move_to(self, positions: np.ndarray, *, duration: float, timeout: float) -> None:
        """
        Command the chain to ``positions`` (rad or m) and wait until the joint states get there.

        :raises DemoError: the joints did not arrive within ``timeout`` seconds.
        """
        command = JointTrajectory()
        command.joint_names = list(self._joint_names)
        point = JointTrajectoryPoint(positions=[float(v) for v in positions])
        point.time_from_start = Duration(seconds=duration).to_msg()
        command.points = [point]
        self._commands.publish(command)

        def arrived():
            now = self.joint_positions()
            return now is not None and np.max(np.abs(now - positions)) < 1e-6 or None

        self._wait_for(arrived, timeout, 'the arm did not return to its start configuration')

    def start_from(self, positions: np.ndarray, pose: np.ndarray, *, timeout: float) -> None:
        """
        Have the IK node command ``positions`` once, so that the next drag starts from there.

        The arm was sent home past the node, whose last command is still where the previous
        drag left it; within the lag it allows, the node would go on from that command.

        :param positions: the chain's configuration, rad or m (where the arm is).
        :param pose: its tip pose, 4x4, in the base frame.
        :raises DemoError: the node did not command it within ``timeout`` seconds.
        """
        request = SolveIK.Request()
        request.target.header.frame_id = self._base_link
        request.target.pose = matrix_to_pose(pose)
        request.seed.name = list(self._joint_names)
        request.seed.position = [float(value) for value in positions]
        request.execute = True
        deadline = time.monotonic() + timeout
        response = self._call(self._solve_ik, request, timeout)
        # Until the node hears the arm's joint states it commands open loop, from its own model
        # of the arm; a drag started then is timed for a motion the arm may not be making (on a
        # loaded machine discovery can take seconds). Wait for them.
        while response.success and OPEN_LOOP_NOTE in response.message:
            if time.monotonic() > deadline:
                raise DemoError('the IK node receives no joint_states: %s' % response.message)
            time.sleep(0.1)
            response = self._call(self._solve_ik, request, deadline - time.monotonic())
        if not response.success:
            raise DemoError('the IK node did not command the start pose: %s' % response.message)

    def drag(
        self,
        solver: str,
        goals: Sequence[ScriptedGoal],
        *,
        rate: float,
        answer_timeout: float,
        progress: Optional[Progress] = None,
    ) -> DragRecording:
        """
        Stream the reachable goals at ``rate`` Hz, then each unreachable one until answered.

        :param solver: label of the recording (the node's parameter is set by the caller).
        :param goals: the scripted drag, reachable goals first.
        :param rate: goals per second on the path, Hz.
        :param answer_timeout: longest wait, seconds, for the answer to the last path goal and to
            each unreachable goal; waits end as soon as the answer arrives.
        :param progress: called every few goals from this thread.
        :returns: what happened; statuses arriving later are not counted.
        """
        recording = DragRecording(solver=solver, goals=list(goals))
        vectors = [np.concatenate((np.asarray(goal.pose, dtype=float)[:3, 3],
                                   xyzw_quaternion(goal.pose))) for goal in goals]
        with self._lock:
            self._recording = recording
            self._goal_vectors = np.array(vectors).reshape(-1, 7)
            self._sent = 0
            self._answered = set()
            self._record_commands = True
        # A full collection of this process's objects takes some 0.1 s on a loaded 2-core
        # machine: a pause in the stream, which the node sees as a burst of goals (the older
        # ones superseded). Collected now; what exists is left out of the passes until the end.
        gc.collect()
        gc.freeze()
        try:
            return self._stream(recording, goals, rate=rate, answer_timeout=answer_timeout,
                                progress=progress)
        finally:
            gc.unfreeze()

    def _stream(self, recording: DragRecording, goals: Sequence[ScriptedGoal], *, rate: float,
                answer_timeout: float, progress: Optional[Progress]) -> DragRecording:
        started = time.monotonic()
        path = [i for i, goal in enumerate(goals) if goal.reachable]
        period = 1.0 / rate
        next_send = time.monotonic()
        for count, index in enumerate(path, start=1):
            self._send(index, goals[index])
            if progress is not None and (count % 10 == 0 or count == len(path)):
                progress(count, len(goals), len(recording.solves))
            next_send += period
            time.sleep(max(0.0, next_send - time.monotonic()))
        if path:
            # Let the node finish the last path goal before the far goals arrive.
            self._wait_for(lambda: path[-1] in self._answered or None, answer_timeout, '',
                           quiet=True)
        with self._lock:
            self._record_commands = False
        for index, goal in enumerate(goals):
            if goal.reachable:
                continue
            self._send(index, goal)
            self._wait_for(lambda: index in self._answered or None, answer_timeout, '',
                           quiet=True)
            if progress is not None:
                progress(index + 1, len(goals), len(recording.solves))
        with self._lock:
            self._recording = None
        recording.elapsed = time.monotonic() - started
        return recording

    # -- internals -----------------------------------------------------------------------------

    def _send(self, index: int, goal: ScriptedGoal) -> None:
        message = PoseStamped()
        message.header.frame_id = self._base_link
        message.header.stamp = self.get_clock().now().to_msg()
        message.pose = matrix_to_pose(goal.pose)
        with self._lock:
            self._sent = max(self._sent, index + 1)
        self._targets.publish(message)

    def _on_status(self, message: IKStatus) -> None:
        target = message.target
        vector = np.array([target.position.x, target.position.y, target.position.z,
                           target.orientation.x, target.orientation.y, target.orientation.z,
                           target.orientation.w])
        with self._lock:
            recording = self._recording
            if recording is None:
                return
            sent = self._goal_vectors[:self._sent]
            # q and -q are the same orientation.
            flipped = np.concatenate((vector[:3], -vector[3:]))
            close = np.minimum(np.max(np.abs(sent - vector), axis=1),
                               np.max(np.abs(sent - flipped), axis=1)) < _MATCH_TOLERANCE
            matches = np.flatnonzero(close)
            if not len(matches):
                recording.unmatched += 1
                return
            # The figure-eight passes its start pose more than once: credit the most recent
            # goal with that pose not answered yet.
            fresh = [int(i) for i in matches if int(i) not in self._answered]
            index = fresh[-1] if fresh else int(matches[-1])
            self._answered.add(index)
            reached = message.reached.position
            recording.solves.append(SolveRecord(
                goal_index=index, success=bool(message.success),
                error_code=int(message.error_code),
                solve_time=Duration.from_msg(message.solve_time).nanoseconds * 1e-9,
                position_error=float(message.position_error),
                orientation_error=float(message.orientation_error),
                commanded=bool(message.commanded),
                reached_position=(reached.x, reached.y, reached.z)))

    def wait_until_quiet(self, *, quiet: float, timeout: float) -> None:
        """
        Wait until no command was sent for ``quiet`` s (at most ``timeout`` s).

        A goal published once is driven on by the node after the drag ends (approach steps
        toward a far goal); the arm is sent home only once that has settled.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                last = self._last_command_time
            if time.monotonic() - last >= quiet:
                return
            time.sleep(0.05)

    def _on_command(self, message: JointTrajectory) -> None:
        with self._lock:
            self._last_command_time = time.monotonic()
        if not message.points:
            return
        final = dict(zip(message.joint_names, message.points[-1].positions))
        with self._lock:
            if self._recording is None or not self._record_commands:
                return
            if all(name in final for name in self._joint_names):
                self._recording.path_commands.append(
                    np.array([final[name] for name in self._joint_names]))

    def _on_joint_state(self, message: JointState) -> None:
        if len(message.name) == len(message.position):
            with self._lock:
                self._joint_positions.update(zip(message.name, message.position))
                if self._state_log is not None:
                    stamp = message.header.stamp.sec + 1e-9 * message.header.stamp.nanosec
                    self._state_log.append((stamp, dict(self._joint_positions)))

    def record_states(self) -> None:
        """Start keeping every joint state played, with its stamp (for a swept check)."""
        with self._lock:
            self._state_log = []

    def recorded_states(self) -> list:
        """Stop keeping joint states; return ``(stamp s, {joint: position})`` of each."""
        with self._lock:
            states, self._state_log = self._state_log or [], None
        return states

    def _call(self, client, request, timeout: float):
        done = threading.Event()
        future = client.call_async(request)
        future.add_done_callback(lambda _: done.set())
        if not done.wait(max(timeout, 0.0)):
            client.remove_pending_request(future)
            raise DemoError('no answer from %s within %.1f s' % (client.srv_name, timeout))
        return future.result()

    @staticmethod
    def _wait_for(condition, timeout: float, failure: str, *, quiet: bool = False):
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value is not None:
                return value
            if time.monotonic() > deadline:
                if quiet:
                    return None
                raise DemoError(failure)
            time.sleep(0.005)
