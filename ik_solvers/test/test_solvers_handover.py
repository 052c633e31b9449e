# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The hand-over from the heuristic to the polish, the costs it reports, and plain J^T e."""

import math

import numpy as np
import pytest

from ik_solvers import solve, SOLVERS
from ik_solvers_benchmarks.summary import heuristic_share
from ik_solvers.exceptions import InvalidSolverOptionError

TIMEOUT = 2.0


def _numerical_position_jacobian(chain, q: np.ndarray) -> np.ndarray:
    # Central differences of the tip position: shares nothing with the library's Jacobian.
    jacobian = np.empty((3, q.shape[0]))
    step = 1e-7
    for i in range(q.shape[0]):
        forward, backward = q.copy(), q.copy()
        forward[i] += step
        backward[i] -= step
        jacobian[:, i] = (chain.fk(forward)[:3, 3] - chain.fk(backward)[:3, 3]) / (2 * step)
    return jacobian


def test_plain_transpose_step_is_busss_alpha_times_j_transpose_e(panda):
    # One iteration of direction='transpose', position only, with no cap on the step: the
    # literal method, dq = alpha J^T e with alpha = <e, J J^T e> / |J J^T e|^2.
    rng = np.random.default_rng(3)
    for _ in range(3):
        seed = panda.random_configuration(rng)
        target = panda.fk(panda.clip(seed + rng.uniform(-0.05, 0.05, seed.shape)))
        result = solve(panda, target, seed=seed, solver='jacobian_transpose',
                       direction='transpose', position_only=True, polish=False,
                       max_attempts=1, max_iterations=1, trust_region=1e9, max_step=1e9,
                       timeout=TIMEOUT)
        jacobian = _numerical_position_jacobian(panda, seed)
        error = target[:3, 3] - panda.fk(seed)[:3, 3]
        image = jacobian @ jacobian.T @ error
        alpha = error @ image / (image @ image)
        expected = np.clip(seed + alpha * jacobian.T @ error, panda.lower, panda.upper)
        assert result.iterations == 1
        np.testing.assert_allclose(result.q, expected, atol=1e-6)


def test_fixed_alpha_steps_exactly_alpha_j_transpose_e(panda):
    seed = panda.mid_configuration()
    target = panda.fk(seed + 0.02)
    alpha = 0.5
    result = solve(panda, target, seed=seed, solver='jacobian_transpose',
                   direction='transpose', alpha=alpha, position_only=True, polish=False,
                   max_attempts=1, max_iterations=1, trust_region=1e9, max_step=1e9,
                   timeout=TIMEOUT)
    jacobian = _numerical_position_jacobian(panda, seed)
    error = target[:3, 3] - panda.fk(seed)[:3, 3]
    np.testing.assert_allclose(result.q, seed + alpha * jacobian.T @ error, atol=1e-7)


def test_conjugate_and_transpose_directions_differ_after_the_first_step(panda):
    rng = np.random.default_rng(5)
    seed = panda.random_configuration(rng)
    target = panda.fk(panda.random_configuration(rng))
    results = [solve(panda, target, seed=seed, solver='jacobian_transpose', direction=direction,
                     polish=False, max_attempts=1, max_iterations=iterations, timeout=TIMEOUT)
               for direction in ('transpose', 'conjugate') for iterations in (1, 5)]
    np.testing.assert_allclose(results[0].q, results[2].q)  # the first step is J^T e in both
    assert np.max(np.abs(results[1].q - results[3].q)) > 1e-6


@pytest.mark.parametrize('value', ['gradient', 1, None])
def test_unknown_direction_is_refused(panda, value):
    with pytest.raises(InvalidSolverOptionError):
        solve(panda, panda.fk(panda.mid_configuration()), solver='jacobian_transpose',
              direction=value)


@pytest.mark.parametrize('value', [0.0, 1.5, -0.2, float('nan'), True])
def test_handoff_ratio_out_of_range_is_refused(panda, value):
    with pytest.raises(InvalidSolverOptionError):
        solve(panda, panda.fk(panda.mid_configuration()), handoff_ratio=value)


@pytest.mark.parametrize('solver', SOLVERS)
def test_costs_describe_the_successful_start(panda, solver):
    rng = np.random.default_rng(11)
    target = panda.fk(panda.random_configuration(rng))
    seed = panda.random_configuration(rng)
    polished = solve(panda, target, seed=seed, solver=solver, timeout=TIMEOUT)
    assert polished.success
    start, handoff, final = polished.costs
    # The heuristic starts from the farthest point, the polish ends at the nearest.
    assert start >= handoff >= final > 0.0
    assert final <= 2e-5
    alone = solve(panda, target, seed=seed, solver=solver, polish=False, timeout=TIMEOUT)
    assert alone.success
    assert alone.costs[1] == alone.costs[2]  # alone, the hand-over is the end
    assert heuristic_share(alone.costs) == pytest.approx(1.0)


@pytest.mark.parametrize('solver', SOLVERS)
def test_a_higher_handoff_ratio_lets_the_heuristic_work_longer(panda, solver):
    # One start each: the heuristic that may slow down further before handing over gets
    # nearer the target by itself.
    rng = np.random.default_rng(17)
    handed = {}
    for _ in range(4):
        target = panda.fk(panda.random_configuration(rng))
        seed = panda.random_configuration(rng)
        for ratio in (0.3, 0.99):
            result = solve(panda, target, seed=seed, solver=solver, handoff_ratio=ratio,
                           max_attempts=1, timeout=TIMEOUT)
            handed.setdefault(ratio, []).append(math.log(result.costs[1]))
    assert np.mean(handed[0.99]) < np.mean(handed[0.3]) - 1.0


def test_share_is_the_heuristics_part_of_the_log_reduction():
    assert heuristic_share((1.0, 1e-3, 1e-6)) == pytest.approx(0.5)
    assert heuristic_share((1.0, 1.0, 1e-6)) == pytest.approx(0.0)
    assert heuristic_share((1e-6, 1e-6, 1e-6)) is None  # nothing to reduce
    assert heuristic_share(None) is None
    assert heuristic_share((1.0, math.inf, 1e-6)) is None
