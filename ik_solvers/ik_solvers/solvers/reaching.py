# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The two reaching passes FABRIK and Čejka's relaxation share, with hinges, as compiled kernels.

Both methods move the points of :mod:`.point_chain` (joint origins and the tip). On a chain of
free points the passes are the paper's: each point goes onto the line to its already placed
neighbour, at the segment's length (:func:`reach`). A URDF chain's joints are hinges (or
slides) with offsets, so each pass here places whole links, joint by joint, the way FABRIK's
constraint handling reorients each joint before it places the next point:

* :func:`reach_toward_base` (FABRIK's forward reaching): the last link is put at the goal,
  then each joint, from the tip toward the base, turns the link before it about its axis so
  that the link's near point comes nearest the line toward that point's former place;
* :func:`realise_joints` (FABRIK's backward reaching): from the base, each joint turns its own
  segment's far point nearest its place from the first pass; this sets the joint values.

On a planar chain of hinges (every axis perpendicular to the plane) a hinge can put its
neighbour anywhere on the circle of the segment's length, which holds the paper's point: both
passes then give the paper's points exactly.
"""

import math

import numpy as np

from .step_api import ignores_orientation, relaxation_gain
from .hinge import add_outer_product, best_turn, NEGLIGIBLE_RELATIVE_AMPLITUDE
from .hinge import sinusoid_coefficients, turn_rows
from .point_chain import axes_and_goal_vectors, slide_joint
from ..kinematics.jit import compiled
from ..kinematics.kernels import ChainArrays, LIMIT_LOWER, LIMIT_UPPER

__all__ = ['reach', 'reach_toward_base', 'realise_joints']

# A point nearer its joint's axis than this fraction of the chain's length does not move with
# the joint: the joint takes its value from the next point beyond it.
_ON_AXIS = 1e-9
# Two unit axes whose cross product's squared norm is below this are parallel.
_PARALLEL = 1e-18


@compiled(inline=True)
def reach(points: np.ndarray, moving: int, anchor: int, length: float) -> None:
    """Pull ``points[moving]`` onto the line from ``points[anchor]`` at ``length`` (m)."""
    if math.isnan(length):  # a sliding segment keeps its far point
        return
    dx = points[moving, 0] - points[anchor, 0]
    dy = points[moving, 1] - points[anchor, 1]
    dz = points[moving, 2] - points[anchor, 2]
    distance = math.sqrt(dx * dx + dy * dy + dz * dz)
    if distance == 0.0:  # no direction to keep: the point stays
        return
    scale = length / distance
    points[moving, 0] = points[anchor, 0] + dx * scale
    points[moving, 1] = points[anchor, 1] + dy * scale
    points[moving, 2] = points[anchor, 2] + dz * scale


@compiled(inline=True)
def _turn_about(rotation: np.ndarray, scratch: np.ndarray, ux: float, uy: float, uz: float,
                c: float, s: float) -> None:
    """
    Replace ``rotation`` (3, 3) by ``rotation @ R(u, angle)`` (Rodrigues), in place.

    ``c`` and ``s`` are the angle's cosine and sine: the callers know them without the angle.
    """
    k = 1.0 - c
    turn = scratch
    turn[0, 0], turn[1, 1], turn[2, 2] = c + k * ux * ux, c + k * uy * uy, c + k * uz * uz
    turn[0, 1], turn[1, 0] = k * ux * uy - s * uz, k * uy * ux + s * uz
    turn[0, 2], turn[2, 0] = k * ux * uz + s * uy, k * uz * ux - s * uy
    turn[1, 2], turn[2, 1] = k * uy * uz - s * ux, k * uz * uy + s * ux
    for r in range(3):
        a, b, d = rotation[r, 0], rotation[r, 1], rotation[r, 2]
        for col in range(3):
            rotation[r, col] = a * turn[0, col] + b * turn[1, col] + d * turn[2, col]


@compiled(inline=True)
def reach_toward_base(chain: ChainArrays, frames: np.ndarray, goal: np.ndarray,
                      settings: np.ndarray, q: np.ndarray, current: np.ndarray, points: np.ndarray,
                      fixed_from: int) -> None:
    """
    Place the links from the goal back to the base: FABRIK's forward reaching with hinges.

    The last link goes to the goal: when the goal has an orientation it takes the goal's
    rotation; otherwise the tip goes to the goal and the link turns by the least rotation that
    points its segment toward the last joint's former place (the paper's placement). Then,
    toward the base, joint ``j`` turns link ``j - 1`` about its axis (within its limits) to
    bring point ``j - 1`` nearest the line from the placed point ``j`` toward point ``j - 1``'s
    former place; a prismatic joint keeps its slide.

    :param frames: forward kinematics of ``q``.
    :param goal: (4, 4) the effective goal.
    :param settings: the search's settings (the orientation mode).
    :param q: (N,) the configuration of ``frames`` (read only: for the limits).
    :param current: (N + 1, 3) the points of ``q`` (:func:`.point_chain.chain_points`), m.
    :param points: (N + 1, 3) on entry, the goal's points from ``fixed_from`` on
        (:func:`.point_chain.fix_goal`) and the former places before it; on return, rows 1 to
        N hold the placed points (row 0, the base, is left as it was), m.
    :param fixed_from: what :func:`.point_chain.fix_goal` returned.
    """
    count = current.shape[0] - 1
    scratch = np.empty((2, 3, 3))
    rotation = scratch[0]
    tip = frames[-1]
    last = count - 1
    if not ignores_orientation(settings):
        for r in range(3):
            for c in range(3):
                rotation[r, c] = (goal[r, 0] * tip[c, 0] + goal[r, 1] * tip[c, 1]
                                  + goal[r, 2] * tip[c, 2])
        if fixed_from == count:  # a mimic joint moves last: the tip alone was fixed
            ax, ay, az = (current[last, 0] - current[count, 0],
                          current[last, 1] - current[count, 1],
                          current[last, 2] - current[count, 2])
            for r in range(3):
                points[last, r] = (rotation[r, 0] * ax + rotation[r, 1] * ay
                                   + rotation[r, 2] * az + points[count, r])
    else:
        for r in range(3):
            for c in range(3):
                rotation[r, c] = 1.0 if r == c else 0.0
        ax, ay, az = (current[last, 0] - current[count, 0], current[last, 1] - current[count, 1],
                      current[last, 2] - current[count, 2])
        bx, by, bz = (points[last, 0] - points[count, 0], points[last, 1] - points[count, 1],
                      points[last, 2] - points[count, 2])
        cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
        sine = math.sqrt(cx * cx + cy * cy + cz * cz)
        cosine = ax * bx + ay * by + az * bz
        if sine > 0.0:
            norm = math.sqrt(sine * sine + cosine * cosine)
            _turn_about(rotation, scratch[1], cx / sine, cy / sine, cz / sine, cosine / norm,
                        sine / norm)
        for r in range(3):
            points[last, r] = (rotation[r, 0] * ax + rotation[r, 1] * ay + rotation[r, 2] * az
                               + points[count, r])
    negligible = NEGLIGIBLE_RELATIVE_AMPLITUDE * chain.length_scale * chain.length_scale
    moment = scratch[1]
    for j in range(count - 1, 1, -1):
        vx = current[j - 1, 0] - current[j, 0]
        vy = current[j - 1, 1] - current[j, 1]
        vz = current[j - 1, 2] - current[j, 2]
        if chain.joint_prismatic[j] == 0.0:
            segment = chain.joint_segment[j]
            ux, uy, uz = frames[segment, 0, 2], frames[segment, 1, 2], frames[segment, 2, 2]
            # The former place, seen from the placed point, in the link's current frame.
            wx = points[j - 1, 0] - points[j, 0]
            wy = points[j - 1, 1] - points[j, 1]
            wz = points[j - 1, 2] - points[j, 2]
            dx = rotation[0, 0] * wx + rotation[1, 0] * wy + rotation[2, 0] * wz
            dy = rotation[0, 1] * wx + rotation[1, 1] * wy + rotation[2, 1] * wz
            dz = rotation[0, 2] * wx + rotation[1, 2] * wy + rotation[2, 2] * wz
            for r in range(3):
                for c in range(3):
                    moment[r, c] = 0.0
            add_outer_product(moment, vx, vy, vz, dx, dy, dz)
            a, b = sinusoid_coefficients(ux, uy, uz, moment)
            if a * a + b * b > negligible * negligible:
                # Turning link j - 1 by +t about the axis, link j held, is joint j at q - t.
                # The whole turn t = atan2(b, a) has cosine a / r and sine b / r; the angle
                # itself is needed only to clamp it to finite limits (a joint spanning a whole
                # turn is searched without limits, see _core/full_turns.py).
                lower = chain.joint_limits[j, LIMIT_LOWER]
                upper = chain.joint_limits[j, LIMIT_UPPER]
                value = q[j]
                if lower > -math.inf or upper < math.inf:
                    value -= math.atan2(b, a)
                if lower <= value <= upper:
                    norm = math.sqrt(a * a + b * b)
                    _turn_about(rotation, scratch[1], ux, uy, uz, a / norm, b / norm)
                else:
                    value = min(max(value, lower), upper)
                    _turn_about(rotation, scratch[1], ux, uy, uz, math.cos(q[j] - value),
                                math.sin(q[j] - value))
        for r in range(3):
            points[j - 1, r] = (rotation[r, 0] * vx + rotation[r, 1] * vy + rotation[r, 2] * vz
                                + points[j, r])


@compiled(inline=True)
def realise_joints(chain: ChainArrays, target: np.ndarray, settings: np.ndarray,
                   over_relaxation: float, q: np.ndarray, frames: np.ndarray,
                   points: np.ndarray, desired: np.ndarray, radius: float) -> None:
    """
    Set the joints one by one from the base, each from its own segment (FABRIK's backward pass).

    Joint ``i`` sits at ``points[i]``, which the joints before it have already placed. A hinge
    turns to the value that brings its own segment's far point nearest its desired place (the
    point of the circle it can reach nearest ``desired``; on a planar chain, the paper's point
    on the line to the desired successor at the segment's length). Its far point is
    ``points[i + 1]`` unless that lies on the joint's axis (a co-located joint, a link along
    the axis): then the first point beyond that the joint moves. A joint that moves no point
    (a wrist roll with the tip on its axis) aligns the tip frame's axes with the goal's
    instead, when the goal has an orientation, and stays otherwise.

    That is the paper's rule where the joints after a hinge all turn about parallel axes: they
    move in its plane and the next joints correct what it leaves, as on a planar chain. Where
    a later axis is not parallel (a shoulder before an elbow, a 3-D wrist), a hinge aiming its
    own short segment overshoots in a direction the later joints cannot undo, and the passes
    stall centimetres off (measured: docs/DECISIONS.md); such a hinge aligns every point
    beyond it, and the tip frame's axes for a goal with an orientation, at once, in closed form
    (its one-joint optimum, as in CCD and :func:`.point_chain.recover_joint_values`); so does
    every hinge when a mimic joint moves last, where the points do not tell the tip's pose.

    A prismatic joint slides by its far point's error along its axis. Limits and the trust
    ``radius`` clamp each joint; the points beyond turn with it.

    :param chain: the chain.
    :param target: (4, 4) the effective goal (:func:`._core.goal_kernels.effective_goal`).
    :param settings: the search's settings (orientation mode, weight, polish).
    :param over_relaxation: the heuristic's option; see :func:`._core.search.relaxation_gain`.
    :param q: (N,) current configuration, changed in place.
    :param frames: forward kinematics of ``q``.
    :param points: (N + 1, 3) the points of ``q`` (:func:`.point_chain.chain_points`), m;
        overwritten: they follow the joints as these are set.
    :param desired: (N + 1, 3) the desired points (after the forward pass), m.
    :param radius: largest motion of a revolute joint, rad (prismatic: times the length, m).
    """
    count = q.shape[0]
    gain = relaxation_gain(settings, over_relaxation)
    # One scratch array: the joint axes, the tip vectors, the goal vectors, the moment.
    work, vector_count, orientation_weight = axes_and_goal_vectors(
        chain, frames, target, settings, count)
    moment = work[count + 6:]
    slide = radius * chain.length_scale
    negligible = NEGLIGIBLE_RELATIVE_AMPLITUDE * chain.length_scale * chain.length_scale
    on_axis = (_ON_AXIS * chain.length_scale) ** 2
    # planar[i]: every joint after i is a hinge parallel to it. With a mimic joint moving
    # last the point model is not exact, and no joint is.
    planar = np.empty(count, dtype=np.bool_)
    planar[count - 1] = chain.tip_follows_last_joint
    for i in range(count - 2, -1, -1):
        ux, uy, uz = work[i, 0], work[i, 1], work[i, 2]
        vx, vy, vz = work[i + 1, 0], work[i + 1, 1], work[i + 1, 2]
        cx, cy, cz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
        planar[i] = (planar[i + 1] and chain.joint_prismatic[i + 1] == 0.0
                     and cx * cx + cy * cy + cz * cz < _PARALLEL)
    for i in range(count):
        ux, uy, uz = work[i, 0], work[i, 1], work[i, 2]
        if chain.joint_prismatic[i] != 0.0:
            shift = ((desired[i + 1, 0] - points[i + 1, 0]) * ux
                     + (desired[i + 1, 1] - points[i + 1, 1]) * uy
                     + (desired[i + 1, 2] - points[i + 1, 2]) * uz)
            slide_joint(chain, q, i, shift, slide, points, ux, uy, uz)
            continue
        ox, oy, oz = points[i, 0], points[i, 1], points[i, 2]
        for r in range(3):
            for c in range(3):
                moment[r, c] = 0.0
        own = False
        for k in range(i + 1, count + 1):
            vx, vy, vz = points[k, 0] - ox, points[k, 1] - oy, points[k, 2] - oz
            along = vx * ux + vy * uy + vz * uz
            if vx * vx + vy * vy + vz * vz - along * along > on_axis:
                add_outer_product(moment, vx, vy, vz, desired[k, 0] - ox, desired[k, 1] - oy,
                                  desired[k, 2] - oz)
                own = True
                if not planar[i]:
                    continue
                break
        for k in range(0 if own and planar[i] else vector_count):
            add_outer_product(moment, orientation_weight * work[count + k, 0],
                              orientation_weight * work[count + k, 1],
                              orientation_weight * work[count + k, 2], work[count + 3 + k, 0],
                              work[count + 3 + k, 1], work[count + 3 + k, 2])
        a, b = sinusoid_coefficients(ux, uy, uz, moment)
        lower = max(chain.joint_limits[i, LIMIT_LOWER], q[i] - radius)
        upper = min(chain.joint_limits[i, LIMIT_UPPER], q[i] + radius)
        new, cosine, sine = best_turn(q[i], a, b, lower, upper, gain, negligible)
        if new != q[i]:
            turn_rows(points, i + 1, count + 1, ux, uy, uz, cosine, sine, ox, oy, oz)
            turn_rows(work, i + 1, count + vector_count, ux, uy, uz, cosine, sine, 0.0, 0.0,
                      0.0)
            q[i] = new
