# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The kinematic tree of a URDF: links, joints, the path between two links, link poses.

Only kinematics and collision geometry are read (joint origins, types, axes, limits, mimic
tags, ``<collision>`` shapes); visuals, inertia, transmissions and plugin tags are skipped.
A description is accepted exactly when urdfdom (the parser of robot_state_publisher) accepts
it, and refused naming what is wrong (see :mod:`.urdf_reader`); on top of urdfdom, a joint
tree with a cycle or a link with two parents is refused, as robot_state_publisher's tree
builder refuses it too or cannot reach its links.
"""

import difflib
import math
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .chain import Chain
from .collision import CollisionShape
from .joint import JointDescription, joint_transform, Mimic
from .joint_tree import joint_tree
from .urdf_reader import read_robot
from ..exceptions import InvalidSeedError, RobotModelError

__all__ = ['RobotModel', 'describe_names']

# Longest name list quoted in an error message before it is cut short.
_MAX_LISTED_NAMES = 30


def describe_names(names: Sequence[str], wanted: str = '') -> str:
    """
    Format names for an error message: close matches to ``wanted`` first, then the list.

    Long lists are cut after a few dozen names, saying how many were left out.
    """
    parts = []
    close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.6) if wanted else []
    if close:
        parts.append('did you mean %s? ' % ', '.join(repr(name) for name in close))
    listed = ', '.join(repr(name) for name in names[:_MAX_LISTED_NAMES])
    if len(names) > _MAX_LISTED_NAMES:
        listed += ', ... (%d more)' % (len(names) - _MAX_LISTED_NAMES)
    parts.append('%d available: %s' % (len(names), listed))
    return ''.join(parts)


def _rigid_inverse(transform: np.ndarray) -> np.ndarray:
    inverse = np.eye(4)
    rotation_transposed = transform[:3, :3].T
    inverse[:3, :3] = rotation_transposed
    inverse[:3, 3] = -rotation_transposed @ transform[:3, 3]
    return inverse


class RobotModel:
    """
    The kinematic tree of one URDF, parsed once.

    Build it with :meth:`from_urdf`; cut serial chains out of it with :meth:`chain`.
    """

    def __init__(self, name: str, link_names: Sequence[str],
                 joints: Sequence[JointDescription],
                 parser_messages: Sequence[str] = (), *,
                 collisions: Optional[Mapping[str, Sequence[CollisionShape]]] = None):
        """
        Assemble a model from already-parsed joints (use :meth:`from_urdf` instead).

        ``collisions`` maps link names to their collision shapes (links without any may be
        left out). Raises :class:`RobotModelError` when the joints do not form one tree over
        the links.
        """
        self._name = name
        self._link_names = tuple(link_names)
        self.parser_messages: Tuple[str, ...] = tuple(parser_messages)
        self._collisions: Dict[str, Tuple[CollisionShape, ...]] = {
            link: tuple(shapes) for link, shapes in (collisions or {}).items()}
        known_links = set(self._link_names)
        if len(known_links) != len(self._link_names):
            raise RobotModelError("robot '%s' declares a link name twice" % name)
        for link in self._collisions:
            if link not in known_links:
                raise RobotModelError("collision shapes given for link '%s', which is not a "
                                      "<link> of robot '%s'" % (link, name))
        self._joints, self._parent_joint, self._root_link = joint_tree(
            name, self._link_names, joints)

    @classmethod
    def from_urdf(cls, urdf_xml: str) -> 'RobotModel':
        """
        Parse URDF XML text, accepting exactly what urdfdom accepts.

        What was skipped (unknown top-level elements, unknown link attributes, collisions
        urdfdom cannot read) is listed in :attr:`parser_messages`; nothing is printed.

        :param urdf_xml: The URDF text.
        :returns: The model.
        :raises RobotModelError: For malformed XML, a document that is not a ``<robot>``,
            every rule of urdfdom the description breaks (naming the joint or link, element
            and attribute), or a tree that is not a tree.
        """
        parsed = read_robot(urdf_xml)
        names = {joint.name for joint in parsed.joints}
        unknown_leaders = [
            "joint '%s' mimics joint '%s', which the robot does not have (%s); it moves as a "
            'joint of its own' % (joint.name, joint.mimic.leader,
                                  describe_names(sorted(names), joint.mimic.leader))
            for joint in parsed.joints
            if joint.mimic is not None and joint.mimic.leader not in names]
        return cls(parsed.name, parsed.link_names, parsed.joints,
                   tuple(parsed.messages) + tuple(unknown_leaders),
                   collisions=parsed.collisions)

    def collisions(self, link_name: str) -> Tuple[CollisionShape, ...]:
        """
        Return the collision shapes of a link, in the order of the URDF (empty if none).

        :param link_name: A link of the model.
        :returns: The shapes; each origin is in the link's frame.
        :raises RobotModelError: For an unknown link, naming close and available ones.
        """
        self.check_link(link_name)
        return self._collisions.get(link_name, ())

    @property
    def name(self) -> str:
        """Return the robot's name from the URDF."""
        return self._name

    @property
    def link_names(self) -> Tuple[str, ...]:
        """Every link, in the order of the URDF."""
        return self._link_names

    @property
    def joint_names(self) -> Tuple[str, ...]:
        """Every joint (fixed ones included), in the order of the URDF."""
        return tuple(self._joints)

    @property
    def root_link(self) -> str:
        """Return the one link that is no joint's child."""
        return self._root_link

    def joint(self, joint_name: str) -> JointDescription:
        """Return the description of a joint; raise :class:`RobotModelError` if unknown."""
        try:
            return self._joints[joint_name]
        except KeyError:
            raise RobotModelError(
                "unknown joint '%s' in robot '%s'; %s"
                % (joint_name, self._name, describe_names(self.joint_names, joint_name))
            ) from None

    def check_link(self, link_name: str, role: str = 'link') -> None:
        """Raise :class:`RobotModelError` naming close and available links if unknown."""
        if link_name not in self._parent_joint and link_name != self._root_link:
            raise RobotModelError(
                "unknown %s '%s' in robot '%s'; %s"
                % (role, link_name, self._name, describe_names(self._link_names, link_name)))

    def _path_from_root(self, link_name: str) -> List[JointDescription]:
        """Joints from the root link down to ``link_name``, root first."""
        path = []
        link = link_name
        while link != self._root_link:
            joint = self._parent_joint[link]
            path.append(joint)
            link = joint.parent
            if len(path) > len(self._joints):
                raise RobotModelError(
                    "the joints above link '%s' form a cycle: a URDF is a tree" % link_name)
        path.reverse()
        return path

    def path(self, base_link: str, tip_link: str) -> List[JointDescription]:
        """
        Joints from ``base_link`` down to ``tip_link``, base first.

        Raises :class:`RobotModelError` when a link is unknown or the base is not an
        ancestor of the tip (the message lists the tip's ancestors).
        """
        self.check_link(base_link, 'base link')
        self.check_link(tip_link, 'tip link')
        joints = self._path_from_root(tip_link)
        ancestors = [self._root_link] + [joint.child for joint in joints]
        if base_link not in ancestors:
            raise RobotModelError(
                "base link '%s' is not an ancestor of tip link '%s'; the links from the root "
                "to '%s' are: %s" % (base_link, tip_link, tip_link,
                                     ' -> '.join(repr(link) for link in ancestors)))
        return joints[ancestors.index(base_link):]

    def resolve_mimic(self, joint_name: str) -> Mimic:
        """
        Express a joint through the joint that finally drives it.

        Returns ``Mimic(leader, multiplier, offset)`` relative to the first joint up the
        ``<mimic>`` links that mimics nobody (the joint itself, multiplier 1 and offset 0,
        when it mimics nobody). A joint whose ``<mimic>`` names a joint the robot lacks
        drives itself, as it does under robot_state_publisher, which moves every joint by its
        own joint state; :attr:`parser_messages` lists such tags. Raises
        :class:`RobotModelError` for a cycle of mimic tags.
        """
        multiplier, offset = 1.0, 0.0
        seen = [joint_name]
        joint = self.joint(joint_name)
        while joint.mimic is not None:
            leader_name = joint.mimic.leader
            if leader_name not in self._joints:
                break
            if leader_name in seen:
                raise RobotModelError(
                    'the <mimic> tags form a cycle: %s' % ' -> '.join(seen + [leader_name]))
            # value = m * (m_leader * root + o_leader) + o
            offset += multiplier * joint.mimic.offset
            multiplier *= joint.mimic.multiplier
            seen.append(leader_name)
            joint = self._joints[leader_name]
        return Mimic(leader=joint.name, multiplier=multiplier, offset=offset)

    def chain(self, base_link: str, tip_link: str) -> Chain:
        """
        Cut the serial chain from ``base_link`` to ``tip_link``: the one way to build a chain.

        ``tip_link`` may be any descendant of ``base_link``, e.g. a tool frame after fixed
        joints. A mimic joint of the chain whose leader lies off the chain (the second finger
        of a gripper whose first finger is on another branch) makes that leader a variable of
        the chain: the solver moves the leader, and the follower moves with it.

        :param base_link: Link the chain's poses are expressed in.
        :param tip_link: Link whose pose the chain's forward kinematics gives.
        :returns: The chain.
        :raises RobotModelError: For unknown links, a base that is not an ancestor of the tip,
            a mimic joint whose leader does not move, and everything
            :class:`Chain` refuses.
        """
        path = self.path(base_link, tip_link)
        on_path = {joint.name for joint in path}
        mimics, outside_leaders = {}, {}
        for joint in path:
            if joint.mimic is not None and joint.is_moving:
                mimic = self.resolve_mimic(joint.name)
                if mimic.leader == joint.name:
                    continue  # its <mimic> names a joint the robot lacks: it drives itself
                leader = self.joint(mimic.leader)
                if not leader.is_moving:
                    raise RobotModelError(
                        "joint '%s' mimics joint '%s', which is a %s joint, not a moving one"
                        % (joint.name, mimic.leader, leader.joint_type))
                mimics[joint.name] = mimic
                if mimic.leader not in on_path:
                    outside_leaders[mimic.leader] = leader
        return Chain(base_link, tip_link, path, mimics, outside_leaders=outside_leaders)

    def joint_value(self, joint_name: str, joint_positions: Mapping[str, float]) -> float:
        """
        Value of one moving joint, rad or m, with mimic joints following their leaders.

        Joints missing from the mapping count as 0. Raises :class:`InvalidSeedError` for a
        value that is not a finite number.
        """
        mimic = self.resolve_mimic(joint_name)
        raw = joint_positions.get(mimic.leader, 0.0)
        try:
            value = float(raw)
        except (TypeError, ValueError):
            raise InvalidSeedError(
                "the position of joint '%s' must be a number, not %r" % (mimic.leader, raw)
            ) from None
        if not math.isfinite(value):
            raise InvalidSeedError(
                "the position of joint '%s' is not finite: %r" % (mimic.leader, raw))
        return mimic.multiplier * value + mimic.offset

    def _joint_step(self, joint, joint_positions: Mapping[str, float]) -> np.ndarray:
        if not joint.is_moving:
            return joint.origin
        unit_axis = joint.unit_axis
        if unit_axis is None:
            raise RobotModelError("joint '%s' has a zero <axis>" % joint.name)
        return joint_transform(joint, unit_axis, self.joint_value(joint.name, joint_positions))

    def _pose_in_root(self, link_name: str, joint_positions: Mapping[str, float],
                      known: Optional[Dict[str, np.ndarray]] = None) -> np.ndarray:
        # ``known`` keeps the root poses of links already computed at these positions: a walk
        # starts from the deepest of them (same products in the same order as a full walk).
        path = self._path_from_root(link_name)
        pose, start = np.eye(4), 0
        if known is not None:
            for index in range(len(path) - 1, -1, -1):
                if path[index].child in known:
                    pose, start = known[path[index].child], index + 1
                    break
        for joint in path[start:]:
            pose = pose @ self._joint_step(joint, joint_positions)
            if known is not None:
                known[joint.child] = pose
        return pose

    def transforms(self, target_frame: str, source_frames: Sequence[str],
                   joint_positions: Mapping[str, float]) -> Dict[str, np.ndarray]:
        """
        Poses (4x4) of several links in ``target_frame``: :meth:`transform` of each.

        The links' paths from the root are walked once where they are shared (a collision
        model places every link of an arm at each new position of the other).

        :returns: source frame -> its pose, as :meth:`transform` gives it.
        :raises RobotModelError: a link is unknown.
        :raises InvalidSeedError: a position is not a finite number.
        """
        self.check_link(target_frame, 'target frame')
        for source in source_frames:
            self.check_link(source, 'source frame')
        known: Dict[str, np.ndarray] = {}
        inverse = _rigid_inverse(self._pose_in_root(target_frame, joint_positions, known))
        return {source: inverse @ self._pose_in_root(source, joint_positions, known)
                for source in source_frames}

    def transform(self, target_frame: str, source_frame: str,
                  joint_positions: Mapping[str, float]) -> np.ndarray:
        """
        Pose (4x4) of ``source_frame`` expressed in ``target_frame``, for any two links.

        ``joint_positions`` maps joint names to rad or m. Joints missing from it count as 0,
        names that are no joint of this robot are ignored (a joint state may describe more
        than one robot), values given for mimic joints are ignored (they follow their
        leaders), and planar or floating joints stay at their origin. Raises
        :class:`RobotModelError` for unknown links and :class:`InvalidSeedError` for
        non-numeric or non-finite positions.
        """
        self.check_link(target_frame, 'target frame')
        self.check_link(source_frame, 'source frame')
        target_pose = self._pose_in_root(target_frame, joint_positions)
        source_pose = self._pose_in_root(source_frame, joint_positions)
        return _rigid_inverse(target_pose) @ source_pose

    def discard(self) -> None:
        """
        Empty the model one joint at a time; it is unusable afterwards.

        Dropped at once, a model of tens of thousands of joints is freed in a single call that
        holds the interpreter lock for tens of milliseconds; piecewise, other threads run in
        between. Only for a model nobody else uses any more.
        """
        for table in (self._parent_joint, self._joints, self._collisions):
            while table:
                table.popitem()

    def __repr__(self) -> str:
        """Name the robot and count its parts."""
        return 'RobotModel(%r, %d links, %d joints, root %r)' % (
            self._name, len(self._link_names), len(self._joints), self._root_link)
