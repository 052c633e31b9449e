# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The polish: joint limits inside the step, warm seeds kept, and the option error's home."""

from conftest import bundled_oracle
import numpy as np
import pytest

import ik_solvers
from ik_solvers import solve
from ik_solvers.exceptions import IKError, InvalidSolverOptionError


def polish_alone(chain, target, start, *, steps, tolerance=1e-6, position_only=False):
    """Run one start whose heuristic step is held to nothing, so the polish does the work."""
    return solve(chain, target, seed=start, solver='jacobian_transpose', max_iterations=1,
                 trust_region=1e-12, max_attempts=1, polish_iterations=steps,
                 position_tolerance=tolerance, orientation_tolerance=tolerance,
                 position_only=position_only, timeout=5.0)


PANDA_ORACLE = bundled_oracle('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')


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
        target = panda.fk(solution)
        result = polish_alone(panda, target, start, steps=20)
        assert panda.within_limits(result.q)
        if result.success:
            PANDA_ORACLE.check(result.q, target, position_tolerance=1e-6,
                               orientation_tolerance=1e-6)
            solved += 1
    assert solved >= cases - 1


def test_polish_converges_in_a_few_steps_from_near(panda):
    # Quadratic convergence: from 0.05 rad away, 1e-9 within six steps.
    rng = np.random.default_rng(3)
    for _ in range(10):
        solution = panda.clip(panda.random_configuration(rng) * 0.8)
        start = panda.clip(solution + rng.uniform(-0.05, 0.05, panda.num_joints))
        target = panda.fk(solution)
        result = polish_alone(panda, target, start, steps=6, tolerance=1e-9)
        assert result.success, result
        PANDA_ORACLE.check(result.q, target, position_tolerance=1e-9,
                           orientation_tolerance=1e-9)
        assert result.iterations <= 7  # six polish steps and the one held heuristic step


@pytest.mark.parametrize('solver', ['ccd', 'fabrik'])
def test_warm_seed_near_a_limit_gives_the_nearby_solution(panda, solver):
    # Solutions with two joints on a limit and seeds within 0.05 rad of them: the polish
    # must finish the job from the seed rather than hand over to a restart far away.
    rng = np.random.default_rng(12)
    for _ in range(10):
        solution = panda.random_configuration(rng)
        resting = rng.choice(panda.num_joints, 2, replace=False)
        solution[resting] = np.where(rng.random(2) < 0.5, panda.lower[resting],
                                     panda.upper[resting])
        seed = panda.clip(solution + rng.uniform(-0.05, 0.05, panda.num_joints))
        target = panda.fk(solution)
        result = solve(panda, target, seed=seed, solver=solver, timeout=2.0)
        assert result.success, result
        PANDA_ORACLE.check(result.q, target)
        assert result.attempts == 1
        assert np.max(np.abs(result.q - seed)) <= 0.1


def test_the_polish_has_one_name_and_the_previous_one_warns():
    from ik_solvers import SearchOptions
    from ik_solvers.solvers import Solver
    for polish, solver, runs in ((None, 'ccd', True), (False, 'ccd', False),
                                 (True, 'fabrik', True)):
        options = SearchOptions(solver=solver, polish=polish)
        assert options.runs_polish is runs
        with pytest.warns(DeprecationWarning, match='SearchOptions.runs_polish'):
            assert options.finisher is runs
    with pytest.warns(DeprecationWarning, match='iterations_before_polish'):
        class Older(Solver):
            iterations_before_finisher = 7
    assert Older.iterations_before_polish == 7 and Solver.iterations_before_polish == 100
    assert Older().heuristic_iterations(True) == 7


def test_no_module_of_the_package_is_named_finisher_any_more():
    import pathlib
    package = pathlib.Path(ik_solvers.__file__).parent
    names = {path.stem for path in package.rglob('*.py') if not path.stem.startswith('tree_')}
    assert not any('finisher' in name for name in names)
    assert {'polish', 'polish_loop'} <= names
