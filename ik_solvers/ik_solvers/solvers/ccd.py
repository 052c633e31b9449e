# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Cyclic coordinate descent after Welman (1993).

One iteration is a sweep from the tip joint to the base joint. Each joint in turn takes the
value that is optimal for it alone, all other joints held still:

* a revolute (or continuous) joint turns to the closed-form maximum of the weighted alignment
  of the tip position and of the three axes of the tip frame with their targets (see
  :mod:`ik_solvers.solvers.hinge`), clamped to its limits;
* a prismatic joint slides by the projection of the position error onto its axis (its motion
  cannot change the orientation), clamped to its limits.

Because a sweep runs from the tip toward the base, the joints still to be visited never move,
so one forward kinematics per sweep suffices: only the tip pose is updated joint by joint.

Per-joint ``weights`` in [0, 1] act as stiffness: a joint takes only that fraction of its
optimal motion (0 locks it), which spreads the motion over the chain as Welman describes.
"""

import math
from typing import Tuple

import numpy as np

from ..exceptions import InvalidSolverOptionError
from ..kinematics.joint import rotation_about_axis
from .base import Attempt, IKProblem, positive_float, Solver, trust_radius
from .hinge import best_joint_value, negligible_amplitude, sinusoid_coefficients

__all__ = ['CCDSolver']


class CCDSolver(Solver):
    """
    Cyclic coordinate descent.

    Options:
        max_iterations: sweeps per start (default 300; 1 when the polish follows).
        stall_iterations: sweeps without a 5 % lower error after which the start is given
            up (default 12).
        weights: per-joint stiffness, a sequence of N values in [0, 1], or None for all 1.
        orientation_emphasis: multiplier of the orientation terms against the position term
            (default 1; the base weight comes from the problem's orientation weight).
        trust_region: a joint moves at most this multiple of the start's cost over
            the chain's length, rad, per sweep (see :func:`~.base.trust_radius`; default 0.5);
            None for no limit. Measured with 200 targets per case, 5 ms: 0.5 and 1 solved as
            many targets from random seeds (99.5-100 % ur5_like, 97.5 % panda_like, full
            pose); 2 and 4 let 1-42 % of warm-seeded solutions end > 0.1 rad from the seed.
    """

    name = 'ccd'
    defaults = {
        'max_iterations': 300,
        'stall_iterations': 12,
        'weights': None,
        'orientation_emphasis': 1.0,
        'trust_region': 0.5,
    }

    def check_options(self) -> None:
        """Check the options; see the class docstring."""
        super().check_options()
        positive_float(self.options, 'orientation_emphasis', allow_zero=True)
        weights = self.options['weights']
        if weights is not None:
            try:
                weights = np.array(weights, dtype=float)
            except (TypeError, ValueError):
                raise InvalidSolverOptionError('weights must be a sequence of numbers') \
                    from None
            if weights.ndim != 1 or not np.all((weights >= 0.0) & (weights <= 1.0)):
                raise InvalidSolverOptionError('weights must be a 1-D sequence of values in '
                                               '[0, 1], got %r' % (self.options['weights'],))
            self.options['weights'] = weights

    def check_chain(self, chain) -> None:
        """Check that there is one weight per joint."""
        weights = self.options['weights']
        if weights is not None and weights.shape != (chain.num_joints,):
            raise InvalidSolverOptionError('weights must have %d values for this chain, got %d'
                                           % (chain.num_joints, weights.shape[0]))

    def improve(self, problem: IKProblem, q: np.ndarray, *,
                deadline: float) -> Tuple[np.ndarray, int]:
        """Run sweeps from ``q``; see :meth:`Solver.improve`."""
        chain = problem.chain
        n = chain.num_joints
        weights = self.options['weights']
        if weights is None:
            weights = np.ones(n)
        stiffness = weights.tolist()
        lower, upper = chain.lower.tolist(), chain.upper.tolist()
        prismatic = chain.is_prismatic.tolist()
        tx, ty, tz = problem.target_position.tolist()
        # Half the squared weight turns the summed column alignments into the squared
        # angle for small errors, comparable with the squared position error.
        orientation_weight = 0.0
        if not problem.position_only:
            orientation_weight = (0.5 * problem.orientation_weight ** 2
                                  * float(self.options['orientation_emphasis']))
        target_rotation_t = problem.target_rotation.T
        negligible = negligible_amplitude(chain.length_scale)
        values = q.tolist()
        max_iterations = self.options['max_iterations']
        attempt = Attempt(problem, q, max_iterations=max_iterations,
                          stall_iterations=self.options['stall_iterations'], deadline=deadline)
        for iteration in range(max_iterations + 1):
            q = np.array(values)
            poses = chain.poses(q)
            tip = poses[-1]
            if attempt.finished(q, tip, iteration):
                return attempt.best_q, iteration
            if iteration == 0:
                radius = trust_radius(problem, attempt.cost, self.options['trust_region'])
                slide = radius * chain.length_scale
            # Scalar maths: per joint, numpy's call overhead would dominate 3-vector work.
            axes = poses[:-1, :3, 2].tolist()
            origins = poses[:-1, :3, 3].tolist()
            px, py, pz = tip[:3, 3].tolist()
            tip_rotation = tip[:3, :3]
            for i in range(n - 1, -1, -1):
                if stiffness[i] == 0.0:
                    continue
                ux, uy, uz = axes[i]
                if prismatic[i]:
                    new = values[i] + stiffness[i] * (ux * (tx - px) + uy * (ty - py)
                                                      + uz * (tz - pz))
                    new = min(max(new, lower[i], values[i] - slide), upper[i], values[i] + slide)
                    shift = new - values[i]
                    px, py, pz = px + shift * ux, py + shift * uy, pz + shift * uz
                    values[i] = new
                    continue
                ox, oy, oz = origins[i]
                vx, vy, vz = px - ox, py - oy, pz - oz
                dx, dy, dz = tx - ox, ty - oy, tz - oz
                v_along = ux * vx + uy * vy + uz * vz
                a = dx * vx + dy * vy + dz * vz - v_along * (ux * dx + uy * dy + uz * dz)
                b = (ux * (vy * dz - vz * dy) + uy * (vz * dx - vx * dz)
                     + uz * (vx * dy - vy * dx))
                if orientation_weight:
                    a_rotation, b_rotation = sinusoid_coefficients(
                        axes[i], (tip_rotation @ target_rotation_t).tolist())
                    a += orientation_weight * a_rotation
                    b += orientation_weight * b_rotation
                new = best_joint_value(values[i], a, b, max(lower[i], values[i] - radius),
                                       min(upper[i], values[i] + radius), stiffness[i],
                                       negligible=negligible)
                angle = new - values[i]
                if angle == 0.0:
                    continue
                values[i] = new
                # Rodrigues' formula moves the tip about this joint's axis.
                c, s = math.cos(angle), math.sin(angle)
                k = v_along * (1.0 - c)
                px = ox + vx * c + (uy * vz - uz * vy) * s + ux * k
                py = oy + vy * c + (uz * vx - ux * vz) * s + uy * k
                pz = oz + vz * c + (ux * vy - uy * vx) * s + uz * k
                if orientation_weight:
                    tip_rotation = rotation_about_axis(axes[i], angle) @ tip_rotation
        return attempt.best_q, max_iterations
