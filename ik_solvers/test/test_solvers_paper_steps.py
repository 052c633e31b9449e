# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Each heuristic takes its paper's steps: compared, on planar chains, with literal numpy versions.

The literal versions below follow the papers' words on points and angles (FABRIK: Aristidou
and Lasenby 2011; length relaxation: Čejka §III; CCD: Welman 1993) and share no code with the
library. The library's compiled steps must give the same iterates, and its search the same
iteration counts, so that a change cannot quietly turn one heuristic into another.
"""

import math

import numpy as np
import pytest

from ik_solvers import solve
from ik_solvers_benchmarks.planar_chains import planar_chain
from ik_solvers.kinematics.kernels import forward_frames
from ik_solvers.solvers.ccd import ccd_step, CCDSolver
from ik_solvers.solvers.fabrik import fabrik_step, FABRIKSolver
from ik_solvers.solvers._core.goal_kernels import effective_goal, goal_residual
from ik_solvers.solvers import Goal
from ik_solvers.solvers._core.pack import pack_goal
from ik_solvers.solvers.length_relaxation import length_relaxation_step, LengthRelaxationSolver

LENGTHS = [0.1, 0.07, 0.12, 0.09, 0.11, 0.06, 0.1, 0.08]
PROBLEMS = 6
ITERATIONS = 3


def points_of(angles):
    """Joint points and tip of the planar chain at ``angles``, (N + 1, 2)."""
    headings = np.cumsum(angles)
    steps = np.array(LENGTHS)[:, None] * np.column_stack((np.cos(headings), np.sin(headings)))
    return np.vstack((np.zeros((1, 2)), np.cumsum(steps, axis=0)))


def angles_of(points):
    """Return the joint angles whose points these are: each from its own segment."""
    steps = np.diff(points, axis=0)
    headings = np.arctan2(steps[:, 1], steps[:, 0])
    return np.diff(np.concatenate(([0.0], headings)))


def put(points, moving, anchor, length):
    """Move ``points[moving]`` onto the line from ``points[anchor]``, at ``length``."""
    direction = points[moving] - points[anchor]
    points[moving] = points[anchor] + length * direction / np.linalg.norm(direction)


def literal_fabrik(angles, target):
    """One FABRIK iteration (reachable case): forward reaching, then backward reaching."""
    points = points_of(angles)
    base = points[0].copy()
    points[-1] = target
    for i in range(len(LENGTHS) - 1, -1, -1):
        put(points, i, i + 1, LENGTHS[i])
    points[0] = base
    for i in range(len(LENGTHS)):
        put(points, i + 1, i, LENGTHS[i])
    return angles_of(points)


def literal_relaxation(angles, target, sweeps=1):
    """
    Relax as Čejka §III: the tip at the goal, segment after segment from the base.

    The direction reverses at the known tip and again at the known base; the angles then
    follow from the points.
    """
    points = points_of(angles)
    count = len(LENGTHS)
    points[-1] = target
    for _ in range(sweeps):
        for j in range(count - 1):  # toward the tip: each segment moves its far point
            put(points, j + 1, j, LENGTHS[j])
        for j in range(count - 1, 0, -1):  # reversed at the tip: each moves its near point
            put(points, j, j + 1, LENGTHS[j])
    for j in range(count):  # the joints from the base, each along its own segment
        put(points, j + 1, j, LENGTHS[j])
    return angles_of(points)


def literal_ccd(angles, target):
    """
    Sweep once as Welman's CCD: from the last joint to the first.

    Each joint turns the tip onto the line from its centre to the target.
    """
    angles = np.array(angles, dtype=float)
    for i in range(len(LENGTHS) - 1, -1, -1):
        points = points_of(angles)
        to_tip, to_target = points[-1] - points[i], target - points[i]
        angles[i] += math.atan2(to_tip[0] * to_target[1] - to_tip[1] * to_target[0],
                                to_tip @ to_target)
    return angles


def wrapped(angles):
    return (np.asarray(angles) + math.pi) % (2.0 * math.pi) - math.pi


@pytest.fixture(scope='module')
def chain():
    return planar_chain(LENGTHS)


def problems(chain):
    rng = np.random.default_rng(29)
    for _ in range(PROBLEMS):
        goal = chain.fk(rng.uniform(-math.pi, math.pi, len(LENGTHS)))
        for start in (np.zeros(len(LENGTHS)), rng.uniform(-math.pi, math.pi, len(LENGTHS))):
            yield goal, start


def library_iterates(chain, step, options, goal, start, count):
    """Run the library's compiled step ``count`` times, alone, without trust region."""
    settings = pack_goal(Goal(mode='none'), 0.0, 0.0)
    arrays = chain.arrays
    q = start.astype(float).copy()
    frames = np.empty((arrays.segments.shape[0], 4, 4))
    error = np.empty(6)
    effective = np.empty((4, 4))
    memory = np.zeros((len(q), 4))
    iterates = []
    for _ in range(count):
        forward_frames(arrays, q, frames)
        goal_residual(goal, frames[-1], settings, error)
        effective_goal(goal, frames[-1], settings, error, effective)
        step(arrays, goal, effective, settings, options, q, frames, error, math.inf, memory)
        iterates.append(q.copy())
    return iterates


