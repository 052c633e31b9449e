# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The shapes collision geometry is made of, as plain data: the URDF's and MoveIt's primitives.

Box, cylinder, sphere and mesh file are the robot model's own
(:mod:`ik_solvers.kinematics.collision`); a loaded mesh is a :class:`TriangleMesh`. Sizes are
in metres. Every shape is centred on its own frame: a box's edges run along its frame's axes,
a cylinder's axis is its frame's z axis (as in URDF and shape_msgs).
"""

from dataclasses import dataclass
import math
from typing import Union

import numpy as np

# The URDF's shapes as the robot model reads them; obstacles use the same primitives.
from ..kinematics.collision import Box, Cylinder, Mesh as MeshFile, Sphere

__all__ = ['Box', 'Cylinder', 'MeshFile', 'Shape', 'Sphere', 'TriangleMesh', 'describe_shape',
           'size_problem']


@dataclass(frozen=True, eq=False)
class TriangleMesh:
    """
    A loaded mesh, already scaled: ``vertices`` (V, 3) m and ``faces`` (F, 3) vertex indices.

    :ivar convex: whether it is (or was reduced to) its convex hull.
    :ivar source: the file it came from, for messages.
    """

    vertices: np.ndarray
    faces: np.ndarray
    convex: bool = False
    source: str = ''


Shape = Union[Box, Sphere, Cylinder, MeshFile, TriangleMesh]


def describe_shape(shape: Shape) -> str:
    """Name a shape and its size for a message."""
    if isinstance(shape, Box):
        return 'box %s' % (tuple(shape.size),)
    if isinstance(shape, Sphere):
        return 'sphere of radius %g' % shape.radius
    if isinstance(shape, Cylinder):
        return 'cylinder of radius %g and length %g' % (shape.radius, shape.length)
    if isinstance(shape, MeshFile):
        return 'mesh %s' % shape.filename
    return 'mesh of %d triangles from %s' % (len(shape.faces), shape.source or 'memory')


def size_problem(shape: Shape) -> str:
    """
    Say what is wrong with a primitive's size, or return '' when it is usable.

    A size must be a finite positive number of metres: a zero or negative one encloses nothing
    and a non-finite one everything. A mesh's scale factors may be negative (a mirror image),
    not zero or non-finite.
    """
    if isinstance(shape, Box):
        values = tuple(shape.size)
        if len(values) != 3:
            return 'a box needs 3 edge lengths, got %d' % len(values)
        names = ('x', 'y', 'z')
    elif isinstance(shape, Sphere):
        values, names = (shape.radius,), ('radius',)
    elif isinstance(shape, Cylinder):
        values, names = (shape.radius, shape.length), ('radius', 'length')
    elif isinstance(shape, MeshFile):
        return _scale_problem(tuple(shape.scale))
    else:
        return ''
    for name, value in zip(names, values):
        if not isinstance(value, (int, float, np.floating, np.integer)) or isinstance(
                value, bool) or not math.isfinite(value) or value <= 0.0:
            return '%s %s must be a finite positive number of metres, got %r' % (
                type(shape).__name__.lower(), name, value)
    return ''


def _scale_problem(values: tuple) -> str:
    # A negative factor mirrors the mesh (urdfdom and Pinocchio load it, and a left/right limb
    # pair is often one mesh and its mirror image); only a zero or non-finite factor, which
    # flattens the mesh or sends it to infinity, is refused.
    if len(values) != 3:
        return 'a mesh scale needs 3 factors, got %d' % len(values)
    for name, value in zip(('scale x', 'scale y', 'scale z'), values):
        if not isinstance(value, (int, float, np.floating, np.integer)) or isinstance(
                value, bool) or not math.isfinite(value) or value == 0.0:
            return 'mesh %s must be a finite non-zero factor, got %r' % (name, value)
    return ''
