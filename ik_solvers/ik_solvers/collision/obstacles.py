# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Runtime obstacles as plain data, with MoveIt's CollisionObject semantics.

An :class:`Obstacle` is an id, a pose in the chain's base frame, and primitives (box, sphere,
cylinder) posed relative to it, with an operation:

- ``ADD`` puts the obstacle in place, replacing one of the same id;
- ``MOVE`` gives an existing obstacle a new pose (its primitives are kept; any given are
  ignored, as MoveIt does);
- ``REMOVE`` takes it away.

An :class:`ObstacleSet` never changes: :meth:`ObstacleSet.apply` checks the obstacle and
returns a new set, so a refused obstacle loses nothing already in place, and a reader holding
the old set is never disturbed.
"""

from dataclasses import dataclass, field
from functools import cached_property
from typing import Dict, Mapping, Optional, Tuple, Union

import numpy as np

from .shapes import Box, Cylinder, describe_shape, size_problem, Sphere
from ..exceptions import InvalidObstacleError

__all__ = ['ADD', 'MAX_OBSTACLES', 'MAX_PRIMITIVES', 'MOVE', 'Obstacle', 'ObstacleSet',
           'OPERATIONS', 'Primitive', 'REMOVE', 'pose_problem']

ADD = 'add'
MOVE = 'move'
REMOVE = 'remove'
OPERATIONS = (ADD, MOVE, REMOVE)
# Each obstacle is checked against every link at every check: these caps bound its cost.
MAX_OBSTACLES = 256
MAX_PRIMITIVES = 64
# Rotation blocks further than this from orthonormal are refused (as targets are).
_RIGID_TOLERANCE = 1e-6

PrimitiveShape = Union[Box, Sphere, Cylinder]


@dataclass(frozen=True, eq=False)
class Primitive:
    """
    One shape of an obstacle.

    :ivar shape: a :class:`Box`, :class:`Sphere` or :class:`Cylinder`, m.
    :ivar pose: (4, 4) pose of the shape in the obstacle's frame (identity by default).
    """

    shape: PrimitiveShape
    pose: np.ndarray = field(default_factory=lambda: np.eye(4))


@dataclass(frozen=True, eq=False)
class Obstacle:
    """
    An obstacle to add, move or remove.

    :ivar id: its name; an id equal to a link's name is refused by the collision model.
    :ivar pose: (4, 4) pose of the obstacle in the chain's base frame, m.
    :ivar primitives: its shapes (at least one for ``ADD``).
    :ivar operation: ``'add'``, ``'move'`` or ``'remove'``.
    """

    id: str
    pose: np.ndarray = field(default_factory=lambda: np.eye(4))
    primitives: Tuple[Primitive, ...] = ()
    operation: str = ADD


def pose_problem(pose) -> str:
    """Say what keeps ``pose`` from being a finite 4x4 rigid transform, or return ''."""
    try:
        matrix = np.asarray(pose, dtype=float)
    except (TypeError, ValueError):
        return 'is not an array of numbers'
    if matrix.shape != (4, 4):
        return 'must be a 4x4 transform, got shape %s' % (matrix.shape,)
    if not np.isfinite(matrix).all():
        return 'has non-finite values (NaN or infinity)'
    if np.abs(matrix[3] - (0.0, 0.0, 0.0, 1.0)).max() > _RIGID_TOLERANCE:
        return 'must end with the row 0 0 0 1'
    rotation = matrix[:3, :3]
    if (np.abs(rotation.T @ rotation - np.eye(3)).max() > _RIGID_TOLERANCE
            or np.linalg.det(rotation) < 0.0):
        return 'has a rotation block that is not a rotation (a quaternion not normalised?)'
    return ''


def _check_added(obstacle: Obstacle) -> None:
    if not obstacle.primitives:
        raise InvalidObstacleError("obstacle '%s' has no primitives to add" % obstacle.id)
    if len(obstacle.primitives) > MAX_PRIMITIVES:
        raise InvalidObstacleError("obstacle '%s' has %d primitives, more than the %d allowed"
                                   % (obstacle.id, len(obstacle.primitives), MAX_PRIMITIVES))
    for index, primitive in enumerate(obstacle.primitives):
        if not isinstance(primitive, Primitive) or not isinstance(
                primitive.shape, (Box, Sphere, Cylinder)):
            raise InvalidObstacleError(
                "obstacle '%s': primitive %d must be a box, sphere or cylinder"
                % (obstacle.id, index))
        problem = size_problem(primitive.shape)
        if problem:
            raise InvalidObstacleError("obstacle '%s': primitive %d (%s): %s" % (
                obstacle.id, index, describe_shape(primitive.shape), problem))
        problem = pose_problem(primitive.pose)
        if problem:
            raise InvalidObstacleError("obstacle '%s': the pose of primitive %d %s"
                                       % (obstacle.id, index, problem))


class ObstacleSet:
    """
    The obstacles in place, by id; immutable (see :meth:`apply`).

    :param obstacles: the obstacles in place (all with operation ``ADD``).
    :param max_obstacles: the most obstacles this set and those derived from it hold.
    """

    def __init__(self, obstacles: Optional[Mapping[str, Obstacle]] = None, *,
                 max_obstacles: int = MAX_OBSTACLES):
        """Hold ``obstacles`` (already checked, see :meth:`apply`)."""
        self._obstacles: Dict[str, Obstacle] = dict(obstacles or {})
        self._max_obstacles = int(max_obstacles)

    @property
    def obstacles(self) -> Tuple[Obstacle, ...]:
        """Return the obstacles in place, in the order they were first added."""
        return tuple(self._obstacles.values())

    @cached_property  # the set never changes, and the status lists them for every request
    def ids(self) -> Tuple[str, ...]:
        """Their ids."""
        return tuple(self._obstacles)

    def __len__(self) -> int:
        """Count the obstacles in place."""
        return len(self._obstacles)

    def __contains__(self, obstacle_id: object) -> bool:
        """Whether an obstacle of that id is in place."""
        return obstacle_id in self._obstacles

    def get(self, obstacle_id: str) -> Optional[Obstacle]:
        """Return the obstacle of that id, or None."""
        return self._obstacles.get(obstacle_id)

    def apply(self, obstacle: Obstacle) -> 'ObstacleSet':
        """
        Return the set after adding, moving or removing ``obstacle``.

        :raises InvalidObstacleError: an empty id, an unknown operation, a pose or primitive
            pose that is not a finite rigid transform, no primitives or a non-positive size
            (ADD), more than :data:`MAX_PRIMITIVES` primitives, more than ``max_obstacles``
            obstacles, or an id not in place (MOVE, REMOVE). This set is unchanged.
        """
        if not isinstance(obstacle.id, str) or not obstacle.id:
            raise InvalidObstacleError('an obstacle needs a non-empty id')
        if obstacle.operation not in OPERATIONS:
            raise InvalidObstacleError("obstacle '%s': unknown operation %r; expected one of %s"
                                       % (obstacle.id, obstacle.operation,
                                          ', '.join(OPERATIONS)))
        obstacles = dict(self._obstacles)
        if obstacle.operation == REMOVE:
            if obstacle.id not in obstacles:
                raise InvalidObstacleError("no obstacle '%s' to remove; in place: %s"
                                           % (obstacle.id, ', '.join(obstacles) or 'none'))
            del obstacles[obstacle.id]
            return ObstacleSet(obstacles, max_obstacles=self._max_obstacles)
        problem = pose_problem(obstacle.pose)
        if problem:
            raise InvalidObstacleError("obstacle '%s': its pose %s" % (obstacle.id, problem))
        pose = np.array(obstacle.pose, dtype=float)
        if obstacle.operation == MOVE:
            placed = obstacles.get(obstacle.id)
            if placed is None:
                raise InvalidObstacleError("no obstacle '%s' to move; in place: %s"
                                           % (obstacle.id, ', '.join(obstacles) or 'none'))
            obstacles[obstacle.id] = Obstacle(obstacle.id, pose, placed.primitives, ADD)
            return ObstacleSet(obstacles, max_obstacles=self._max_obstacles)
        _check_added(obstacle)
        if obstacle.id not in obstacles and len(obstacles) >= self._max_obstacles:
            raise InvalidObstacleError(
                "obstacle '%s' refused: %d obstacles are in place, the most allowed"
                % (obstacle.id, len(obstacles)))
        primitives = tuple(Primitive(p.shape, np.array(p.pose, dtype=float))
                           for p in obstacle.primitives)
        obstacles[obstacle.id] = Obstacle(obstacle.id, pose, primitives, ADD)
        return ObstacleSet(obstacles, max_obstacles=self._max_obstacles)

    def posed_by(self, transform: np.ndarray) -> 'ObstacleSet':
        """
        Return the same obstacles with ``transform`` (4, 4) applied to their poses.

        :param transform: the pose of the frame they are given in, in the new frame.
        """
        moved = {name: Obstacle(name, transform @ obstacle.pose, obstacle.primitives, ADD)
                 for name, obstacle in self._obstacles.items()}
        return ObstacleSet(moved, max_obstacles=self._max_obstacles)

    def __repr__(self) -> str:
        """List the ids."""
        return 'ObstacleSet(%s)' % ', '.join(self._obstacles)
