# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Collision checking from a URDF's collision geometry, an SRDF and runtime obstacles.

Load the geometry once (:func:`load_robot_geometry`, seconds for big meshes: not on an
executor thread), read the SRDF (:func:`parse_srdf`), then build a :class:`CollisionModel`
and pass it to :func:`ik_solvers.solve` as ``collision=``. Built on coal and trimesh.
"""

from .mesh_files import DEFAULT_MAX_TRIANGLES, MeshLoadError, resolve_mesh_path
from .model import CollisionModel
from .obstacles import ADD, MAX_OBSTACLES, MAX_PRIMITIVES, MOVE, Obstacle, ObstacleSet, \
    Primitive, REMOVE
from .collision_report import CollisionReport
from .robot_geometry import CollisionElement, load_robot_geometry, RobotGeometry
from .shapes import Box, Cylinder, MeshFile, Sphere, TriangleMesh
from .srdf import DisabledPairs, parse_srdf
from .tree_check import TreeCollisionCheck

__all__ = [
    'ADD',
    'Box',
    'CollisionElement',
    'CollisionModel',
    'CollisionReport',
    'Cylinder',
    'DEFAULT_MAX_TRIANGLES',
    'DisabledPairs',
    'MAX_OBSTACLES',
    'MAX_PRIMITIVES',
    'MOVE',
    'MeshFile',
    'MeshLoadError',
    'Obstacle',
    'ObstacleSet',
    'Primitive',
    'REMOVE',
    'RobotGeometry',
    'Sphere',
    'TreeCollisionCheck',
    'TriangleMesh',
    'load_robot_geometry',
    'parse_srdf',
    'resolve_mesh_path',
]
