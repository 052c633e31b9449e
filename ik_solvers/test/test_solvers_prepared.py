# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A prepared solver answers as solve() does for the same arguments, and checks its inputs."""

import math

import numpy as np
import pytest

from ik_solvers import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError, solve
from ik_solvers.solvers.prepared import PreparedSolver


@pytest.mark.parametrize('solver', ['jacobian_transpose', 'ccd'])
def test_the_answers_are_those_of_solve(panda, solver):
    prepared = PreparedSolver(panda, solver=solver, max_attempts=5)
    rng = np.random.default_rng(7)
    for _ in range(20):
        goal = panda.random_configuration(rng)
        seed = np.clip(goal + rng.normal(scale=0.05, size=goal.shape), panda.lower, panda.upper)
        target = panda.fk(goal)
        expected = solve(panda, target, seed=seed, solver=solver, max_attempts=5, timeout=1.0)
        answer = prepared.solve(target, seed, timeout=1.0)
        assert answer.success == expected.success
        assert answer.status == expected.status
        assert np.allclose(answer.q, expected.q, atol=1e-12)
        if answer.success:
            reached = panda.fk(answer.q)
            assert np.linalg.norm(reached[:3, 3] - target[:3, 3]) <= 1e-5


def test_the_seed_is_not_modified(panda):
    prepared = PreparedSolver(panda)
    seed = panda.mid_configuration()
    kept = seed.copy()
    prepared.solve(panda.fk(seed + 0.1), seed, timeout=1.0)
    assert np.array_equal(seed, kept)


def test_bad_inputs_are_refused(panda):
    prepared = PreparedSolver(panda)
    seed = panda.mid_configuration()
    with pytest.raises(InvalidTargetError):
        prepared.solve(np.full((4, 4), np.nan), seed, timeout=1.0)
    with pytest.raises(InvalidTargetError):
        prepared.solve(np.eye(3), seed, timeout=1.0)
    with pytest.raises(InvalidSeedError):
        prepared.solve(np.eye(4), np.zeros(3), timeout=1.0)
    for timeout in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(InvalidSolverOptionError):
            prepared.solve(np.eye(4), seed, timeout=timeout)
    with pytest.raises(InvalidSolverOptionError):
        PreparedSolver(panda, max_attempts=0)
    with pytest.raises(InvalidTargetError):
        PreparedSolver(panda, position_tolerance=-1.0)
