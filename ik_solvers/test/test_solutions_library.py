# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Several solutions per pose: distinct, verified, ordered; the null-space step."""

import math
from pathlib import Path

from ik_solvers import Goal, InvalidSolverOptionError, RobotModel, SearchOptions, solve_many
from ik_solvers_benchmarks.ur_closed_form import URClosedForm
from ik_solvers.preferences import make_preference, PREFERENCES
from ik_solvers.solvers.null_space import null_space_improve
from ik_solvers.solvers.solutions import DISTINCT_THRESHOLD, joint_distance, turn_joints
import numpy as np
import pytest

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
UR5 = RobotModel.from_urdf((URDF_DIR / 'ur5_like.urdf').read_text(encoding='utf-8')).chain(
    'base_link', 'tool0')
PANDA = RobotModel.from_urdf((URDF_DIR / 'panda_like.urdf').read_text(encoding='utf-8')).chain(
    'panda_link0', 'panda_hand_tcp')


def _meets(chain, q, target, position=1e-5, orientation=1e-5):
    reached = chain.fk(q)
    rotation = target[:3, :3] @ reached[:3, :3].T
    angle = math.acos(max(-1.0, min(1.0, 0.5 * (np.trace(rotation) - 1.0))))
    return (np.linalg.norm(reached[:3, 3] - target[:3, 3]) <= position and angle <= orientation
            and chain.within_limits(q))


def test_ur_solutions_are_distinct_verified_and_among_the_closed_form_ones():
    oracle = URClosedForm(UR5)
    modulo = turn_joints(UR5)
    target = UR5.fk(np.array([0.4, -1.1, 1.3, -0.7, 0.9, 0.3]))
    expected = oracle.solutions(target)
    assert len(expected) == 8
    answer = solve_many(UR5, target, max_solutions=8, timeout=0.5)
    found = answer.configurations
    assert 4 <= len(found) <= 8
    for index, q in enumerate(found):
        assert _meets(UR5, q, target)
        assert all(joint_distance(q, other, modulo) > DISTINCT_THRESHOLD
                   for other in found[:index])
        # Every solution found is one of the closed form's, modulo a turn.
        assert min(joint_distance(q, other, modulo) for other in expected) < 1e-3


def test_one_solution_with_nearest_is_the_search_from_the_seed():
    from ik_solvers import solve
    target = UR5.fk(np.array([0.1, -1.0, 1.2, -0.5, 0.4, 0.2]))
    seed = np.array([0.0, -1.1, 1.1, -0.4, 0.5, 0.0])
    one = solve_many(UR5, target, max_solutions=1, seed=seed)
    searched = solve(UR5, target, seed=seed)
    assert len(one.results) == 1
    # The same solution, taken on to the exact root it lies near: closer to the pose.
    np.testing.assert_allclose(one.results[0].q, searched.q, atol=1e-4)
    assert one.results[0].position_error <= searched.position_error
    assert one.results[0].orientation_error <= searched.orientation_error


def test_a_whole_goal_and_options_ask_for_what_their_keywords_ask_for():
    target = UR5.fk(np.array([0.1, -1.0, 1.2, -0.5, 0.4, 0.2]))
    seed = np.array([0.0, -1.1, 1.1, -0.4, 0.5, 0.0])
    keywords = solve_many(UR5, target, max_solutions=1, seed=seed, solver='ccd',
                          position_tolerance=1e-4, timeout=0.5)
    typed = solve_many(UR5, target, max_solutions=1, seed=seed, timeout=0.5,
                       goal=Goal(position_tolerance=1e-4), options=SearchOptions(solver='ccd'))
    assert typed.results[0].solver == keywords.results[0].solver == 'ccd'
    np.testing.assert_array_equal(typed.results[0].q, keywords.results[0].q)
    assert _meets(UR5, typed.results[0].q, target, position=1e-4)
    with pytest.raises(InvalidSolverOptionError, match='options= replaces'):
        solve_many(UR5, target, options=SearchOptions(), solver='ccd')


def test_solutions_are_ordered_by_the_preference():
    target = UR5.fk(np.array([0.4, -1.1, 1.3, -0.7, 0.9, 0.3]))
    for name in ('nearest', 'limit_margin', 'manipulability', 'rest_posture'):
        answer = solve_many(UR5, target, max_solutions=8, preference=name, timeout=0.2)
        assert len(answer.results) >= 2
        ranking = make_preference(name, UR5, seed=UR5.mid_configuration())
        scores = [ranking.score(q) for q in answer.configurations]
        assert scores == sorted(scores, reverse=True)
        assert np.allclose(scores, answer.scores)


def test_the_distinctness_rule_compares_whole_turns_as_equal():
    modulo = turn_joints(UR5)
    assert modulo.all()  # +-2 pi joints
    a = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert joint_distance(a, a + np.array([2 * math.pi, 0, 0, 0, 0, -2 * math.pi]),
                          modulo) < 1e-12
    assert joint_distance(a, a + 0.02, modulo) == pytest.approx(0.02)
    panda_modulo = turn_joints(PANDA)
    assert not panda_modulo.any()  # every Panda range is shorter than a turn


