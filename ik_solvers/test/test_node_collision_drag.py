# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A goal dragged through the arm's base and through a box commands nothing that collides.

Over DDS; each command is checked by a collision model built apart from the node's. Obstacles
added, moved and removed over the topic change the answers.
"""

from ik_solvers_interfaces.msg import CollisionObject, ErrorCodes
from ik_solvers_interfaces.srv import SolveIK
import numpy as np
from node_collision_support import box_message, IndependentCheck, ObstaclePublisher, translation
import pytest
from test_node_support import (
    oracle_confirms,
    oracle_confirms_errors,
    same_position,
    start_ur5_node,
    UR5,
    UR5_CHAIN as CHAIN,
    UR5_HOME as HOME,
    UR5_ORACLE as ORACLE,
)

Codes = ErrorCodes
#: A box in front of the arm, in the path of the second drag (m, base frame).
BOX_POSE = translation(-0.45, 0.25, 0.2)
BOX_SIZE = (0.12, 0.12, 0.5)
#: The node's solve deadline, s. Generous, so that a loaded machine does not turn a success
#: into a timeout: a reachable goal is solved in milliseconds and only the refusals in
#: collision search this long (streamed goals of the drag get the node's short budget anyway).
SOLVE_TIMEOUT = 1.0


def _segment(start: np.ndarray, end: np.ndarray, steps: int):
    """Poses from ``start`` to ``end``: positions on a line, the orientation of ``start``."""
    for fraction in np.linspace(0.0, 1.0, steps):
        pose = start.copy()
        pose[:3, 3] = (1.0 - fraction) * start[:3, 3] + fraction * end[:3, 3]
        yield pose


def _drag(probe, poses):
    """Stream each pose, wait for its status, and move the joint states to each command."""
    statuses = []
    for pose in poses:
        start = probe.statuses.count()
        probe.publish_target(pose)
        status = probe.statuses.wait_for(lambda s: same_position(s.target, pose), start=start)
        statuses.append(status)
        if status.commanded:  # the arm follows, as a controller would
            probe.stream_joint_states(CHAIN.joint_names, status.solution.position)
    return statuses


def test_a_drag_through_the_base_and_through_a_box_commands_no_colliding_configuration(ros):
    node, probe = start_ur5_node(ros, timeout=SOLVE_TIMEOUT)
    obstacles = ObstaclePublisher(probe)
    obstacles.send(box_message('box', BOX_POSE, BOX_SIZE), expect='in place: box')
    # Each drag goes into the collision and comes back the same way, 2 cm a step, so that
    # the arm, held where the goal collides, follows again once the goal returns.
    home = CHAIN.fk(HOME)
    into_base = translation(0.0, 0.0, -0.03)
    into_base[:3, :3] = home[:3, :3]
    box_side = translation(*(BOX_POSE[:3, 3] + (0.25, 0.0, 0.0)))
    box_side[:3, :3] = home[:3, :3]
    beyond_box = translation(*(BOX_POSE[:3, 3] + (-0.2, 0.0, 0.0)))
    beyond_box[:3, :3] = home[:3, :3]
    path = [home, into_base, home, box_side, beyond_box, box_side, home]
    poses = []
    for start, end in zip(path[:-1], path[1:]):
        steps = int(np.ceil(np.linalg.norm(end[:3, 3] - start[:3, 3]) / 0.02)) + 1
        poses += list(_segment(start, end, steps))
    statuses = _drag(probe, poses)

    check = IndependentCheck(UR5, 'base_link', 'tool0', [('box', BOX_POSE, BOX_SIZE)])
    commands = probe.commands.messages
    colliding = [check.contacts(command.points[-1].positions) for command in commands]
    assert len(commands) >= 20, 'the drag commanded almost nothing: %d' % len(commands)
    assert [pairs for pairs in colliding if pairs] == []
    # Every commanded answer by the oracle: a success reaches its goal, an approximate one
    # reports the errors the oracle finds; both keep the URDF limits, and so does each command.
    for pose, status in zip(poses, statuses):
        if not status.commanded:
            continue
        assert status.error_code in (Codes.SUCCESS, Codes.APPROXIMATE), status.message
        if status.success:
            oracle_confirms(ORACLE, status.solution.name, status.solution.position, pose)
        else:
            oracle_confirms_errors(ORACLE, status.solution.name, status.solution.position, pose,
                                   status.position_error, status.orientation_error)
    for command in commands:
        assert ORACLE.limit_violations(command.points[-1].positions) == []
    # The drag went where only colliding configurations reach: those goals were refused.
    held = [status for status in statuses if status.error_code == Codes.IN_COLLISION]
    assert held, [status.message for status in statuses if not status.success]
    for status in held:
        assert not status.commanded and status.collision_checked
        assert len(status.collision_pair) == 2
        assert status.collision_pair[0] in status.message
    assert any('box' in status.collision_pair for status in held), \
        [list(status.collision_pair) for status in held]
    assert all(status.collision_checked for status in statuses)


def test_an_obstacle_added_moved_and_removed_over_the_topic_changes_the_answer(ros):
    node, probe = start_ur5_node(ros, timeout=SOLVE_TIMEOUT)
    obstacles = ObstaclePublisher(probe)
    goal = CHAIN.fk(HOME)
    request = probe.target_request(goal)
    request.seed.name, request.seed.position = list(CHAIN.joint_names), HOME.tolist()
    free = probe.call(request)
    assert free.success and free.collision_checked, free.message
    oracle_confirms(ORACLE, free.solution.name, free.solution.position, goal)
    # A box around the goal: every configuration reaching it puts the tool in the box.
    around_goal = goal.copy()
    obstacles.send(box_message('crate', around_goal, (0.1, 0.1, 0.1)), expect='add')
    blocked = probe.call(request)
    assert blocked.error_code == Codes.IN_COLLISION, blocked.message
    assert 'crate' in blocked.collision_pair and "'crate'" in blocked.message
    markers = probe.markers.wait_for(lambda m: any(
        marker.ns == 'ik_collision' and marker.action == marker.ADD for marker in m.markers))
    drawn = [marker for marker in markers.markers
             if marker.ns == 'ik_collision' and marker.action == marker.ADD]
    assert all(marker.color.r > 0.5 > marker.color.g for marker in drawn)
    # Moved away: the answer is free again.
    obstacles.send(box_message('crate', translation(0.0, 0.0, 2.0), (),
                               operation=CollisionObject.MOVE), expect='move')
    moved = probe.call(request)
    assert moved.success, moved.message
    oracle_confirms(ORACLE, moved.solution.name, moved.solution.position, goal)
    # Moved onto the elbow of the home configuration: the answer takes another configuration.
    elbow = np.asarray(CHAIN.joint_frames(HOME)[0][2], dtype=float)
    obstacles.send(box_message('crate', elbow, (), operation=CollisionObject.MOVE),
                   expect='move')
    around_elbow = probe.call(request)
    check = IndependentCheck(UR5, 'base_link', 'tool0', [('crate', elbow, (0.1, 0.1, 0.1))])
    assert check.contacts(HOME), 'the box must hold the elbow of the home configuration'
    if around_elbow.success:
        oracle_confirms(ORACLE, around_elbow.solution.name, around_elbow.solution.position,
                        goal)
        assert check.contacts(around_elbow.solution.position) == ()
        assert not np.allclose(around_elbow.solution.position, free.solution.position,
                               atol=1e-3)
    else:
        assert around_elbow.error_code in (Codes.IN_COLLISION, Codes.TIMED_OUT,
                                           Codes.NO_SOLUTION), around_elbow.message
    # Removed: the first answer comes back.
    obstacles.send(box_message('crate', np.eye(4), (), operation=CollisionObject.REMOVE),
                   expect='remove')
    removed = probe.call(request)
    assert removed.success, removed.message
    oracle_confirms(ORACLE, removed.solution.name, removed.solution.position, goal)
    assert np.allclose(removed.solution.position, free.solution.position, atol=1e-6)


def test_a_request_may_skip_the_check_of_an_answer_but_never_of_a_command(ros):
    node, probe = start_ur5_node(ros, timeout=SOLVE_TIMEOUT)
    obstacles = ObstaclePublisher(probe)
    goal = CHAIN.fk(HOME)
    obstacles.send(box_message('crate', goal, (0.1, 0.1, 0.1)), expect='add')
    request = probe.target_request(goal)
    request.avoid_collisions = SolveIK.Request.COLLISIONS_IGNORE
    unchecked = probe.call(request)
    assert unchecked.success and not unchecked.collision_checked, unchecked.message
    oracle_confirms(ORACLE, unchecked.solution.name, unchecked.solution.position, goal)
    request.execute = True
    commanded = probe.call(request)
    assert commanded.error_code == Codes.IN_COLLISION and commanded.collision_checked
    # An old client's request (the field left at 0) follows the node's parameter: checked.
    old_client = probe.target_request(goal)
    answer = probe.call(old_client)
    assert answer.error_code == Codes.IN_COLLISION and answer.collision_checked
    # Nothing was commanded. The crate removed, the same goal with execute next: commands go
    # out in order on one topic, so its command arriving as the first shows that none was
    # sent before it (a check right after the replies could miss one still in flight).
    obstacles.send(box_message('crate', np.eye(4), (), operation=CollisionObject.REMOVE),
                   expect='remove')
    executed = probe.call(probe.target_request(goal, execute=True))
    assert executed.success and executed.collision_checked, executed.message
    command = probe.commands.wait_for(lambda c: True)
    assert probe.commands.count() == 1
    assert list(command.points[-1].positions) == pytest.approx(list(executed.solution.position))
    oracle_confirms(ORACLE, command.joint_names, command.points[-1].positions, goal)
