# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Which controller commands which joints: the ``controller_joints`` parameter as plain data.

Each entry reads ``<command topic>: <joint> <joint> ...`` (one ``joint_trajectory_controller``
per arm and one for the torso, say). Every command is then split: each controller whose joints
it moves gets a trajectory of only those joints, all with the same start stamp and duration.
A joint named by two controllers is refused when the parameter is set; a commanded joint that
no controller names is refused when the command is planned (:func:`uncontrolled`).
"""

from typing import Optional, Sequence, Tuple

from ..exceptions import InvalidParameterError

__all__ = ['ControllerMap', 'controller_map', 'controller_map_problem', 'uncontrolled']

#: ``((topic, (joint, ...)), ...)`` in the order of the parameter.
ControllerMap = Tuple[Tuple[str, Tuple[str, ...]], ...]


def controller_map(entries: Sequence[str]) -> ControllerMap:
    """
    Read the entries of ``controller_joints``.

    :param entries: ``'<topic>: <joint> <joint> ...'`` each; empty: one command topic.
    :returns: The controllers' topics and joints.
    :raises InvalidParameterError: An entry without a topic or joints, a topic twice, or a
        joint named twice (the message names it and its controllers).
    """
    mapping = []
    owner = {}
    for entry in entries:
        topic, colon, joints = str(entry).partition(':')
        topic, names = topic.strip(), tuple(joints.split())
        if not colon or not topic or not names:
            raise InvalidParameterError('controller_joints entry %r is not "<command topic>: '
                                        '<joint> <joint> ..."' % (str(entry)[:80],))
        if any(topic == known for known, _ in mapping):
            raise InvalidParameterError('controller_joints names the topic %s twice' % topic)
        for name in names:
            if name in owner:
                raise InvalidParameterError(
                    'controller_joints names joint %s twice (%s and %s): each joint has one '
                    'controller' % (name, owner[name], topic))
            owner[name] = topic
        mapping.append((topic, names))
    return tuple(mapping)


def controller_map_problem(value) -> Optional[str]:
    """Return why a value of ``controller_joints`` is refused, or None."""
    if isinstance(value, str):
        return 'controller_joints must be a list of "<topic>: <joints>" entries'
    try:
        controller_map(list(value))
    except InvalidParameterError as error:
        return str(error)
    except TypeError:
        return 'controller_joints must be a list of "<topic>: <joints>" entries'
    return None


def uncontrolled(joint_names: Sequence[str], mapping: ControllerMap) -> Tuple[str, ...]:
    """
    Return the joints of a command that no controller of ``mapping`` takes.

    :param joint_names: The command's joints.
    :param mapping: The controllers; empty means one command topic for every joint.
    :returns: Those joints, in order; empty when every joint has its controller.
    """
    if not mapping:
        return ()
    controlled = {name for _, names in mapping for name in names}
    return tuple(name for name in joint_names if name not in controlled)
