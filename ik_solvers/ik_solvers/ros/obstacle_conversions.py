# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ``~/obstacles`` topic's CollisionObject messages, turned into obstacles for the engine.

Every field is checked here, before anything reaches the collision scene: a refused message
names what is wrong and changes no obstacle.
"""

from geometry_msgs.msg import Pose
from ik_solvers_interfaces.msg import CollisionObject
import numpy as np
from shape_msgs.msg import SolidPrimitive

from .conversions import pose_to_matrix
from ..collision import ADD, Box, Cylinder, MAX_PRIMITIVES, MOVE, Obstacle, Primitive, REMOVE, \
    Sphere
from ..engine.request_checks import MAX_NAME_LENGTH
from ..exceptions import InvalidObstacleError, InvalidTargetError

__all__ = ['obstacle_request']


def _byte(value) -> int:
    # A byte field arrives as bytes of length 1, but may be set to an int in Python.
    return value[0] if isinstance(value, (bytes, bytearray)) else int(value)


_OPERATIONS = {_byte(CollisionObject.ADD): ADD, _byte(CollisionObject.MOVE): MOVE,
               _byte(CollisionObject.REMOVE): REMOVE}
# shape_msgs/SolidPrimitive: the dimensions each type takes, and the shape they make.
_PRIMITIVES = {
    SolidPrimitive.BOX: ('box', 3, lambda d: Box(size=(d[0], d[1], d[2]))),
    SolidPrimitive.SPHERE: ('sphere', 1, lambda d: Sphere(radius=d[0])),
    SolidPrimitive.CYLINDER: ('cylinder', 2, lambda d: Cylinder(
        radius=d[SolidPrimitive.CYLINDER_RADIUS], length=d[SolidPrimitive.CYLINDER_HEIGHT])),
}


def _obstacle_pose(pose: Pose, what: str) -> np.ndarray:
    try:
        return pose_to_matrix(pose)
    except InvalidTargetError as error:
        raise InvalidObstacleError('%s: %s' % (what, error)) from None


def obstacle_request(message: CollisionObject) -> tuple:
    """
    Turn a CollisionObject into an obstacle posed in its header's frame.

    :param message: A message of the ``~/obstacles`` topic.
    :returns: ``(frame_id, obstacle)``; sizes are checked by the obstacle set.
    :raises InvalidObstacleError: An id or frame longer than ``MAX_NAME_LENGTH``, an APPEND or
        unknown operation, more than ``MAX_PRIMITIVES`` primitives, a primitive type other
        than box, sphere and cylinder or with the wrong number of dimensions, primitives and
        poses that do not pair up, or a pose with NaN or a quaternion that is not a rotation.
    """
    for what, text in (('id', message.id), ('frame id', message.header.frame_id)):
        if len(text) > MAX_NAME_LENGTH:  # refused without being quoted whole in the log
            raise InvalidObstacleError('an obstacle %s has %d characters, more than %d: %r...'
                                       % (what, len(text), MAX_NAME_LENGTH, text[:40]))
    name = message.id
    operation = _OPERATIONS.get(_byte(message.operation))
    if operation is None:
        raise InvalidObstacleError(
            "obstacle '%s': operation %d is not supported (APPEND is not: send ADD with every "
            'primitive); use ADD (0), REMOVE (1) or MOVE (3)' % (name, _byte(message.operation)))
    if operation == REMOVE:
        return message.header.frame_id, Obstacle(name, operation=REMOVE)
    pose = _obstacle_pose(message.pose, "obstacle '%s': its pose" % name)
    if operation == MOVE:
        return message.header.frame_id, Obstacle(name, pose, operation=MOVE)
    if len(message.primitives) > MAX_PRIMITIVES:
        raise InvalidObstacleError("obstacle '%s' has %d primitives, more than the %d allowed"
                                   % (name, len(message.primitives), MAX_PRIMITIVES))
    if len(message.primitive_poses) != len(message.primitives):
        raise InvalidObstacleError("obstacle '%s': %d primitives but %d primitive_poses"
                                   % (name, len(message.primitives),
                                      len(message.primitive_poses)))
    primitives = []
    for index, (primitive, primitive_pose) in enumerate(
            zip(message.primitives, message.primitive_poses)):
        kind = _PRIMITIVES.get(primitive.type)
        if kind is None:
            raise InvalidObstacleError("obstacle '%s': primitive %d has type %d; only BOX (1), "
                                       'SPHERE (2) and CYLINDER (3) are supported'
                                       % (name, index, primitive.type))
        label, count, shape = kind
        dimensions = [float(value) for value in primitive.dimensions]
        if len(dimensions) != count:
            raise InvalidObstacleError("obstacle '%s': primitive %d (%s) needs %d dimensions, "
                                       'got %d' % (name, index, label, count, len(dimensions)))
        primitives.append(Primitive(shape(dimensions), _obstacle_pose(
            primitive_pose, "obstacle '%s': the pose of primitive %d" % (name, index))))
    return message.header.frame_id, Obstacle(name, pose, tuple(primitives), ADD)
