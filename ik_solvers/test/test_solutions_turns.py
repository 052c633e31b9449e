# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A preference's answer is on its best in-limit turn; UR poses' branches on both shoulders."""

import math
from pathlib import Path

from ik_solvers import RobotModel, solve_many
from ik_solvers_benchmarks.preference_turns import in_limit_copies, wide_chain
from ik_solvers_benchmarks.ur_closed_form import URClosedForm
from ik_solvers.preferences import make_preference
from ik_solvers.solvers.solutions import joint_distance, turn_joints
import numpy as np
import pytest

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
TURN = 2.0 * math.pi

WIDE_PANDA = wide_chain('panda_like')
UR5 = RobotModel.from_urdf((URDF_DIR / 'ur5_like.urdf').read_text(encoding='utf-8')).chain(
    'base_link', 'tool0')


def test_the_wide_panda_has_turn_copies():
    assert np.allclose(WIDE_PANDA.lower, -TURN) and np.allclose(WIDE_PANDA.upper, TURN)
    q = WIDE_PANDA.random_configuration(np.random.default_rng(0))
    assert len(in_limit_copies(WIDE_PANDA, q)) == 2 ** 7


@pytest.mark.parametrize('name', ['rest_posture', 'limit_margin'])
def test_no_in_limit_turn_copy_of_the_first_answer_scores_better(name):
    rng = np.random.default_rng(7)
    rest = WIDE_PANDA.mid_configuration()
    measure = make_preference(name, WIDE_PANDA, rest_posture=rest)
    checked = 0
    for _ in range(8):
        target = WIDE_PANDA.fk(WIDE_PANDA.random_configuration(rng))
        seed = WIDE_PANDA.random_configuration(rng)
        answer = solve_many(WIDE_PANDA, target, seed=seed, preference=name,
                            rest_posture=rest, timeout=0.02)
        if not answer.success:
            continue
        q = answer.results[0].q
        assert WIDE_PANDA.within_limits(q)
        score = measure.score(q)
        best = max(measure.score(copy) for copy in in_limit_copies(WIDE_PANDA, q))
        assert best <= score + 1e-9 * (abs(score) + 1.0), (q, score, best)
        checked += 1
    assert checked >= 6


def _four_branch_poses(count):
    """Yield UR5 poses whose closed-form solutions are four, two on each shoulder."""
    oracle = URClosedForm(UR5)
    rng = np.random.default_rng(3)
    found = 0
    while found < count:
        target = UR5.fk(UR5.random_configuration(rng))
        solutions = oracle.solutions(target)
        # The shoulder of a solution is its first joint (two values, one per shoulder).
        shoulders = {round(float(q[0]) % TURN, 6) for q in solutions}
        # Branches far apart: near the elbow's singularity two branches meet, and a found one
        # may differ from the closed form's by more than the match below.
        apart = min((joint_distance(a, b, turn_joints(UR5)) for index, a in enumerate(solutions)
                     for b in solutions[:index]), default=0.0)
        if len(solutions) == 4 and len(shoulders) == 2 and apart > 0.2:
            found += 1
            yield target, solutions


def test_a_ur_pose_with_four_branches_gets_both_shoulders():
    modulo = turn_joints(UR5)
    rng = np.random.default_rng(5)
    for target, solutions in _four_branch_poses(6):
        for seed in (solutions[0], solutions[-1], UR5.random_configuration(rng)):
            answer = solve_many(UR5, target, seed=seed, max_solutions=8, timeout=0.05)
            found = answer.configurations
            for q in solutions:
                assert min(joint_distance(q, other, modulo) for other in found) < 1e-3


@pytest.mark.parametrize('chain', [WIDE_PANDA, UR5], ids=['wide_panda', 'ur5'])
def test_the_nearest_preferences_turn_is_the_copy_of_every_joint_nearest_the_seed(chain):
    # The closed form nearest's best_turn uses must pick what scoring every in-limit copy
    # picks: each joint's copy nearest the seed, and so the smallest largest change.
    rng = np.random.default_rng(11)
    for _ in range(50):
        seed = chain.random_configuration(rng)
        q = chain.random_configuration(rng)
        measure = make_preference('nearest', chain, seed=seed)
        chosen = measure.best_turn(q)
        copies = in_limit_copies(chain, q)
        best = max(copies, key=measure.score)
        assert chain.within_limits(chosen)
        assert np.allclose(chain.fk(chosen), chain.fk(q), atol=1e-9)
        assert measure.score(chosen) == pytest.approx(measure.score(best), abs=1e-12)
        for index in range(chain.num_joints):
            options = {round(float(copy[index]), 9) for copy in copies}
            nearest = min(options, key=lambda value: abs(value - seed[index]))
            assert chosen[index] == pytest.approx(nearest, abs=1e-9)
