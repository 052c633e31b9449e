# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The branch flips derived from a chain's structure, and solve_many's stopping rule."""

from pathlib import Path

from ik_solvers import InvalidSolverOptionError, RobotModel, solve_many
from ik_solvers_benchmarks.ur_closed_form import URClosedForm
from ik_solvers.solvers.branch_flips import branch_flips, chain_structure
from ik_solvers.solvers.solutions import DISTINCT_THRESHOLD, joint_distance, turn_joints
import numpy as np
import pytest

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
UR5 = RobotModel.from_urdf((URDF_DIR / 'ur5_like.urdf').read_text(encoding='utf-8')).chain(
    'base_link', 'tool0')
PANDA = RobotModel.from_urdf((URDF_DIR / 'panda_like.urdf').read_text(encoding='utf-8')).chain(
    'panda_link0', 'panda_hand_tcp')
# A UR5 pose whose eight closed-form branches all lie within the limits.
ALL_BRANCHES = np.array([0.4, -1.1, 1.3, -0.7, 0.9, 0.3])


def _pose_error(chain, q, target):
    reached = chain.fk(q)
    return max(float(np.linalg.norm(reached[:3, 3] - target[:3, 3])),
               float(np.linalg.norm(reached[:3, :3] - target[:3, :3])))


def _closest(q, solutions, modulo):
    return min(joint_distance(q, other, modulo) for other in solutions)


def test_the_structure_is_read_from_the_chain():
    structure = chain_structure(UR5)
    # Joints 2, 3 and 4 (from 1) are parallel, the base joint is perpendicular to them, and
    # the last two axes meet 0.0823 m behind the tool flange.
    assert structure.pairs == (1,)
    assert structure.run_end == 3
    assert structure.shoulder
    np.testing.assert_allclose(structure.wrist, [0.0, 0.0, -0.0823], atol=1e-9)
    assert chain_structure(PANDA).pairs == ()


def test_each_flip_of_a_ur_solution_is_another_exact_solution():
    oracle = URClosedForm(UR5)
    modulo = turn_joints(UR5)
    target = UR5.fk(ALL_BRANCHES)
    expected = oracle.solutions(target)
    assert len(expected) == 8
    flips = branch_flips(UR5, ALL_BRANCHES, UR5.lower, UR5.upper)
    assert len(flips) == 4  # elbow, wrist, shoulder, shoulder and wrist
    for flip in flips:
        assert _pose_error(UR5, flip, target) < 1e-9
        assert joint_distance(flip, ALL_BRANCHES, modulo) > 0.1
        assert _closest(flip, expected, modulo) < 1e-6
    # Four different branches.
    assert min(joint_distance(a, b, modulo) for index, a in enumerate(flips)
               for b in flips[:index]) > 0.1


def test_all_eight_branches_are_found_distinct_and_verified():
    oracle = URClosedForm(UR5)
    modulo = turn_joints(UR5)
    target = UR5.fk(ALL_BRANCHES)
    expected = oracle.solutions(target)
    answer = solve_many(UR5, target, max_solutions=8, timeout=1.0)
    found = answer.configurations
    assert len(found) == 8
    for index, q in enumerate(found):
        assert _pose_error(UR5, q, target) < 1e-4 and UR5.within_limits(q)
        assert all(joint_distance(q, other, modulo) > DISTINCT_THRESHOLD
                   for other in found[:index])
        assert _closest(q, expected, modulo) < 1e-3


def _pose_with_fewer_branches():
    oracle = URClosedForm(UR5)
    rng = np.random.default_rng(11)
    while True:
        target = UR5.fk(UR5.random_configuration(rng))
        expected = oracle.solutions(target)
        if 0 < len(expected) < 8:
            return target, expected


def test_the_stopping_rule_ends_a_pose_with_fewer_branches_early():
    target, expected = _pose_with_fewer_branches()
    modulo = turn_joints(UR5)
    closed = solve_many(UR5, target, max_solutions=8, timeout=2.0, closure_starts=4)
    # Every branch there is, found ...
    assert len(closed.configurations) == len(expected)
    for q in closed.configurations:
        assert _closest(q, expected, modulo) < 1e-3
    # ... and then the search ended: the seed's search, the three flips of each solution
    # and four fruitless starts at most (a 2 s deadline allows thousands of searches).
    assert closed.searches <= 1 + 3 * len(expected) + 4
    # Without the rule the same call searches on until its deadline.
    unbounded = solve_many(UR5, target, max_solutions=8, timeout=0.05, closure_starts=None)
    assert len(unbounded.configurations) == len(expected)
    assert unbounded.searches > closed.searches


@pytest.mark.parametrize('value', [-1, 1.5, True, 'four'])
def test_a_bad_closure_starts_is_refused(value):
    with pytest.raises(InvalidSolverOptionError, match='closure_starts'):
        solve_many(UR5, UR5.fk(ALL_BRANCHES), closure_starts=value)
