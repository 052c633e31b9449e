# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The secant (Anderson) point of a heuristic's iterations, tried when it runs alone."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers import RobotModel, solve
from ik_solvers.exceptions import InvalidSolverOptionError
from ik_solvers.solvers._core.extrapolation import record_iteration, secant_point
from ik_solvers_benchmarks.protocol import draw_targets

URDF = Path(__file__).resolve().parents[1] / 'urdf'
# Generous: the starts and iterations bound these searches, never the clock.
TIMEOUT = 2.0


def _chain(name, base, tip):
    return RobotModel.from_urdf((URDF / name).read_text(encoding='utf-8')).chain(base, tip)


@pytest.fixture(scope='module')
def ur5():
    return _chain('ur5_like.urdf', 'base_link', 'tool0')


@pytest.fixture(scope='module')
def panda():
    return _chain('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')


def test_the_secant_point_of_a_linear_iteration_is_its_fixed_point(ur5):
    # x -> A x + b that runs away from its fixed point along one direction (eigenvalue 1.3)
    # and crawls toward it along another (0.95), the rest settled at once: going on along its
    # motion never finds the fixed point; the mixture of the last three outputs is the fixed
    # point, but for the small regularisation of the least squares.
    rng = np.random.default_rng(7)
    count = 6
    basis = np.linalg.qr(rng.normal(size=(count, count)))[0]
    matrix = basis @ np.diag([1.3, 0.95, 0.0, 0.0, 0.0, 0.0]) @ basis.T
    fixed = rng.uniform(-1.0, 1.0, count)
    offset = fixed - matrix @ fixed
    memory = 2
    inputs = np.empty((memory + 1, count))
    outputs = np.empty((memory + 1, count))
    x = fixed + rng.uniform(-0.1, 0.1, count)
    recorded = 0
    for _ in range(memory + 4):  # more than fit: the oldest are dropped
        after = matrix @ x + offset
        recorded = record_iteration(x, after, inputs, outputs, recorded)
        x = after
    assert recorded == memory + 1
    assert np.linalg.norm(outputs[-1] - fixed) > 0.01
    point = np.empty(count)
    assert secant_point(ur5.arrays, inputs, outputs, recorded, np.inf, point)
    assert np.linalg.norm(point - fixed) < 1e-3 * np.linalg.norm(outputs[-1] - fixed)
    # It needs two iterations, and keeps within the radius and the limits.
    assert not secant_point(ur5.arrays, inputs, outputs, 1, np.inf, point)
    assert secant_point(ur5.arrays, inputs, outputs, recorded, 1e-3, point)
    assert np.all(np.abs(point - outputs[-1]) <= 1e-3 + 1e-15)


def test_a_start_that_drifted_away_now_converges(panda):
    # The benchmark's target 96 on the Panda (full pose, 1e-5): from this random start
    # FABRIK's iterates come within 3 mm of a solution and drift away from it again, in
    # cycles, for 1000 iterations; the secant point of the last iterations finds it.
    target = draw_targets(panda, 300, seed=0).poses[96]
    seed = panda.random_configuration(np.random.default_rng(96))
    without = solve(panda, target, seed=seed, solver='fabrik', polish=False, max_attempts=1,
                    timeout=TIMEOUT, secant_memory=0, stall_iterations=1000)
    assert not without.success
    default = solve(panda, target, seed=seed, solver='fabrik', polish=False, max_attempts=1,
                    timeout=TIMEOUT)
    assert default.success
    assert default.iterations < 100
    reached = panda.fk(default.q)
    assert np.linalg.norm(reached[:3, 3] - target[:3, 3]) <= 1e-5
    cosine = (np.trace(reached[:3, :3].T @ target[:3, :3]) - 1.0) / 2.0
    assert np.arccos(min(1.0, cosine)) <= 1e-5
    assert np.all((default.q >= panda.arrays.joint_limits[:, 0])
                  & (default.q <= panda.arrays.joint_limits[:, 1]))


@pytest.mark.parametrize('solver', ['ccd', 'fabrik', 'length_relaxation'])
def test_no_secant_with_the_polish_or_for_a_position(ur5, solver):
    # The secant point belongs to the extrapolation: with the polish and for position-only
    # goals the search runs exactly as without it.
    rng = np.random.default_rng(11)
    for _ in range(3):
        target = ur5.fk(ur5.random_configuration(rng))
        seed = ur5.random_configuration(rng)
        on = solve(ur5, target, seed=seed, solver=solver, timeout=TIMEOUT)
        off = solve(ur5, target, seed=seed, solver=solver, timeout=TIMEOUT, secant_memory=0)
        assert on.success and off.success
        np.testing.assert_array_equal(on.q, off.q)
        alone = solve(ur5, target, seed=seed, solver=solver, polish=False, position_only=True,
                      timeout=TIMEOUT)
        plain = solve(ur5, target, seed=seed, solver=solver, polish=False, position_only=True,
                      timeout=TIMEOUT, secant_memory=0)
        assert alone.iterations == plain.iterations
        np.testing.assert_array_equal(alone.q, plain.q)


@pytest.mark.parametrize('value', [-1, 1.5, True, 'three'])
def test_secant_memory_must_be_a_count(ur5, value):
    target = ur5.fk(ur5.mid_configuration())
    with pytest.raises(InvalidSolverOptionError, match='secant_memory'):
        solve(ur5, target, solver='fabrik', secant_memory=value)
