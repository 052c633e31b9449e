# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What a URDF must satisfy before its kinematics is used, checked in one pass over the text.

The rules follow urdfdom, the parser of robot_state_publisher, so that a description refused
there is refused here too, and every refusal names the joint or link, the element and the
attribute, as urdfdom does:

- every number urdfdom reads is finite and every vector has its three (rgba: four) values;
  urdfdom reads ``inf`` and ``nan`` as no number at all;
- a revolute or prismatic joint has a ``<limit>`` with ``effort`` and ``velocity``.

One rule is stricter than urdfdom, which takes any number: the velocity and effort limits of a
moving joint must be positive. A command's duration is computed from the velocity limit, and
zero or a negative value leaves nothing to compute it from.
"""

import math
from typing import Any, Dict, Optional, Tuple
import xml.etree.ElementTree as ElementTree

from .joint import MOVING_JOINT_TYPES
from ..exceptions import RobotModelError

__all__ = ['check_joint_limits', 'check_numbers', 'dismantle', 'feed_in_chunks', 'parse_xml']

# Bytes handed to the XML parser at a time: between two chunks other threads get the
# interpreter, so parsing a description of megabytes never stalls them for long.
_CHUNK_BYTES = 64 * 1024

# Numeric attributes of URDF elements and how many numbers each holds.
_NUMBERS: Dict[Tuple[str, str], int] = {
    ('origin', 'xyz'): 3, ('origin', 'rpy'): 3, ('axis', 'xyz'): 3,
    ('limit', 'lower'): 1, ('limit', 'upper'): 1, ('limit', 'effort'): 1,
    ('limit', 'velocity'): 1,
    ('mimic', 'multiplier'): 1, ('mimic', 'offset'): 1,
    ('dynamics', 'damping'): 1, ('dynamics', 'friction'): 1,
    ('safety_controller', 'soft_lower_limit'): 1, ('safety_controller', 'soft_upper_limit'): 1,
    ('safety_controller', 'k_position'): 1, ('safety_controller', 'k_velocity'): 1,
    ('calibration', 'rising'): 1, ('calibration', 'falling'): 1,
    ('mass', 'value'): 1,
    ('inertia', 'ixx'): 1, ('inertia', 'ixy'): 1, ('inertia', 'ixz'): 1,
    ('inertia', 'iyy'): 1, ('inertia', 'iyz'): 1, ('inertia', 'izz'): 1,
    ('box', 'size'): 3, ('cylinder', 'radius'): 1, ('cylinder', 'length'): 1,
    ('sphere', 'radius'): 1, ('mesh', 'scale'): 3, ('color', 'rgba'): 4,
}

# Longest attribute value quoted in a message.
_MAX_QUOTED = 60


def feed_in_chunks(parser: Any, data: bytes) -> Any:
    """
    Parse a document with an incremental XML parser, a slice at a time.

    :param parser: An ``xml.etree.ElementTree.XMLParser`` or an ``lxml.etree.XMLParser``.
    :param data: The document.
    :returns: The root element, as ``parser.close()`` returns it.
    :raises Exception: What the parser raises on malformed XML.
    """
    for start in range(0, len(data), _CHUNK_BYTES):
        parser.feed(data[start:start + _CHUNK_BYTES])
    return parser.close()


def parse_xml(urdf_xml: str) -> ElementTree.Element:
    """
    Parse XML text with the standard library, in chunks.

    :param urdf_xml: The text.
    :returns: The root element.
    :raises ElementTree.ParseError: On malformed XML; the message names line and column.
    """
    return feed_in_chunks(ElementTree.XMLParser(), urdf_xml.encode('utf-8'))


def dismantle(root: Any) -> None:
    """
    Free a parsed document one top-level element at a time.

    Dropped at once, the tree of a description of megabytes is freed in one call that holds
    the interpreter lock for tens of milliseconds; element by element, other threads run in
    between.

    :param root: An ``xml.etree.ElementTree`` or ``lxml.etree`` element; emptied.
    """
    # Not ``while len(root)``: lxml counts the children one by one, which makes the loop
    # quadratic; removing the last child is constant time in both libraries.
    while True:
        try:
            del root[-1]
        except IndexError:
            return


def _owner(element: ElementTree.Element) -> str:
    return "%s '%s'" % (element.tag, element.get('name', ''))


def _quoted(value: str) -> str:
    if len(value) > _MAX_QUOTED:
        value = value[:_MAX_QUOTED] + '...'
    return value


def _values(text: str) -> Optional[list]:
    try:
        return [float(part) for part in text.split()]
    except ValueError:
        return None


def check_numbers(robot: ElementTree.Element) -> None:
    """
    Check every numeric attribute of the joints, links and materials of a ``<robot>``.

    :param robot: The root element.
    :raises RobotModelError: Naming the joint, link or material, the element and the
        attribute, if a value is not a number, not finite, or has the wrong count.
    """
    for owner in robot:
        if owner.tag not in ('joint', 'link', 'material'):
            continue
        for element in owner.iter():
            for attribute, text in element.attrib.items():
                count = _NUMBERS.get((element.tag, attribute))
                if count is None:
                    continue
                values = _values(text)
                if values is None or len(values) != count:
                    problem = ('must hold %d numbers' % count if count > 1
                               else 'must be a number')
                elif not all(math.isfinite(value) for value in values):
                    problem = 'must be finite'
                else:
                    continue
                raise RobotModelError('%s: <%s %s="%s">: %s %s' % (
                    _owner(owner), element.tag, attribute, _quoted(text), attribute, problem))


def check_joint_limits(robot: ElementTree.Element) -> None:
    """
    Check the ``<limit>`` of every moving joint of a ``<robot>``.

    Run after :func:`check_numbers`: the values are known to be finite numbers.

    :param robot: The root element.
    :raises RobotModelError: Naming the joint and the attribute, if a revolute or prismatic
        joint has no ``<limit>``, a limit lacks ``effort`` or ``velocity``, or either is not
        positive.
    """
    for joint in robot.iterfind('joint'):
        joint_type = joint.get('type')
        if joint_type not in MOVING_JOINT_TYPES:
            continue
        limit = joint.find('limit')
        if limit is None:
            if joint_type != 'continuous':
                raise RobotModelError(
                    "joint '%s' is %s but has no <limit>: its lower, upper, effort and velocity "
                    'limits are required' % (joint.get('name', ''), joint_type))
            continue
        for attribute in ('effort', 'velocity'):
            text = limit.get(attribute)
            if text is None:
                raise RobotModelError("joint '%s': <limit> has no %s attribute; it is required"
                                      % (joint.get('name', ''), attribute))
            if float(text) <= 0.0:
                raise RobotModelError(
                    "joint '%s': <limit %s=\"%s\">: %s must be positive"
                    % (joint.get('name', ''), attribute, _quoted(text), attribute))
