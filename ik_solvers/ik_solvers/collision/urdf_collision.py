# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Reading the ``<collision>`` elements of a URDF: which link, where, what shape.

The rules are urdfdom's (the parser behind robot_state_publisher and MoveIt): a
``<collision>`` needs a ``<geometry>`` whose first child element is a ``box`` (``size``), a
``cylinder`` (``radius`` and ``length``), a ``sphere`` (``radius``) or a ``mesh``
(``filename``, optional ``scale``); its ``<origin>`` is optional. Where urdfdom refuses the
whole description, so does :func:`read_collision_elements`, naming the link. Numbers must be
finite, as everywhere in the package.
"""

from dataclasses import dataclass
import math
from typing import List, Sequence, Tuple

from lxml import etree
import numpy as np

from .shapes import Box, Cylinder, MeshFile, Shape, Sphere
from ..exceptions import CollisionGeometryError
from ..kinematics.joint import origin_matrix

__all__ = ['CollisionElement', 'read_collision_elements']


@dataclass(frozen=True, eq=False)
class CollisionElement:
    """
    One ``<collision>`` of a link.

    :ivar link: the link's name.
    :ivar origin: (4, 4) pose of the shape in the link's frame, m.
    :ivar shape: the shape as written (a :class:`MeshFile` still names its file).
    :ivar index: the element's position among the link's ``<collision>`` elements (0 first).
    """

    link: str
    origin: np.ndarray
    shape: Shape
    index: int = 0


def _numbers(link: str, element, attribute: str, count: int,
             default: Sequence[float] = ()) -> Tuple[float, ...]:
    text = element.get(attribute)
    if text is None:
        if default:
            return tuple(default)
        raise CollisionGeometryError(
            "link '%s': <%s> of a <collision> needs the attribute '%s'"
            % (link, element.tag, attribute))
    try:
        values = tuple(float(part) for part in text.split())
    except ValueError:
        values = ()
    if len(values) != count or not all(math.isfinite(value) for value in values):
        raise CollisionGeometryError(
            "link '%s': <%s %s=\"%s\"> of a <collision> must be %d finite number%s"
            % (link, element.tag, attribute, text[:60], count, 's' if count > 1 else ''))
    return values


def _shape(link: str, geometry) -> Shape:
    if geometry is None:
        raise CollisionGeometryError("link '%s': a <collision> has no <geometry>" % link)
    children = [child for child in geometry if isinstance(child.tag, str)]
    if not children:
        raise CollisionGeometryError(
            "link '%s': the <geometry> of a <collision> holds no shape" % link)
    element = children[0]
    if element.tag == 'box':
        return Box(size=_numbers(link, element, 'size', 3))
    if element.tag == 'sphere':
        return Sphere(radius=_numbers(link, element, 'radius', 1)[0])
    if element.tag == 'cylinder':
        return Cylinder(radius=_numbers(link, element, 'radius', 1)[0],
                        length=_numbers(link, element, 'length', 1)[0])
    if element.tag == 'mesh':
        filename = element.get('filename')
        if not filename:
            raise CollisionGeometryError(
                "link '%s': a collision <mesh> needs a 'filename'" % link)
        return MeshFile(filename=filename,
                        scale=_numbers(link, element, 'scale', 3, (1.0, 1.0, 1.0)))
    raise CollisionGeometryError(
        "link '%s': unknown collision geometry <%s>; expected box, cylinder, sphere or mesh"
        % (link, element.tag))


def read_collision_elements(urdf_xml: str) -> List[CollisionElement]:
    """
    Read every ``<collision>`` of every link, in the order of the URDF.

    :param urdf_xml: the robot description (text or bytes).
    :returns: The elements; empty when no link has collision geometry.
    :raises CollisionGeometryError: the XML cannot be parsed, or a ``<collision>`` is
        malformed (no geometry, an unknown shape, a missing or non-numeric size or origin); the
        message names the link.
    """
    data = urdf_xml.encode('utf-8') if isinstance(urdf_xml, str) else urdf_xml
    # No entities, no network: a description comes from a topic anyone may publish on.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True,
                             remove_comments=True)
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError) as error:
        raise CollisionGeometryError('malformed URDF XML: %s' % error) from None
    elements: List[CollisionElement] = []
    for link in root.iterfind('link'):
        name = link.get('name', '')
        for index, collision in enumerate(link.iterfind('collision')):
            origin = np.eye(4)
            origin_element = collision.find('origin')
            if origin_element is not None:
                origin = origin_matrix(
                    _numbers(name, origin_element, 'xyz', 3, (0.0, 0.0, 0.0)),
                    _numbers(name, origin_element, 'rpy', 3, (0.0, 0.0, 0.0)))
            elements.append(CollisionElement(link=name, origin=origin,
                                             shape=_shape(name, collision.find('geometry')),
                                             index=index))
    return elements
