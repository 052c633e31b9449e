# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How urdfdom, the parser of robot_state_publisher, reads the numbers and elements of a URDF.

A description is accepted here exactly when urdfdom accepts it, as far as the parts this
package reads go (links, joints, collision geometry); everything else (visuals, materials,
transmissions, gazebo and ros2_control tags, unknown elements) is never looked at. Every
refusal names the joint or link, the element and the attribute.

urdfdom's number grammar: a decimal number, optionally signed and with an exponent, after
optional leading blanks and with nothing after it; ``inf``, ``nan``, hexadecimal and values
beyond the range of a double are not numbers. A vector is split at spaces, not at tabs or line
breaks, and must hold exactly three numbers (:mod:`.urdf_xml` keeps those blanks in attribute
values, as urdfdom's XML library does). urdfdom reads only the first child element of each
kind (the first ``<origin>``, ``<limit>``, ...), and so does this module.
"""

import math
import re
from typing import Optional, Sequence, Tuple
import xml.etree.ElementTree as ElementTree

from ..exceptions import RobotModelError

__all__ = [
    'JOINT_TYPES',
    'check_joint_extras',
    'owner_name',
    'read_number',
    'read_vector',
    'required_attribute',
]

#: Every joint type urdfdom knows; any other type refuses the description.
JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar')

# What C++ stream extraction of a double consumes in the classic locale, to the very end.
_DECIMAL = re.compile(r'[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z')
_LEADING_BLANKS = ' \t\n\v\f\r'  # the space first: urdfdom splits vectors at it alone

# Longest attribute value quoted in a message.
_MAX_QUOTED = 60


def owner_name(element: ElementTree.Element) -> str:
    """Name a ``<joint>`` or ``<link>`` for a message, e.g. ``joint 'elbow'``."""
    return "%s '%s'" % (element.tag, element.get('name', ''))


def _quoted(value: str) -> str:
    return value[:_MAX_QUOTED] + '...' if len(value) > _MAX_QUOTED else value


def _problem(owner: str, element: ElementTree.Element, attribute: str, problem: str
             ) -> RobotModelError:
    return RobotModelError('%s: <%s %s="%s">: %s %s' % (
        owner, element.tag, attribute, _quoted(element.get(attribute, '')), attribute, problem))


def _number(piece: str) -> Tuple[Optional[float], str]:
    """Read one number as urdfdom does: ``(value, '')`` or ``(None, what is wrong)``."""
    stripped = piece.lstrip(_LEADING_BLANKS)
    if any(blank in stripped for blank in _LEADING_BLANKS[1:]):
        return None, 'must not hold a tab or line break (urdfdom reads it as part of a number)'
    if _DECIMAL.match(stripped):
        value = float(stripped)
        # Beyond the range of a double: the C++ stream fails, Python gives infinity.
        return (value, '') if math.isfinite(value) else (None, 'must be finite')
    try:
        spelled = float(stripped)
    except ValueError:
        return None, 'must be a number'
    return None, 'must be a number' if math.isfinite(spelled) else 'must be finite'


def required_attribute(owner: str, element: ElementTree.Element, attribute: str) -> str:
    """
    Return an attribute urdfdom requires.

    :param owner: The joint or link, for the message (see :func:`owner_name`).
    :param element: The element holding the attribute.
    :param attribute: Its name.
    :returns: Its text.
    :raises RobotModelError: Naming owner, element and attribute when it is missing.
    """
    text = element.get(attribute)
    if text is None:
        raise RobotModelError('%s: <%s> has no %s attribute; it is required'
                              % (owner, element.tag, attribute))
    return text


def read_number(owner: str, element: ElementTree.Element, attribute: str,
                default: Optional[float] = None) -> float:
    """
    Read a numeric attribute as urdfdom does.

    :param owner: The joint or link, for the message (see :func:`owner_name`).
    :param element: The element holding the attribute.
    :param attribute: Its name.
    :param default: Value when the attribute is absent; None makes it required.
    :returns: The finite number.
    :raises RobotModelError: Naming owner, element and attribute, when the attribute is
        required but absent, or not a finite number.
    """
    text = element.get(attribute)
    if text is None and default is not None:
        return default
    value, problem = _number(required_attribute(owner, element, attribute))
    if value is None:
        raise _problem(owner, element, attribute, problem)
    return value


def read_vector(owner: str, element: ElementTree.Element, attribute: str,
                default: Optional[Sequence[float]] = None) -> Tuple[float, float, float]:
    """
    Read a three-number attribute (``xyz``, ``rpy``, ``size``, ``scale``) as urdfdom does.

    :param owner: The joint or link, for the message (see :func:`owner_name`).
    :param element: The element holding the attribute.
    :param attribute: Its name.
    :param default: Value when the attribute is absent; None makes it required.
    :returns: The three finite numbers.
    :raises RobotModelError: Naming owner, element and attribute, when the attribute is
        required but absent, or does not hold three finite numbers.
    """
    text = element.get(attribute)
    if text is None and default is not None:
        return tuple(float(value) for value in default)
    pieces = [piece for piece in required_attribute(owner, element, attribute).split(' ')
              if piece]
    values = []
    for piece in pieces:
        value, problem = _number(piece)
        if value is None:
            raise _problem(owner, element, attribute,
                           'must hold 3 numbers' if problem == 'must be a number' else problem)
        values.append(value)
    if len(values) != 3:
        raise _problem(owner, element, attribute, 'must hold 3 numbers')
    return values[0], values[1], values[2]


def check_joint_extras(owner: str, joint: ElementTree.Element) -> None:
    """
    Check the joint elements urdfdom reads but kinematics does not use.

    These are ``<safety_controller>`` (``k_velocity`` required), ``<calibration>`` and
    ``<dynamics>`` (``damping`` or ``friction`` required).

    :param owner: The joint, for the message (see :func:`owner_name`).
    :param joint: The ``<joint>`` element.
    :raises RobotModelError: Naming the joint, element and attribute, as urdfdom refuses it.
    """
    safety = joint.find('safety_controller')
    if safety is not None:
        for attribute in ('soft_lower_limit', 'soft_upper_limit', 'k_position'):
            read_number(owner, safety, attribute, default=0.0)
        read_number(owner, safety, 'k_velocity')
    calibration = joint.find('calibration')
    if calibration is not None:
        for attribute in ('rising', 'falling'):
            read_number(owner, calibration, attribute, default=0.0)
    dynamics = joint.find('dynamics')
    if dynamics is not None:
        if dynamics.get('damping') is None and dynamics.get('friction') is None:
            raise RobotModelError('%s: <dynamics> has neither damping nor friction; one is '
                                  'required' % owner)
        for attribute in ('damping', 'friction'):
            read_number(owner, dynamics, attribute, default=0.0)
