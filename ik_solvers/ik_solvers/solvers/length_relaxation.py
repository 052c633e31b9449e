# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Length relaxation after Cejka, generalised to 3-D URDF chains with hinge axes and limits.

The chain is seen as the points of :mod:`.point_chain`. Instead of FABRIK's sequential passes,
every segment is relaxed at once, like springs settling: one iteration

1. takes the points from the forward kinematics of the current configuration;
2. fixes the end of the chain from the effective goal: the tip and, for a full pose or an
   aimed tool axis, the last joint point from the goal pose times the inverse of the last
   segment's constant transform; the base point stays where it is;
3. relaxes lengths for a few sweeps: each segment whose length differs from its true one
   pushes or pulls its two end points along itself, half each, or all on the free end when
   the other is fixed; all segments are corrected simultaneously from the same positions;
4. recovers the joint values (see :func:`.point_chain.recover_joint_values`).

Segments ending at a prismatic joint have no fixed length and are not relaxed.
"""

import math

import numpy as np

from .base import Option, positive_integer, Solver
from .point_chain import (
    chain_points,
    fix_goal,
    OVER_RELAXATION_OPTION,
    recover_joint_values,
)
from .search import run_search
from ..kinematics.jit import compiled

__all__ = ['LengthRelaxationSolver']

_SWEEPS = 0
_OVER_RELAXATION = 1


@compiled
def length_relaxation_step(chain, target, goal, settings, options, q, frames, error, radius,
                           memory) -> None:
    """Relax the segment lengths, then recover the joints; see :func:`.search.run_search`."""
    count = q.shape[0]
    # The current points (which the recovery then turns), the desired ones, and the
    # corrections of the segments (the first N rows), side by side. Element loops: temporary
    # 3-vectors would cost more than their arithmetic.
    work = np.empty((3, count + 1, 3))
    current, points, corrections = work[0], work[1], work[2]
    lengths = np.empty(count)
    chain_points(chain, frames, current, lengths)
    for j in range(count + 1):
        for r in range(3):
            points[j, r] = current[j, r]
    fixed_from = fix_goal(chain, goal, settings, points)
    for _ in range(int(options[_SWEEPS])):
        for j in range(count):
            for r in range(3):
                corrections[j, r] = 0.0
            if math.isnan(lengths[j]):
                continue
            dx = points[j + 1, 0] - points[j, 0]
            dy = points[j + 1, 1] - points[j, 1]
            dz = points[j + 1, 2] - points[j, 2]
            distance = math.sqrt(dx * dx + dy * dy + dz * dz)
            if distance > 0.0:
                scale = (distance - lengths[j]) / distance
                corrections[j, 0] = dx * scale
                corrections[j, 1] = dy * scale
                corrections[j, 2] = dz * scale
        # All segments move from the same positions: a simultaneous update.
        for j in range(count):
            near_fixed = j == 0 or j >= fixed_from
            far_fixed = j + 1 >= fixed_from
            if near_fixed and far_fixed:
                continue
            for r in range(3):
                if near_fixed:
                    points[j + 1, r] -= corrections[j, r]
                elif far_fixed:
                    points[j, r] += corrections[j, r]
                else:
                    points[j, r] += 0.5 * corrections[j, r]
                    points[j + 1, r] -= 0.5 * corrections[j, r]
    recover_joint_values(chain, goal, settings, options[_OVER_RELAXATION], q, frames,
                         current, points, radius)


@compiled
def length_relaxation_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with relaxation iterations; see :func:`.search.run_search`."""
    run_search(length_relaxation_step, chain, target, settings, options, q, report)


class LengthRelaxationSolver(Solver):
    """Simultaneous relaxation of segment lengths, then joint recovery."""

    name = 'length_relaxation'
    own_options = {
        'relaxation_sweeps': Option(2, positive_integer,
                                    'length relaxation sweeps between two joint recoveries'),
        'over_relaxation': OVER_RELAXATION_OPTION,
    }
    iterations_alone = 1000
    stall_iterations = 10
    trust_region = 1.0
    search = staticmethod(length_relaxation_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack the sweep count; see :meth:`Solver.pack_options`."""
        return np.array([float(self.options['relaxation_sweeps']),
                         self.options['over_relaxation']])
