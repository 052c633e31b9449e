# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Where each link of a URDF sits relative to a chain: which chain joint moves it, and how.

A link below a moving joint of the chain is a constant offset from the frame of the last
such joint above it (joints off the chain, such as a gripper's fingers, held at the given
joint positions). Every other link (the base, a pedestal, a table, another arm) does not move
with the chain: its pose in the chain's base frame is fixed by the joint positions.
"""

from typing import Dict, FrozenSet, Iterable, List, Mapping, Set, Tuple

import numpy as np

from ..exceptions import IKError
from ..kinematics.kernels import forward_frames

__all__ = ['FIXED', 'adjacent_pairs', 'LinkAnchors']

# The row of a link that does not move with the chain.
FIXED = -1


def _rigid_inverse(transform: np.ndarray) -> np.ndarray:
    inverse = np.eye(4)
    inverse[:3, :3] = transform[:3, :3].T
    inverse[:3, 3] = -transform[:3, :3].T @ transform[:3, 3]
    return inverse


class LinkAnchors:
    """
    Anchors of links to a chain at given positions of the joints off the chain.

    Which chain frame each link follows, the chain's frames at zero and the anchors of links
    that no joint off the chain moves are worked out once: a collision model placed again at
    each new position of another arm walks the description only for that arm's links.
    """

    def __init__(self, robot_model, chain, links: Iterable[str]) -> None:
        """
        Work out what does not depend on the joints off the chain.

        :param robot_model: the :class:`ik_solvers.RobotModel` the chain was cut from.
        :param chain: the :class:`ik_solvers.Chain`.
        :param links: the links to anchor.
        :raises RobotModelError: a link is unknown.
        """
        self._robot_model, self._chain = robot_model, chain
        path = robot_model.path(chain.base_link, chain.tip_link)
        segment_rows = {joint.name: row for row, joint in
                        enumerate(joint for joint in path if joint.is_moving)}
        self._links = list(links)
        self._rows: Dict[str, int] = {}
        for link in self._links:
            row = FIXED
            for joint in robot_model.path(robot_model.root_link, link):
                row = segment_rows.get(joint.name, row)
            self._rows[link] = row
        frames = np.empty((chain.arrays.segments.shape[0], 4, 4))
        forward_frames(chain.arrays, np.zeros(chain.num_joints), frames)
        self._inverse_frames = [_rigid_inverse(frame) for frame in frames]
        own = set(chain.joint_names)

        def moved_by_others(link: str) -> bool:
            # A joint of the chain (or a mimic of one) is held at zero for the anchors.
            return any(joint.is_moving and robot_model.resolve_mimic(joint.name).leader not in own
                       for joint in robot_model.path(robot_model.root_link, link))

        if moved_by_others(chain.base_link):
            self._varying = list(self._links)
        else:
            self._varying = [link for link in self._links if moved_by_others(link)]
        constant = [link for link in self._links if link not in set(self._varying)]
        self._constant = self._anchored(constant, {})
        self._walked = list(self._varying)
        self._by_chain: List[Tuple[object, Dict[str, Tuple[int, np.ndarray]]]] = []
        if not moved_by_others(chain.base_link):
            self._by_other_chains(own)

    def _by_other_chains(self, own: Set[str]) -> None:
        # A link that another chain's joints move (an arm of a tree, seen from the other arm)
        # is placed by the compiled forward kinematics of a chain from this base down to it,
        # which also places the links above it: a walk of the description per link and per
        # placement costs ten times more.
        model, base = self._robot_model, self._chain.base_link
        walked = []
        for link in sorted(self._walked, key=lambda name: -len(model.path(model.root_link, name))):
            if any(link in covered for _, covered in self._by_chain):
                continue
            try:
                path = model.path(base, link)
                other = model.chain(base, link)
            except IKError:
                walked.append(link)
                continue
            if any(joint.is_moving and joint.mimic is not None for joint in path):
                walked.append(link)  # the chain's variables would not be the joints' own
                continue
            below = {joint.child for joint in path}
            covered = [name for name in self._walked if name in below]
            self._by_chain.append((other, LinkAnchors(model, other, covered).at({})))
        self._walked = walked

    def row(self, link: str) -> int:
        """Return the row of the chain's forward frames ``link`` follows, or :data:`FIXED`."""
        return self._rows[link]

    def at(self, joint_positions: Mapping[str, float]) -> Dict[str, Tuple[int, np.ndarray]]:
        """
        Anchor each link at ``joint_positions``.

        :param joint_positions: rad or m for joints off the chain; missing ones count as 0, the
            chain's own joints are ignored.
        :returns: link -> ``(row, offset)``: ``row`` is the row of the chain's forward frames
            (see :func:`ik_solvers.kinematics.kernels.forward_frames`) the link follows, or
            :data:`FIXED`; ``offset`` (4, 4) is the link's pose in that frame (in the base
            frame for a fixed link).
        :raises InvalidSeedError: a joint position is not a finite number.
        """
        anchors = dict(self._constant)
        anchors.update(self._anchored(self._walked, joint_positions))
        own = set(self._chain.joint_names)
        for other, on_other in self._by_chain:
            q = np.array([0.0 if name in own
                          else self._robot_model.joint_value(name, joint_positions)
                          for name in other.joint_names])
            frames = np.empty((other.arrays.segments.shape[0], 4, 4))
            forward_frames(other.arrays, q, frames)
            for link, (row, offset) in on_other.items():
                pose = offset if row == FIXED else frames[row] @ offset
                anchor_row = self._rows[link]
                anchors[link] = ((FIXED, pose) if anchor_row == FIXED else
                                 (anchor_row, self._inverse_frames[anchor_row] @ pose))
        return anchors

    def _anchored(self, links, joint_positions: Mapping[str, float]
                  ) -> Dict[str, Tuple[int, np.ndarray]]:
        if not links:
            return {}
        positions = dict(joint_positions)
        for name in self._chain.joint_names:
            positions[name] = 0.0
        poses = self._robot_model.transforms(self._chain.base_link, links, positions)
        anchors = {}
        for link in links:
            row = self._rows[link]
            anchors[link] = ((FIXED, poses[link]) if row == FIXED else
                             (row, self._inverse_frames[row] @ poses[link]))
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
