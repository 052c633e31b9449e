# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's drag without ROS: continuity and timing along a dragged path, per arm and solver.

Run ``python -m ik_solvers.benchmarks.drag``. Each arm starts where the demo starts it (the
middle of its limits, or ``--start zero``) and follows the demo's figure-eight of goals through
its start pose. Every goal is solved from the last commanded configuration, as the ik_node
does, with the node's default tolerances and timeout, and a solution that would move a joint
by more than ``max_joint_jump`` from the last command is refused, as the node refuses it. The
table gives the path goals reached and commanded, the largest joint change between two
consecutive commands, and the solve times.
"""

import argparse
import math
from typing import List, Optional, Sequence

import numpy as np

from .robots import bundled_robot_names, load_robot, vendor_robot_names
from ..demo.scripted_drag import figure_eight, start_configuration
from ..kinematics import Chain, RobotModel
from ..solvers import solve, SOLVERS

__all__ = ['DragFigures', 'drag', 'main']

# The node's defaults (config/ik_solvers.yaml).
_POSITION_TOLERANCE = 1e-4
_ORIENTATION_TOLERANCE = 1e-3
_TIMEOUT = 0.05
_MAX_JOINT_JUMP = 0.35


class DragFigures:
    """
    What one drag gave.

    :ivar commanded: path goals solved and within the jump bound.
    :ivar unsolved: path goals not reached within the tolerances.
    :ivar refused: path goals reached, but only by a jump larger than the bound.
    :ivar largest_jump: largest change of one joint between consecutive commands, rad or m.
    :ivar times: solve time of every goal, s.
    """

    def __init__(self) -> None:
        """Start with nothing counted."""
        self.commanded = 0
        self.unsolved = 0
        self.refused = 0
        self.largest_jump = 0.0
        self.times: List[float] = []


def drag(chain: Chain, start: np.ndarray, solver: str, *, goals: int = 300,
         max_joint_jump: float = _MAX_JOINT_JUMP) -> DragFigures:
    """
    Drag the chain's tip along the demo's figure-eight from ``start`` (rad or m).

    :returns: The figures of the drag.
    """
    figures = DragFigures()
    commanded = np.array(start, dtype=float)
    for goal in figure_eight(chain.fk(commanded), count=goals):
        result = solve(chain, goal, seed=commanded, solver=solver, timeout=_TIMEOUT,
                       position_tolerance=_POSITION_TOLERANCE,
                       orientation_tolerance=_ORIENTATION_TOLERANCE)
        figures.times.append(result.elapsed)
        if not result.success:
            figures.unsolved += 1
            continue
        jump = float(np.max(np.abs(result.q - commanded)))
        if max_joint_jump > 0.0 and jump > max_joint_jump:
            figures.refused += 1
            continue
        figures.commanded += 1
        figures.largest_jump = max(figures.largest_jump, jump)
        commanded = result.q
    return figures


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Print the drag table for the bundled and vendor arms."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--robots', nargs='+',
                        help='robots (default: the bundled 6- and 7-joint arms and the vendor '
                             'arms that are installed)')
    parser.add_argument('--start', default='mid',
                        help="'mid' (the default), 'zero', or comma-separated joint values")
    parser.add_argument('--goals', type=int, default=300)
    parser.add_argument('--max-joint-jump', type=float, default=_MAX_JOINT_JUMP,
                        help='rad; 0 commands every solution')
    arguments = parser.parse_args(argv)
    names = arguments.robots or [name for name in bundled_robot_names()
                                 if name in ('ur5_like', 'panda_like')] + vendor_robot_names()
    print('%d goals from the start %s, max_joint_jump %.2f rad; times in ms'
          % (arguments.goals, arguments.start, arguments.max_joint_jump))
    print('%-13s %-19s %10s %9s %8s %9s %8s %8s' % (
        'robot', 'solver', 'commanded', 'unsolved', 'refused', 'jump deg', 'median', 'p95'))
    for name in names:
        robot = load_robot(name)
        chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
        start = start_configuration(chain, arguments.start)
        for solver in SOLVERS:
            figures = drag(chain, start, solver, goals=arguments.goals,
                           max_joint_jump=arguments.max_joint_jump)
            print('%-13s %-19s %6d/%-3d %9d %8d %9.1f %8.3f %8.3f' % (
                name, solver, figures.commanded, arguments.goals, figures.unsolved,
                figures.refused, math.degrees(figures.largest_jump),
                1e3 * float(np.median(figures.times)),
                1e3 * float(np.percentile(figures.times, 95))))


if __name__ == '__main__':
    main()
