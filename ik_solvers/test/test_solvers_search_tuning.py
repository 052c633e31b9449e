# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The search's tuning as a typed structure: SearchTuning, and its previous form as options."""

import dataclasses
import math
import re
import warnings

import numpy as np
import pytest

from ik_solvers import (InvalidSolverOptionError, RobotModel, SearchOptions, SearchTuning,
                        solve, solve_batch, solve_many, SOLVERS)
from ik_solvers.reach.named_robots import bundled_urdf_directory
from ik_solvers.solvers import solver_class
from ik_solvers.solvers.request import Goal
from ik_solvers.solvers.step_api import search_settings

TUNED = dict(handoff_ratio=0.5, trust_region=0.3, extrapolation=True, secant_memory=2)


@pytest.fixture(scope='module')
def ur5_like():
    urdf = (bundled_urdf_directory() / 'ur5_like.urdf').read_text(encoding='utf-8')
    return RobotModel.from_urdf(urdf).chain('base_link', 'tool0')


@pytest.mark.parametrize('fields', [
    dict(handoff_ratio=0.0), dict(handoff_ratio=1.5), dict(handoff_ratio=math.nan),
    dict(handoff_ratio='half'), dict(trust_region=-1.0), dict(trust_region=math.inf),
    dict(trust_region=True), dict(extrapolation=1), dict(extrapolation='yes'),
    dict(secant_memory=-1), dict(secant_memory=1.5), dict(secant_memory=True),
])
def test_a_tuning_is_checked_in_its_constructor(fields):
    with pytest.raises(InvalidSolverOptionError, match=next(iter(fields))):
        SearchTuning(**fields)