CASES = {
    'fabrik': (fabrik_step, lambda: FABRIKSolver(), literal_fabrik),
    'length_relaxation': (length_relaxation_step, lambda: LengthRelaxationSolver(),
                          literal_relaxation),
    'length_relaxation, 2 sweeps': (
        length_relaxation_step, lambda: LengthRelaxationSolver(relaxation_sweeps=2),
        lambda angles, target: literal_relaxation(angles, target, sweeps=2)),
    'ccd': (ccd_step, lambda: CCDSolver(over_relaxation=1.0), literal_ccd),
}


@pytest.mark.parametrize('case', sorted(CASES))
def test_iterates_are_the_papers(chain, case):
    step, make_solver, literal = CASES[case]
    options = make_solver().packed_options(chain)
    for goal, start in problems(chain):
        expected = start.copy()
        for got in library_iterates(chain, step, options, goal, start, ITERATIONS):
            expected = literal(expected, goal[:2, 3])
            np.testing.assert_allclose(wrapped(got - expected), 0.0, atol=1e-9)


def literal_count(literal, start, target, tolerance, cap=500):
    angles = start.copy()
    for count in range(cap + 1):
        if np.linalg.norm(points_of(angles)[-1] - target) <= tolerance:
            return count
        angles = literal(angles, target)
    return None


@pytest.mark.parametrize('solver, literal, options', [
    ('fabrik', literal_fabrik, {}),
    ('length_relaxation', literal_relaxation, {}),
    ('ccd', literal_ccd, {'over_relaxation': 1.0}),
])
def test_iteration_counts_are_the_papers(chain, solver, literal, options):
    tolerance = 1e-4 * sum(LENGTHS)
    for goal, start in problems(chain):
        expected = literal_count(literal, start, goal[:2, 3], tolerance)
        result = solve(chain, goal, seed=start, solver=solver, position_only=True,
                       position_tolerance=tolerance, polish=False, max_attempts=1,
                       trust_region=1e9, stall_iterations=10 ** 6, max_iterations=500,
                       timeout=30.0, **options)
        assert result.success == (expected is not None)
        assert result.iterations == expected


def test_fabrik_and_relaxation_differ_from_ccd(chain):
    # The comparison above can tell the heuristics apart: CCD's first iterate is not FABRIK's.
    goal, start = next(problems(chain))
    assert np.max(np.abs(wrapped(literal_ccd(start, goal[:2, 3])
                                 - literal_fabrik(start, goal[:2, 3])))) > 1e-3
