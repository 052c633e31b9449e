# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The point model shared by FABRIK and length relaxation, and the way back to joint values.

A URDF chain becomes the points ``X_0 .. X_N``: the origin of every independent joint's frame
(each lies on its joint's axis) and the tip. The frame of joint ``i`` carries ``X_{i+1}`` at a
constant offset, so the distance ``|X_{i+1} - X_i|`` never changes unless joint ``i + 1`` is
prismatic (its origin then slides along its own axis: that segment has no fixed length).

The goal fixes the end of the point chain. For a full pose, the last joint frame has to sit at
``T_target * inverse(T_last_joint_to_tip)``, which fixes the last joint point ``X_{N-1}`` as
well as the tip ``X_N``: the orientation enters the point model the way the length relaxation
paper fixes the last segment from the target. For position only, or when a mimic joint moves
last, the tip alone is fixed.

Joint values are recovered from desired points by a sweep from the base to the tip: each joint
takes the value that best aligns every point beyond it (and, for a full pose, the tip frame's
axes) with their desired places, in closed form and clamped to its limits (see :mod:`.hinge`);
the points beyond it then move rigidly with it. The hinge axes, offsets and limits are thereby
enforced exactly: the recovered configuration is a real one. All functions are compiled.
"""

import math

import numpy as np

from .hinge import best_joint_value, NEGLIGIBLE_RELATIVE_AMPLITUDE, rotate_about_axis
from .hinge import sinusoid_coefficients
from .base import Option, over_relaxation
from .goal import orientation_vectors
from .layout import MODE_NONE, ORIENTATION_MODE
from .search import relaxation_gain
from ..kinematics.jit import compiled
from ..kinematics.kernels import ChainArrays, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['OVER_RELAXATION_OPTION', 'chain_points', 'fix_goal', 'recover_joint_values']

#: The option FABRIK and length relaxation share: how far their joint recovery over-relaxes.
OVER_RELAXATION_OPTION = Option(
    1.8, over_relaxation,
    'multiple of its optimal motion each joint takes when the joints are recovered from the '
    'points, in (0, 2), when the heuristic runs alone (polish=False)')


@compiled
def chain_points(chain: ChainArrays, frames: np.ndarray) -> tuple:
    """
    Return the points (N + 1, 3) of the current configuration and the segment lengths (N,).

    A segment whose far end is a prismatic joint has length NaN: it has no fixed length.
    """
    count = chain.joint_segment.shape[0]
    points = np.empty((count + 1, 3))
    for i in range(count):
        points[i] = frames[chain.joint_segment[i], :3, 3]
    points[count] = frames[-1, :3, 3]
    lengths = np.empty(count)
    for i in range(count):
        if i + 1 < count and chain.joint_prismatic[i + 1] != 0.0:
            lengths[i] = math.nan
        else:
            lengths[i] = math.sqrt(np.sum((points[i + 1] - points[i]) ** 2))
    return points, lengths


@compiled
def fix_goal(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
             points: np.ndarray) -> int:
    """
    Put the goal points in place in ``points``; return the index of the first fixed one.

    :param target: the effective goal (:func:`.goal.effective_goal`): in MODE_AXIS its
        rotation aims the tip axis with the least turn, which fixes the last joint point too.
    """
    count = points.shape[0] - 1
    points[count] = target[:3, 3]
    if settings[ORIENTATION_MODE] == MODE_NONE or not chain.tip_follows_last_joint:
        return count
    # The last joint's frame must sit at target @ inverse(tip offset).
    offset = chain.segments[-1]
    for row in range(3):
        total = target[row, 3]
        for k in range(3):
            back = 0.0
            for m in range(3):
                back += offset[m, k] * offset[m, 3]
            total -= target[row, k] * back
        points[count - 1, row] = total
    return count - 1


@compiled
def recover_joint_values(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
                         over_relaxation: float, q: np.ndarray, frames: np.ndarray,
                         desired: np.ndarray, radius: float) -> None:
    """
    Change ``q`` in place to the joint values whose points best match ``desired``.

    :param chain: the chain.
    :param target: (4, 4) the effective goal (:func:`.goal.effective_goal`); what of its
        rotation counts depends on the orientation mode (:func:`.goal.orientation_vectors`).
    :param settings: the search's settings (orientation mode, weight, finisher).
    :param over_relaxation: the heuristic's option; see :func:`.search.relaxation_gain`.
    :param q: (N,) current configuration.
    :param frames: forward kinematics of ``q`` (see ``kinematics.kernels.forward_frames``).
    :param desired: (N + 1, 3) desired points, m.
    :param radius: largest motion of a revolute joint, rad (prismatic ones: this times the
        chain's length, m).
    """
    count = q.shape[0]
    # Over-relaxing assumes the point model is exact, which it is not when a mimic joint
    # turns the tip after the last independent joint.
    gain = relaxation_gain(settings, over_relaxation) if chain.tip_follows_last_joint else 1.0
    points, _ = chain_points(chain, frames)
    axes = np.empty((count, 3))
    for i in range(count):
        axes[i] = frames[chain.joint_segment[i], :3, 2]
    tip_vectors, goal_vectors, orientation_weight = orientation_vectors(settings, frames[-1],
                                                                        target)
    slide = radius * chain.length_scale
    negligible = NEGLIGIBLE_RELATIVE_AMPLITUDE * chain.length_scale * chain.length_scale
    moment = np.empty((3, 3))
    no_vectors = np.empty((0, 3))
    origin = np.empty(3)
    for i in range(count):
        ux, uy, uz = axes[i, 0], axes[i, 1], axes[i, 2]
        origin[:] = points[i]
        lower = max(chain.joint_limits[i, LIMIT_LOWER], q[i] - radius)
        upper = min(chain.joint_limits[i, LIMIT_UPPER], q[i] + radius)
        if chain.joint_prismatic[i] != 0.0:
            shift = 0.0
            for k in range(i + 1, count + 1):
                shift += ((desired[k, 0] - points[k, 0]) * ux + (desired[k, 1] - points[k, 1]) * uy
                          + (desired[k, 2] - points[k, 2]) * uz)
            shift = min(max(shift / (count - i), -slide), slide)
            new = min(max(q[i] + shift, chain.joint_limits[i, LIMIT_LOWER]),
                      chain.joint_limits[i, LIMIT_UPPER])
            for k in range(i + 1, count + 1):
                points[k, 0] += (new - q[i]) * ux
                points[k, 1] += (new - q[i]) * uy
                points[k, 2] += (new - q[i]) * uz
            q[i] = new
            continue
        moment[:, :] = 0.0
        for k in range(i + 1, count + 1):
            for r in range(3):
                for c in range(3):
                    moment[r, c] += (points[k, r] - origin[r]) * (desired[k, c] - origin[c])
        for k in range(tip_vectors.shape[0]):
            for r in range(3):
                for c in range(3):
                    moment[r, c] += orientation_weight * tip_vectors[k, r] * goal_vectors[k, c]
        a, b = sinusoid_coefficients(ux, uy, uz, moment)
        new = best_joint_value(q[i], a, b, lower, upper, gain, negligible)
        if new != q[i]:
            rotate_about_axis(ux, uy, uz, new - q[i], origin, points[i + 1:], axes[i + 1:])
            rotate_about_axis(ux, uy, uz, new - q[i], origin, no_vectors, tip_vectors)
            q[i] = new
