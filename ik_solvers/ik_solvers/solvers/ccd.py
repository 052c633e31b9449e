# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Cyclic coordinate descent after Welman (1993).

One iteration is a sweep from the tip joint to the base joint. Each joint in turn takes the
value that is optimal for it alone, all other joints held still:

* a revolute (or continuous) joint turns to the closed-form maximum of the weighted alignment
  of the tip position and of the three axes of the tip frame with their targets (see
  :mod:`.hinge`), clamped to its limits;
* a prismatic joint slides by the projection of the position error onto its axis (its motion
  cannot change the orientation), clamped to its limits.

Because a sweep runs from the tip toward the base, the joints still to be visited never move,
so one forward kinematics per sweep suffices: only the tip pose is carried along.

Per-joint ``weights`` in [0, 1] act as stiffness: a joint takes only that fraction of its
optimal motion (0 locks it), which spreads the motion over the chain as Welman describes.
``over_relaxation`` above 1 takes more than the one-joint optimum, which speeds up the slow,
zig-zagging convergence of coordinate descent along narrow valleys. Those valleys come from the
orientation terms. By default (``None``) every sweep is Welman's plain one-joint optimum: alone,
where the orientation counts, the search extrapolates the sweeps instead (see
:mod:`._core.extrapolation`), which needs fewer of them than over-relaxing; with the search's
``extrapolation=False`` a sweep over-relaxes by 1.8 when the orientation counts. Over-relaxing
cost iterations on position-only goals, on 6-joint arms and on 20-100-joint chains alike
(docs/DECISIONS.md). With the polish on, the sweeps of a start near its goal (within a quarter
of the chain's length, a warm seed, or a warm seed's near restart) are plain, so that its
solution stays near it; from any other start they over-relax by
``over_relaxation_before_polish`` (1.4): there the sweeps do the global work before the polish,
and on UR-type arms over-relaxing took the median solve from 22 sweeps to 16 while the sweeps'
share of the error reduction grew (docs/DECISIONS.md). 1 gives Welman's sweep throughout.
"""

from typing import Any

import numpy as np

from .base import non_negative_float, Option, over_relaxation, Solver
from .hinge import best_turn, NEGLIGIBLE_RELATIVE_AMPLITUDE, sinusoid_coefficients
from .hinge import add_outer_product, turn_rows
from .step_api import may_extrapolate, orientation_vectors, run_search, start_gain
from ..exceptions import InvalidSolverOptionError
from ..kinematics.jit import compiled
from ..kinematics.kernels import LIMIT_LOWER, LIMIT_UPPER

__all__ = ['CCDSolver']

# Layout of the packed options: emphasis, over-relaxation alone and before the polish, then one
# stiffness per joint.
_EMPHASIS = 0
_OVER_RELAXATION = 1
_BEFORE_POLISH = 2
_STIFFNESS = 3
# The over-relaxation of a sweep toward a goal with an orientation, unless told otherwise.
_POSE_OVER_RELAXATION = 1.8


@compiled
def ccd_step(chain, target, goal, settings, options, q, frames, error, radius,
             memory) -> None:
    """One sweep from the tip joint to the base joint; see :func:`._core.search.run_search`."""
    count = q.shape[0]
    # One scratch array for the step: row 0 the tip point, rows 1-3 the tip vectors, rows 4-6
    # the goal vectors, so that each joint turns the tip point and vectors in one call.
    work = np.empty((7, 3))
    work[0, 0], work[0, 1], work[0, 2] = frames[-1, 0, 3], frames[-1, 1, 3], frames[-1, 2, 3]
    vector_count, vector_weight = orientation_vectors(settings, frames[-1], goal, work[1:4],
                                                      work[4:7])
    orientation_weight = vector_weight * options[_EMPHASIS]
    tx, ty, tz = goal[0, 3], goal[1, 3], goal[2, 3]
    negligible = NEGLIGIBLE_RELATIVE_AMPLITUDE * chain.length_scale * chain.length_scale
    slide = radius * chain.length_scale
    relax = options[_OVER_RELAXATION]
    if relax == 0.0:
        # The default: over-relax only where the orientation narrows the valleys, and there
        # only when the search does not extrapolate the sweeps instead (which does better).
        relax = _POSE_OVER_RELAXATION if vector_count > 0 and not may_extrapolate(settings) \
            else 1.0
    # Before the polish, from a start far from its goal, the sweep over-relaxes by its own
    # option (docs/DECISIONS.md); from a start near it, it is Welman's.
    gain = start_gain(settings, relax, options[_BEFORE_POLISH])
    moment = np.empty((3, 3))
    for i in range(count - 1, -1, -1):
        stiffness = options[_STIFFNESS + i]
        if stiffness == 0.0:
            continue
        segment = chain.joint_segment[i]
        ux, uy, uz = frames[segment, 0, 2], frames[segment, 1, 2], frames[segment, 2, 2]
        lower = chain.joint_limits[i, LIMIT_LOWER]
        upper = chain.joint_limits[i, LIMIT_UPPER]
        if chain.joint_prismatic[i] != 0.0:
            shift = stiffness * (ux * (tx - work[0, 0]) + uy * (ty - work[0, 1])
                                 + uz * (tz - work[0, 2]))
            new = min(max(q[i] + shift, lower, q[i] - slide), upper, q[i] + slide)
            work[0, 0] += (new - q[i]) * ux
            work[0, 1] += (new - q[i]) * uy
            work[0, 2] += (new - q[i]) * uz
            q[i] = new
            continue
        ox, oy, oz = frames[segment, 0, 3], frames[segment, 1, 3], frames[segment, 2, 3]
        vx, vy, vz = work[0, 0] - ox, work[0, 1] - oy, work[0, 2] - oz
        dx, dy, dz = tx - ox, ty - oy, tz - oz
        along = ux * vx + uy * vy + uz * vz
        a = dx * vx + dy * vy + dz * vz - along * (ux * dx + uy * dy + uz * dz)
        b = ux * (vy * dz - vz * dy) + uy * (vz * dx - vx * dz) + uz * (vx * dy - vy * dx)
        if orientation_weight > 0.0 and vector_count > 0:
            for r in range(3):
                for c in range(3):
                    moment[r, c] = 0.0
            for k in range(vector_count):
                add_outer_product(moment, work[1 + k, 0], work[1 + k, 1], work[1 + k, 2],
                                  work[4 + k, 0], work[4 + k, 1], work[4 + k, 2])
            a_rotation, b_rotation = sinusoid_coefficients(ux, uy, uz, moment)
            a += orientation_weight * a_rotation
            b += orientation_weight * b_rotation
        new, cosine, sine = best_turn(q[i], a, b, max(lower, q[i] - radius),
                                      min(upper, q[i] + radius), stiffness * gain, negligible)
        if new != q[i]:
            turn_rows(work, 0, 1, ux, uy, uz, cosine, sine, ox, oy, oz)
            turn_rows(work, 1, 1 + vector_count, ux, uy, uz, cosine, sine, 0.0, 0.0, 0.0)
            q[i] = new


@compiled
def ccd_search(chain, target, settings, options, q, report) -> None:
    """Run the search loop with CCD sweeps; see :func:`._core.search.run_search`."""
    run_search(ccd_step, chain, target, settings, options, q, report)


def _relaxation(name: str, value: Any) -> Any:
    return None if value is None else over_relaxation(name, value)


def _weights(name: str, value: Any) -> Any:
    if value is None:
        return None
    try:
        weights = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidSolverOptionError('%s must be a sequence of numbers' % name) from None
    if weights.ndim != 1 or not np.all((weights >= 0.0) & (weights <= 1.0)):
        raise InvalidSolverOptionError('%s must be a 1-D sequence of values in [0, 1], got %r'
                                       % (name, value))
    return weights


class CCDSolver(Solver):
    """Cyclic coordinate descent (Welman 1993); options in :attr:`own_options`."""

    name = 'ccd'
    own_options = {
        'weights': Option(None, _weights,
                          'per-joint stiffness, N values in [0, 1] (0 locks a joint); None for '
                          'all 1'),
        'orientation_emphasis': Option(1.0, non_negative_float,
                                       'multiplier of the orientation terms against the '
                                       'position term'),
        'over_relaxation': Option(None, _relaxation,
                                  'multiple of the one-joint optimum each joint takes, in '
                                  '(0, 2), when the heuristic runs alone (polish=False); None: '
                                  '1, or 1.8 when the orientation counts and the search does '
                                  'not extrapolate'),
        'over_relaxation_before_polish': Option(
            1.4, over_relaxation,
            'multiple of the one-joint optimum each joint takes when the polish follows, in '
            '(0, 2), from a start farther than a quarter of the chain\'s length from its goal '
            "(nearer starts and a warm seed's take 1, Welman's step); 1 for Welman's sweep "
            'throughout'),
    }
    iterations_alone = 1000
    stall_iterations = 20
    trust_region = 0.5
    extrapolation = True
    secant_memory = 5
    search = staticmethod(ccd_search)

    def pack_options(self, chain) -> np.ndarray:
        """Pack emphasis, over-relaxation and stiffness; see :meth:`Solver.pack_options`."""
        weights = self.options['weights']
        if weights is None:
            weights = np.ones(chain.num_joints)
        elif weights.shape != (chain.num_joints,):
            raise InvalidSolverOptionError('weights must have %d values for this chain, got %d'
                                           % (chain.num_joints, weights.shape[0]))
        relax = self.options['over_relaxation']
        return np.concatenate(((self.options['orientation_emphasis'],
                                0.0 if relax is None else relax,
                                self.options['over_relaxation_before_polish']), weights))
