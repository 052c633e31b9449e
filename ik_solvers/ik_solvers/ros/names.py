# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Names the ik_node is known by: node, topics and service.

Relative names resolve in the node's namespace; names starting with ``~/`` resolve under the
node's own name, so with the default name and namespace ``~/status`` is ``/ik_node/status``.
"""

__all__ = [
    'CARTESIAN_PATH_SERVICE',
    'DEFAULT_CONTROLLER_NAME',
    'JOINT_STATES_TOPIC',
    'MARKERS_TOPIC',
    'NODE_NAME',
    'OBSTACLES_TOPIC',
    'ROBOT_DESCRIPTION_SEMANTIC_TOPIC',
    'ROBOT_DESCRIPTION_TOPIC',
    'SOLVE_IK_SERVICE',
    'STATUS_TOPIC',
    'TARGET_POSE_TOPIC',
    'command_topic_for',
    'of_node',
    'tip_target_topic',
]

NODE_NAME = 'ik_node'

#: std_msgs/String, depth 1, transient local: the URDF, as robot_state_publisher publishes it.
ROBOT_DESCRIPTION_TOPIC = 'robot_description'
#: std_msgs/String, depth 1, transient local, reliable: the SRDF, as MoveIt publishes it; only
#: its disable_collisions pairs are read.
ROBOT_DESCRIPTION_SEMANTIC_TOPIC = 'robot_description_semantic'
#: ik_solvers_interfaces/msg/CollisionObject, reliable: obstacles added, moved and removed.
OBSTACLES_TOPIC = '~/obstacles'
#: sensor_msgs/JointState with sensor-data QoS: the seed and the start of every trajectory.
JOINT_STATES_TOPIC = 'joint_states'
#: geometry_msgs/PoseStamped: the streamed targets; the latest one wins.
TARGET_POSE_TOPIC = 'target_pose'
#: ik_solvers_interfaces/msg/IKStatus, reliable, depth 10: one message per streamed solve.
STATUS_TOPIC = '~/status'
#: visualization_msgs/MarkerArray: the target, the reached pose and the links in contact, for
#: RViz.
MARKERS_TOPIC = '~/markers'
#: ik_solvers_interfaces/srv/SolveIK: one-shot solves.
SOLVE_IK_SERVICE = '~/solve_ik'
#: ik_solvers_interfaces/srv/CartesianPath: straight-line paths of the tip, timed.
CARTESIAN_PATH_SERVICE = '~/cartesian_path'

DEFAULT_CONTROLLER_NAME = 'joint_trajectory_controller'


def tip_target_topic(tip_link: str) -> str:
    """
    Name the target topic of one tip of ``tip_links``: ``target_pose/<tip_link>``.

    geometry_msgs/PoseStamped, best effort, depth 1, relative like :data:`TARGET_POSE_TOPIC`
    (so ``/target_pose/left_tool`` in the root namespace).

    :param tip_link: The tip's link name.
    :returns: The relative topic name.
    """
    return '%s/%s' % (TARGET_POSE_TOPIC, tip_link.strip('/'))


def of_node(private_name: str, node_name: str = NODE_NAME) -> str:
    """
    Give the fully qualified name of a node's private topic or service, as others address it.

    :param private_name: A name starting with ``~/``, e.g. :data:`STATUS_TOPIC`.
    :param node_name: The node's name, in the root namespace.
    :returns: E.g. ``/ik_node/status``.
    :raises ValueError: If ``private_name`` does not start with ``~/``.
    """
    if not private_name.startswith('~/'):
        raise ValueError('%r is not a private name (~/...)' % private_name)
    return '/%s/%s' % (node_name.strip('/'), private_name[2:])


def command_topic_for(command_topic: str, controller_name: str) -> str:
    """
    Name of the topic the JointTrajectory commands go to.

    :param command_topic: The ``command_topic`` parameter; used as is when not empty.
    :param controller_name: The ``controller_name`` parameter, used when ``command_topic`` is
        empty: ros2_control's joint_trajectory_controller listens on
        ``/<controller_name>/joint_trajectory``.
    :returns: A topic name.
    :raises ValueError: If both are empty.
    """
    if command_topic.strip():
        return command_topic.strip()
    controller_name = controller_name.strip().strip('/')
    if not controller_name:
        raise ValueError('command_topic and controller_name are both empty')
    return '/%s/joint_trajectory' % controller_name
