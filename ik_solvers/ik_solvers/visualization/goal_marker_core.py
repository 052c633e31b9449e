# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ROS side of the goal marker, without the interactive marker server.

It finds where the tip is (forward kinematics of the first complete joint state), sends the
dragged goal on ``target_pose`` at most ``send_rate`` times a second plus once on mouse-up, and
turns the IK node's status messages into a reachability. The node module adds the marker server
on top; keeping this part apart lets it run and be tested where interactive_markers is missing.
"""

from __future__ import annotations

import threading
from typing import Callable, Optional, Sequence

from geometry_msgs.msg import Pose, PoseStamped
from ik_solvers_interfaces.msg import IKStatus
import numpy as np
from rclpy.node import Node
from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                       ReliabilityPolicy)
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from ..exceptions import IKError
from ..kinematics import RobotModel
from ..ros.names import (
    CARTESIAN_PATH_SERVICE,
    JOINT_STATES_TOPIC,
    of_node,
    ROBOT_DESCRIPTION_TOPIC,
    STATUS_TOPIC,
    TARGET_POSE_TOPIC,
)
from .goal_line import StraightLineToGoal
from .goal_marker_mode import check_orientation_mode, check_tip_axis, DEFAULT_TIP_AXIS
from .goal_marker_shape import pose_from_message, pose_to_message
from .goal_tracker import GoalPose, GoalTracker, Reachability

__all__ = ['GoalMarkerCore']

GoalCallback = Callable[[GoalPose, str], None]
ReachabilityCallback = Callable[[Reachability], None]


class GoalMarkerCore:
    """
    Goal bookkeeping of the goal marker node, attached to any rclpy node.

    Callbacks run in the node's executor: ``on_goal_reset(pose, frame_id)`` when the goal is
    placed at the tip (the marker must move there), ``on_reachability(reachability)`` when the
    IK node's verdict on the last goal sent changes (the marker must change colour).
    """

    def __init__(
        self,
        node: Node,
        *,
        base_link: str = '',
        tip_link: str,
        send_rate: float = 25.0,
        target_topic: str = TARGET_POSE_TOPIC,
        status_topic: str = of_node(STATUS_TOPIC),
        robot_description: str = '',
        orientation_mode: str = 'full',
        tip_axis: Sequence[float] = DEFAULT_TIP_AXIS,
        on_goal_reset: Optional[GoalCallback] = None,
        on_reachability: Optional[ReachabilityCallback] = None,
        stream_goals: bool = True,
        cartesian_path_service: str = of_node(CARTESIAN_PATH_SERVICE),
    ) -> None:
        """
        Subscribe and publish on ``node``.

        :param node: the node that owns the subscriptions, publisher and timer.
        :param base_link: frame of the goal; empty means the description's root link.
        :param tip_link: link whose current pose is the initial goal.
        :param send_rate: most goals per second while dragging, in Hz.
        :param target_topic: where goals go (geometry_msgs/PoseStamped).
        :param status_topic: the IK node's ik_solvers_interfaces/IKStatus topic.
        :param robot_description: URDF used until one arrives on ``robot_description``.
        :param orientation_mode: what the goal's orientation means: ``'full'`` (the pose),
            ``'axis'`` (the tip's ``tip_axis`` along the goal frame's same axis, spin free) or
            ``'none'`` (position only); it shapes the marker.
        :param tip_axis: the tip axis of axis mode, in the tip frame; scaled to unit length.
        :param on_goal_reset: called with the initial goal and its frame.
        :param on_reachability: called when the reachability of the last goal changes.
        :param stream_goals: send the dragged goal on ``target_pose`` (the arm follows the
            drag); false only places it, for a straight line to it (:meth:`line_to_goal`).
        :param cartesian_path_service: the IK node's CartesianPath service.
        :raises ValueError: ``tip_link`` is empty, ``send_rate`` is not positive, or
            ``orientation_mode`` or ``tip_axis`` is invalid.
        """
        if not tip_link:
            raise ValueError('tip_link must name the link whose pose the goal controls')
        # Checked before anything is created on the node: a bad value stops the start-up.
        self._orientation_mode = check_orientation_mode(orientation_mode)
        self._tip_axis = check_tip_axis(tip_axis)
        self._node = node
        self._base_link = base_link
        self._tip_link = tip_link
        self._on_goal_reset = on_goal_reset
        self._on_reachability = on_reachability
        self._lock = threading.Lock()
        self._tracker = GoalTracker(send_rate=send_rate)
        self._chain = None
        self._frame_id = base_link
        self._joint_positions: dict[str, float] = {}
        self._stream = bool(stream_goals)
        self._line = StraightLineToGoal(node, self._current_chain,
                                        ik_node_service=cartesian_path_service)

        self._publisher = node.create_publisher(PoseStamped, target_topic, 10)
        description_qos = QoSProfile(
            depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
            reliability=ReliabilityPolicy.RELIABLE)
        node.create_subscription(
            String, ROBOT_DESCRIPTION_TOPIC, self._on_description, description_qos)
        node.create_subscription(
            JointState, JOINT_STATES_TOPIC, self._on_joint_state, qos_profile_sensor_data)
        node.create_subscription(IKStatus, status_topic, self._on_status, 10)
        node.create_timer(self._tracker.send_period, self._on_timer)
        if robot_description:
            self._load_description(robot_description, source='parameter')

    @property
    def tracker(self) -> GoalTracker:
        """Return the goal bookkeeping (read it; change it through this object's methods)."""
        return self._tracker

    @property
    def tip_link(self) -> str:
        """Return the link whose pose this goal controls."""
        return self._tip_link

    @property
    def orientation_mode(self) -> str:
        """Return what the goal's orientation means: ``'full'``, ``'axis'`` or ``'none'``."""
        return self._orientation_mode

    @property
    def tip_axis(self) -> tuple[float, float, float]:
        """Return the unit tip axis of axis mode, in the tip frame."""
        return self._tip_axis

    @property
    def frame_id(self) -> str:
        """Frame of the goal: the chain's base link once the description is known."""
        return self._frame_id

    def drag(self, pose: Pose) -> None:
        """
        Record a pose seen while the user drags; the timer sends the newest one.

        Invalid poses (non-finite numbers, zero quaternion) are logged and dropped.
        """
        goal = self._goal_or_none(pose)
        if goal is not None:
            with self._lock:
                self._tracker.drag(goal)

    def release(self, pose: Pose) -> None:
        """Record the pose where the user let go, and send it at once."""
        goal = self._goal_or_none(pose)
        if goal is None:
            return
        with self._lock:
            if not self._stream:
                self._tracker.drag(goal)  # placed, not sent
                return
            due = self._tracker.release(goal, self._now())
        if due is not None:
            self._publish(due)

    def line_to_goal(self, *, execute: bool) -> bool:
        """
        Ask the IK node for a straight line of the tool to the goal; preview or run it.

        :param execute: Run the line (the node commands a complete line); else only preview
            it on ``~/line_preview``.
        :returns: Whether the request was sent.
        """
        with self._lock:
            goal, frame_id = self._tracker.pose, self._frame_id
        return self._line.send(goal, frame_id, execute=execute)

    def _current_chain(self):
        with self._lock:
            return self._chain

    def _goal_or_none(self, pose: Pose) -> Optional[GoalPose]:
        try:
            return pose_from_message(pose)
        except ValueError as error:
            self._node.get_logger().warning('ignoring a goal pose: %s' % error)
            return None

    def _now(self) -> float:
        return self._node.get_clock().now().nanoseconds * 1e-9

    def _on_timer(self) -> None:
        if not self._stream:
            return
        with self._lock:
            due = self._tracker.due(self._now())
        if due is not None:
            self._publish(due)

    def _publish(self, goal: GoalPose) -> None:
        message = PoseStamped()
        message.header.frame_id = self._frame_id
        message.header.stamp = self._node.get_clock().now().to_msg()
        message.pose = pose_to_message(goal)
        self._publisher.publish(message)

    def _on_description(self, message: String) -> None:
        self._load_description(message.data, source='topic')

    def _load_description(self, urdf_xml: str, *, source: str) -> None:
        try:
            model = RobotModel.from_urdf(urdf_xml)
            base_link = self._base_link or model.root_link
            chain = model.chain(base_link, self._tip_link)
        except IKError as error:
            self._node.get_logger().error(
                'ignoring the robot description from the %s: %s' % (source, error))
            return
        with self._lock:
            self._chain = chain
            self._frame_id = base_link
            # A new description may move the tip: the goal follows at the next joint state.
            self._tracker = GoalTracker(send_rate=1.0 / self._tracker.send_period)
        self._node.get_logger().info(
            'goal for %s -> %s (from the %s); waiting for joint states'
            % (base_link, self._tip_link, source))
        self._try_reset()

    def _on_joint_state(self, message: JointState) -> None:
        if len(message.name) != len(message.position):
            return
        with self._lock:
            self._joint_positions.update(zip(message.name, message.position))
        self._try_reset()

    def _try_reset(self) -> None:
        with self._lock:
            chain = self._chain
            if chain is None or self._tracker.pose is not None:
                return
            if any(name not in self._joint_positions for name in chain.joint_names):
                return
            q = np.array([self._joint_positions[name] for name in chain.joint_names])
            try:
                goal = GoalPose.from_matrix(chain.fk(q))
            except (IKError, ValueError) as error:
                self._node.get_logger().error('cannot place the goal at the tip: %s' % error)
                return
            self._tracker.reset(goal)
            frame_id = self._frame_id
        self._node.get_logger().info(
            'goal placed at the tip: position %s m' % (np.round(goal.position, 3).tolist(),))
        if self._on_goal_reset is not None:
            self._on_goal_reset(goal, frame_id)

    def _on_status(self, message: IKStatus) -> None:
        try:
            target = pose_from_message(message.target)
        except ValueError:
            return
        with self._lock:
            changed = self._tracker.report(target, message.success)
            reachability = self._tracker.reachability
        if changed and self._on_reachability is not None:
            self._on_reachability(reachability)
