# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The local polish: joint limits inside the step, the step cap, and the option error's home."""

from pathlib import Path

import numpy as np
import pytest

import ik_solvers
from ik_solvers import Chain, IKError, solve
from ik_solvers.exceptions import InvalidSolverOptionError
from ik_solvers.solvers import IKProblem
from ik_solvers.solvers.polish import polish

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
NO_DEADLINE = float('inf')


@pytest.fixture(scope='module')
def panda():
    urdf = (URDF_DIRECTORY / 'panda_like.urdf').read_text(encoding='utf-8')
    return Chain.from_urdf(urdf, 'panda_link0', 'panda_hand_tcp')


def problem_for(chain, target, tolerance=1e-6):
    return IKProblem(chain, target, position_only=False, position_tolerance=tolerance,
                     orientation_tolerance=tolerance,
                     orientation_weight=0.2 * chain.length_scale)


def test_invalid_option_error_lives_with_the_other_errors(panda):
    assert ik_solvers.InvalidSolverOptionError is InvalidSolverOptionError
    assert ik_solvers.solvers.InvalidSolverOptionError is InvalidSolverOptionError
    assert 'InvalidSolverOptionError' in ik_solvers.__all__
    assert issubclass(InvalidSolverOptionError, IKError)
    assert issubclass(InvalidSolverOptionError, ValueError)
    with pytest.raises(InvalidSolverOptionError, match='timeout'):
        solve(panda, panda.fk(panda.mid_configuration()), timeout=-1.0)


def test_polish_slides_along_joints_resting_on_their_limits(panda):
    # Solutions with two joints on a limit, starts 0.3 rad away with those joints already
    # there: clamping each joint on its own stalls on most of these, the active set does not.
    rng = np.random.default_rng(0)
    solved = 0
    cases = 20
    for _ in range(cases):
        solution = panda.random_configuration(rng)
        resting = rng.choice(panda.num_joints, 2, replace=False)
        solution[resting] = np.where(rng.random(2) < 0.5, panda.lower[resting],
                                     panda.upper[resting])
        start = panda.clip(solution + rng.uniform(-0.3, 0.3, panda.num_joints))
        start[resting] = solution[resting]
        problem = problem_for(panda, panda.fk(solution))
        q, iterations, success = polish(problem, start, deadline=NO_DEADLINE,
                                        max_iterations=20)
        assert panda.within_limits(q)
        if success:
            reached = panda.fk(q)
            assert np.linalg.norm(reached[:3, 3] - problem.target_position) <= 1e-6
            solved += 1
    assert solved >= cases - 1


def test_step_cap_bounds_every_joint_motion(panda):
    rng = np.random.default_rng(4)
    solution = panda.random_configuration(rng)
    start = panda.clip(solution + rng.uniform(-0.4, 0.4, panda.num_joints))
    problem = problem_for(panda, panda.fk(solution))
    for steps in (1, 2, 3):
        q, iterations, _ = polish(problem, start, deadline=NO_DEADLINE, max_iterations=steps,
                                  max_step=0.05, fail_fast=False)
        assert iterations <= steps
        assert np.max(np.abs(q - start)) <= 0.05 * steps + 1e-12
    q, _, success = polish(problem, start, deadline=NO_DEADLINE, max_iterations=200,
                           max_step=0.05, fail_fast=False)
    assert success and panda.within_limits(q)


def test_chain_poses_are_remembered_only_for_equal_configurations(panda):
    rng = np.random.default_rng(8)
    first = panda.random_configuration(rng)
    second = panda.random_configuration(rng)
    poses = panda.poses(first)
    assert not poses.flags.writeable  # a shared answer cannot be changed by one caller
    assert panda.poses(first.copy()) is poses
    other = panda.poses(second)
    assert other is not poses
    np.testing.assert_allclose(other[-1], panda.fk(second), atol=1e-12)
    np.testing.assert_allclose(panda.poses(first)[-1], panda.fk(first), atol=1e-12)


@pytest.mark.parametrize('solver', ['ccd', 'fabrik'])
def test_warm_seed_near_a_limit_gives_the_nearby_solution(panda, solver):
    # Solutions with two joints on a limit and seeds within 0.05 rad of them: the local polish
    # must finish the job from the seed rather than hand over to a restart far away.
    rng = np.random.default_rng(12)
    for _ in range(10):
        solution = panda.random_configuration(rng)
        resting = rng.choice(panda.num_joints, 2, replace=False)
        solution[resting] = np.where(rng.random(2) < 0.5, panda.lower[resting],
                                     panda.upper[resting])
        seed = panda.clip(solution + rng.uniform(-0.05, 0.05, panda.num_joints))
        result = solve(panda, panda.fk(solution), seed=seed, solver=solver, timeout=2.0)
        assert result.success, result
        assert result.attempts == 1
        assert np.max(np.abs(result.q - seed)) <= 0.1
