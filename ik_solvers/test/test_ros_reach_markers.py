# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The reachability map publisher: a latched MarkerArray of coloured cubes over real DDS."""

import os
import threading
import time

import numpy as np
import pytest

rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')

from rclpy.executors import MultiThreadedExecutor  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from visualization_msgs.msg import Marker, MarkerArray  # noqa: E402

from ik_solvers.reach import reachability_map  # noqa: E402
from ik_solvers.ros.reach_markers import MAP_TOPIC, ReachMapPublisher  # noqa: E402

NAMESPACE = '/reach_markers_test_%d' % os.getpid()


# Hang bound: discovery takes milliseconds to a second; only a hang waits 10 s.
def _wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError('condition not met within %.0f s' % timeout)


def test_a_late_subscriber_gets_one_cube_per_reached_voxel(ur5, tmp_path):
    reach_map = reachability_map(ur5, resolution=0.4, orientations=4, threads=2)
    path = str(tmp_path / 'map.npz')
    reach_map.save(path)
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = MultiThreadedExecutor(context=context)
    try:
        node = ReachMapPublisher(context=context, namespace=NAMESPACE, parameter_overrides=[
            Parameter('map_file', value=path)])
        assert node.shown == int((reach_map.index > 0).sum()) > 0
        # Subscribing after the map was published: transient-local durability delivers it.
        probe = rclpy.create_node('probe', namespace=NAMESPACE, context=context)
        received = []
        probe.create_subscription(MarkerArray, MAP_TOPIC, received.append, QoSProfile(
            depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
            reliability=ReliabilityPolicy.RELIABLE))
        for each in (node, probe):
            executor.add_node(each)
        threading.Thread(target=executor.spin, daemon=True).start()
        markers = _wait(lambda: received)[0].markers
        assert markers[0].action == Marker.DELETEALL
        cubes = markers[1]
        assert cubes.type == Marker.CUBE_LIST and cubes.header.frame_id == 'base_link'
        assert len(cubes.points) == len(cubes.colors) == node.shown
        points = np.array([(p.x, p.y, p.z) for p in cubes.points])
        expected = reach_map.centres()[reach_map.index > 0]
        assert np.allclose(np.sort(points, axis=0), np.sort(expected, axis=0))
        # Full index blue, low index red.
        shades = reach_map.index[reach_map.index > 0]
        full = cubes.colors[int(np.argmax(shades))]
        assert full.b > 0.9 and full.r < 0.1
    finally:
        executor.shutdown()
        rclpy.shutdown(context=context)


def test_a_missing_file_is_logged_and_publishes_nothing(tmp_path):
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = ReachMapPublisher(context=context, namespace=NAMESPACE, parameter_overrides=[
            Parameter('map_file', value=str(tmp_path / 'missing.npz'))])
        assert node.shown is None
        node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
