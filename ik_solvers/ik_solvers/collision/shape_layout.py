# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The shapes a collision model checks, the pairs it tests, and where the shapes sit.

:func:`lay_out` lists the shapes (the links' then the obstacles'), the chain frame each
follows and the pairs to test: what only the description, the allowed pairs and the obstacles
decide. :func:`place` then poses them for given positions of the joints off the chain. A model
placed anew at each position of another arm (a tree's branches, checked against each other)
only places.
"""

from dataclasses import dataclass
from typing import AbstractSet, FrozenSet, List, Mapping, Tuple

import numpy as np

from .broad_phase import PLACED_WIDTH, shape_table
from .coal_shapes import coal_geometry
from .link_placement import FIXED, LinkAnchors
from .obstacles import ObstacleSet
from .robot_geometry import RobotGeometry
from .srdf import link_pair

__all__ = ['lay_out', 'place', 'Placement', 'placed_poses', 'ShapeLayout']


@dataclass(frozen=True)
class ShapeLayout:
    """What a model checks, independent of the joints off its chain."""

    #: Each shape's link or obstacle id, the links' shapes first.
    names: Tuple[str, ...]
    #: (G,) the chain frame each shape follows, :data:`FIXED` when it does not move with it.
    rows: np.ndarray
    #: Each shape's ``(coal geometry, box centre, box half edges)``.
    shapes: Tuple[tuple, ...]
    #: Each shape's convex hull for a first test, or None.
    hulls: Tuple[object, ...]
    #: (P, 2) the pairs of shapes tested.
    pairs: np.ndarray
    #: How many shapes are the links' (the obstacles' follow).
    robot_count: int
    #: (G - robot_count, 4, 4) each obstacle shape's pose in the chain's base frame.
    obstacle_offsets: np.ndarray
    #: (G, 3) each shape's bounding box centre in its own frame, m.
    centres: np.ndarray
    #: (G, 3) each shape's bounding box half edge lengths, m.
    halves: np.ndarray


@dataclass(frozen=True)
class Placement:
    """Where each shape sits for one set of positions of the joints off the chain."""

    #: (G, 4, 4) each shape's pose in the frame of its row (the base frame when fixed).
    offsets: np.ndarray
    #: The table :func:`~.broad_phase.place_and_select` reads.
    table: np.ndarray
    #: ``(rows, centres, radii)`` of the spheres around the moving shapes.
    spheres: Tuple[np.ndarray, np.ndarray, np.ndarray]


def lay_out(geometry: RobotGeometry, shapes: List[tuple], hulls: List[object],
            anchors: LinkAnchors, obstacles: ObstacleSet,
            allowed: AbstractSet[FrozenSet[str]]) -> ShapeLayout:
    """
    List the shapes and the pairs a model tests.

    :param geometry: The links' collision elements.
    :param shapes: Each element's ``(coal geometry, box centre, box half edges)``.
    :param hulls: Each element's hull, or None.
    :param anchors: The links' anchors to the chain.
    :param obstacles: The obstacles, posed in the chain's base frame.
    :param allowed: Link pairs not tested (adjacent links, the SRDF's, zero contacts).
    """
    names = [element.link for element in geometry.elements]
    rows = [anchors.row(element.link) for element in geometry.elements]
    shapes, hulls = list(shapes), list(hulls)
    robot_count = len(names)
    obstacle_offsets = []
    for obstacle in obstacles.obstacles:
        for primitive in obstacle.primitives:
            names.append(obstacle.id)
            rows.append(FIXED)
            obstacle_offsets.append(np.asarray(obstacle.pose) @ np.asarray(primitive.pose))
            shapes.append(coal_geometry(primitive.shape))
            hulls.append(None)
    pairs = []
    for a in range(robot_count):
        for b in range(a + 1, len(names)):
            if names[a] == names[b] or (rows[a] == FIXED and rows[b] == FIXED):
                continue
            if b < robot_count and link_pair(names[a], names[b]) in allowed:
                continue
            pairs.append((a, b))
    return ShapeLayout(tuple(names), np.array(rows, dtype=np.int64), tuple(shapes),
                       tuple(hulls), np.array(pairs, dtype=np.int64).reshape(-1, 2),
                       robot_count, np.array(obstacle_offsets, dtype=float).reshape(-1, 4, 4),
                       np.array([shape[1] for shape in shapes], dtype=float).reshape(-1, 3),
                       np.array([shape[2] for shape in shapes], dtype=float).reshape(-1, 3))


def place(layout: ShapeLayout, geometry: RobotGeometry,
          anchors: Mapping[str, Tuple[int, np.ndarray]], padding: float) -> Placement:
    """
    Pose every shape for the anchors of one set of joint positions.

    :param layout: The shapes.
    :param geometry: The links' collision elements (their origins on their links).
    :param anchors: :meth:`LinkAnchors.at` of those positions.
    :param padding: m added around the moving shapes' spheres.
    """
    robot_offsets = [anchors[element.link][1] @ element.origin for element in geometry.elements]
    offsets = np.concatenate([np.array(robot_offsets, dtype=float).reshape(-1, 4, 4),
                              layout.obstacle_offsets])
    centres, halves = layout.centres, layout.halves
    table = shape_table(layout.rows, offsets, centres, halves)
    moving = np.flatnonzero(layout.rows[:layout.robot_count] >= 0)
    frames = offsets[moving]
    spheres = (layout.rows[moving].copy(),
               np.einsum('gij,gj->gi', frames[:, :3, :3], centres[moving]) + frames[:, :3, 3],
               np.linalg.norm(halves[moving], axis=1) + padding)
    return Placement(offsets, table, spheres)


def placed_poses(offsets: np.ndarray) -> np.ndarray:
    """Return the shapes' poses as the compiled call keeps them: (G, ``PLACED_WIDTH``)."""
    placed = np.zeros((len(offsets), PLACED_WIDTH))
    placed[:, :9] = offsets[:, :3, :3].reshape(-1, 9)
    placed[:, 9:] = offsets[:, :3, 3]
    return placed
