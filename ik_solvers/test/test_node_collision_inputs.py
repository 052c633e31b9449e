# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The SRDF and the obstacles of the ik_node over DDS.

Every bad one is refused with its reason on the log and in the status, losing nothing already
in place.
"""

import math

from ik_solvers.collision import MAX_OBSTACLES
from ik_solvers_interfaces.msg import CollisionObject, ErrorCodes
from node_collision_support import box_message, ObstaclePublisher, translation
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String
from test_node_support import (
    oracle_confirms,
    same_position,
    start_ur5_node,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    UR5_ORACLE as ORACLE,
)

Codes = ErrorCodes
LINKS = ('base_link', 'shoulder_link', 'upper_arm_link', 'forearm_link', 'wrist_1_link',
         'wrist_2_link', 'wrist_3_link')


def _srdf_disabling_every_pair() -> str:
    pairs = ''.join('<disable_collisions link1="%s" link2="%s" reason="Never"/>' % (a, b)
                    for index, a in enumerate(LINKS) for b in LINKS[index + 1:])
    return '<?xml version="1.0"?><robot name="ur5_like">%s</robot>' % pairs


def _status(probe):
    """Stream the home pose and return its status, which carries the collision scene."""
    goal = CHAIN.fk(HOME)
    start = probe.statuses.count()
    probe.publish_target(goal)
    return probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=start)


def _self_colliding_goal():
    # The wrist folded onto the base, as the drag of test_node_collision_drag met it: every
    # configuration reaching this pose puts a link of the arm into another.
    goal = CHAIN.fk(HOME)
    goal[:3, 3] = (-0.152, -0.081, 0.069)
    return goal


def _self_colliding_request(probe):
    request = probe.target_request(_self_colliding_goal())
    request.seed.name, request.seed.position = list(CHAIN.joint_names), HOME.tolist()
    return request


def test_an_srdf_over_the_topic_disables_pairs_and_a_malformed_one_is_refused(ros):
    node, probe = start_ur5_node(ros)
    request = _self_colliding_request(probe)
    before = probe.call(request)
    assert before.error_code == Codes.IN_COLLISION, before.message
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    publisher = probe.node.create_publisher(String, 'robot_description_semantic', latched)
    start = probe.logs.count()
    publisher.publish(String(data=_srdf_disabling_every_pair()))
    probe.logs.wait_for(lambda log: 'SRDF from' in log.msg and '21 link pairs' in log.msg,
                        start=start)
    allowed = probe.call(request)
    assert allowed.success and allowed.collision_checked, allowed.message
    oracle_confirms(ORACLE, allowed.solution.name, allowed.solution.position,
                    _self_colliding_goal())
    # A malformed SRDF: refused with the reason, the previous one kept.
    start = probe.logs.count()
    publisher.publish(String(data='<robot name="ur5_like"><disable_collisions link1="a"'))
    refusal = probe.logs.wait_for(lambda log: 'refused the SRDF' in log.msg, start=start)
    assert 'malformed SRDF' in refusal.msg and 'keeping the previous one' in refusal.msg
    kept = probe.call(request)
    assert kept.success, kept.message
    oracle_confirms(ORACLE, kept.solution.name, kept.solution.position, _self_colliding_goal())
    status = _status(probe)
    assert 'SRDF from the robot_description_semantic topic (21 pairs disabled)' in \
        status.collision_scene
    assert 'last refused: SRDF' in status.collision_scene


def test_every_bad_obstacle_is_refused_with_its_reason_and_loses_nothing(ros):
    node, probe = start_ur5_node(ros)
    obstacles = ObstaclePublisher(probe)
    goal = CHAIN.fk(HOME)
    obstacles.send(box_message('crate', goal, (0.1, 0.1, 0.1)), expect='add')
    nan_pose = box_message('nan', translation(0.5, 0.0, 0.0), (0.1, 0.1, 0.1))
    nan_pose.pose.position.y = math.nan
    flat = box_message('flat', translation(0.5, 0.0, 0.0), (0.1, 0.0, 0.1))
    elsewhere = box_message('elsewhere', translation(0.5, 0.0, 0.0), (0.1, 0.1, 0.1),
                            frame_id='no_such_frame')
    appended = box_message('crate', translation(0.5, 0.0, 0.0), (0.1, 0.1, 0.1))
    appended.operation = CollisionObject.APPEND
    moved_crate = box_message('crate', translation(0.0, 0.0, 2.0), (),
                              operation=CollisionObject.MOVE)
    moved_crate.pose.orientation.w = math.nan
    named_like_a_link = box_message('forearm_link', translation(0.5, 0.0, 0.0), (0.1, 0.1, 0.1))
    for message, reason in ((nan_pose, 'NaN'), (flat, 'positive number'),
                            (elsewhere, "'no_such_frame' is not a link"),
                            (appended, 'APPEND is not'), (moved_crate, 'NaN'),
                            (named_like_a_link, 'name of a link')):
        line = obstacles.send(message, expect='kept')
        assert reason in line, line
        status = _status(probe)
        assert 'obstacles: crate;' in status.collision_scene, status.collision_scene
        assert "last refused: obstacle '%s'" % message.id in status.collision_scene
        assert reason in status.collision_scene
    # An id of a megabyte is refused without being quoted whole.
    start = probe.logs.count()
    obstacles.publisher.publish(box_message('x' * 1_000_000, translation(0.5, 0.0, 0.0),
                                            (0.1, 0.1, 0.1)))
    line = probe.logs.wait_for(lambda log: 'obstacle id has 1000000 characters' in log.msg,
                               start=start)
    assert len(line.msg) < 1000
    blocked = probe.call(probe.target_request(goal))
    assert blocked.error_code == Codes.IN_COLLISION and 'crate' in blocked.collision_pair


def test_obstacles_beyond_the_most_allowed_are_refused(ros):
    node, probe = start_ur5_node(ros)
    obstacles = ObstaclePublisher(probe)
    for index in range(MAX_OBSTACLES - 1):  # far above the arm: none collides
        obstacles.publisher.publish(box_message(
            'far_%d' % index, translation(0.0, 0.0, 5.0 + index), (0.1, 0.1, 0.1)))
    obstacles.send(box_message('last', translation(0.0, 0.0, 2.0), (0.1, 0.1, 0.1)),
                   expect='in place: %d obstacles' % MAX_OBSTACLES)
    line = obstacles.send(box_message('one_more', translation(0.0, 0.0, 3.0), (0.1, 0.1, 0.1)),
                          expect='kept')
    assert '%d obstacles are in place, the most allowed' % MAX_OBSTACLES in line, line
    status = _status(probe)
    assert status.success and status.collision_checked, status.message
    oracle_confirms(ORACLE, status.solution.name, status.solution.position, CHAIN.fk(HOME))
    assert "last refused: obstacle 'one_more'" in status.collision_scene
    # A MOVE of one in place is still taken.
    assert 'move' in obstacles.send(box_message('last', translation(0.0, 0.0, 2.5), (),
                                                operation=CollisionObject.MOVE))
