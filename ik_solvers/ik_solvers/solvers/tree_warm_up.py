# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Compiling (or loading from the disk cache) the tree solvers before their first request.

A tree's kernels are compiled on first use like a chain's: about a minute the first time
ever on a 2-core machine, well under a second to load afterwards. The setup compiles them once
after a build (``ik_solvers_setup``), so that a node's first SolveIK with several tips does not
spend its deadline compiling.
"""

import time
from typing import Iterable

from .tree_goals import TipGoal
from .tree_solve import solve_tree, TREE_SOLVERS, TreeOptions
from ..kinematics import RobotModel
from ..kinematics.tree import KinematicTree

__all__ = ['warm_up_trees']

# Two branches of two hinges on a shared hinge: every pass of the tree heuristics has a sub-base.
_TINY_TREE_URDF = """<robot name="tiny_tree">
  <link name="base"/><link name="trunk"/><link name="left_upper"/><link name="left_tip"/>
  <link name="right_upper"/><link name="right_tip"/>
  <joint name="waist" type="revolute"><parent link="base"/><child link="trunk"/>
    <axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="left_shoulder" type="revolute"><parent link="trunk"/><child link="left_upper"/>
    <origin xyz="0 0.2 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="left_elbow" type="revolute"><parent link="left_upper"/><child link="left_tip"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="right_shoulder" type="revolute"><parent link="trunk"/><child link="right_upper"/>
    <origin xyz="0 -0.2 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="right_elbow" type="revolute"><parent link="right_upper"/><child link="right_tip"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
</robot>"""


def warm_up_trees(solvers: Iterable[str] = tuple(TREE_SOLVERS)) -> float:
    """
    Compile, or load from the disk cache, the tree search of each named solver.

    Each solver solves one small two-tip tree with the polish and alone; whether it meets the
    goals does not matter, only that every kernel it calls has run once.

    :param solvers: names from :data:`.tree_solve.TREE_SOLVERS` (default: all four).
    :returns: The time it took, s.
    :raises UnknownSolverError: a name is not a tree solver.
    """
    started = time.perf_counter()
    tree = KinematicTree(RobotModel.from_urdf(_TINY_TREE_URDF), 'base',
                         ['left_tip', 'right_tip'])
    poses = tree.fk(tree.mid_configuration() + 0.1)
    goals = [TipGoal('left_tip', poses[0]), TipGoal('right_tip', poses[1])]
    for solver in solvers:
        for polish in (True, False):
            solve_tree(tree, goals, solver, seed=tree.mid_configuration(),
                       options=TreeOptions(timeout=120.0, polish=polish, max_attempts=1))
    return time.perf_counter() - started