def test_a_tuning_is_frozen_normalised_and_hashable():
    tuning = SearchTuning(handoff_ratio=1, trust_region=np.float64(0.5), secant_memory=np.int64(3))
    assert tuning == SearchTuning(handoff_ratio=1.0, trust_region=0.5, secant_memory=3)
    assert type(tuning.handoff_ratio) is float and type(tuning.secant_memory) is int
    assert hash(tuning) == hash(SearchTuning(handoff_ratio=1.0, trust_region=0.5,
                                             secant_memory=3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        tuning.trust_region = 2.0
    with pytest.raises(InvalidSolverOptionError, match='SearchTuning'):
        SearchOptions(tuning={'handoff_ratio': 0.5})


def test_the_heuristics_defaults_are_unchanged():
    # The four built in by name: another test registers a toy heuristic in the same process.
    defaults = {name: (solver_class(name).handoff_ratio, solver_class(name).trust_region,
                       solver_class(name).extrapolation, solver_class(name).secant_memory)
                for name in ('ccd', 'fabrik', 'jacobian_transpose', 'length_relaxation')}
    assert defaults == {'ccd': (0.95, 0.5, True, 5), 'fabrik': (0.95, 1.0, True, 5),
                        'jacobian_transpose': (0.95, 1.0, False, 0),
                        'length_relaxation': (0.95, 1.0, True, 5)}


@pytest.mark.parametrize('solver', SOLVERS)
def test_no_tuning_packs_the_heuristics_own_defaults(ur5_like, solver):
    heuristic = solver_class(solver)
    goal = Goal()
    plain = search_settings(ur5_like, goal, SearchOptions(solver=solver))
    empty = search_settings(ur5_like, goal, SearchOptions(solver=solver,
                                                          tuning=SearchTuning()))
    spelled = search_settings(ur5_like, goal, SearchOptions(solver=solver, tuning=SearchTuning(
        handoff_ratio=heuristic.handoff_ratio, trust_region=heuristic.trust_region,
        secant_memory=heuristic.secant_memory)))
    assert np.array_equal(plain, empty) and np.array_equal(plain, spelled)
    tuned = search_settings(ur5_like, goal, SearchOptions(solver=solver, tuning=SearchTuning(
        trust_region=heuristic.trust_region * 2.0)))
    assert not np.array_equal(plain, tuned)


def test_a_tuning_in_the_solver_options_warns_with_its_new_form_and_moves_there():
    with pytest.warns(DeprecationWarning, match=re.escape(
            'options=SearchOptions(tuning=SearchTuning(handoff_ratio=0.5, trust_region=0.3))')):
        old = SearchOptions(solver='ccd', solver_options={
            'handoff_ratio': 0.5, 'trust_region': 0.3, 'over_relaxation': 1.2})
    new = SearchOptions(solver='ccd', solver_options={'over_relaxation': 1.2},
                        tuning=SearchTuning(handoff_ratio=0.5, trust_region=0.3))
    assert old == new and hash(old) == hash(new)
    assert old.solver_options == (('over_relaxation', 1.2),)
    with pytest.raises(InvalidSolverOptionError, match='tuning'):
        SearchOptions(solver_options={'trust_region': 0.3}, tuning=SearchTuning())


def test_both_forms_give_the_same_answers(ur5_like):
    rng = np.random.default_rng(17)
    targets = np.array([ur5_like.fk(ur5_like.random_configuration(rng)) for _ in range(12)])
    seeds = np.array([ur5_like.random_configuration(rng) for _ in range(12)])
    for solver in SOLVERS:
        new = SearchOptions(solver=solver, timeout=5.0, max_attempts=2, polish=False,
                            tuning=SearchTuning(**TUNED))
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)
            old = SearchOptions(solver=solver, timeout=5.0, max_attempts=2, polish=False,
                                solver_options=TUNED)
        default = SearchOptions(solver=solver, timeout=5.0, max_attempts=2, polish=False)
        moved = 0
        for target, seed in zip(targets, seeds):
            typed = solve(ur5_like, target, seed, options=new)
            with pytest.warns(DeprecationWarning, match=re.escape(
                    'options=SearchOptions(tuning=SearchTuning(handoff_ratio=0.5))')):
                keyword = solve(ur5_like, target, seed, solver=solver, timeout=5.0,
                                max_attempts=2, polish=False, **TUNED)
            assert np.array_equal(typed.q, solve(ur5_like, target, seed, options=old).q)
            assert np.array_equal(typed.q, keyword.q) and typed.status is keyword.status
            moved += not np.array_equal(typed.q, solve(ur5_like, target, seed,
                                                       options=default).q)
        assert moved > 0  # the tuning is used, not dropped (and not cached as the default)
        batch = solve_batch(ur5_like, targets, seeds, solver=solver, polish=False,
                            max_attempts=2, threads=1, tuning=SearchTuning(**TUNED))
        with pytest.warns(DeprecationWarning, match=re.escape(
                'tuning=SearchTuning(extrapolation=True, handoff_ratio=0.5')) as caught:
            old_batch = solve_batch(ur5_like, targets, seeds, solver=solver, polish=False,
                                    max_attempts=2, threads=1, **TUNED)
        assert caught[0].filename == __file__  # it names the caller
        assert np.array_equal(batch.q, old_batch.q)


def test_solve_many_takes_the_tuning_in_its_options_or_as_a_keyword(ur5_like):
    rng = np.random.default_rng(23)
    target = ur5_like.fk(ur5_like.random_configuration(rng))
    seed = ur5_like.random_configuration(rng)
    typed = solve_many(ur5_like, target, seed=seed, max_solutions=2, timeout=5.0,
                       options=SearchOptions(solver='fabrik', max_attempts=4,
                                             tuning=SearchTuning(handoff_ratio=0.5)))
    keyword = solve_many(ur5_like, target, seed=seed, max_solutions=2, timeout=5.0,
                         solver='fabrik', max_attempts=4, handoff_ratio=0.5)
    assert typed.success and len(typed.configurations) == len(keyword.configurations)
    for mine, theirs in zip(typed.configurations, keyword.configurations):
        assert np.array_equal(mine, theirs)
