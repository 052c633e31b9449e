# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Joints whose limits span a whole turn are searched across the cut, answered within limits."""

import math
from pathlib import Path

import numpy as np
import pytest

from ik_solvers import PreparedSolver, RobotModel, solve, solve_batch, SOLVERS
from ik_solvers.solvers import SearchOptions
from ik_solvers.solvers._core.full_turns import search_arrays
from ik_solvers.solvers.solve import nearest_turn

TWO_PI = '6.283185307179586'
URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()
# The same arm with each joint limited to one turn, [-pi, pi], as joint-limited descriptions
# of UR arms are.
ONE_TURN = URDF.replace('lower="-%s" upper="%s"' % (TWO_PI, TWO_PI),
                        'lower="-3.14159265359" upper="3.14159265359"')


def _chain(text):
    return RobotModel.from_urdf(text).chain('base_link', 'tool0')


def test_the_limits_of_whole_turn_joints_are_kept_aside_for_the_search():
    chain = _chain(ONE_TURN)
    assert np.all(chain.upper - chain.lower >= 2.0 * math.pi), 'the test needs whole turns'
    arrays = search_arrays(chain.arrays)
    assert arrays.joint_limits.shape == (6, 6)
    assert np.all(np.isinf(arrays.joint_limits[:, :2]))
    assert np.array_equal(arrays.joint_limits[:, 4], chain.lower)
    assert np.array_equal(arrays.joint_limits[:, 5], chain.upper)
    # Restarts still sample within the limits; the chain's own arrays are untouched.
    assert np.array_equal(arrays.joint_limits[:, 2:4], chain.arrays.joint_limits[:, 2:4])
    assert np.all(np.isfinite(chain.arrays.joint_limits[:, :2]))


def test_a_chain_without_whole_turn_joints_is_searched_on_its_own_arrays():
    narrow = URDF.replace('lower="-%s" upper="%s"' % (TWO_PI, TWO_PI),
                          'lower="-3.0" upper="3.0"')
    arrays = _chain(narrow).arrays
    assert search_arrays(arrays) is arrays


@pytest.mark.parametrize('solver', SOLVERS)
def test_a_joint_reaches_its_goal_across_the_cut_at_pi(solver):
    # The goal's first joint is just below pi, the seed's just above -pi, everything else the
    # same: 0.28 rad apart across the cut, 6 rad apart within the limits. One start, from the
    # seed: the search turns the joint across the cut and answers within the limits.
    chain = _chain(ONE_TURN)
    goal = np.array([3.0, -1.2, 1.4, -0.6, 1.1, 0.4])
    seed = goal.copy()
    seed[0] = -3.0
    target = chain.fk(goal)
    result = solve(chain, target, seed, options=SearchOptions(solver=solver, max_attempts=1,
                                                              timeout=1.0))
    assert result.success, result
    assert result.attempts == 1
    assert np.all(result.q >= chain.lower) and np.all(result.q <= chain.upper)
    assert np.abs(chain.fk(result.q) - target).max() < 1e-4
    assert result.q[0] == pytest.approx(3.0, abs=1e-3)


@pytest.mark.parametrize('solver', SOLVERS)
def test_answers_stay_within_the_limits_on_the_turn_nearest_the_seed(solver):
    chain = _chain(ONE_TURN)
    rng = np.random.default_rng(11)
    seeds = np.array([chain.random_configuration(rng) for _ in range(40)])
    targets = np.array([chain.fk(chain.random_configuration(rng)) for _ in range(40)])
    for index in range(40):
        result = solve(chain, targets[index], seeds[index], solver=solver)
        assert result.success
        q = result.q
        assert np.all(q >= chain.lower) and np.all(q <= chain.upper)
        # No other copy of a joint within the limits is nearer the seed.
        for shift in (-2.0 * math.pi, 2.0 * math.pi):
            other = q + shift
            inside = (other >= chain.lower) & (other <= chain.upper)
            assert np.all(np.abs(other - seeds[index])[inside]
                          >= np.abs(q - seeds[index])[inside] - 1e-9)
    batch = solve_batch(chain, targets, seeds, solver=solver)
    assert batch.success.all()
    assert np.all(batch.q >= chain.lower) and np.all(batch.q <= chain.upper)


