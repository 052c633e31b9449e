# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A command is checked against the scene as it is when it is sent, not when it was asked."""

import threading
import time

from ik_solvers_interfaces.msg import ErrorCodes
from node_collision_support import box_message, IndependentCheck, ObstaclePublisher, translation
import numpy as np
from test_node_cartesian_path import _line_request, _tip_pose, HOME, probe, URDF  # noqa: F401
from test_node_support import WAIT, wait_until

Codes = ErrorCodes


def test_an_obstacle_accepted_while_a_path_is_planned_stops_its_command(probe):  # noqa: F811
    obstacles = ObstaclePublisher(probe)
    middle = _tip_pose(HOME)[:3, 3] - np.array([0.0, 0.0, 0.045])
    size = (0.06, 0.06, 0.06)
    pose = translation(*middle)
    # A long path (2,000 points) to be executed with collision checks...
    request = _line_request(depth=0.09, max_step=0.09 / 2000, execute=True,
                            avoid_collisions=True)
    commands_before = probe.commands.count()
    logs_before = probe.logs.count()
    future = probe.paths.call_async(request)
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    # ... and, 10 ms later, a box on the line's middle.
    time.sleep(0.01)
    obstacles.publisher.publish(box_message('late_box', pose, size, frame_id='base_link'))
    assert done.wait(WAIT), 'no CartesianPath answer'
    response = future.result()
    accepted = [log for log in probe.logs.messages[logs_before:]
                if "obstacle 'late_box'" in log.msg and 'in place' in log.msg]
    assert accepted, 'the node did not accept the box before it answered'
    # The planned line runs through the box (the test is about something real) ...
    check = IndependentCheck(URDF, 'base_link', 'tool0', [('late_box', pose, size)])
    points = [point.positions for point in response.trajectory.points]
    assert any(check.contacts(q) for q in points), 'the box is not in the way of the line'
    # ... so it is not commanded, and the answer says why.
    assert not response.commanded and response.error_code == Codes.IN_COLLISION, \
        response.message
    assert 'late_box' in response.message
    time.sleep(0.5)
    assert not any(len(message.points) > 1 for message in
                   probe.commands.messages[commands_before:])
    # The next path is planned against the box and stops before it.
    again = probe.paths.call_async(_line_request(depth=0.09, execute=True,
                                                 avoid_collisions=True))
    assert wait_until(lambda: again.done())
    assert again.result().error_code == Codes.IN_COLLISION
