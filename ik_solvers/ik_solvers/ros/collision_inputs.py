# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The SRDF and the obstacles into the ik_node's engine: subscriptions, a loader, the log.

The SRDF comes from the ``robot_description_semantic`` topic (transient local, as MoveIt
publishes it) or the read-only parameter of that name; it is read on a thread of its own,
since the collision models are rebuilt from it. Obstacles arrive on ``~/obstacles``; each is
applied or refused at once, the reason on the log and in the status. A refused input loses
nothing already in place.
"""

from ik_solvers_interfaces.msg import CollisionObject
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from .names import OBSTACLES_TOPIC, ROBOT_DESCRIPTION_SEMANTIC_TOPIC
from .node_parameters import NodeParameters
from .obstacle_conversions import obstacle_request
from ..engine.description_loader import DescriptionLoader
from ..engine.pipeline import IKEngine
from ..exceptions import IKError, RobotModelError

__all__ = ['CollisionInputs', 'OBSTACLE_QUEUE_DEPTH']

#: Obstacle messages kept while the node is busy: every ADD, MOVE and REMOVE counts, unlike
#: targets, so the queue holds a burst (a scene of up to 256 obstacles sent at once).
OBSTACLE_QUEUE_DEPTH = 1000
# Obstacles named in a log line; beyond, only their number.
_LISTED = 8


class CollisionInputs:
    """Subscribes to the SRDF and the obstacles of a node and hands them to its engine."""

    def __init__(self, node: Node, engine: IKEngine, parameters: NodeParameters) -> None:
        """
        Open the subscriptions and start the SRDF loader.

        :param node: The node.
        :param engine: Takes the SRDF and the obstacles.
        :param parameters: The node's parameters: the chain's links, and the
            ``robot_description_semantic`` parameter, used until an SRDF arrives on the topic.
        """
        self._node = node
        self._engine = engine
        self._parameters = parameters
        self._loader = DescriptionLoader(self._load_srdf, self._failed,
                                         name='semantic_loader')
        semantic = parameters.value('robot_description_semantic')
        if semantic:
            self._loader.submit(semantic, 'the robot_description_semantic parameter')
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        node.create_subscription(String, ROBOT_DESCRIPTION_SEMANTIC_TOPIC, self._on_srdf,
                                 latched)
        node.create_subscription(CollisionObject, OBSTACLES_TOPIC, self._on_obstacle,
                                 QoSProfile(depth=OBSTACLE_QUEUE_DEPTH,
                                            reliability=ReliabilityPolicy.RELIABLE))

    def close(self, timeout: float) -> None:
        """Stop the SRDF loader, waiting at most ``timeout`` seconds."""
        self._loader.close(timeout=timeout)

    def _on_srdf(self, message: String) -> None:
        self._loader.submit(message.data, 'the %s topic' % ROBOT_DESCRIPTION_SEMANTIC_TOPIC)

    def _load_srdf(self, srdf_xml: str, origin: str) -> None:
        # Runs on the loader's thread: the models built from the SRDF are built here too.
        logger = self._node.get_logger()
        try:
            disabled = self._engine.collisions.set_srdf(srdf_xml, origin)
        except IKError as error:
            logger.warning('refused the SRDF from %s: %s; keeping the previous one'
                           % (origin, error))
            return
        logger.info('SRDF from %s: %d link pairs are not checked for collisions'
                    % (origin, len(disabled.pairs)))
        settings = self._parameters.settings
        try:
            warnings = self._engine.collision_warnings(settings.base_link, settings.tip_link)
        except RobotModelError:
            return  # no description yet: its adoption builds the model and logs
        for warning in warnings:
            logger.warning(warning)

    def _failed(self, error: Exception, origin: str) -> None:
        self._node.get_logger().error('failed to load the SRDF from %s: %r' % (origin, error))

    def _on_obstacle(self, message: CollisionObject) -> None:
        # Not throttled: each obstacle is an order, and each refusal says which one failed.
        try:
            frame_id, obstacle = obstacle_request(message)
        except IKError as error:
            self._engine.collisions.refused(str(error))
            self._node.get_logger().warning('%s; refused, the obstacles in place are kept' % error)
            return
        try:
            obstacles = self._engine.apply_obstacle(obstacle, frame_id, self._parameters.settings)
        except IKError as error:
            self._node.get_logger().warning('%s; refused, the obstacles in place are kept' % error)
            return
        ids = obstacles.ids
        self._node.get_logger().info("obstacle '%s': %s; in place: %s" % (
            obstacle.id, obstacle.operation, ', '.join(ids) if len(ids) <= _LISTED
            else '%d obstacles' % len(ids)))
