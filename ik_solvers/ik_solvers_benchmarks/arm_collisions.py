# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
An exact collision check of a benchmark arm, built by the benchmark apart from the node's.

The arm's collision geometry from its URDF (a vendor arm's meshes found in example-robot-data)
and, for a vendor arm, its SRDF's disabled pairs: the same inputs the ik_node is given, in a
model of the benchmark's own.
"""

from pathlib import Path
from typing import Optional, Tuple

import numpy as np

from .collision_free_bench import SRDF_FILES
from ik_solvers.reach.named_robots import BenchRobot, load_robot
from ik_solvers.collision import CollisionModel, load_robot_geometry, parse_srdf
from ik_solvers.kinematics import Chain, RobotModel

__all__ = ['arm_collision_check', 'line_collisions']


def arm_collision_check(name: str) -> Tuple[BenchRobot, Chain, CollisionModel, Optional[str]]:
    """
    Load arm ``name`` and build its collision check.

    :returns: The robot, its chain, the check and the SRDF text (``None`` without one).
    :raises RobotModelError: The arm cannot be loaded.
    """
    robot = load_robot(name)
    model = RobotModel.from_urdf(robot.urdf_xml)
    chain = model.chain(robot.base_link, robot.tip_link)
    roots, srdf_xml = [], None
    if name in SRDF_FILES:
        robots_folder = Path(robot.source).parents[2]
        roots = [str(robots_folder.parents[1])]
        srdf_xml = (robots_folder / SRDF_FILES[name]).read_text(encoding='utf-8')
    geometry = load_robot_geometry(robot.urdf_xml, search_roots=roots)
    disabled = parse_srdf(srdf_xml) if srdf_xml is not None else None
    return robot, chain, CollisionModel(model, chain, geometry, disabled=disabled), srdf_xml


def line_collisions(check: CollisionModel, start: np.ndarray, end: np.ndarray,
                    samples: int) -> int:
    """
    Count the configurations in collision among ``samples`` evenly spaced on a straight line.

    :param samples: Configurations after ``start`` up to ``end`` included, >= 1.
    """
    count = 0
    for k in range(1, samples + 1):
        if check.check(start + (end - start) * (k / samples), stop_at_first=True).colliding:
            count += 1
    return count
