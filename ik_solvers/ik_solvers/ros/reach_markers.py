# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A reachability map in RViz: coloured cubes, one per voxel reached, as a latched MarkerArray.

Colours run from red (few orientations reached) through yellow and green to blue (all), the
scale reuleaux uses. ``ik_solvers_reach_markers --ros-args -p map_file:=ur5_map.npz`` publishes
the map on ``reachability_map`` with transient-local durability, so RViz gets it whenever it
subscribes.
"""

import colorsys
from typing import Optional

import numpy as np
from geometry_msgs.msg import Point, Vector3
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from ..exceptions import IKError
from ..reach import load_map, ReachabilityMap

__all__ = ['MAP_NAMESPACE', 'MAP_TOPIC', 'ReachMapPublisher', 'main', 'map_markers']

MAP_TOPIC = 'reachability_map'
MAP_NAMESPACE = 'reachability'
# Hue of index 0 (red) and of index 1 (blue), as fractions of the colour circle.
_HUE_LOW, _HUE_HIGH = 0.0, 0.66


def _colour(value: float, alpha: float) -> ColorRGBA:
    red, green, blue = colorsys.hsv_to_rgb(_HUE_LOW + (_HUE_HIGH - _HUE_LOW) * value, 1.0, 1.0)
    return ColorRGBA(r=red, g=green, b=blue, a=alpha)


def map_markers(reach_map: ReachabilityMap, *, frame_id: str, min_index: float = 1e-9,
                layer: str = 'index', alpha: float = 0.8) -> MarkerArray:
    """
    Return the map as a MarkerArray: a DELETEALL, then one CUBE_LIST of the voxels shown.

    :param reach_map: the map.
    :param frame_id: the frame of the map (the chain's base link).
    :param min_index: voxels with a lower index are left out.
    :param layer: what the colour shows: ``'index'`` (0..1) or ``'manipulability'`` (scaled
        to the map's largest value).
    :param alpha: opacity of the cubes.
    """
    values = reach_map.index if layer == 'index' else reach_map.manipulability
    top = 1.0 if layer == 'index' else max(float(values.max()), 1e-12)
    shown = reach_map.index >= min_index
    centres = reach_map.centres()[shown]
    shades = np.clip(values[shown] / top, 0.0, 1.0)
    clear = Marker(action=Marker.DELETEALL)
    clear.header.frame_id = frame_id
    cubes = Marker(type=Marker.CUBE_LIST, action=Marker.ADD, ns=MAP_NAMESPACE, id=0)
    cubes.header.frame_id = frame_id
    cubes.pose.orientation.w = 1.0
    edge = 0.9 * reach_map.resolution  # gaps between the cubes keep the grid readable
    cubes.scale = Vector3(x=edge, y=edge, z=edge)
    cubes.points = [Point(x=float(x), y=float(y), z=float(z)) for x, y, z in centres]
    cubes.colors = [_colour(float(shade), alpha) for shade in shades]
    return MarkerArray(markers=[clear, cubes])


class ReachMapPublisher(Node):
    """
    Publishes one map file on :data:`MAP_TOPIC` (latched).

    Parameters: ``map_file`` (the ``.npz``), ``frame_id`` (default: the map's base link),
    ``min_index``, ``layer`` (``index`` or ``manipulability``).
    """

    def __init__(self, node_name: str = 'reach_map_publisher', **node_options) -> None:
        """Read the parameters and the map, and publish it once (options go to ``Node``)."""
        super().__init__(node_name, **node_options)
        path = self.declare_parameter('map_file', '').value
        frame = self.declare_parameter('frame_id', '').value
        min_index = float(self.declare_parameter('min_index', 1e-9).value)
        layer = self.declare_parameter('layer', 'index').value
        latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                             reliability=ReliabilityPolicy.RELIABLE)
        self.publisher = self.create_publisher(MarkerArray, MAP_TOPIC, latched)
        self.shown: Optional[int] = None
        if not path:
            self.get_logger().error('no map: set the map_file parameter to a .npz map')
            return
        try:
            reach_map = load_map(path)
        except (OSError, ValueError, IKError) as error:  # a bad file must not stop the node
            self.get_logger().error('cannot read %s: %s' % (path, error))
            return
        markers = map_markers(reach_map, frame_id=frame or reach_map.metadata.get(
            'base_link', 'base_link'), min_index=min_index, layer=layer)
        self.shown = len(markers.markers[1].points)
        self.publisher.publish(markers)
        self.get_logger().info('published %d voxels of %s on %s'
                               % (self.shown, path, self.publisher.topic_name))


def main(args=None) -> None:
    """Entry point of ``ik_solvers_reach_markers``."""
    from .node_main import run_node
    run_node(ReachMapPublisher, args)
