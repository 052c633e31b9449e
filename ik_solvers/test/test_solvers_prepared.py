# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A prepared solver answers as solve() does for the same arguments, and checks its inputs."""

import math

import numpy as np
import pytest

from ik_solvers import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError, solve
from ik_solvers.solvers.prepared import PreparedSolver


@pytest.mark.parametrize('solver', ['jacobian_transpose', 'ccd'])
def test_the_answers_are_those_of_solve(panda, panda_oracle, solver):
    prepared = PreparedSolver(panda, solver=solver, max_attempts=5)
    rng = np.random.default_rng(7)
    solved = 0
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
            # The full pose and the URDF limits, by the tests' own FK.
            panda_oracle.check(answer.q, target)
            solved += 1
    assert solved > 0, 'no answer was a success: the comparison checked no solution'


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
    with pytest.raises(InvalidTargetError, match=r'\(K, 4, 4\)'):
        prepared.solve_sequence(np.zeros((3, 16)), np.zeros((3, panda.num_joints)), 1, 2,
                                point_timeout=1.0, deadline=math.inf)
    with pytest.raises(InvalidSolverOptionError):
        PreparedSolver(panda, max_attempts=0)
    with pytest.raises(InvalidTargetError):
        PreparedSolver(panda, position_tolerance=-1.0)


def _line_targets(chain, q, count, step):
    start = chain.fk(q)
    targets = np.repeat(start[None], count, axis=0)
    targets[:, 2, 3] -= step * np.arange(count)
    return targets


def test_a_sequence_gives_the_answers_of_solve_in_a_loop(panda, panda_oracle):
    prepared = PreparedSolver(panda, max_attempts=5)
    q = panda.mid_configuration()
    targets = _line_targets(panda, q, 12, 0.002)
    out = np.empty((12, panda.num_joints))
    out[0] = q
    stop, answer = prepared.solve_sequence(targets, out, 1, 11, point_timeout=1.0,
                                           deadline=math.inf)
    assert (stop, answer) == (12, None)
    seed = q
    for index in range(1, 12):
        expected = solve(panda, targets[index], seed=seed, max_attempts=5, timeout=1.0)
        assert np.allclose(out[index], expected.q, atol=1e-12)
        # No stop means every point was solved: each one reaches its target, by the oracle.
        panda_oracle.check(out[index], targets[index])
        seed = expected.q


def test_a_sequence_stops_at_the_first_target_out_of_reach(panda):
    prepared = PreparedSolver(panda, max_attempts=5)
    q = panda.mid_configuration()
    targets = _line_targets(panda, q, 6, 0.002)
    targets[3, :3, 3] = (5.0, 0.0, 0.0)  # far beyond the arm
    out = np.zeros((6, panda.num_joints))
    out[0] = q
    stop, answer = prepared.solve_sequence(targets, out, 1, 5, point_timeout=1.0,
                                           deadline=math.inf)
    assert stop == 3 and not answer.success and answer.status == 'no_solution'
    assert answer.position_error > 1.0
    assert not out[3:].any()  # nothing written past the stop


def test_a_sequence_past_its_deadline_solves_nothing(panda):
    prepared = PreparedSolver(panda)
    q = panda.mid_configuration()
    out = np.zeros((3, panda.num_joints))
    out[0] = q
    stop, answer = prepared.solve_sequence(_line_targets(panda, q, 3, 0.001), out, 1, 2,
                                           point_timeout=1.0, deadline=0.0)
    assert stop == 1 and answer.status == 'timed_out'
    assert not out[1:].any()
