# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
An independent judge of collisions for the tests: every checked pair tested with coal directly.

Each shape is posed by ``RobotModel.transform`` (a joint-by-joint walk of the URDF), not by the
chain's compiled frames, and every pair is tested, not only those the broad phase keeps.
"""

import coal
import numpy as np

from ik_solvers.collision.coal_shapes import coal_geometry


def _transform(pose):
    return coal.Transform3s(np.ascontiguousarray(pose[:3, :3]), np.ascontiguousarray(pose[:3, 3]))


def contacts(robot_model, chain, geometry, q, checked_pairs, obstacles=(), padding=0.0,
             others=None):
    """
    Return the sorted name pairs in contact at ``q`` among ``checked_pairs``.

    :param obstacles: ``(id, pose, shape)`` triples, poses in the chain's base frame.
    :param others: positions of joints off the chain by name (0 when not given).
    """
    positions = dict(others or {})
    positions.update(zip(chain.joint_names, np.asarray(q, dtype=float)))
    shapes = []
    for element in geometry.elements:
        pose = robot_model.transform(chain.base_link, element.link, positions) @ element.origin
        shapes.append((element.link, _transform(pose), coal_geometry(element.shape)[0]))
    for name, pose, shape in obstacles:
        shapes.append((name, _transform(np.asarray(pose)), coal_geometry(shape)[0]))
    wanted = {tuple(sorted(pair)) for pair in checked_pairs}
    request = coal.CollisionRequest()
    request.security_margin = padding
    found = set()
    for a in range(len(shapes)):
        for b in range(a + 1, len(shapes)):
            pair = tuple(sorted((shapes[a][0], shapes[b][0])))
            if pair not in wanted or pair in found:
                continue
            result = coal.CollisionResult()
            if coal.collide(shapes[a][2], shapes[a][1], shapes[b][2], shapes[b][1], request,
                            result):
                found.add(pair)
    return tuple(sorted(found))


def clearance(robot_model, chain, geometry, q, checked_pairs):
    """
    Return the smallest distance (m) between the shapes of ``checked_pairs`` at ``q``.

    Shapes in contact give 0 or less. Posed the same independent way as :func:`contacts`.
    """
    positions = dict(zip(chain.joint_names, np.asarray(q, dtype=float)))
    shapes = []
    for element in geometry.elements:
        pose = robot_model.transform(chain.base_link, element.link, positions) @ element.origin
        shapes.append((element.link, _transform(pose), coal_geometry(element.shape)[0]))
    wanted = {tuple(sorted(pair)) for pair in checked_pairs}
    request = coal.DistanceRequest()
    smallest = np.inf
    for a in range(len(shapes)):
        for b in range(a + 1, len(shapes)):
            if tuple(sorted((shapes[a][0], shapes[b][0]))) not in wanted:
                continue
            result = coal.DistanceResult()
            smallest = min(smallest, coal.distance(shapes[a][2], shapes[a][1], shapes[b][2],
                                                   shapes[b][1], request, result))
    return smallest
