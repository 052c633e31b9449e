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

FABRIK and Čejka's relaxation set the joints one by one as their passes go (:mod:`.reaching`).
The former recovery (:func:`recover_joint_values`, kept as an option of both) is a sweep from
the base to the tip in which each joint takes the value that best aligns every point beyond
it (and, for a full pose, the tip frame's axes) with their desired places, in closed form and
clamped to its limits (see :mod:`.hinge`); the points beyond it then move rigidly with it. The
hinge axes, offsets and limits are thereby enforced exactly: the recovered configuration is a
real one. All functions are compiled, and inlined into the steps that call them.
"""

import math

import numpy as np

from .hinge import best_turn, NEGLIGIBLE_RELATIVE_AMPLITUDE, sinusoid_coefficients
from .hinge import add_outer_product, turn_rows
from .base import Option, over_relaxation
from .step_api import ignores_orientation, orientation_vectors, relaxation_gain
from ..kinematics.jit import compiled
from ..kinematics.kernels import ChainArrays, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['OVER_RELAXATION_OPTION', 'axes_and_goal_vectors', 'chain_points', 'fix_goal',
           'recover_joint_values', 'slide_joint']

#: The option FABRIK and length relaxation share: how far their joint recovery over-relaxes.
OVER_RELAXATION_OPTION = Option(
    1.0, over_relaxation,
    'multiple of its optimal motion each joint takes when the joints are recovered from the '
    'points, in (0, 2), when the heuristic runs alone (polish=False)')


@compiled(inline=True)
def chain_points(chain: ChainArrays, frames: np.ndarray, points: np.ndarray,
                 lengths: np.ndarray) -> None:
    """
    Write the points of the configuration of ``frames`` and the lengths between them.

    :param frames: forward kinematics of the configuration.
    :param points: (N + 1, 3) output: the joint points, then the tip, m.
    :param lengths: (N,) output: the segment lengths, m; NaN for a segment whose far end is a
        prismatic joint (it has no fixed length).
    """
    count = chain.joint_segment.shape[0]
    for i in range(count):
        segment = chain.joint_segment[i]
        for r in range(3):
            points[i, r] = frames[segment, r, 3]
    for r in range(3):
        points[count, r] = frames[-1, r, 3]
    for i in range(count):
        if i + 1 < count and chain.joint_prismatic[i + 1] != 0.0:
            lengths[i] = math.nan
        else:
            dx = points[i + 1, 0] - points[i, 0]
            dy = points[i + 1, 1] - points[i, 1]
            dz = points[i + 1, 2] - points[i, 2]
            lengths[i] = math.sqrt(dx * dx + dy * dy + dz * dz)


@compiled(inline=True)
def fix_goal(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
             points: np.ndarray) -> int:
    """
    Put the goal points in place in ``points``; return the index of the first fixed one.

    :param target: the effective goal (:func:`._core.goal_kernels.effective_goal`): in
        MODE_AXIS its rotation aims the tip axis with the least turn, which fixes the last joint
        point too.
    """
    count = points.shape[0] - 1
    # Element by element, without the views a slice assignment makes.
    for row in range(3):
        points[count, row] = target[row, 3]
    if ignores_orientation(settings) or not chain.tip_follows_last_joint:
        return count
    # The last joint's frame must sit at target @ inverse(tip offset).
    segments = chain.segments
    last = segments.shape[0] - 1  # the tip offset
    for row in range(3):
        total = target[row, 3]
        for k in range(3):
            back = 0.0
            for m in range(3):
                back += segments[last, m, k] * segments[last, m, 3]
            total -= target[row, k] * back
        points[count - 1, row] = total
    return count - 1


@compiled(inline=True)
def slide_joint(chain: ChainArrays, q: np.ndarray, i: int, shift: float, slide: float,
                points: np.ndarray, ux: float, uy: float, uz: float) -> None:
    """
    Move prismatic joint ``i`` by ``shift``, at most ``slide`` and within its limits (m).

    The points beyond the joint (rows ``i + 1`` on of ``points``) follow it along its axis
    ``(ux, uy, uz)``; ``q[i]`` is changed in place.
    """
    shift = min(max(shift, -slide), slide)
    new = min(max(q[i] + shift, chain.joint_limits[i, LIMIT_LOWER]),
              chain.joint_limits[i, LIMIT_UPPER])
    for k in range(i + 1, points.shape[0]):
        points[k, 0] += (new - q[i]) * ux
        points[k, 1] += (new - q[i]) * uy
        points[k, 2] += (new - q[i]) * uz
    q[i] = new


@compiled(inline=True)
def axes_and_goal_vectors(chain: ChainArrays, frames: np.ndarray, target: np.ndarray,
                          settings: np.ndarray, count: int):
    """
    Return the joint recovery's one scratch array, filled, and the goal's vector count.

    :returns: ``(work, vector_count, orientation_weight)``: ``work`` is (count + 9, 3) with the
        joint axes in rows 0..count-1 (base frame), the tip vectors and the goal vectors of
        :func:`._core.goal_kernels.orientation_vectors` in the next 3 + 3 rows, and 3 free rows
        (the moment); the tip vectors come right after the axes so that one call turns both.
    """
    work = np.empty((count + 9, 3))
    for i in range(count):
        segment = chain.joint_segment[i]
        for r in range(3):
            work[i, r] = frames[segment, r, 2]
    vector_count, orientation_weight = orientation_vectors(
        settings, frames[-1], target, work[count:count + 3], work[count + 3:count + 6])
    return work, vector_count, orientation_weight


@compiled(inline=True)
def recover_joint_values(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
                         over_relaxation: float, q: np.ndarray, frames: np.ndarray,
                         points: np.ndarray, desired: np.ndarray, radius: float) -> None:
    """
    Change ``q`` in place to the joint values whose points best match ``desired``.

    :param chain: the chain.
    :param target: (4, 4) the effective goal (:func:`._core.goal_kernels.effective_goal`); what
        of its rotation counts depends on the orientation mode
        (:func:`._core.goal_kernels.orientation_vectors`).
    :param settings: the search's settings (orientation mode, weight, polish).
    :param over_relaxation: the heuristic's option; see :func:`._core.search.relaxation_gain`.
    :param q: (N,) current configuration.
    :param frames: forward kinematics of ``q`` (see ``kinematics.kernels.forward_frames``).
    :param points: (N + 1, 3) the points of ``q`` (:func:`chain_points`), m; overwritten: they
        follow the joints as these are recovered.
    :param desired: (N + 1, 3) desired points, m.
    :param radius: largest motion of a revolute joint, rad (prismatic ones: this times the
        chain's length, m).
    """
    count = q.shape[0]
    # Over-relaxing assumes the point model is exact, which it is not when a mimic joint
    # turns the tip after the last independent joint.
    gain = relaxation_gain(settings, over_relaxation) if chain.tip_follows_last_joint else 1.0
    # One scratch array: the joint axes, then the tip vectors (so that a joint turns the axes
    # beyond it and the tip vectors in one call), the goal vectors, and the moment.
    work, vector_count, orientation_weight = axes_and_goal_vectors(
        chain, frames, target, settings, count)
    moment = work[count + 6:]
    slide = radius * chain.length_scale
    negligible = NEGLIGIBLE_RELATIVE_AMPLITUDE * chain.length_scale * chain.length_scale
    for i in range(count):
        ux, uy, uz = work[i, 0], work[i, 1], work[i, 2]
        lower = max(chain.joint_limits[i, LIMIT_LOWER], q[i] - radius)
        upper = min(chain.joint_limits[i, LIMIT_UPPER], q[i] + radius)
        if chain.joint_prismatic[i] != 0.0:
            shift = 0.0
            for k in range(i + 1, count + 1):
                shift += ((desired[k, 0] - points[k, 0]) * ux + (desired[k, 1] - points[k, 1]) * uy
                          + (desired[k, 2] - points[k, 2]) * uz)
            slide_joint(chain, q, i, shift / (count - i), slide, points, ux, uy, uz)
            continue
        # Row i, the joint's own point, lies on its axis: it does not move below.
        ox, oy, oz = points[i, 0], points[i, 1], points[i, 2]
        for r in range(3):
            for c in range(3):
                moment[r, c] = 0.0
        for k in range(i + 1, count + 1):
            add_outer_product(moment, points[k, 0] - ox, points[k, 1] - oy, points[k, 2] - oz,
                              desired[k, 0] - ox, desired[k, 1] - oy, desired[k, 2] - oz)
        for k in range(vector_count):
            add_outer_product(moment, orientation_weight * work[count + k, 0],
                              orientation_weight * work[count + k, 1],
                              orientation_weight * work[count + k, 2], work[count + 3 + k, 0],
                              work[count + 3 + k, 1], work[count + 3 + k, 2])
        a, b = sinusoid_coefficients(ux, uy, uz, moment)
        new, cosine, sine = best_turn(q[i], a, b, lower, upper, gain, negligible)
        if new != q[i]:
            turn_rows(points, i + 1, count + 1, ux, uy, uz, cosine, sine, ox, oy, oz)
            turn_rows(work, i + 1, count + vector_count, ux, uy, uz, cosine, sine, 0.0, 0.0,
                      0.0)
            q[i] = new
