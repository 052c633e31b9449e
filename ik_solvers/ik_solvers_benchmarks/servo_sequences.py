# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Scripted teleoperation for the servo benchmark, and the damped-least-squares reference.

Every sequence is built from the arm's own kinematics, so that it fits any 6- or 7-joint arm:

- ``wrist``: the tool turns from the pose at wrist joint ``+w`` to the pose at ``-w`` (the
  second-to-last joint; on a UR-type arm its zero aligns the wrist axes) at constant twist;
- ``stretch``: the tip moves away from the shoulder until out of reach, and pushes on;
- ``shoulder``: the tip moves horizontally across the base's vertical axis, above the base;
- ``spin``: the tool turns about its own axis.
"""

from dataclasses import dataclass
import math
from typing import List, Sequence

import numpy as np
from transforms3d.axangles import mat2axangle

from ik_solvers.servo.servo_command import TwistCommand
from ik_solvers.servo.servo_limits import velocity_box

__all__ = ['DampedLeastSquaresServo', 'ScriptedTwist', 'arm_sequences']

# Tip speed and turn rate of the scripted commands, m/s and rad/s.
LINEAR_SPEED = 0.1
ANGULAR_SPEED = 0.5


@dataclass(frozen=True)
class ScriptedTwist:
    """
    One scripted command held for a while from a start at rest.

    :ivar name: ``wrist``, ``stretch``, ``shoulder`` or ``spin``.
    :ivar start: (N,) where the arm starts, rad or m.
    :ivar twist: the command, held throughout.
    :ivar duration: s.
    """

    name: str
    start: np.ndarray
    twist: TwistCommand
    duration: float


def _home(chain) -> np.ndarray:
    """Return an elbow-bent, wrist-bent start within the limits (a quarter of each range)."""
    lower = np.where(np.isfinite(chain.lower), chain.lower, -math.pi)
    upper = np.where(np.isfinite(chain.upper), chain.upper, math.pi)
    q = 0.5 * (lower + upper)
    pattern = np.array([0.3, -0.9, 1.2, -0.6, 0.8, 0.4, 0.3])[:chain.num_joints]
    return np.clip(q + pattern * np.minimum(1.0, 0.25 * (upper - lower)), lower, upper)


def arm_sequences(chain) -> List[ScriptedTwist]:
    """Return the four scripted sequences for ``chain``."""
    home = _home(chain)
    frames, tip = chain.joint_frames(home)
    shoulder = frames[min(1, chain.num_joints - 1), :3, 3]
    sequences = []
    wrist = chain.num_joints - 2
    start, end = home.copy(), home.copy()
    start[wrist], end[wrist] = 0.35, -0.35
    start, end = chain.clip(start), chain.clip(end)
    first, last = chain.fk(start), chain.fk(end)
    axis, angle = mat2axangle(last[:3, :3] @ first[:3, :3].T)
    duration = max(angle / ANGULAR_SPEED, 0.5)
    sequences.append(ScriptedTwist('wrist', start, TwistCommand(
        linear=(last[:3, 3] - first[:3, 3]) / duration,
        angular=np.asarray(axis) * angle / duration), duration))
    outward = tip[:3, 3] - shoulder
    sequences.append(ScriptedTwist('stretch', home, TwistCommand(
        linear=LINEAR_SPEED * outward / np.linalg.norm(outward), angular=(0.0, 0.0, 0.0)),
        6.0))
    across = -tip[:3, 3].copy()
    across[2] = 0.0
    distance = float(np.linalg.norm(across))
    sequences.append(ScriptedTwist('shoulder', home, TwistCommand(
        linear=LINEAR_SPEED * across / max(distance, 1e-9), angular=(0.0, 0.0, 0.0)),
        2.0 * distance / LINEAR_SPEED))
    sequences.append(ScriptedTwist('spin', home, TwistCommand(
        linear=(0.0, 0.0, 0.0), angular=(0.0, 0.0, ANGULAR_SPEED), frame='tip'), 4.0))
    return sequences


class DampedLeastSquaresServo:
    """
    The textbook servo the benchmark compares with: ``v = J^T (J J^T + l^2 I)^-1 xi``.

    Scaled by one factor into the same per-cycle velocity box as the product's loop (speed,
    acceleration, braking before position limits), stepped with the same point rule, so that
    only the way a twist becomes joint velocities differs.

    :param damping: ``l``, in the units of the twist's rows (m/s and rad/s).
    """

    def __init__(self, chain, *, rate: float, velocity_scale: float, acceleration: float,
                 damping: float = 0.05) -> None:
        self.chain = chain
        self.period = 1.0 / rate
        self.speeds = chain.velocity_limits * velocity_scale
        self.acceleration = acceleration
        self.damping = damping
        self.q = np.zeros(chain.num_joints)
        self.v = np.zeros(chain.num_joints)

    def start(self, q: np.ndarray) -> None:
        """Start at rest at ``q``."""
        self.q, self.v = np.array(q, dtype=float), np.zeros(self.chain.num_joints)

    def step(self, twist: Sequence[float]) -> np.ndarray:
        """Take one cycle of ``twist`` (6,: linear then angular, base frame); return q."""
        jacobian = self.chain.jacobian(self.q)
        system = jacobian @ jacobian.T + self.damping ** 2 * np.eye(6)
        wanted = jacobian.T @ np.linalg.solve(system, np.asarray(twist, dtype=float))
        box = velocity_box(self.q, self.v, lower=self.chain.lower, upper=self.chain.upper,
                           velocity_limit=self.speeds, acceleration=self.acceleration,
                           period=self.period)
        if box.contains(wanted):
            velocity = wanted
        else:
            velocity = box.clip(self.v + box.scale_toward(self.v, wanted) * (wanted - self.v))
        self.q = self.q + 0.5 * (self.v + velocity) * self.period
        self.v = velocity
        return self.q
