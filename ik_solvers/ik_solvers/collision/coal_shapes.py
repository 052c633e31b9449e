# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Shapes as coal collision geometries, each with the bounding box the broad phase uses.

Primitives become coal's own primitives (exact and fast); meshes become bounding-volume
hierarchies of their triangles (OBB-RSS), or convex objects when they were reduced to a hull.
A mesh that is not convex also gets its convex hull (:func:`coal_hull`): hulls that do not
touch prove that the meshes inside them do not either, for a tenth of the cost of testing the
triangles (measured on the vendor UR5's meshes).
"""

from typing import Optional, Tuple

import coal
import numpy as np

from .shapes import Box, Cylinder, Shape, Sphere, TriangleMesh

__all__ = ['coal_geometry', 'coal_hull']


def _mesh(mesh: TriangleMesh):
    model = coal.BVHModelOBBRSS()
    model.beginModel(len(mesh.faces), len(mesh.vertices))
    model.addVertices(np.ascontiguousarray(mesh.vertices, dtype=float))
    model.addTriangles(np.ascontiguousarray(mesh.faces, dtype=np.int64))
    model.endModel()
    if not mesh.convex:
        return model
    # GJK on the hull's vertices beats descending a hierarchy of its triangles.
    model.buildConvexRepresentation(False)
    return model.convex


def coal_geometry(shape: Shape) -> Tuple[object, np.ndarray, np.ndarray]:
    """
    Build the coal geometry of a shape and its bounding box.

    :param shape: a :class:`Box`, :class:`Sphere`, :class:`Cylinder` or a loaded
        :class:`TriangleMesh`, m.
    :returns: ``(geometry, center, half_extents)``: the coal geometry, and the centre (3,) and
        half edge lengths (3,) of a box in the shape's frame that contains it, m.
    :raises TypeError: a shape of another kind (a mesh not yet loaded).
    """
    if isinstance(shape, Box):
        size = np.asarray(shape.size, dtype=float)
        return coal.Box(*size), np.zeros(3), size / 2.0
    if isinstance(shape, Sphere):
        radius = float(shape.radius)
        return coal.Sphere(radius), np.zeros(3), np.full(3, radius)
    if isinstance(shape, Cylinder):
        radius, length = float(shape.radius), float(shape.length)
        return (coal.Cylinder(radius, length), np.zeros(3),
                np.array([radius, radius, length / 2.0]))
    if isinstance(shape, TriangleMesh):
        low = shape.vertices.min(axis=0)
        high = shape.vertices.max(axis=0)
        return _mesh(shape), (low + high) / 2.0, (high - low) / 2.0
    raise TypeError('no collision geometry for %s' % type(shape).__name__)


def coal_hull(shape: Shape) -> Optional[object]:
    """
    Build the coal geometry of a non-convex mesh's convex hull.

    :param shape: any shape, m.
    :returns: The coal convex object of the hull of a :class:`TriangleMesh` that is not
        convex; None for primitives, convex meshes (they are their own hull) and meshes whose
        points span no volume.
    """
    if not isinstance(shape, TriangleMesh) or shape.convex:
        return None
    from scipy.spatial import ConvexHull, QhullError
    try:
        hull = ConvexHull(np.asarray(shape.vertices, dtype=float))
    except (QhullError, ValueError):
        return None
    used = np.unique(hull.simplices)
    index = np.full(len(hull.points), -1, dtype=np.int64)
    index[used] = np.arange(len(used))
    return _mesh(TriangleMesh(vertices=np.ascontiguousarray(hull.points[used]),
                              faces=np.ascontiguousarray(index[hull.simplices]), convex=True,
                              source=shape.source))
