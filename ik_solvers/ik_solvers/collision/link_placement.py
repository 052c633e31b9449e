# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Where each link of a URDF sits relative to a chain: which chain joint moves it, and how.

A link below a moving joint of the chain is a constant offset from the frame of the last
such joint above it (joints off the chain, such as a gripper's fingers, held at the given
joint positions). Every other link (the base, a pedestal, a table, another arm) does not move
with the chain: its pose in the chain's base frame is fixed by the joint positions.
"""

from typing import Dict, FrozenSet, Iterable, Mapping, Set, Tuple

import numpy as np

from ..kinematics.kernels import forward_frames

__all__ = ['FIXED', 'adjacent_pairs', 'link_anchors']

# The row of a link that does not move with the chain.
FIXED = -1


def _rigid_inverse(transform: np.ndarray) -> np.ndarray:
    inverse = np.eye(4)
    inverse[:3, :3] = transform[:3, :3].T
    inverse[:3, 3] = -transform[:3, :3].T @ transform[:3, 3]
    return inverse


def link_anchors(robot_model, chain, links: Iterable[str],
                 joint_positions: Mapping[str, float]) -> Dict[str, Tuple[int, np.ndarray]]:
    """
    Anchor each link to the chain.

    :param robot_model: the :class:`ik_solvers.RobotModel` the chain was cut from.
    :param chain: the :class:`ik_solvers.Chain`.
    :param links: the links to anchor.
    :param joint_positions: rad or m for joints off the chain; missing ones count as 0, the
        chain's own joints are ignored.
    :returns: link -> ``(row, offset)``: ``row`` is the row of the chain's forward frames
        (see :func:`ik_solvers.kinematics.kernels.forward_frames`) the link follows, or
        :data:`FIXED`; ``offset`` (4, 4) is the link's pose in that frame (in the base frame
        for a fixed link).
    :raises RobotModelError: a link is unknown.
    :raises InvalidSeedError: a joint position is not a finite number.
    """
    path = robot_model.path(chain.base_link, chain.tip_link)
    segment_rows = {joint.name: row for row, joint in
                    enumerate(joint for joint in path if joint.is_moving)}
    positions = dict(joint_positions)
    for name in chain.joint_names:
        positions[name] = 0.0
    frames = np.empty((chain.arrays.segments.shape[0], 4, 4))
    forward_frames(chain.arrays, np.zeros(chain.num_joints), frames)
    links = list(links)
    poses = robot_model.transforms(chain.base_link, links, positions)
    anchors = {}
    for link in links:
        pose = poses[link]
        row = FIXED
        for joint in robot_model.path(robot_model.root_link, link):
            row = segment_rows.get(joint.name, row)
        if row == FIXED:
            anchors[link] = (FIXED, pose)
        else:
            anchors[link] = (row, _rigid_inverse(frames[row]) @ pose)
    return anchors


def adjacent_pairs(robot_model, links_with_geometry: Iterable[str]) -> Set[FrozenSet[str]]:
    """
    Return the parent-child pairs of links, which always touch at their joint.

    Links without collision geometry are skipped over: a hand fixed to an empty flange link is
    adjacent to the arm link above the flange.
    """
    having = set(links_with_geometry)
    pairs = set()
    parent_of = {}
    for name in robot_model.joint_names:
        joint = robot_model.joint(name)
        parent_of[joint.child] = joint.parent
    for link in having:
        parent = parent_of.get(link)
        while parent is not None:
            pairs.add(frozenset((link, parent)))
            if parent in having:
                break
            parent = parent_of.get(parent)
    return pairs
