# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The tree search's polish per tip and its trust region."""

import math

from ik_solvers import Goal, InvalidSolverOptionError, RobotModel
from ik_solvers.kinematics.tree import KinematicTree
from ik_solvers.reach.named_robots import bundled_urdf_directory
from ik_solvers.solvers.tree_goals import TipGoal
from ik_solvers.solvers.tree_solve import solve_tree, TREE_SOLVERS, TreeOptions
import numpy as np
import pytest

TIPS = ('left_tool', 'right_tool')


def _tree(name: str) -> KinematicTree:
    text = (bundled_urdf_directory() / 'trees' / (name + '.urdf')).read_text()
    return KinematicTree(RobotModel.from_urdf(text), 'base_link', TIPS)


def test_an_arm_that_cannot_reach_does_not_keep_the_other_from_its_goal():
    # Two arms on a fixed torso share no joint: the polish must bring the left hand onto its
    # reachable goal even though the right hand's goal lies far out of reach, in one attempt.
    tree = _tree('dual_arm_fixed_torso')
    left = tree.tip_variables[0]
    rng = np.random.default_rng(4)
    met = 0
    for _ in range(10):
        solution = tree.random_configuration(rng)
        left_target = tree.fk(solution)[0]
        far = np.eye(4)
        far[:3, 3] = (10.0, 0.0, 0.0)
        seed = solution.copy()
        seed[left] += rng.uniform(-0.15, 0.15, len(left))
        result = solve_tree(tree, [TipGoal(TIPS[0], left_target), TipGoal(TIPS[1], far)],
                            'jacobian_transpose', seed=seed,
                            options=TreeOptions(max_attempts=1, timeout=1.0))
        assert not result.met[1]
        met += result.met[0]
    assert met == 10


def _start_cost(tree: KinematicTree, goals, q: np.ndarray) -> float:
    poses = tree.fk(q)
    cost = 0.0
    for t, goal in enumerate(goals):
        position = np.linalg.norm(poses[t][:3, 3] - goal.target[:3, 3])
        relative = goal.target[:3, :3] @ poses[t][:3, :3].T
        angle = math.acos(min(1.0, max(-1.0, (np.trace(relative) - 1) / 2)))
        cost += position ** 2 + (tree.length_scale * angle) ** 2
    return cost


@pytest.mark.parametrize('solver', sorted(TREE_SOLVERS))
def test_the_trust_region_bounds_each_iteration(solver):
    # One iteration moves each joint at most the radius (the heuristic's step) plus the radius
    # again (the extrapolation of its iterates); without the bound some joint moves further.
    tree = _tree('dual_arm_waist')
    rng = np.random.default_rng(8)
    trust_region = 0.05
    unbounded_moves = []
    for _ in range(5):
        targets = tree.fk(tree.random_configuration(rng))
        goals = [TipGoal(tip, targets[t], Goal()) for t, tip in enumerate(TIPS)]
        seed = tree.random_configuration(rng)
        radius = trust_region * math.sqrt(_start_cost(tree, goals, seed)) / tree.length_scale
        for bound, moves in ((trust_region, None), (math.inf, unbounded_moves)):
            options = TreeOptions(polish=False, iterations=1, max_attempts=1,
                                  trust_region=bound)
            result = solve_tree(tree, goals, solver, seed=seed, options=options)
            motion = np.max(np.abs(result.q - seed))
            if moves is None:
                assert motion <= 2 * radius + 1e-12
            else:
                moves.append(motion / radius)
    assert max(unbounded_moves) > 2


@pytest.mark.parametrize('value', [0, -1.0, 'wide', float('nan')])
def test_a_trust_region_that_is_not_a_positive_number_is_refused(value):
    with pytest.raises(InvalidSolverOptionError):
        TreeOptions(trust_region=value)


def test_an_infinite_trust_region_is_accepted():
    assert TreeOptions(trust_region=math.inf).trust_region == math.inf


@pytest.mark.parametrize('solver', ['ccd', 'fabrik', 'length_relaxation'])
def test_alone_the_extrapolation_saves_iterations(solver):
    # Alone, the heuristic's iterates converge linearly; the secant point and the
    # extrapolation (on by default there) reach the goals in fewer iterations.
    tree = _tree('dual_arm_waist')
    rng = np.random.default_rng(5)
    counts = {True: 0, False: 0}
    for _ in range(4):
        targets = tree.fk(tree.random_configuration(rng))
        goals = [TipGoal(tip, targets[t], Goal()) for t, tip in enumerate(TIPS)]
        seed = tree.random_configuration(rng)
        for extrapolation in (True, False):
            options = TreeOptions(polish=False, max_attempts=1, iterations=300,
                                  extrapolation=extrapolation)
            counts[extrapolation] += solve_tree(tree, goals, solver, seed=seed,
                                                options=options).iterations
    assert counts[True] < counts[False]


@pytest.mark.parametrize('value', [1, 'yes', 0.5])
def test_an_extrapolation_that_is_not_a_boolean_is_refused(value):
    with pytest.raises(InvalidSolverOptionError):
        TreeOptions(extrapolation=value)
