# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
FABRIK (Aristidou and Lasenby 2011) on the points of a URDF chain.

The chain is seen as the points of :mod:`.point_chain`: joint origins, each on its own hinge
axis, and the tip, with constant distances between neighbours. One iteration is the paper's:

1. Forward kinematics of the current configuration gives the points.
2. Forward reaching, from the tip to the base (:func:`.reaching.reach_toward_base`): the tip
   is put at the goal, and each point in turn on the line from its already placed successor
   toward its former place, at the segment's length.
3. Backward reaching, from the base to the tip (:func:`.reaching.realise_joints`): the base is
   back at its place, and each joint in turn takes its value from its own segment: it turns
   its segment's far point onto the line to that point's place from the forward pass.

Both passes move whole links about the joints' axes, joint by joint, the way FABRIK's
constraint handling reorients each joint before it places the next point; the configuration
is realised during the backward pass. On a planar chain of hinges (axes perpendicular to the
plane) every point lands where the paper puts it, so the iterates are the paper's.

What the paper does not cover, and what this module does then (see docs/DECISIONS.md):

* **Hinges with offsets.** A hinge cannot put its neighbour anywhere on the sphere of the
  segment's length, only on a circle about its axis: it takes the point of that circle
  nearest the line (the paper's hinge constraint), in both passes. In the forward pass the
  links are carried as rigid bodies (their axes turn with them), so the points placed are
  ones the hinges can reach. A far point on the joint's own axis (co-located joints, a link
  along the axis) does not move with it: the joint takes its value from the next point beyond
  that does.
* **Orientation.** For a full pose, or an aimed tool axis, the forward pass starts with the
  last link at the goal's rotation, its origin where the goal puts the last joint's frame
  (the goal times the inverse of the tool's constant offset), as the paper fixes the
  end effector's orientation; a wrist roll that moves no point (the tip on its axis) aligns
  the tip frame's axes with the goal's in the backward pass.
* **Prismatic joints.** The forward pass keeps their slide; in the backward pass each slides
  by its far point's error along its axis.
* **Mimic joints** move with their leader through the next forward kinematics.
* **Limits and the trust region** clamp each joint as it is set.
* **Unreachable targets.** The paper stretches the chain toward them in one step; here the
  iterations themselves stretch it, and the search reports ``no_solution``.

``recovery='least_squares'`` keeps the former iteration: both passes on the points, then every
joint fitted to all points beyond it at once (:func:`.point_chain.recover_joint_values`).
"""

import numpy as np

from .base import Option, Solver
from .point_chain import (
    chain_points,
    fix_goal,
    OVER_RELAXATION_OPTION,
    recover_joint_values,
)
from .reaching import reach, reach_toward_base, realise_joints
from .step_api import run_search
from ..exceptions import InvalidSolverOptionError
from ..kinematics.jit import compiled

__all__ = ['FABRIKSolver']

_OVER_RELAXATION = 0
_RECOVERY = 1
_RECOVERIES = ('joint_by_joint', 'least_squares')


@compiled
def fabrik_step(chain, target, goal, settings, options, q, frames, error, radius,
                memory) -> None:
    """One forward and one backward reaching pass; see :func:`._core.search.run_search`."""
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
    if options[_RECOVERY] == 0.0:
        reach_toward_base(chain, frames, goal, settings, q, current, points, fixed_from)
        realise_joints(chain, goal, settings, options[_OVER_RELAXATION], q, frames, current,
                       points, radius)
        return
    # The former iteration: both passes on free points (the base point stays: the backward
    # pass would put it back), then the least-squares recovery.
    for j in range(fixed_from - 1, 0, -1):
        reach(points, j, j + 1, lengths[j])
    for j in range(count):
        reach(points, j + 1, j, lengths[j])
    recover_joint_values(chain, goal, settings, options[_OVER_RELAXATION], q, frames,
                         current, points, radius)


@compiled
def fabrik_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with FABRIK iterations; see :func:`._core.search.run_search`."""
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
    stall_iterations = 40
    trust_region = 1.0
    extrapolation = True
    secant_memory = 5
    search = staticmethod(fabrik_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack the over-relaxation and the recovery; see :meth:`Solver.pack_options`."""
        return np.array([self.options['over_relaxation'],
                         float(_RECOVERIES.index(self.options['recovery']))])
