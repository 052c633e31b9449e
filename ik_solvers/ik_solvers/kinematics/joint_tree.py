# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The joints of a URDF as one tree over its links: each link's parent joint and the root link.

urdfdom accepts a description whose joints do not form a tree; robot_state_publisher's tree
builder then refuses it or cannot reach some links. Such a description is refused here,
naming the link or joint at fault.
"""

from typing import Dict, List, NamedTuple, Sequence

from .joint import JointDescription
from ..exceptions import RobotModelError

__all__ = ['JointTree', 'joint_tree']


class JointTree(NamedTuple):
    """The joints by name, the parent joint of every link but the root, and the root link."""

    joints: Dict[str, JointDescription]
    parent_joint: Dict[str, JointDescription]
    root_link: str


def joint_tree(robot_name: str, link_names: Sequence[str],
               joints: Sequence[JointDescription]) -> JointTree:
    """
    Check that the joints form one tree over the links, and index it.

    :param robot_name: The robot's name, for messages.
    :param link_names: Every link of the robot, each once.
    :param joints: Every joint of the robot.
    :returns: The indexed tree.
    :raises RobotModelError: For a joint named twice, a joint naming an unknown link, a link
        with two parents, not exactly one root, or a cycle.
    """
    known_links = set(link_names)
    by_name: Dict[str, JointDescription] = {}
    parent_joint: Dict[str, JointDescription] = {}
    for joint in joints:
        if joint.name in by_name:
            raise RobotModelError(
                "robot '%s' declares joint '%s' twice" % (robot_name, joint.name))
        for role, link in (('parent', joint.parent), ('child', joint.child)):
            if link not in known_links:
                raise RobotModelError(
                    "joint '%s' names %s link '%s', which is not a <link> of robot '%s'"
                    % (joint.name, role, link, robot_name))
        if joint.child in parent_joint:
            raise RobotModelError(
                "link '%s' is the child of two joints, '%s' and '%s': a URDF is a tree"
                % (joint.child, parent_joint[joint.child].name, joint.name))
        by_name[joint.name] = joint
        parent_joint[joint.child] = joint
    roots = [link for link in link_names if link not in parent_joint]
    if len(roots) != 1:
        raise RobotModelError(
            "robot '%s' must have exactly one root link (a link that is no joint's child);"
            ' found %d: %s' % (robot_name, len(roots), ', '.join(repr(r) for r in roots)))
    _check_reached(roots[0], link_names, by_name.values())
    return JointTree(by_name, parent_joint, roots[0])


def _check_reached(root_link: str, link_names: Sequence[str], joints) -> None:
    """Raise :class:`RobotModelError` unless every link hangs below the root."""
    # Every other link has exactly one parent: the links the root does not reach lie on
    # or below a cycle. One walk down from the root, linear in the size of the tree
    # (walking up from every link would be quadratic in the depth).
    children: Dict[str, List[str]] = {}
    for joint in joints:
        children.setdefault(joint.parent, []).append(joint.child)
    reached = {root_link}
    stack = [root_link]
    while stack:
        for child in children.get(stack.pop(), ()):
            reached.add(child)
            stack.append(child)
    if len(reached) != len(link_names):
        stranded = next(link for link in link_names if link not in reached)
        raise RobotModelError(
            "the joints above link '%s' form a cycle: a URDF is a tree" % stranded)
