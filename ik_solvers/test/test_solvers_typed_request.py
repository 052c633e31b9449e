# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The typed request of a solve: Goal, SearchOptions, Status, and solve() over them."""

import dataclasses
import inspect
import math
import re
import warnings

import numpy as np
import pytest

from ik_solvers import (Goal, IKResult, InvalidSolverOptionError, InvalidTargetError,
                        PreparedSolver, RobotModel, SearchOptions, SearchTuning, solve, Status,
                        UnknownSolverError)
from ik_solvers.reach.named_robots import bundled_urdf_directory


@pytest.fixture(scope='module')
def ur5_like():
    urdf = (bundled_urdf_directory() / 'ur5_like.urdf').read_text(encoding='utf-8')
    return RobotModel.from_urdf(urdf).chain('base_link', 'tool0')


@pytest.mark.parametrize('fields', [
    dict(mode='sideways'),
    dict(position_tolerance=0.0),
    dict(orientation_tolerance=math.nan),
    dict(tip_axis=(0.0, 0.0, 0.0)),
    dict(mode='axis', rotation_bounds=(0.1, 0.1, 0.1)),
    dict(mode='none', orientation_fallback=True),
    dict(position_bounds=(math.inf, math.inf, math.inf)),
    dict(orientation_fallback=1),
])
def test_a_goal_is_checked_in_its_constructor(fields):
    with pytest.raises(InvalidTargetError):
        Goal(**fields)


