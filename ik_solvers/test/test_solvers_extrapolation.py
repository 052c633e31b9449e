# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The search's extrapolation of a heuristic's iterations when it runs alone."""

from pathlib import Path

from conftest import bundled_oracle
import numpy as np
import pytest

from ik_solvers import RobotModel, solve
from ik_solvers.exceptions import InvalidSolverOptionError
from ik_solvers_benchmarks.protocol import draw_seeds, draw_targets

URDF = Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf'
LINKS = ('base_link', 'tool0')
# Generous: the starts and iterations bound these searches, never the clock.
TIMEOUT = 2.0
EXTRAPOLATING = ('ccd', 'fabrik', 'length_relaxation')


@pytest.fixture(scope='module')
def chain():
    return RobotModel.from_urdf(URDF.read_text(encoding='utf-8')).chain(*LINKS)


@pytest.fixture(scope='module')
def cases(chain):
    rng = np.random.default_rng(20261127)
    return [(chain.fk(chain.random_configuration(rng)), chain.random_configuration(rng))
            for _ in range(30)]


def _one_start(chain, target, seed, solver, **options):
    return solve(chain, target, seed=seed, solver=solver, polish=False, max_attempts=1,
                 timeout=TIMEOUT, **options)


@pytest.mark.parametrize('solver', EXTRAPOLATING)
def test_extrapolation_cuts_the_iterations_of_a_full_pose(chain, cases, solver):
    # One start each, full pose at 1e-5: on the starts both versions solve, the extrapolated
    # search needs far fewer iterations. (It may solve fewer single starts: extrapolating, a
    # start still far from its goal is ended early, in favour of the next start.)
    plain, extrapolated = [], []
    for target, seed in cases:
        without = _one_start(chain, target, seed, solver, extrapolation=False)
        default = _one_start(chain, target, seed, solver)
        assert default.success == _one_start(chain, target, seed, solver,
                                             extrapolation=True).success
        plain.append(without)
        extrapolated.append(default)
        if default.success:
            bundled_oracle('ur5_like.urdf', *LINKS).check(default.q, target)
    both = [k for k in range(len(cases)) if plain[k].success and extrapolated[k].success]
    assert len(both) >= 3
    assert np.median([extrapolated[k].iterations for k in both]) < \
        0.6 * np.median([plain[k].iterations for k in both])


def test_a_start_that_crawled_now_converges(chain):
    # The benchmark's first full-pose targets and random seeds, one start each: Welman's plain
    # sweeps crawl toward some so slowly that they use up CCD's 1000 iterations unsolved;
    # extrapolating their own motion, the same start converges, and more starts are solved
    # in all. (A start still far from its goal is ended early when extrapolating, so a start
    # the plain sweeps solve may be lost: 6 of 200 such targets, 8 before whole-turn joints
    # were searched freely.)
    targets = draw_targets(chain, 20, seed=0)
    seeds = draw_seeds(chain, targets, 'random', seed=0)
    crawled_then_converged = solved_plainly = solved_extrapolating = 0
    for target, seed in zip(targets.poses, seeds):
        plain = _one_start(chain, target, seed, 'ccd', extrapolation=False, over_relaxation=1.0)
        extrapolated = _one_start(chain, target, seed, 'ccd', extrapolation=True,
                                  over_relaxation=1.0)
        solved_plainly += plain.success
        solved_extrapolating += extrapolated.success
        if extrapolated.success and not plain.success and plain.iterations >= 1000:
            crawled_then_converged += 1
            assert extrapolated.iterations < 100
    assert crawled_then_converged >= 1
    assert solved_extrapolating > solved_plainly


@pytest.mark.parametrize('solver', EXTRAPOLATING)
def test_no_extrapolation_with_the_polish_or_for_a_position(chain, cases, solver):
    # The polish's searches and position-only goals run exactly as without the option.
    for target, seed in cases[:4]:
        on = solve(chain, target, seed=seed, solver=solver, timeout=TIMEOUT)
        off = solve(chain, target, seed=seed, solver=solver, timeout=TIMEOUT,
                    extrapolation=False)
        assert on.success and off.success
        np.testing.assert_array_equal(on.q, off.q)
        alone = solve(chain, target, seed=seed, solver=solver, polish=False,
                      position_only=True, timeout=TIMEOUT)
        plain = solve(chain, target, seed=seed, solver=solver, polish=False,
                      position_only=True, timeout=TIMEOUT, extrapolation=False)
        assert alone.iterations == plain.iterations
        np.testing.assert_array_equal(alone.q, plain.q)


@pytest.mark.parametrize('value', ['yes', 1, 0.5])
def test_extrapolation_must_be_a_bool(chain, value):
    target = chain.fk(chain.mid_configuration())
    with pytest.raises(InvalidSolverOptionError, match='extrapolation'):
        solve(chain, target, solver='ccd', extrapolation=value)
