# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
One URDF joint as plain data, and the rigid-motion maths of a single joint.

Transforms are 4x4 homogeneous matrices; lengths in metres, angles in radians.
"""

from dataclasses import dataclass
import math
from typing import List, Mapping, Optional, Sequence, Tuple

import numpy as np
from transforms3d.euler import euler2mat

from ..exceptions import RobotModelError

__all__ = [
    'DEFAULT_REVOLUTE_LIMIT',
    'assign_variables',
    'DEFAULT_VELOCITY_LIMIT',
    'JointDescription',
    'MOVING_JOINT_TYPES',
    'Mimic',
    'fold_fixed_joints',
    'joint_transform',
    'leader_bounds',
    'origin_matrix',
    'position_limits',
    'rotation_about_axis',
]

#: Joint types whose motion is one scalar variable.
MOVING_JOINT_TYPES = ('revolute', 'continuous', 'prismatic')

#: Limits, rad, of a revolute joint built without ``lower``/``upper`` (directly, as a
#: :class:`JointDescription`). A URDF without ``<limit>`` on a revolute joint is refused when
#: parsed, as urdfdom refuses it (see :mod:`.urdf_rules`).
DEFAULT_REVOLUTE_LIMIT = math.pi

#: Velocity limit, rad/s or m/s, of a joint whose URDF gives no positive one: a continuous
#: joint without ``<limit>``, or a ``velocity`` of zero or less (urdfdom accepts any number).
DEFAULT_VELOCITY_LIMIT = 1.0


@dataclass(frozen=True, slots=True)
class Mimic:
    """
    A joint that copies another: ``value = multiplier * leader_value + offset``.

    The multiplier is unitless; the offset is in rad or m, like the follower.
    """

    leader: str
    multiplier: float = 1.0
    offset: float = 0.0


@dataclass(frozen=True, slots=True)
class JointDescription:
    """
    Everything the kinematics needs from one ``<joint>`` element.

    ``origin`` is the 4x4 pose of the joint frame in the parent link frame. ``axis`` is
    the axis as written in the URDF (not normalised, possibly zero: checked only where the
    joint is used). ``lower``/``upper`` and ``velocity`` are None when the URDF has no
    ``<limit>`` element (parsed URDFs: continuous, fixed, planar and floating joints only);
    ``velocity`` is as written, zero or negative included.
    """

    name: str
    joint_type: str
    parent: str
    child: str
    origin: np.ndarray
    axis: np.ndarray
    lower: Optional[float] = None
    upper: Optional[float] = None
    velocity: Optional[float] = None
    mimic: Optional[Mimic] = None

    @property
    def is_moving(self) -> bool:
        """Whether the joint has one scalar variable (revolute, continuous or prismatic)."""
        return self.joint_type in MOVING_JOINT_TYPES

    @property
    def is_prismatic(self) -> bool:
        """Whether the joint translates along its axis (its variable is in m)."""
        return self.joint_type == 'prismatic'

    @property
    def unit_axis(self) -> Optional[np.ndarray]:
        """Return the axis normalised to unit length, or None when it is (numerically) zero."""
        norm = float(np.linalg.norm(self.axis))
        if not math.isfinite(norm) or norm < 1e-12:
            return None
        return self.axis / norm


def origin_matrix(xyz: Sequence[float], rpy: Sequence[float]) -> np.ndarray:
    """
    Build the 4x4 transform of a URDF ``<origin xyz=... rpy=...>``.

    URDF roll-pitch-yaw are rotations about the fixed x, y, z axes in that order, i.e.
    ``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``; ``xyz`` in m, ``rpy`` in rad.
    """
    transform = np.eye(4)
    transform[:3, :3] = euler2mat(rpy[0], rpy[1], rpy[2], 'sxyz')
    transform[:3, 3] = xyz
    return transform


def rotation_about_axis(unit_axis: Sequence[float], angle: float) -> np.ndarray:
    """
    Return the rotation matrix (3x3) of ``angle`` rad about ``unit_axis`` (Rodrigues' formula).

    ``unit_axis`` holds 3 floats; a list is fastest, as the heuristics' sweeps call this once
    per joint step and scalar maths beats small numpy products there.
    """
    x, y, z = unit_axis
    c = math.cos(angle)
    s = math.sin(angle)
    t = 1.0 - c
    return np.array([[c + x * x * t, x * y * t - z * s, x * z * t + y * s],
                     [x * y * t + z * s, c + y * y * t, y * z * t - x * s],
                     [x * z * t - y * s, y * z * t + x * s, c + z * z * t]])


def joint_transform(joint: JointDescription, unit_axis: Optional[np.ndarray],
                    value: float) -> np.ndarray:
    """
    Pose (4x4) of the child link in the parent link frame for one joint value.

    ``value`` is in rad (revolute, continuous) or m (prismatic) and ignored for other joint
    types, which stay at their origin. ``unit_axis`` is the joint's normalised axis; it may
    be None only for joints that do not move.
    """
    if not joint.is_moving:
        return joint.origin.copy()
    motion = np.eye(4)
    if joint.is_prismatic:
        motion[:3, 3] = value * unit_axis
    else:
        motion[:3, :3] = rotation_about_axis(unit_axis, value)
    return joint.origin @ motion


def position_limits(joint: JointDescription) -> Tuple[float, float]:
    """
    Return the ``(lower, upper)`` limits of a moving joint, rad or m.

    Continuous joints get ``(-inf, inf)`` and a revolute joint built without limits gets
    ``DEFAULT_REVOLUTE_LIMIT`` either way (a parsed URDF always has them). Raises
    :class:`RobotModelError` for a prismatic joint without ``<limit>`` (no range can be
    guessed) and for limits that are not finite or whose lower exceeds the upper.
    """
    if joint.joint_type == 'continuous':
        return -math.inf, math.inf
    if joint.lower is None:
        if joint.is_prismatic:
            raise RobotModelError(
                "prismatic joint '%s' has no <limit>; the URDF requires lower and upper limits "
                'for prismatic joints' % joint.name)
        return -DEFAULT_REVOLUTE_LIMIT, DEFAULT_REVOLUTE_LIMIT
    low, high = joint.lower, joint.upper
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        raise RobotModelError(
            "joint '%s' has unusable limits lower=%r, upper=%r (they must be finite with "
            'lower <= upper)' % (joint.name, low, high))
    return low, high


def leader_bounds(follower: JointDescription, mimic: Mimic) -> Tuple[float, float]:
    """
    Return the ``(lower, upper)`` range of a leader that keeps its mimic follower in limits.

    The follower's value is ``mimic.multiplier * leader + mimic.offset``; its own limits come
    from :func:`position_limits`. A zero multiplier pins the follower at ``mimic.offset`` and
    leaves the leader unbounded by it. Raises :class:`RobotModelError` when the follower's
    limits are unusable or a pinned follower sits outside them.
    """
    low, high = position_limits(follower)
    if mimic.multiplier == 0.0:
        if not low <= mimic.offset <= high:
            raise RobotModelError(
                "joint '%s' mimics joint '%s' with multiplier 0, which holds it at its offset "
                '%r, outside its limits [%r, %r]'
                % (follower.name, mimic.leader, mimic.offset, low, high))
        return -math.inf, math.inf
    # Infinite limits stay infinite; a negative multiplier swaps which end bounds which.
    ends = sorted(((low - mimic.offset) / mimic.multiplier,
                   (high - mimic.offset) / mimic.multiplier))
    return ends[0], ends[1]


def fold_fixed_joints(path: Sequence[JointDescription], base_link: str, tip_link: str
                      ) -> Tuple[List[JointDescription], List[np.ndarray], List[np.ndarray],
                                 np.ndarray]:
    """
    Fold the fixed joints of a base-to-tip path into the transforms around the moving ones.

    :returns: ``(moving_joints, fixed_before, unit_axes, tip_offset)``: the moving joints,
        base first; for each, the constant 4x4 transform from the previous moving joint's
        frame (the base for the first) to its own frame before its motion, and its unit axis;
        and the 4x4 transform from the last moving joint's frame to the tip.

    Raises :class:`RobotModelError` for a path without moving joints, a planar, floating or
    unknown joint, or a zero axis; ``base_link`` and ``tip_link`` name the chain in messages.
    """
    fixed = np.eye(4)
    segment_joints, fixed_before, unit_axes = [], [], []
    for joint in path:
        if joint.joint_type == 'fixed':
            fixed = fixed @ joint.origin
            continue
        if not joint.is_moving:
            raise RobotModelError(
                "joint '%s' (type %s) in the chain from '%s' to '%s' is not supported: a "
                'chain holds only revolute, continuous, prismatic and fixed joints'
                % (joint.name, joint.joint_type, base_link, tip_link))
        unit_axis = joint.unit_axis
        if unit_axis is None:
            raise RobotModelError(
                "joint '%s' in the chain from '%s' to '%s' has a zero <axis>"
                % (joint.name, base_link, tip_link))
        segment_joints.append(joint)
        fixed_before.append(fixed @ joint.origin)
        unit_axes.append(unit_axis)
        fixed = np.eye(4)
    if not segment_joints:
        if not path:
            reason = 'base and tip are the same link'
        else:
            reason = 'the joints between them are all fixed: %s' % ', '.join(
                "'%s' (%s)" % (joint.name, joint.joint_type) for joint in path)
        raise RobotModelError(
            "the chain from '%s' to '%s' has no moving joint (%s)"
            % (base_link, tip_link, reason))
    return segment_joints, fixed_before, unit_axes, fixed


def assign_variables(segment_joints: Sequence[JointDescription], mimics: Mapping[str, Mimic],
                     outside_leaders: Mapping[str, JointDescription], base_link: str,
                     tip_link: str
                     ) -> Tuple[List[JointDescription], List[int], List[int], List[float],
                                List[float]]:
    """
    Choose the independent variables of a chain's moving joints.

    Every joint that mimics nobody is a variable; so is each leader off the chain that a
    follower of the chain mimics, placed where its first follower is.

    :param segment_joints: The chain's moving joints, base first.
    :param mimics: The resolved leader of each mimic joint among them.
    :param outside_leaders: The joints off the chain that followers of it mimic.
    :param base_link: Names the chain in messages.
    :param tip_link: Names the chain in messages.
    :returns: ``(variables, frame_rows, variable_of_joint, multipliers, offsets)``: the
        variables' joints base to tip, the row of ``segment_joints`` whose frame stands for
        each (its own, or its first follower's), and for each moving joint the index of the
        variable that drives it with its multiplier and offset.
    :raises RobotModelError: For a follower whose leader is neither on the chain nor in
        ``outside_leaders``.
    """
    own = {joint.name for joint in segment_joints if joint.name not in mimics}
    variables: List[JointDescription] = []
    frame_rows: List[int] = []
    for row, joint in enumerate(segment_joints):
        leader = mimics[joint.name].leader if joint.name in mimics else joint.name
        if leader == joint.name:
            variables.append(joint)
            frame_rows.append(row)
        elif (leader not in own and leader in outside_leaders
              and all(variable.name != leader for variable in variables)):
            variables.append(outside_leaders[leader])
            frame_rows.append(row)
    index = {joint.name: position for position, joint in enumerate(variables)}
    variable_of_joint, multipliers, offsets = [], [], []
    for joint in segment_joints:
        mimic = mimics.get(joint.name, Mimic(joint.name))
        if mimic.leader not in index:
            raise RobotModelError(
                "joint '%s' in the chain from '%s' to '%s' mimics joint '%s', which is not a "
                "moving joint of that chain; choose a base and tip whose chain holds '%s' (the "
                "chain's moving joints: %s)"
                % (joint.name, base_link, tip_link, mimic.leader, mimic.leader,
                   ', '.join(repr(moving.name) for moving in segment_joints)))
        variable_of_joint.append(index[mimic.leader])
        multipliers.append(mimic.multiplier)
        offsets.append(mimic.offset)
    return variables, frame_rows, variable_of_joint, multipliers, offsets
