# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Obstacles at 1 kHz while targets stream: every message is applied, refused or reported lost."""

import re
import threading
import time

from ik_solvers_interfaces.msg import CollisionObject
from node_collision_support import box_message, ObstaclePublisher, translation
from test_node_support import same_position, start_ur5_node, UR5_CHAIN, UR5_HOME, wait_until

COUNT = 2000


def _counts(scene: str):
    match = re.search(r'obstacle messages: (\d+) handled, (\d+) lost', scene)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def test_obstacles_at_1_khz_while_targets_stream_are_never_lost_silently(ros):
    node, probe = start_ur5_node(ros)
    obstacles = ObstaclePublisher(probe)  # reliable, keep last 1000, as the sender
    goal = UR5_CHAIN.fk(UR5_HOME)
    streaming = threading.Event()

    def stream():
        while not streaming.is_set():
            probe.publish_target(goal)
            time.sleep(0.02)

    streamer = threading.Thread(target=stream, daemon=True)
    streamer.start()
    try:
        # Pairs of ADD and REMOVE far above the arm, at 1 kHz.
        started = time.monotonic()
        for index in range(COUNT):
            name = 'load_%d' % (index // 2)
            message = box_message(name, translation(0.0, 0.0, 5.0), (0.1, 0.1, 0.1),
                                  operation=CollisionObject.ADD if index % 2 == 0
                                  else CollisionObject.REMOVE)
            obstacles.publisher.publish(message)
            delay = started + (index + 1) * 1e-3 - time.monotonic()
            if delay > 0.0:
                time.sleep(delay)

        def accounted():
            start = probe.statuses.count()
            status = probe.statuses.wait_for(lambda s: same_position(s.target, goal),
                                             start=start)
            handled, lost = _counts(status.collision_scene)
            accounted.last = (handled, lost, status.collision_scene)
            return handled + lost >= COUNT

        accounted.last = None
        assert wait_until(accounted, timeout=60.0), accounted.last
    finally:
        streaming.set()
        streamer.join(timeout=5.0)
    handled, lost, scene = accounted.last
    # Each message once: applied or refused with a log line, or counted as lost.
    assert handled + lost == COUNT, scene
    if lost == 0:
        assert 'obstacles: none' in scene, scene  # every ADD was followed by its REMOVE