def test_a_goal_is_frozen_normalised_and_survives_a_replace():
    goal = Goal(mode='axis', tip_axis=(0.0, 2.0, 0.0))
    assert goal.tip_axis == (0.0, 1.0, 0.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        goal.mode = 'full'
    bounded = Goal(position_bounds=(1e-3, 1e-3, math.inf))
    assert bounded.position_tolerance == math.inf  # the bounds replace the tolerance
    assert dataclasses.replace(bounded, orientation_tolerance=1e-3).position_bounds == (
        1e-3, 1e-3, math.inf)


@pytest.mark.parametrize('fields, error', [
    (dict(solver='newton'), UnknownSolverError),
    (dict(timeout=-1.0), InvalidSolverOptionError),
    (dict(polish_iterations=0), InvalidSolverOptionError),
    (dict(max_attempts=True), InvalidSolverOptionError),
    (dict(solver_options={'no_such_option': 1.0}), InvalidSolverOptionError),
    (dict(solver_options={'orientation_weight': -1.0}), InvalidSolverOptionError),
])
def test_search_options_are_checked_in_their_constructor(fields, error):
    with pytest.raises(error):
        SearchOptions(**fields)


def test_the_typed_request_gives_the_answer_of_the_keywords(ur5_like):
    rng = np.random.default_rng(5)
    for _ in range(5):
        target = ur5_like.fk(ur5_like.random_configuration(rng))
        seed = ur5_like.random_configuration(rng)
        with pytest.warns(DeprecationWarning,
                          match=r"goal=Goal\(mode='axis'\).*options=SearchOptions\("
                                r"tuning=SearchTuning\(trust_region=2.0\)\)"):
            keywords = solve(ur5_like, target, seed=seed, solver='ccd', orientation_mode='axis',
                             position_tolerance=1e-4, timeout=1.0, max_attempts=4,
                             trust_region=2.0)
        typed = solve(ur5_like, target, seed=seed,
                      goal=Goal(mode='axis', position_tolerance=1e-4),
                      options=SearchOptions(solver='ccd', timeout=1.0, max_attempts=4,
                                            tuning=SearchTuning(trust_region=2.0)))
        prepared = PreparedSolver(ur5_like, Goal(mode='axis', position_tolerance=1e-4),
                                  SearchOptions(solver='ccd', timeout=1.0, max_attempts=4,
                                                tuning=SearchTuning(trust_region=2.0)))
        again = prepared.solve(target, seed)
        for result in (typed, again):
            assert isinstance(result, IKResult)
            assert np.array_equal(result.q, keywords.q)
            assert result.status is keywords.status
            assert result.success == (result.status is Status.SUCCESS)


def test_goal_keywords_beside_a_goal_are_refused(ur5_like):
    target = ur5_like.fk(ur5_like.mid_configuration())
    with pytest.raises(InvalidTargetError, match='position_tolerance'):
        solve(ur5_like, target, goal=Goal(), position_tolerance=1e-3)
    with pytest.raises(InvalidSolverOptionError, match='solver'):
        solve(ur5_like, target, options=SearchOptions(), solver='ccd')


def test_solve_has_ten_parameters_and_one_way_to_ask(ur5_like):
    named = [parameter for parameter in inspect.signature(solve).parameters.values()
             if parameter.kind is not inspect.Parameter.VAR_KEYWORD]
    assert len(named) <= 10
    rng = np.random.default_rng(8)
    target = ur5_like.fk(ur5_like.random_configuration(rng))
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # the typed form and the everyday keywords never warn
        answer = solve(ur5_like, target, ur5_like.mid_configuration(), solver='fabrik',
                       timeout=0.5, position_tolerance=1e-4, orientation_tolerance=1e-4)
        typed = solve(ur5_like, target, ur5_like.mid_configuration(),
                      goal=Goal(position_tolerance=1e-4, orientation_tolerance=1e-4),
                      options=SearchOptions(solver='fabrik', timeout=0.5))
    assert answer.success and typed.success and np.array_equal(answer.q, typed.q)


def test_requests_that_alternate_are_each_served_as_asked(ur5_like, panda):
    # solve() serves a request repeated with the very same objects without hashing it again;
    # whatever came between, each call must get its own solver, chain and deadline.
    rng = np.random.default_rng(10)
    target = ur5_like.fk(ur5_like.random_configuration(rng))
    seed = ur5_like.random_configuration(rng)
    ccd, fabrik = SearchOptions(solver='ccd'), SearchOptions(solver='fabrik')
    for options in (ccd, fabrik, fabrik, ccd, ccd, fabrik):
        assert solve(ur5_like, target, seed, options=options).solver == options.solver
    for name in ('ccd', 'jacobian_transpose', 'jacobian_transpose', 'length_relaxation'):
        assert solve(ur5_like, target, seed, solver=name).solver == name
    panda_target = panda.fk(panda.random_configuration(rng))
    for chain, goal in ((ur5_like, target), (panda, panda_target), (panda, panda_target),
                        (ur5_like, target)):
        answer = solve(chain, goal, None, options=ccd)
        assert answer.q.shape == (chain.num_joints,) and answer.success
        assert np.allclose(chain.fk(answer.q)[:3, 3], goal[:3, 3], atol=1e-5)
    # The same options with a deadline that has passed before the search starts, then without.
    quick = SearchOptions(solver='ccd', timeout=0.5)
    assert solve(ur5_like, target, seed, options=quick).success
    late = solve(ur5_like, target, seed, options=quick, timeout=1e-9)
    assert late.status is Status.TIMED_OUT and not late.success
    assert solve(ur5_like, target, seed, options=quick).success


def test_a_timeout_beside_options_is_accepted_as_this_calls_deadline(ur5_like):
    rng = np.random.default_rng(9)
    target = ur5_like.fk(ur5_like.random_configuration(rng))
    seed = ur5_like.random_configuration(rng)
    beside = solve(ur5_like, target, seed, options=SearchOptions(timeout=5.0), timeout=0.5)
    inside = solve(ur5_like, target, seed, options=SearchOptions(timeout=0.5))
    assert beside.success and np.array_equal(beside.q, inside.q)
    with pytest.raises(InvalidSolverOptionError, match='timeout'):
        solve(ur5_like, target, seed, options=SearchOptions(), timeout=-1.0)


@pytest.mark.parametrize('keyword, form', [
    (dict(position_only=True), "goal=Goal(mode='none')"),
    (dict(orientation_mode='axis'), "goal=Goal(mode='axis')"),
    (dict(polish=False), "options=SearchOptions(polish=False)"),
    (dict(max_attempts=3), "options=SearchOptions(max_attempts=3)"),
    (dict(handoff_ratio=0.5), 'options=SearchOptions(tuning=SearchTuning(handoff_ratio=0.5))'),
    (dict(alpha=0.5), "options=SearchOptions(solver_options={'alpha': 0.5})"),
])
def test_a_keyword_of_the_previous_release_warns_with_its_new_form(ur5_like, keyword, form):
    target = ur5_like.fk(ur5_like.mid_configuration())
    with pytest.warns(DeprecationWarning, match=re.escape(form)):
        answer = solve(ur5_like, target, ur5_like.mid_configuration(), timeout=0.5, **keyword)
    assert answer.success


def test_a_status_compares_as_an_enum_and_prints_its_name():
    assert Status.SUCCESS == Status.SUCCESS and Status.SUCCESS != Status.NO_SOLUTION
    assert Status(3) is Status.IN_COLLISION and int(Status.IN_COLLISION) == 3
    assert str(Status.IN_COLLISION) == 'in_collision'
    assert '%s' % Status.CLOSEST_ORIENTATION == 'closest_orientation'
    assert Status.SUCCESS != 1.5 and Status.SUCCESS != None  # noqa: E711


@pytest.mark.parametrize('other, equal', [('success', True), (0, True), ('timed_out', False),
                                          (2, False)])
def test_comparing_a_status_with_a_name_or_integer_warns_and_still_answers(other, equal):
    with pytest.warns(DeprecationWarning, match='Status.SUCCESS'):
        assert (Status.SUCCESS == other) is equal
    with pytest.warns(DeprecationWarning, match='Status.SUCCESS'):
        assert (Status.SUCCESS != other) is not equal
