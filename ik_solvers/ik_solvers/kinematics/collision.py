# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ``<collision>`` elements of a link as plain data, read as urdfdom reads them.

Lengths are in metres; an origin is the 4x4 pose of the shape in its link's frame. Mesh file
names are kept as written (``package://`` or ``file://`` URIs); nothing is loaded here.

urdfdom never refuses a description for its links' contents: a ``<collision>`` it cannot read
(no ``<geometry>``, an unknown shape, a missing or malformed size) ends the reading of that
link, which keeps the collisions read before it. Since urdfdom reads a link's ``<inertial>``
and ``<visual>`` elements first, a malformed one of those leaves the link without collisions
too. :func:`read_collisions` does the same and says what it dropped.
"""

from dataclasses import dataclass
from typing import List, Optional, Tuple, Union
import xml.etree.ElementTree as ElementTree

import numpy as np

from .joint import origin_matrix
from .urdf_rules import owner_name, read_number, read_vector, required_attribute
from ..exceptions import RobotModelError

__all__ = ['Box', 'CollisionShape', 'Cylinder', 'Geometry', 'Mesh', 'Sphere',
           'read_collisions']

_ZERO = (0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Box:
    """A box centred on its origin; ``size`` holds its edge lengths along x, y, z, m."""

    size: Tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Cylinder:
    """A cylinder centred on its origin, its axis along z; radius and length in m."""

    radius: float
    length: float


@dataclass(frozen=True, slots=True)
class Sphere:
    """A sphere centred on its origin; radius in m."""

    radius: float


@dataclass(frozen=True, slots=True)
class Mesh:
    """A mesh file, as written in the URDF, scaled along x, y, z (unitless factors)."""

    filename: str
    scale: Tuple[float, float, float] = (1.0, 1.0, 1.0)


Geometry = Union[Box, Cylinder, Sphere, Mesh]


@dataclass(frozen=True, slots=True)
class CollisionShape:
    """
    One ``<collision>`` of a link.

    ``origin`` is the 4x4 pose of the geometry in the link frame; ``name`` is the element's
    name attribute, or None.
    """

    origin: np.ndarray
    geometry: Geometry
    name: Optional[str] = None


def _origin(owner: str, element: ElementTree.Element) -> np.ndarray:
    origin = element.find('origin')
    if origin is None:
        return np.eye(4)
    return origin_matrix(read_vector(owner, origin, 'xyz', _ZERO),
                         read_vector(owner, origin, 'rpy', _ZERO))


def _geometry(owner: str, element: ElementTree.Element) -> Geometry:
    geometry = element.find('geometry')
    if geometry is None:
        raise RobotModelError('%s: <%s> has no <geometry>' % (owner, element.tag))
    shape = next(iter(geometry), None)
    if shape is None:
        raise RobotModelError('%s: <geometry> holds no shape' % owner)
    if shape.tag == 'sphere':
        return Sphere(read_number(owner, shape, 'radius'))
    if shape.tag == 'box':
        return Box(read_vector(owner, shape, 'size'))
    if shape.tag == 'cylinder':
        return Cylinder(radius=read_number(owner, shape, 'radius'),
                        length=read_number(owner, shape, 'length'))
    if shape.tag == 'mesh':
        return Mesh(required_attribute(owner, shape, 'filename'),
                    read_vector(owner, shape, 'scale', (1.0, 1.0, 1.0)))
    raise RobotModelError('%s: unknown geometry <%s> (a URDF shape is a box, cylinder, sphere '
                          'or mesh)' % (owner, shape.tag))


def _check_inertial(owner: str, link: ElementTree.Element) -> None:
    inertial = link.find('inertial')
    if inertial is None:
        return
    _origin(owner, inertial)
    mass = inertial.find('mass')
    if mass is None:
        raise RobotModelError('%s: <inertial> has no <mass>' % owner)
    read_number(owner, mass, 'value')
    inertia = inertial.find('inertia')
    if inertia is None:
        raise RobotModelError('%s: <inertial> has no <inertia>' % owner)
    for attribute in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'):
        read_number(owner, inertia, attribute)


def _check_visual(owner: str, visual: ElementTree.Element) -> None:
    _origin(owner, visual)
    _geometry(owner, visual)
    material = visual.find('material')
    if material is not None:
        required_attribute(owner, material, 'name')


def read_collisions(link: ElementTree.Element) -> Tuple[Tuple[CollisionShape, ...],
                                                        Optional[str]]:
    """
    Read the collision shapes of one ``<link>`` as urdfdom does.

    :param link: The ``<link>`` element.
    :returns: ``(shapes, dropped)``: the shapes in the order of the URDF, and None or a
        message naming the link and the element that ended the reading (with it, the link's
        later collisions are dropped, as urdfdom drops them).
    """
    owner = owner_name(link)
    shapes: List[CollisionShape] = []
    try:
        _check_inertial(owner, link)
        for visual in link.iterfind('visual'):
            _check_visual(owner, visual)
        for element in link.iterfind('collision'):
            shapes.append(CollisionShape(origin=_origin(owner, element),
                                         geometry=_geometry(owner, element),
                                         name=element.get('name')))
    except RobotModelError as error:
        return tuple(shapes), ('%s; the collisions from there on are ignored, as urdfdom '
                               'ignores them' % error)
    return tuple(shapes), None
