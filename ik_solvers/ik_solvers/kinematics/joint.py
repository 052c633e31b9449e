# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
One URDF joint as plain data, and the rigid-motion maths of a single joint.

Transforms are 4x4 homogeneous matrices; lengths in metres, angles in radians.
"""

from dataclasses import dataclass
import math
from typing import Optional, Sequence

import numpy as np
from transforms3d.euler import euler2mat

__all__ = [
    'DEFAULT_REVOLUTE_LIMIT',
    'DEFAULT_VELOCITY_LIMIT',
    'JointDescription',
    'MOVING_JOINT_TYPES',
    'Mimic',
    'joint_transform',
    'origin_matrix',
    'rotation_about_axis',
    'skew',
]

#: Joint types whose motion is one scalar variable.
MOVING_JOINT_TYPES = ('revolute', 'continuous', 'prismatic')

#: Limits, rad, given to a revolute joint whose URDF has no ``<limit>`` element. The URDF
#: specification requires the element; being lenient keeps sloppy descriptions usable while
#: still giving the solvers a bounded range to sample from.
DEFAULT_REVOLUTE_LIMIT = math.pi

#: Velocity limit, rad/s or m/s, used when the URDF gives none or a non-positive one.
DEFAULT_VELOCITY_LIMIT = 1.0


@dataclass(frozen=True)
class Mimic:
    """
    A joint that copies another: ``value = multiplier * leader_value + offset``.

    The multiplier is unitless; the offset is in rad or m, like the follower.
    """

    leader: str
    multiplier: float = 1.0
    offset: float = 0.0


@dataclass(frozen=True)
class JointDescription:
    """
    Everything the kinematics needs from one ``<joint>`` element.

    ``origin`` is the 4x4 pose of the joint frame in the parent link frame. ``axis`` is
    the axis as written in the URDF (not normalised, possibly zero: checked only where the
    joint is used). ``lower``/``upper`` are None when the URDF has no ``<limit>`` element;
    ``velocity`` is None when it gives no positive velocity limit.
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


def skew(vector: np.ndarray) -> np.ndarray:
    """Return the 3x3 matrix ``K`` with ``K @ v == cross(vector, v)``."""
    x, y, z = vector
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def rotation_about_axis(unit_axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix (3x3) of ``angle`` rad about ``unit_axis`` (Rodrigues' formula)."""
    k = skew(unit_axis)
    return np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * (k @ k)


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
