# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The points a dense path is timed through, solved tighter than the path's tolerances.

A point of a path is settled as soon as it lies within the tolerances, and on a path whose
points lie closer than the tolerances most points are settled where the point before them
already was: the points the timing keeps (:mod:`.timing_knots`) then carry errors up to the
tolerances, in every direction, and a step between two of them is off by that much. Solved
again, warm, each from the one before, to a thousandth of the tolerances, the kept points lie
on the path, and the timing of a line no longer depends on where its staircase happened to
put them. A kept point that does not settle so keeps the answer it had (confirmed within the
tolerances already).
"""

import math

import numpy as np

from ..kinematics import Chain
from ..solvers import PreparedSolver
from .pose_errors import pose_errors

__all__ = ['refine_knots']

# Share of the path's tolerances the kept points are solved to.
_TIGHTER = 1e-3
# Damped least-squares steps each kept point gets.
_STEPS = 8
# Largest joint motion between two kept points the walk accepts, rad or m.
_MOTION = 0.5


def refine_knots(chain: Chain, targets: np.ndarray, rows: np.ndarray, *, solver: str,
                 position_tolerance: float, orientation_tolerance: float,
                 deadline: float = math.inf) -> np.ndarray:
    """
    Return the kept points solved again to a thousandth of the tolerances where they settle.

    :param chain: The path's chain.
    :param targets: (J, 4, 4) the kept points' tip poses, base frame, m; row 0 is the start.
    :param rows: (J, N) their answers, rad or m, each within the tolerances; row 0 the start.
    :param solver: Name of the solver whose prepared walk refines them.
    :param position_tolerance: m, the path's.
    :param orientation_tolerance: rad, the path's.
    :param deadline: ``time.perf_counter()`` value after which no point is refined.
    :returns: (J, N): each row the tighter answer where it settled, lies within the joint
        limits and forward kinematics confirms it within the tolerances, else ``rows``'.
    """
    if rows.shape[0] < 2:
        return rows.copy()
    tight = PreparedSolver(chain, solver=solver,
                           position_tolerance=_TIGHTER * position_tolerance,
                           orientation_tolerance=_TIGHTER * orientation_tolerance,
                           max_attempts=1)
    out = np.ascontiguousarray(rows, dtype=float).copy()
    settled = tight.walk(targets, out, 1, rows.shape[0] - 1, max_steps=_STEPS,
                         max_joint_motion=_MOTION, deadline=deadline)
    out[settled:] = rows[settled:]
    moved, turned = pose_errors(chain.fk_batch(out), targets)
    keep = (moved > position_tolerance) | (turned > orientation_tolerance) | np.array(
        [not chain.within_limits(q) for q in out])
    out[keep] = rows[keep]
    return out