@pytest.mark.parametrize('name', ['rest_posture', 'limit_margin', 'manipulability'])
def test_the_null_space_step_keeps_the_pose_and_improves_the_preference(name):
    rng = np.random.default_rng(5)
    ranking = make_preference(name, PANDA, rest_posture=PANDA.mid_configuration())
    improved = 0
    for _ in range(5):
        q = PANDA.random_configuration(rng)
        target = PANDA.fk(q)
        outcome = null_space_improve(PANDA, q, target, ranking, position_tolerance=1e-5,
                                     orientation_tolerance=1e-5, max_steps=20)
        assert _meets(PANDA, outcome.q, target)
        assert outcome.score >= ranking.score(q)
        assert outcome.score == pytest.approx(ranking.score(outcome.q))
        improved += outcome.score > ranking.score(q) + 1e-6
    assert improved >= 4


def test_a_bounded_null_space_step_stays_within_its_bound():
    q = PANDA.mid_configuration() + 0.3
    target = PANDA.fk(q)
    ranking = make_preference('rest_posture', PANDA)
    outcome = null_space_improve(PANDA, q, target, ranking, position_tolerance=1e-4,
                                 orientation_tolerance=1e-3, max_change=0.01, max_steps=10)
    assert np.max(np.abs(outcome.q - q)) <= 0.01 + 1e-12
    assert outcome.steps > 0 and _meets(PANDA, outcome.q, target, 1e-4, 1e-3)


def test_preferences_on_a_redundant_arm_beat_nearest():
    rng = np.random.default_rng(11)
    rest = PANDA.mid_configuration()
    margin = make_preference('limit_margin', PANDA)
    distance = make_preference('rest_posture', PANDA, rest_posture=rest)
    near, preferred_margin, preferred_rest = [], [], []
    for _ in range(6):
        target = PANDA.fk(PANDA.random_configuration(rng))
        seed = PANDA.random_configuration(rng)
        base = solve_many(PANDA, target, seed=seed, max_solutions=1, timeout=0.05)
        by_margin = solve_many(PANDA, target, seed=seed, preference='limit_margin',
                               timeout=0.05)
        by_rest = solve_many(PANDA, target, seed=seed, preference='rest_posture',
                             rest_posture=rest, timeout=0.05)
        for answer in (base, by_margin, by_rest):
            assert answer.success and _meets(PANDA, answer.results[0].q, target)
        near.append((margin.score(base.results[0].q), distance.score(base.results[0].q)))
        preferred_margin.append(margin.score(by_margin.results[0].q))
        preferred_rest.append(distance.score(by_rest.results[0].q))
    near = np.array(near)
    assert np.mean(preferred_margin) > np.mean(near[:, 0])
    assert np.mean(preferred_rest) > np.mean(near[:, 1])  # scores are minus the distance


def test_bad_options_are_refused_clearly():
    target = UR5.fk(UR5.mid_configuration())
    with pytest.raises(InvalidSolverOptionError, match='preference'):
        solve_many(UR5, target, preference='prettiest')
    with pytest.raises(InvalidSolverOptionError, match='max_solutions'):
        solve_many(UR5, target, max_solutions=0)
    with pytest.raises(InvalidSolverOptionError, match='rest_posture'):
        solve_many(UR5, target, preference='rest_posture', rest_posture=[0.0, 1.0])
    assert PREFERENCES[0] == 'nearest'


def test_clearance_ranks_by_a_collision_model():
    class Wall:
        """Collides when joint 0 is above a threshold, more padding reaches further."""

        def __init__(self, padding=0.0):
            self.padding = padding

        def with_padding(self, padding):
            return Wall(padding)

        def check(self, q, stop_at_first=False):
            class Report:
                colliding = q[0] + 10.0 * self.padding > 1.0
                pairs = (('wall', 'link'),) if colliding else ()
                unchecked_links = ()
            return Report()

    ranking = make_preference('clearance', UR5, collision=Wall())
    assert ranking.score(np.array([2.0, 0, 0, 0, 0, 0])) == -1.0
    assert ranking.score(np.array([0.0, 0, 0, 0, 0, 0])) > ranking.score(
        np.array([0.9, 0, 0, 0, 0, 0]))


def test_a_closed_drag_with_rest_posture_comes_back_to_its_start():
    from ik_solvers_benchmarks.solutions_bench import drag_loop
    rest = drag_loop('panda_like', preference='rest_posture', goals=150)
    nearest = drag_loop('panda_like', preference='nearest', goals=150)
    # A goal's search has the streamed deadline: on a loaded machine one may run out.
    assert rest['exact'] >= 0.98 * rest['goals']
    assert rest['end_minus_start'] <= 0.02
    assert rest['end_minus_start'] < nearest['end_minus_start']


def test_near_a_singularity_two_branches_are_told_apart_and_each_sits_on_its_root():
    # The elbow 0.012 rad from straight: its two branches lie 0.024 rad apart, and a solution
    # within the tolerances (1e-5 m, 1e-5 rad) may lie milliradians from either root.
    q = np.array([-0.758, -2.846, 0.012, 2.304, -2.564, 0.935])
    target = UR5.fk(q)
    answer = solve_many(UR5, target, max_solutions=8, seed=q + 0.3, timeout=0.05)
    elbows = sorted(float(result.q[2]) for result in answer.results
                    if abs(result.q[2]) < 0.05)
    assert len(elbows) == 2 and elbows[0] < 0.0 < elbows[1]
    for result in answer.results:
        assert result.position_error < 1e-12 and result.orientation_error < 1e-12
        np.testing.assert_allclose(UR5.fk(result.q), target, atol=1e-12)
