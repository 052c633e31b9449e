# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
URDF text to plain data: the robot's name, links, joints and collision shapes.

Read with the standard library's XML parser, leniently: only what urdfdom (the parser of
robot_state_publisher) reads is looked at, with its rules (see :mod:`.urdf_rules`), so that
every description urdfdom accepts is accepted and every one it refuses is refused, naming what
is wrong. Visuals, materials, transmissions (of any style), gazebo and ros2_control tags and
unknown elements are skipped whatever their shape.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Tuple
import xml.etree.ElementTree as ElementTree

import numpy as np

from .collision import CollisionShape, read_collisions
from .joint import JointDescription, Mimic, origin_matrix
from .urdf_rules import (
    check_joint_extras,
    JOINT_TYPES,
    owner_name,
    read_number,
    read_vector,
    required_attribute,
)
from .urdf_xml import dismantle, parse_xml
from ..exceptions import RobotModelError

__all__ = ['ParsedRobot', 'read_robot']

_ZERO = (0.0, 0.0, 0.0)
# The URDF default axis of a joint without <axis>.
_X_AXIS = (1.0, 0.0, 0.0)
# Messages kept about skipped parts; the rest are counted.
_MAX_MESSAGES = 100
# Top-level elements of the URDF format and its usual companions; others are reported.
_KNOWN_ELEMENTS = frozenset(('link', 'joint', 'material', 'transmission', 'gazebo',
                             'ros2_control'))


@dataclass
class ParsedRobot:
    """
    What the kinematics needs from one URDF, as plain data.

    :ivar name: The robot's name.
    :ivar link_names: Every link, in the order of the URDF.
    :ivar joints: Every joint, in the order of the URDF.
    :ivar collisions: The collision shapes of each link that has any.
    :ivar messages: What was skipped: unknown elements and unreadable collisions (the first
        100, then how many more).
    :ivar left_out: How many messages were not kept.
    """

    name: str
    link_names: List[str] = field(default_factory=list)
    joints: List[JointDescription] = field(default_factory=list)
    collisions: Dict[str, Tuple[CollisionShape, ...]] = field(default_factory=dict)
    messages: List[str] = field(default_factory=list)
    left_out: int = 0

    def note(self, message: str) -> None:
        """Keep a message about a skipped part; past 100, only count it."""
        # A hostile description may hold millions of unknown attributes.
        if len(self.messages) < _MAX_MESSAGES:
            self.messages.append(message)
        else:
            self.left_out += 1


def _parse_document(urdf_xml) -> ElementTree.Element:
    if isinstance(urdf_xml, bytes):
        urdf_xml = urdf_xml.decode('utf-8')
    if not isinstance(urdf_xml, str):
        raise RobotModelError(
            'the URDF must be given as XML text (str), not %s' % type(urdf_xml).__name__)
    if not urdf_xml.strip():
        raise RobotModelError('the URDF text is empty')
    # The standard library's messages name the line and column of a syntax error.
    try:
        root = parse_xml(urdf_xml)
    except ElementTree.ParseError as error:
        raise RobotModelError('malformed URDF XML: %s' % error) from error
    if root.tag != 'robot':
        raise RobotModelError(
            'malformed URDF: the root element is <%s>, expected <robot>' % root.tag)
    return root


def _check_version(robot: ElementTree.Element) -> None:
    version = robot.get('version')
    if version is None:
        return
    parts = version.split('.')
    numbers = []
    for part in parts:
        # As strtol reads each part: leading blanks and a sign, then digits to the end.
        stripped = part.lstrip(' \t\n\v\f\r')
        digits = stripped[1:] if stripped[:1] in ('+', '-') else stripped
        numbers.append(int(stripped) if digits.isdigit() and digits.isascii() else None)
    if len(parts) != 2 or None in numbers or tuple(numbers) != (1, 0):
        raise RobotModelError(
            'malformed URDF: <robot version="%s">: only version 1.0 is supported' % version[:60])


def _link_name(owner: str, joint: ElementTree.Element, role: str) -> str:
    element = joint.find(role)
    name = '' if element is None else element.get('link', '')
    if not name:
        raise RobotModelError('%s has no <%s link="..."/>: a joint needs a parent and a child '
                              'link' % (owner, role))
    return name


