# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
FABRIK (Aristidou and Lasenby 2011) made real for URDF chains.

The chain is seen as the points of :mod:`.point_chain`: joint origins, each on its own hinge
axis, and the tip, with constant distances between neighbours. One iteration:

1. Forward kinematics of the current configuration gives the points, so that every offset of
   the URDF (joints that do not sit where the previous link ends, co-located joints, a tool
   offset) is respected.
2. Backward reaching: the goal points are put in place (the tip, and for a full pose or an
   aimed tool axis the last joint point derived from the effective goal pose and the last
   segment's constant transform, which is how the end-effector orientation enters); walking
   toward the base, each point is pulled onto the line to its already placed neighbour at the
   segment's length.
3. Forward reaching: the first point goes back to the base, and walking toward the tip, each
   point is pulled onto the line from its placed neighbour at the segment's length.
4. The joint values are recovered from the points (see :func:`.point_chain.recover_joint_values`),
   which enforces each joint's axis and limits.

Segments that end at a prismatic joint have no fixed length: the passes leave their far point
where it is, and the recovery finds the slide.
"""

import math

import numpy as np

from .base import Solver
from .point_chain import (
    chain_points,
    fix_goal,
    OVER_RELAXATION_OPTION,
    recover_joint_values,
)
from .search import run_search
from ..kinematics.jit import compiled

__all__ = ['FABRIKSolver']

_OVER_RELAXATION = 0


@compiled(inline=True)
def _reach(points: np.ndarray, moving: int, anchor: int, length: float) -> None:
    """Pull ``points[moving]`` onto the line from ``points[anchor]`` at ``length``."""
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


@compiled
def fabrik_step(chain, target, goal, settings, options, q, frames, error, radius,
                memory) -> None:
    """One backward and forward pass, then joint recovery; see :func:`.search.run_search`."""
    count = q.shape[0]
    # The current points (which the recovery then turns) and the desired ones, side by side.
    both = np.empty((2, count + 1, 3))
    current, points = both[0], both[1]
    lengths = np.empty(count)
    chain_points(chain, frames, current, lengths)
    for j in range(count + 1):
        for r in range(3):
            points[j, r] = current[j, r]
    fixed_from = fix_goal(chain, goal, settings, points)
    for j in range(fixed_from - 1, -1, -1):
        _reach(points, j, j + 1, lengths[j])
    for r in range(3):
        points[0, r] = current[0, r]  # the base does not move
    for j in range(count):
        _reach(points, j + 1, j, lengths[j])
    recover_joint_values(chain, goal, settings, options[_OVER_RELAXATION], q, frames,
                         current, points, radius)


@compiled
def fabrik_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with FABRIK iterations; see :func:`.search.run_search`."""
    run_search(fabrik_step, chain, target, settings, options, q, report)


class FABRIKSolver(Solver):
    """Forward and backward reaching on the hinge chain's points."""

    name = 'fabrik'
    own_options = {
        'over_relaxation': OVER_RELAXATION_OPTION,
    }
    iterations_alone = 1000
    stall_iterations = 10
    trust_region = 1.0
    search = staticmethod(fabrik_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack the over-relaxation; see :meth:`Solver.pack_options`."""
        return np.array([self.options['over_relaxation']])
