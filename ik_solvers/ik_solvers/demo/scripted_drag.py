# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The scripted "drag": what a user's hand on the RViz goal marker would produce.

A smooth closed figure-eight through the tip's start pose while the tool tilts back and forth,
followed by a few goals far out of reach, as when the user pulls the marker away from the arm.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

import numpy as np
import transforms3d

from ..exceptions import IKError

__all__ = ['ScriptedGoal', 'figure_eight', 'moved_toward_base', 'out_of_reach',
           'scripted_drag', 'start_configuration']


@dataclass(frozen=True)
class ScriptedGoal:
    """One goal of the drag: a 4x4 pose in the base frame, and whether it can be reached."""

    pose: np.ndarray
    reachable: bool


def figure_eight(
    start: np.ndarray,
    *,
    count: int,
    width: float = 0.24,
    height: float = 0.14,
    depth: float = -0.06,
    tilt: float = math.radians(20.0),
) -> list[np.ndarray]:
    """
    Poses along a closed figure-eight that starts and ends at ``start``.

    :param start: 4x4 start pose in the base frame (the tip's pose).
    :param count: number of poses, >= 2.
    :param width: extent of the eight along the base y axis, in metres.
    :param height: extent along the base z axis, in metres.
    :param depth: extent along the base x axis, in metres; negative brings the +y lobe toward
        the base (the default keeps the bundled 7-DOF arm's path well inside its reach).
    :param tilt: largest rotation of the tool away from its start orientation, in radians,
        about the base y and then the base x axis.
    :raises ValueError: ``count`` < 2, or ``start`` is not a finite 4x4 transform.
    """
    start = np.asarray(start, dtype=float)
    if start.shape != (4, 4) or not np.all(np.isfinite(start)):
        raise ValueError('start must be a finite 4x4 transform')
    if count < 2:
        raise ValueError('a path needs at least 2 poses, got %d' % count)
    poses = []
    for phase in np.linspace(0.0, 2.0 * math.pi, count):
        pose = start.copy()
        pose[:3, 3] += (0.5 * depth * math.sin(phase),
                        0.5 * width * math.sin(phase),
                        0.5 * height * math.sin(2.0 * phase))
        pitch = tilt * math.sin(phase)
        roll = 0.5 * tilt * math.sin(2.0 * phase)
        tilt_matrix = transforms3d.euler.euler2mat(roll, pitch, 0.0, 'sxyz')
        pose[:3, :3] = tilt_matrix @ start[:3, :3]
        poses.append(pose)
    return poses


def moved_toward_base(chain, q: np.ndarray, distance: float) -> np.ndarray:
    """
    Return the tip pose at ``q`` moved ``distance`` toward the base, its orientation kept.

    "Toward the base" is toward the base frame's origin within the plane of the shoulder: the
    component along the second joint's axis (a shoulder pitch on UR and Panda arms) is left
    out. A UR tip keeps its lateral offset from that plane in every configuration, so moving it
    straight at the origin would leave the reachable space; within the plane it stays inside.
    The drag's figure-eight centred there (``figure_eight(moved_toward_base(...))``) lies
    within reach from any start, whatever the start itself can follow.

    :param chain: the chain.
    :param q: (N,) configuration, rad or m.
    :param distance: m, how far the pose moves.
    :returns: The moved 4x4 pose in the base frame.
    """
    poses = chain.poses(q)
    tip = poses[-1].copy()
    direction = -tip[:3, 3]
    if chain.num_joints >= 2:
        axis = poses[1, :3, 2]
        direction = direction - float(direction @ axis) * axis
    length = float(np.linalg.norm(direction))
    if length > 1e-9:
        tip[:3, 3] += distance * direction / length
    return tip


def out_of_reach(start: np.ndarray, *, count: int, reach: float) -> list[np.ndarray]:
    """
    Poses at twice ``reach`` from the base origin, fanned around the start direction.

    :param start: 4x4 start pose; its orientation is kept.
    :param count: number of poses.
    :param reach: an upper bound of the arm's reach in metres (sum of link lengths).
    """
    direction = np.asarray(start, dtype=float)[:3, 3].copy()
    direction[2] = 0.0
    if np.linalg.norm(direction) < 1e-9:
        direction = np.array([1.0, 0.0, 0.0])
    heading = math.atan2(direction[1], direction[0])
    poses = []
    for k in range(count):
        angle = heading + math.radians(30.0) * (k - 0.5 * (count - 1))
        pose = np.array(start, dtype=float)
        pose[:3, 3] = 2.0 * reach * np.array(
            [math.cos(angle), math.sin(angle), 0.25 + 0.1 * k])
        poses.append(pose)
    return poses


def scripted_drag(
    start: np.ndarray,
    *,
    path_length: int,
    unreachable: int,
    reach: float,
) -> list[ScriptedGoal]:
    """
    Build the whole drag: ``path_length`` reachable poses, then ``unreachable`` ones.

    :raises ValueError: see :func:`figure_eight`.
    """
    goals = [ScriptedGoal(pose, True) for pose in figure_eight(start, count=path_length)]
    goals += [ScriptedGoal(pose, False)
              for pose in out_of_reach(start, count=unreachable, reach=reach)]
    return goals


def start_configuration(chain, start: str) -> np.ndarray:
    """
    Return the configuration named by ``start``: 'mid', 'zero', or N comma-separated values.

    Values outside the limits are clamped into them.

    :raises IKError: ``start`` is none of these, or holds the wrong number of values.
    """
    if start == 'mid':
        return chain.mid_configuration()
    if start == 'zero':
        return chain.clip(np.zeros(chain.num_joints))
    try:
        values = np.array([float(value) for value in start.split(',')])
    except ValueError:
        values = None
    if values is None or values.shape != (chain.num_joints,) or not np.isfinite(values).all():
        raise IKError("--start must be 'mid', 'zero' or %d comma-separated numbers (%s), got "
                      '%r' % (chain.num_joints, ', '.join(chain.joint_names), start))
    return chain.clip(values)
