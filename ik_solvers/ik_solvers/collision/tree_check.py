# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Self-collision of a tree of several tips: each tip's branch, the rest of the robot as posed.

A :class:`CollisionModel` checks one chain against everything else of the description, whose
joints off the chain it holds at given positions. For a tree (two arms on a torso) every
branch is checked with the other branches posed as the same configuration puts them, so that
one hand against the other arm counts.
"""

from typing import Sequence

import numpy as np

from .model import CollisionModel
from .robot_geometry import RobotGeometry
from ..kinematics import RobotModel
from ..kinematics.tree import KinematicTree

__all__ = ['TreeCollisionCheck']


class TreeCollisionCheck:
    """Checks every branch of a tree at one configuration of all its joints."""

    def __init__(self, model: RobotModel, tree: KinematicTree, geometry: RobotGeometry) -> None:
        """
        Build one collision model per branch.

        :param model: The description the tree was cut from.
        :param tree: The tree.
        :param geometry: The description's collision geometry (:func:`load_robot_geometry`).
        """
        self._tree = tree
        self._models = [CollisionModel(model, chain, geometry) for chain in tree.chains]

    def colliding(self, q: Sequence[float]) -> bool:
        """
        Tell whether any branch collides at ``q`` (N,), rad or m, one value per tree joint.

        :raises InvalidSeedError: a value is not finite (from the collision model).
        """
        q = np.asarray(q, dtype=float)
        named = dict(zip(self._tree.joint_names, q.tolist()))
        for chain, variables, model in zip(self._tree.chains, self._tree.tip_variables,
                                           self._models):
            others = {name: value for name, value in named.items()
                      if name not in chain.joint_names}
            if model.with_joint_positions(others).check(q[variables],
                                                        stop_at_first=True).colliding:
                return True
        return False
