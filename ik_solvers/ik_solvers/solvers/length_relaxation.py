# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Length relaxation after Čejka, on the points of a URDF chain.

The chain is seen as the points of :mod:`.point_chain` (the approximation chain): joint
origins, each on its own hinge axis, and the tip. One iteration:

1. forward kinematics of the current configuration gives the points;
2. the end of the chain is placed from the goal (Čejka §IV): the tip and, for a full pose or an
   aimed tool axis, the last joint's origin from the goal pose times the inverse of the tool's
   constant offset;
3. sequential relaxation (§III): from the base, one segment after another, each segment gets
   its length back by moving its point away from the base; at a point whose position is known
   (the goal's) the direction reverses, and the relaxation runs back to the base, each segment
   now moving its point toward it; ``relaxation_sweeps`` such sweeps there and back. The way
   back places whole links about the joints' axes (:func:`.reaching.reach_toward_base`), so
   that its points are ones the hinges can reach;
4. the joints are set one by one from the base, each from its own segment
   (:func:`.reaching.realise_joints`), which gives the angles of the relaxed chain.

On a chain of points whose only known points are the base and the goal, the first half of the
first sweep changes nothing (forward kinematics gives every segment its length), and the rest
is FABRIK's iteration: with one sweep per iteration (the default) length relaxation and FABRIK
give the same iterates, on a planar chain and on a URDF chain alike (docs/DECISIONS.md). Both
names stay, since users ask for both; ``relaxation_sweeps`` above one relaxes the chain
several times before the joints are set, which FABRIK never does.

Segments that end at a prismatic joint have no fixed length and are not relaxed.

``relaxation='simultaneous'`` keeps the former iteration: every segment relaxed at once from
the same positions, like springs, half of each correction on either end (all of it on the free
end next to a known point), then every joint fitted to all points beyond it at once
(:func:`.point_chain.recover_joint_values`). Its former defaults were
``relaxation_sweeps=2`` and ``over_relaxation=1.8``.
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
from .reaching import reach, reach_toward_base, realise_joints
from .step_api import run_search
from ..exceptions import InvalidSolverOptionError
from ..kinematics.jit import compiled

__all__ = ['LengthRelaxationSolver']

_SWEEPS = 0
_OVER_RELAXATION = 1
_RELAXATION = 2
_RELAXATIONS = ('sequential', 'simultaneous')


@compiled(inline=True)
def _relax_simultaneously(points, lengths, corrections, fixed_from) -> None:
    """One sweep of the former relaxation: every segment at once, like springs."""
    count = lengths.shape[0]
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


@compiled
def length_relaxation_step(chain, target, goal, settings, options, q, frames, error, radius,
                           memory) -> None:
    """Place the goal, relax the lengths, set the joints; see :func:`._core.search.run_search`."""
    count = q.shape[0]
    # The current points (which the joints then turn), the desired ones, and the corrections
    # of the simultaneous relaxation, side by side.
    work = np.empty((3, count + 1, 3))
    current, points, corrections = work[0], work[1], work[2]
    lengths = np.empty(count)
    chain_points(chain, frames, current, lengths)
    for j in range(count + 1):
        for r in range(3):
            points[j, r] = current[j, r]
    fixed_from = fix_goal(chain, goal, settings, points)
    if options[_RELAXATION] != 0.0:
        for _ in range(int(options[_SWEEPS])):
            _relax_simultaneously(points, lengths, corrections, fixed_from)
        recover_joint_values(chain, goal, settings, options[_OVER_RELAXATION], q, frames,
                             current, points, radius)
        return
    for sweep in range(int(options[_SWEEPS])):
        # From the base toward the goal, each segment moving its far point (in the first sweep
        # every segment already has its length, the points being forward kinematics': that
        # half would move nothing, and is skipped) ...
        if sweep > 0:
            for j in range(0, fixed_from - 1):
                reach(points, j + 1, j, lengths[j])
        # ... reversed at the goal's known point, back to the base, link by link.
        reach_toward_base(chain, frames, goal, settings, q, current, points, fixed_from)
    realise_joints(chain, goal, settings, options[_OVER_RELAXATION], q, frames, current,
                   points, radius)


@compiled
def length_relaxation_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with relaxation iterations; see :func:`._core.search.run_search`."""
    run_search(length_relaxation_step, chain, target, settings, options, q, report)


def _relaxation(name: str, value):
    if value not in _RELAXATIONS:
        raise InvalidSolverOptionError('%s must be one of %s, got %r'
                                       % (name, ', '.join(_RELAXATIONS), value))
    return value


class LengthRelaxationSolver(Solver):
    """Čejka's sequential length relaxation, then the joints set one by one."""

    name = 'length_relaxation'
    own_options = {
        'relaxation': Option(_RELAXATIONS[0], _relaxation,
                             "'sequential' (Čejka's: segment after segment from the base, "
                             "reversing at known points) or 'simultaneous' (the former: all "
                             'segments at once, then each joint fitted to all points beyond it)'),
        'relaxation_sweeps': Option(1, positive_integer,
                                    'relaxation sweeps (there and back) between two settings '
                                    'of the joints'),
        'over_relaxation': OVER_RELAXATION_OPTION,
    }
    iterations_alone = 1000
    stall_iterations = 40
    trust_region = 1.0
    extrapolation = True
    secant_memory = 5
    search = staticmethod(length_relaxation_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack sweeps, over-relaxation and relaxation; see :meth:`Solver.pack_options`."""
        return np.array([float(self.options['relaxation_sweeps']),
                         self.options['over_relaxation'],
                         float(_RELAXATIONS.index(self.options['relaxation']))])
