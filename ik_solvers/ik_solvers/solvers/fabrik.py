# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
FABRIK (Aristidou and Lasenby 2011) on the points of a URDF chain.

The chain is seen as the points of :mod:`.point_chain`: joint origins, each on its own hinge
axis, and the tip, with constant distances between neighbours. One iteration is the paper's:

1. Forward kinematics of the current configuration gives the points.
2. Forward reaching, from the tip to the base: the tip is put at the goal, and each point in
   turn on the line from it to its already placed successor, at the segment's length.
3. Backward reaching, from the base to the tip: the base is back at its place, and each joint
   in turn takes its value from its own segment (:func:`.point_chain.realise_joints`): it
   turns its segment's far point onto the line to that point's place from the forward pass.
   The configuration is realised joint by joint during the pass, the way FABRIK's constraint
   handling reorients each joint before it places the next point.

On a planar chain of hinges (axes perpendicular to the plane, every point off the previous
axis) step 3 puts each point exactly where the paper puts it, so the iterates are the paper's.

What the paper does not cover, and what this module does then (see docs/DECISIONS.md):

* **Offsets.** A hinge cannot put its far point anywhere on the sphere of its segment's length,
  only on a circle about its axis: it takes the point of that circle nearest the line (the
  paper's hinge constraint). A far point on the joint's own axis (co-located joints, a link
  along the axis) does not move with it: the joint takes its value from the next point beyond
  that does.
* **Orientation.** For a full pose, or an aimed tool axis, the forward pass starts from two
  fixed points, the tip and the last joint's origin (its frame must sit at the goal times the
  inverse of the tool's constant offset), and each hinge also aligns the tip frame's axes with
  the goal's, weighted by the orientation weight (as CCD does): a wrist roll, whose points lie
  on its axis, is set by the orientation alone.
* **Prismatic joints.** A segment ending at a prismatic joint has no fixed length: the forward
  pass leaves its far point where it is, and the joint slides by its far point's error along
  its axis.
* **Mimic joints** move with their leader through the next forward kinematics.
* **Limits and the trust region** clamp each joint as it is set.
* **Unreachable targets.** The paper stretches the chain toward them in one step; here the
  iterations themselves stretch it, and the search reports ``no_solution``.

``recovery='least_squares'`` keeps the former iteration: both passes on the points, then every
joint fitted to all points beyond it at once (:func:`.point_chain.recover_joint_values`).
"""

import math

import numpy as np

from .base import Option, Solver
from .point_chain import (
    chain_points,
    fix_goal,
    OVER_RELAXATION_OPTION,
    realise_joints,
    recover_joint_values,
)
from .search import run_search
from ..exceptions import InvalidSolverOptionError
from ..kinematics.jit import compiled

__all__ = ['FABRIKSolver']

_OVER_RELAXATION = 0
_RECOVERY = 1
_RECOVERIES = ('joint_by_joint', 'least_squares')


@compiled(inline=True)
def reach(points: np.ndarray, moving: int, anchor: int, length: float) -> None:
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
    """One forward and one backward reaching pass; see :func:`.search.run_search`."""
    count = q.shape[0]
    # The current points (which the joints then turn) and the desired ones, side by side.
    both = np.empty((2, count + 1, 3))
    current, points = both[0], both[1]
    lengths = np.empty(count)
    chain_points(chain, frames, current, lengths)
    for j in range(count + 1):
        for r in range(3):
            points[j, r] = current[j, r]
    fixed_from = fix_goal(chain, goal, settings, points)
    # Forward reaching; the base point 0 stays: the backward pass would put it back.
    for j in range(fixed_from - 1, 0, -1):
        reach(points, j, j + 1, lengths[j])
    if options[_RECOVERY] == 0.0:
        realise_joints(chain, goal, settings, options[_OVER_RELAXATION], q, frames, current,
                       points, radius)
        return
    for j in range(count):
        reach(points, j + 1, j, lengths[j])
    recover_joint_values(chain, goal, settings, options[_OVER_RELAXATION], q, frames,
                         current, points, radius)


@compiled
def fabrik_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with FABRIK iterations; see :func:`.search.run_search`."""
    run_search(fabrik_step, chain, target, settings, options, q, report)


def _recovery(name: str, value):
    if value not in _RECOVERIES:
        raise InvalidSolverOptionError('%s must be one of %s, got %r'
                                       % (name, ', '.join(_RECOVERIES), value))
    return value


class FABRIKSolver(Solver):
    """Forward and backward reaching, the joints set one by one in the backward pass."""

    name = 'fabrik'
    own_options = {
        'over_relaxation': OVER_RELAXATION_OPTION,
        'recovery': Option(_RECOVERIES[0], _recovery,
                           "'joint_by_joint' (the paper's backward pass, each joint from its "
                           "own segment) or 'least_squares' (the former: both passes on the "
                           'points, then each joint fitted to all points beyond it)'),
    }
    iterations_alone = 1000
    stall_iterations = 10
    trust_region = 1.0
    search = staticmethod(fabrik_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack the over-relaxation and the recovery; see :meth:`Solver.pack_options`."""
        return np.array([self.options['over_relaxation'],
                         float(_RECOVERIES.index(self.options['recovery']))])
