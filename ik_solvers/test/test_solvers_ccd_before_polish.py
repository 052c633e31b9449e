# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""CCD's sweeps before the polish: over-relaxed from cold starts, Welman's from warm ones."""

import numpy as np
import pytest

from ik_solvers import InvalidSolverOptionError, SearchOptions, solve
from ik_solvers_benchmarks.summary import heuristic_share


def _options(before_polish=None, **fields):
    own = {} if before_polish is None else {'over_relaxation_before_polish': before_polish}
    return SearchOptions(solver='ccd', solver_options=own, **fields)


def test_over_relaxed_sweeps_need_fewer_iterations_from_random_starts(ur5):
    rng = np.random.default_rng(41)
    targets = [ur5.fk(ur5.random_configuration(rng)) for _ in range(150)]
    seeds = [ur5.random_configuration(rng) for _ in range(150)]
    runs = {}
    for gain in (1.0, None):  # Welman's sweep, then the default
        answers = [solve(ur5, target, seed, options=_options(gain, timeout=1.0))
                   for target, seed in zip(targets, seeds)]
        shares = [heuristic_share(answer.costs) for answer in answers]
        runs[gain] = (sum(answer.success for answer in answers),
                      np.median([answer.iterations for answer in answers]),
                      np.median([share for share in shares if share is not None]))
    plain, default = runs[1.0], runs[None]
    assert default[0] == plain[0] == 150
    assert default[1] < plain[1]
    # The sweeps still do at least their share of the work before the polish.
    assert default[2] >= plain[2] - 0.01


@pytest.mark.parametrize('spread', [0.02, 0.1])
def test_a_start_near_its_goal_is_solved_by_welmans_sweeps_whatever_the_option(ur5, spread):
    # 0.02 rad: a warm seed (within 5 % of the length); 0.1 rad: farther, but within a quarter.
    rng = np.random.default_rng(42)
    for _ in range(20):
        solution = ur5.random_configuration(rng)
        target = ur5.fk(solution)
        seed = ur5.clip(solution + rng.uniform(-spread, spread, ur5.num_joints))
        answers = [solve(ur5, target, seed, options=_options(gain)) for gain in (1.0, 1.4, 1.9)]
        assert answers[0].costs[0] < 0.25 * ur5.arrays.length_scale
        assert all(answer.success and answer.attempts == 1 for answer in answers)
        assert np.array_equal(answers[0].q, answers[1].q)
        assert np.array_equal(answers[0].q, answers[2].q)


def test_cold_starts_follow_the_option(ur5):
    rng = np.random.default_rng(43)
    target = ur5.fk(ur5.random_configuration(rng))
    seed = ur5.random_configuration(rng)
    single = dict(max_attempts=1, timeout=1.0)
    plain = solve(ur5, target, seed, options=_options(1.0, **single))
    over = solve(ur5, target, seed, options=_options(1.6, **single))
    assert plain.costs[0] == over.costs[0]  # the same start
    assert plain.iterations != over.iterations or not np.array_equal(plain.q, over.q)


@pytest.mark.parametrize('value', [0.0, 2.0, -1.0, 'fast'])
def test_an_over_relaxation_outside_the_open_interval_is_refused(value):
    with pytest.raises(InvalidSolverOptionError, match='over_relaxation_before_polish'):
        _options(value)
