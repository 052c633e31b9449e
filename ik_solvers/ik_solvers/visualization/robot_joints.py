# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The joints a simulated robot reports on ``joint_states``: every moving joint of a URDF.

robot_state_publisher needs a position for each of them to publish the whole TF tree; mimic
joints are left out because it computes them from the joints they follow.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from ..kinematics import RobotModel
from ..kinematics.joint import position_limits

__all__ = ['MovingJoint', 'moving_joints']


@dataclass(frozen=True)
class MovingJoint:
    """One independent moving joint: its name and position limits in rad or m."""

    name: str
    lower: float = -math.inf
    upper: float = math.inf

    @property
    def rest_position(self) -> float:
        """Middle of the limits, or 0 when a bound is infinite (continuous joints)."""
        if math.isfinite(self.lower) and math.isfinite(self.upper):
            return 0.5 * (self.lower + self.upper)
        return min(max(0.0, self.lower), self.upper)


def moving_joints(urdf_xml: str) -> list[MovingJoint]:
    """
    List the independent moving joints of a robot description, in document order.

    :param urdf_xml: URDF text.
    :returns: revolute, continuous and prismatic joints that mimic no other joint.
    :raises RobotModelError: the text is not a valid URDF, a prismatic joint has no limits,
        or a joint's limits are not finite or inverted.
    """
    model = RobotModel.from_urdf(urdf_xml)
    joints = []
    for name in model.joint_names:
        joint = model.joint(name)
        if not joint.is_moving or joint.mimic is not None:
            continue
        # The same limits a Chain gives the joint, so that the simulated arm and the solvers
        # agree on where it may go (a revolute joint without <limit> gets +-pi in both).
        lower, upper = position_limits(joint)
        joints.append(MovingJoint(name, float(lower), float(upper)))
    return joints