def test_a_seed_outside_the_limits_is_clamped_as_before():
    # solve() documents that a seed outside the limits is clamped; a whole-turn joint too.
    chain = _chain(ONE_TURN)
    goal = np.array([3.1, -1.2, 1.4, -0.6, 1.1, 0.4])
    seed = goal.copy()
    seed[0] = 4.0  # clamped to pi, next to the goal; taken modulo a turn it would be -2.28
    result = solve(chain, chain.fk(goal), seed,
                   options=SearchOptions(solver='jacobian_transpose', max_attempts=1))
    assert result.success
    assert result.q[0] == pytest.approx(3.1, abs=1e-3)


def test_a_tracking_solver_keeps_the_limits_of_whole_turn_joints():
    # A servo steps from its last point: a goal a little beyond the limit of a [-pi, pi] joint
    # is the same angle as one just above -pi, a whole turn of motion away. Searched freely,
    # that copy is the answer; a tracking solver keeps the joint at its limit instead.
    chain = _chain(ONE_TURN)
    last = np.array([math.pi - 0.01, -1.2, 1.4, -0.6, 1.1, 0.4])
    beyond = last.copy()
    beyond[0] = math.pi + 0.1
    target = chain.fk(beyond)
    options = SearchOptions(solver='jacobian_transpose', max_attempts=1, timeout=0.5)
    free = PreparedSolver(chain, options=options).solve(target, last)
    assert free.success and free.q[0] == pytest.approx(0.1 - math.pi, abs=1e-3)
    tracking = PreparedSolver(chain, options=options, free_whole_turns=False).solve(target, last)
    assert tracking.q[0] <= chain.upper[0]
    assert tracking.q[0] > last[0] - 0.05  # stayed at the limit, no turn the other way
    assert not tracking.success


def _mimic_arm():
    # The elbow spans more than a turn and its follower, the forearm, turns at 0.8 times it.
    from test_solvers_mimic import MIMIC_ARM_URDF
    text = MIMIC_ARM_URDF.replace('lower="-3" upper="3"', 'lower="-3.5" upper="3.5"')
    text = text.replace('lower="-2.5" upper="2.5"', 'lower="-3.5" upper="3.5"')
    text = text.replace('<limit lower="-3.5" upper="3.5" effort="1" velocity="1"/>\n'
                        '    <mimic', '<limit lower="-5" upper="5" effort="1" velocity="1"/>\n'
                        '    <mimic')
    chain = RobotModel.from_urdf(text).chain('base', 'tool')
    elbow = list(chain.joint_names).index('elbow')
    assert chain.upper[elbow] - chain.lower[elbow] >= 2.0 * math.pi, 'the test needs a turn'
    return chain, elbow


def test_a_mimic_leader_keeps_its_limits():
    # A turn of the elbow would turn the forearm by 0.8 of a turn: not the same pose, so the
    # elbow is searched within its limits.
    chain, elbow = _mimic_arm()
    limits = search_arrays(chain.arrays).joint_limits
    assert np.isfinite(limits[elbow, :2]).all()
    others = [index for index in range(chain.num_joints) if index != elbow]
    assert np.isinf(limits[others, :2]).all()


def test_a_mimic_leader_is_not_moved_a_turn_toward_the_seed():
    chain, elbow = _mimic_arm()
    q = np.array([0.3, -0.4, 3.0, 0.5, 0.6, -0.7])
    seed = q.copy()
    seed[elbow] = -3.0  # its copy a turn away, -3.28, lies within the limits and nearer
    moved = nearest_turn(q, seed, chain)
    assert moved[elbow] == q[elbow]
    assert np.abs(chain.fk(moved) - chain.fk(q)).max() < 1e-12