def _read_joint(joint: ElementTree.Element) -> JointDescription:
    """Read one ``<joint>`` as urdfdom does; raise :class:`RobotModelError` if it refuses."""
    name = joint.get('name')
    if name is None:
        raise RobotModelError('malformed URDF: a <joint> has no name attribute')
    owner = owner_name(joint)
    origin = joint.find('origin')
    transform = np.eye(4) if origin is None else origin_matrix(
        read_vector(owner, origin, 'xyz', _ZERO), read_vector(owner, origin, 'rpy', _ZERO))
    parent = _link_name(owner, joint, 'parent')
    child = _link_name(owner, joint, 'child')
    joint_type = joint.get('type')
    if joint_type is None:
        raise RobotModelError('%s has no type attribute' % owner)
    if joint_type not in JOINT_TYPES:
        raise RobotModelError('%s has unknown type \'%s\'; a URDF joint is %s'
                              % (owner, joint_type[:60], ', '.join(JOINT_TYPES)))
    axis = _ZERO
    if joint_type not in ('fixed', 'floating'):
        axis_element = joint.find('axis')
        # urdfdom reads an <axis> without xyz as the zero vector.
        axis = _X_AXIS if axis_element is None else read_vector(owner, axis_element, 'xyz',
                                                                _ZERO)
    lower = upper = velocity = None
    limit = joint.find('limit')
    if limit is not None:
        lower = read_number(owner, limit, 'lower', 0.0)
        upper = read_number(owner, limit, 'upper', 0.0)
        read_number(owner, limit, 'effort')
        velocity = read_number(owner, limit, 'velocity')
    elif joint_type in ('revolute', 'prismatic'):
        raise RobotModelError(
            "joint '%s' is %s but has no <limit>: its lower, upper, effort and velocity "
            'limits are required' % (name, joint_type))
    check_joint_extras(owner, joint)
    mimic = None
    mimic_element = joint.find('mimic')
    if mimic_element is not None:
        mimic = Mimic(leader=required_attribute(owner, mimic_element, 'joint'),
                      multiplier=read_number(owner, mimic_element, 'multiplier', 1.0),
                      offset=read_number(owner, mimic_element, 'offset', 0.0))
    return JointDescription(
        name=name, joint_type=joint_type, parent=parent, child=child, origin=transform,
        axis=np.array(axis, dtype=float), lower=lower, upper=upper, velocity=velocity,
        mimic=mimic)


def _read_parts(robot: ElementTree.Element, parsed: ParsedRobot) -> None:
    materials = set()
    links = set()
    for element in robot:
        if element.tag == 'material':
            # urdfdom reads a material without a name as one named ''.
            material = element.get('name', '')
            if material in materials:
                raise RobotModelError("robot '%s' declares material '%s' twice"
                                      % (parsed.name, material))
            materials.add(material)
        elif element.tag == 'link':
            link = element.get('name', '')
            if link in links:
                raise RobotModelError("robot '%s' declares link '%s' twice" % (parsed.name, link))
            links.add(link)
            parsed.link_names.append(link)
            for attribute in element.attrib:
                if attribute != 'name':
                    parsed.note("link '%s': ignored the unknown attribute %s"
                                % (link, attribute[:60]))
            shapes, dropped = read_collisions(element)
            if shapes:
                parsed.collisions[link] = shapes
            if dropped:
                parsed.note(dropped)
        elif element.tag == 'joint':
            parsed.joints.append(_read_joint(element))
        elif isinstance(element.tag, str) and element.tag not in _KNOWN_ELEMENTS:
            parsed.note('ignored the unknown element <%s>' % element.tag[:60])


def read_robot(urdf_xml: str) -> ParsedRobot:
    """
    Read a URDF as urdfdom reads it, keeping only what the kinematics needs.

    The tree itself (unknown links, roots, cycles) is checked by ``RobotModel``.

    :param urdf_xml: The URDF text (bytes are decoded as UTF-8).
    :returns: The robot as plain data.
    :raises RobotModelError: For text that is not XML or not a ``<robot>``, and for every rule
        of urdfdom a description breaks, naming the joint or link, element and attribute.
    """
    root = _parse_document(urdf_xml)
    try:
        name = root.get('name')
        if name is None:
            raise RobotModelError('malformed URDF: the <robot> element has no name attribute')
        _check_version(root)
        parsed = ParsedRobot(name=name)
        _read_parts(root, parsed)
        if not parsed.link_names:
            raise RobotModelError("robot '%s' has no <link>" % name)
    finally:
        dismantle(root)
    if parsed.left_out:
        parsed.messages.append('... and %d more' % parsed.left_out)
    return parsed
