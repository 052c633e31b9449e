# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The SRDF and the obstacles into the ik_node's engine: subscriptions, a loader, the log.

The SRDF comes from the ``robot_description_semantic`` topic (transient local, as MoveIt
publishes it) or the read-only parameter of that name; it is read on a thread of its own,
since the collision models are rebuilt from it. Obstacles arrive on ``~/obstacles`` (reliable,
keep all by default: a fast sender is held back by the middleware rather than losing any); the
callback only queues them, and a thread of their own applies or refuses each in order, the
reason on the log and in the status. Every message lost on the way (reported by the
middleware, or refused by a full queue) is logged and counted in the status. A refused input
loses nothing already in place.
"""

from ik_solvers_interfaces.msg import CollisionObject
from rclpy.event_handler import SubscriptionEventCallbacks
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from .names import OBSTACLES_TOPIC, ROBOT_DESCRIPTION_SEMANTIC_TOPIC
from .node_parameters import NodeParameters
from .obstacle_conversions import obstacle_request
from ..engine.description_loader import DescriptionLoader
from .ordered_queue import OrderedQueue
from ..engine.robot_state import RobotState
from ..exceptions import IKError, RobotModelError

__all__ = ['CollisionInputs', 'OBSTACLE_QUEUE_CAPACITY', 'obstacle_qos']

#: Obstacle messages waiting for the obstacle thread at most; one more is refused and counted.
#: Every ADD, MOVE and REMOVE counts, unlike targets: this holds minutes of a 1 kHz sender.
OBSTACLE_QUEUE_CAPACITY = 100_000
# Obstacles named in a log line; beyond, only their number.
_LISTED = 8


def obstacle_qos(depth: int) -> QoSProfile:
    """
    Give the QoS of the ``~/obstacles`` subscription.

    :param depth: The ``obstacle_queue_depth`` parameter: 0 keeps every message (reliable,
        keep all), more keeps that many (reliable, keep last).
    :returns: The profile.
    """
    if depth <= 0:
        return QoSProfile(history=HistoryPolicy.KEEP_ALL, depth=1,
                          reliability=ReliabilityPolicy.RELIABLE)
    return QoSProfile(depth=depth, reliability=ReliabilityPolicy.RELIABLE)


class CollisionInputs:
    """Subscribes to the SRDF and the obstacles of a node and hands them to its engine."""

    def __init__(self, node: Node, robot: RobotState, parameters: NodeParameters) -> None:
        """
        Open the subscriptions and start the SRDF loader.

        :param node: The node.
        :param robot: The engine's robot state; takes the SRDF and the obstacles.
        :param parameters: The node's parameters: the chain's links, and the
            ``robot_description_semantic`` parameter, used until an SRDF arrives on the topic.
        """
        self._node = node
        self._robot = robot
        self._parameters = parameters
        robot.collisions.set_zero_contact_rule(bool(parameters.value('allow_zero_contacts')))
        self._loader = DescriptionLoader(self._load_srdf, self._failed,
                                         name='semantic_loader')
        semantic = parameters.value('robot_description_semantic')
        if semantic:
            self._loader.submit(semantic, 'the robot_description_semantic parameter')
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        node.create_subscription(String, ROBOT_DESCRIPTION_SEMANTIC_TOPIC, self._on_srdf,
                                 latched)
        self.obstacles = OrderedQueue(self._apply_obstacle, capacity=OBSTACLE_QUEUE_CAPACITY,
                                      on_refused=self._queue_full, on_error=self._apply_failed,
                                      name='obstacle_worker')
        self._lost_reported = 0
        events = SubscriptionEventCallbacks(message_lost=self._on_lost)
        qos = obstacle_qos(int(parameters.value('obstacle_queue_depth')))
        try:
            node.create_subscription(CollisionObject, OBSTACLES_TOPIC, self.obstacles.put, qos,
                                     event_callbacks=events)
        except Exception as error:  # noqa: B902 - a middleware without the event
            node.get_logger().warning('~/obstacles: this middleware does not report lost '
                                      'messages (%s)' % error)
            node.create_subscription(CollisionObject, OBSTACLES_TOPIC, self.obstacles.put, qos)

    def close(self, timeout: float) -> None:
        """Stop the SRDF loader and the obstacle thread, waiting at most ``timeout`` s each."""
        self._loader.close(timeout=timeout)
        self.obstacles.close(timeout=timeout)

    def _on_lost(self, info) -> None:
        # The middleware's count of messages that never reached the subscription.
        change = int(info.total_count_change)
        if change <= 0:
            return
        total = self._robot.collisions.lost_obstacles(
            change, '%d obstacle messages lost by the middleware' % change)
        self._node.get_logger().error(
            '~/obstacles: the middleware lost %d obstacle messages (%d in all); the obstacles '
            'in place may differ from what was sent: send the scene again' % (change, total))

    def _queue_full(self, message: CollisionObject, refused: int) -> None:
        total = self._robot.collisions.lost_obstacles(
            1, "obstacle '%s' refused: the queue is full" % message.id[:100])
        self._node.get_logger().error(
            "~/obstacles: obstacle '%s' refused, %d obstacle messages already wait (%d refused, "
            '%d lost in all); send it again'
            % (message.id[:100], OBSTACLE_QUEUE_CAPACITY, refused, total))

    def _apply_failed(self, message: CollisionObject, error: Exception) -> None:
        total = self._robot.collisions.lost_obstacles(
            1, "obstacle '%s' failed: %r" % (message.id[:100], error))
        self._node.get_logger().error("obstacle '%s' failed: %r (%d lost in all); the obstacles "
                                      'in place are kept' % (message.id[:100], error, total))

    def _on_srdf(self, message: String) -> None:
        self._loader.submit(message.data, 'the %s topic' % ROBOT_DESCRIPTION_SEMANTIC_TOPIC)

    def _load_srdf(self, srdf_xml: str, origin: str) -> None:
        # Runs on the loader's thread: the models built from the SRDF are built here too.
        logger = self._node.get_logger()
        try:
            disabled = self._robot.collisions.set_srdf(srdf_xml, origin)
        except IKError as error:
            logger.warning('refused the SRDF from %s: %s; keeping the previous one'
                           % (origin, error))
            return
        logger.info('SRDF from %s: %d link pairs are not checked for collisions'
                    % (origin, len(disabled.pairs)))
        settings = self._parameters.settings
        try:
            warnings = self._robot.collision_warnings(settings.base_link, settings.tip_link)
        except RobotModelError:
            return  # no description yet: its adoption builds the model and logs
        for warning in warnings:
            logger.warning(warning)

    def _failed(self, error: Exception, origin: str) -> None:
        self._node.get_logger().error('failed to load the SRDF from %s: %r' % (origin, error))

    def _apply_obstacle(self, message: CollisionObject) -> None:
        # On the obstacle thread, in order.
        try:
            self._apply(message)
        finally:
            self._robot.collisions.handled_obstacle()

    def _apply(self, message: CollisionObject) -> None:
        # Not throttled: each obstacle is an order, and each refusal says which one failed.
        try:
            frame_id, obstacle = obstacle_request(message)
        except IKError as error:
            self._robot.collisions.refused(str(error))
            self._node.get_logger().warning('%s; refused, the obstacles in place are kept' % error)
            return
        try:
            obstacles = self._robot.apply_obstacle(obstacle, frame_id, self._parameters.settings)
        except IKError as error:
            self._node.get_logger().warning('%s; refused, the obstacles in place are kept' % error)
            return
        ids = obstacles.ids
        self._node.get_logger().info("obstacle '%s': %s; in place: %s" % (
            obstacle.id, obstacle.operation, ', '.join(ids) if len(ids) <= _LISTED
            else '%d obstacles' % len(ids)))
