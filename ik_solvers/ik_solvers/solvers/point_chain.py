# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The point model shared by FABRIK and length relaxation, and the way back to joint values.

A URDF chain becomes the points ``X_0 .. X_N``: the origin of every joint frame (each lies on
its joint's axis) and the tip. The frame of joint ``i`` carries ``X_{i+1}`` at a constant offset,
so the distance ``|X_{i+1} - X_i|`` never changes unless joint ``i + 1`` is prismatic (its
origin then slides along its own axis: that segment has no fixed length). Offsets that put two
joints at one point simply give segments of length zero.

The goal fixes the end of the point chain. For a full pose, the last joint frame has to sit at
``T_target * inverse(T_last_joint_to_tip)``, which fixes the last joint point ``X_{N-1}`` as
well as the tip ``X_N``: the orientation enters the point model the way the length relaxation
paper fixes the last segment from the target. For position only, the tip ``X_N`` alone is
fixed.

Joint values are recovered from desired points by a sweep from the base to the tip: each joint
takes the value that best aligns every point beyond it (and, for a full pose, the tip frame's
axes) with their desired places, in closed form and clamped to its limits (see
:mod:`ik_solvers.solvers.hinge`); the points beyond it are then moved rigidly with it. The
hinge axes, offsets and limits are thereby enforced exactly: the recovered configuration is a
real one, and the next iteration starts from its forward kinematics.
"""

import math
from typing import List

import numpy as np

from ..kinematics.joint import rotation_about_axis
from .base import IKProblem
from .hinge import best_joint_value, negligible_amplitude, sinusoid_coefficients

__all__ = ['PointChain']


class PointChain:
    """
    Constant data of a chain's point model for one problem.

    :ivar lengths: (N,) distance between consecutive points; NaN for a segment whose far end
        is a prismatic joint.
    :ivar fixed_from: index of the first point fixed by the goal (N - 1 for a full pose, N for
        position only or when the chain's last moving joint is a mimic joint).
    :ivar goal: (N + 1 - fixed_from, 3) positions of the fixed end points, m.
    """

    def __init__(self, problem: IKProblem, q: np.ndarray) -> None:
        """Measure the segments at ``q`` and place the goal points of ``problem``."""
        chain = problem.chain
        self.problem = problem
        self.chain = chain
        points = chain.poses(q)[:, :3, 3]
        lengths = np.linalg.norm(np.diff(points, axis=0), axis=1)
        sliding = np.zeros(chain.num_joints, dtype=bool)
        sliding[:-1] = chain.is_prismatic[1:]
        lengths[sliding] = np.nan
        self.lengths = lengths
        n = chain.num_joints
        # A mimic joint moving last turns the tip about an axis that no row of the poses
        # holds: only the tip position is then known from the target.
        if problem.position_only or not chain.tip_offset_is_exact:
            self.fixed_from = n
            self.goal = problem.target_position[None, :].copy()
        else:
            last_joint = problem.target @ np.linalg.inv(chain.tip_offset)
            self.fixed_from = n - 1
            self.goal = np.stack((last_joint[:3, 3], problem.target_position))
        weight = 0.0 if problem.position_only else 0.5 * problem.orientation_weight ** 2
        self._orientation_weight = weight
        self._lower = chain.lower.tolist()
        self._upper = chain.upper.tolist()
        self._prismatic = chain.is_prismatic.tolist()

    def recover(self, q: np.ndarray, poses: np.ndarray, desired: np.ndarray, *,
                radius: float = math.inf) -> np.ndarray:
        """
        Joint values whose points best match ``desired``, from a base-to-tip sweep.

        :param q: current configuration, (N,).
        :param poses: ``chain.poses(q)``.
        :param desired: (N + 1, 3) desired points, m.
        :param radius: largest motion of a revolute joint, rad (prismatic ones: this times the
            chain's length, m); see :func:`~.base.trust_radius`.

        :returns: The new configuration, (N,), within the limits.
        """
        points = poses[:, :3, 3].copy()
        axes = poses[:-1, :3, 2].copy()
        tip_rotation = poses[-1, :3, :3].copy()
        target_rotation_t = self.problem.target_rotation.T
        orientation_weight = self._orientation_weight
        values: List[float] = q.tolist()
        lower, upper, prismatic = self._lower, self._upper, self._prismatic
        slide = radius * self.chain.length_scale
        negligible = negligible_amplitude(self.chain.length_scale)
        for i in range(len(values)):
            axis = axes[i]
            origin = points[i]
            if prismatic[i]:
                shift = float(np.mean(desired[i + 1:] - points[i + 1:], axis=0) @ axis)
                shift = min(max(shift, -slide), slide)
                new = min(max(values[i] + shift, lower[i]), upper[i])
                points[i + 1:] += (new - values[i]) * axis
                values[i] = new
                continue
            levers = points[i + 1:] - origin
            moment = levers.T @ (desired[i + 1:] - origin)
            if orientation_weight:
                moment += orientation_weight * (tip_rotation @ target_rotation_t)
            a, b = sinusoid_coefficients(axis.tolist(), moment.tolist())
            new = best_joint_value(values[i], a, b, max(lower[i], values[i] - radius),
                                   min(upper[i], values[i] + radius), negligible=negligible)
            if new != values[i]:
                rotation = rotation_about_axis(axis.tolist(), new - values[i])
                points[i + 1:] = origin + levers @ rotation.T
                axes[i + 1:] = axes[i + 1:] @ rotation.T
                tip_rotation = rotation @ tip_rotation
                values[i] = new
        return np.array(values)

    def fix_goal(self, points: np.ndarray) -> None:
        """Put the goal points in place, in ``points`` (modified)."""
        points[self.fixed_from:] = self.goal
