# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The chosen heuristic does the work: it runs first from every start, the polish only finishes."""

from itertools import combinations

import numpy as np
import pytest

from ik_solvers import solve, SOLVERS
from ik_solvers.solvers.pose_error import orientation_error

TIMEOUT = 2.0


def test_each_heuristic_takes_its_own_path_with_the_polish_on(panda, panda_oracle):
    # From the default seed, the polish alone would reach these targets; if it ran first every
    # solver would return the same configuration. The heuristics must leave their mark.
    rng = np.random.default_rng(41)
    for _ in range(3):
        target = panda.fk(panda.random_configuration(rng))
        results = {solver: solve(panda, target, solver=solver, timeout=TIMEOUT)
                   for solver in SOLVERS}
        for solver, result in results.items():
            assert result.success, (solver, result)
            panda_oracle.check(result.q, target)
            assert result.polished
        for first, second in combinations(SOLVERS, 2):
            if {first, second} == {'fabrik', 'length_relaxation'}:
                # Čejka's sequential relaxation with one sweep takes FABRIK's steps
                # (docs/DECISIONS.md): the two must agree.
                np.testing.assert_allclose(results[first].q, results[second].q, atol=1e-9)
                continue
            assert np.max(np.abs(results[first].q - results[second].q)) > 1e-6, (first, second)


@pytest.mark.parametrize('solver', SOLVERS)
def test_heuristic_alone_converges_on_an_easy_pose(panda, solver):
    # A start 0.2 rad from a solution: without the polish each heuristic must close most of
    # the gap by itself within a bounded number of iterations (full pose: the heuristics'
    # linear convergence stalls near a millimetre, which is the polish's cue).
    rng = np.random.default_rng(43)
    for _ in range(3):
        solution = panda.random_configuration(rng)
        target = panda.fk(solution)
        seed = panda.clip(solution + rng.choice([-0.2, 0.2], panda.num_joints))
        start_error = np.linalg.norm(panda.fk(seed)[:3, 3] - target[:3, 3])
        start_angle = orientation_error(panda.fk(seed), target)
        result = solve(panda, target, seed=seed, solver=solver, polish=False, max_attempts=1,
                       max_iterations=200, timeout=TIMEOUT)
        assert not result.polished
        assert result.iterations <= 200
        assert result.position_error < 0.1 * start_error, result
        assert result.orientation_error < 0.2 * start_angle, result


@pytest.mark.parametrize('solver', SOLVERS)
def test_trust_region_keeps_the_first_iteration_near_a_warm_seed(panda, solver):
    # One heuristic iteration from a seed 0.05 rad from a solution, no polish: the trust
    # region bounds each joint's motion by the error, so no joint swings away.
    rng = np.random.default_rng(47)
    for _ in range(5):
        solution = panda.random_configuration(rng)
        seed = panda.clip(solution + rng.uniform(-0.05, 0.05, panda.num_joints))
        bounded = solve(panda, panda.fk(solution), seed=seed, solver=solver, polish=False,
                        max_attempts=1, max_iterations=1, timeout=TIMEOUT)
        assert bounded.iterations == 1
        assert np.max(np.abs(bounded.q - seed)) <= 0.1, bounded
