# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A heuristic defined outside the package, registered with one call, runs everywhere."""

from conftest import UrdfOracle
from ik_solvers import SOLVERS, solve, solve_batch, solve_many
from ik_solvers.exceptions import InvalidSolverOptionError
from ik_solvers.kinematics import RobotModel
from ik_solvers.reach.named_robots import load_robot
from ik_solvers.solvers import register, Solver, solver_class
import numpy as np
import pytest
from rclpy.parameter import Parameter
from test_node_support import same_position, start_ur5_node, UR5_CHAIN, UR5_HOME
from toy_heuristic import NAME, RandomDirectionSolver

_ROBOT = load_robot('ur5_like')
CHAIN = RobotModel.from_urdf(_ROBOT.urdf_xml).chain(_ROBOT.base_link, _ROBOT.tip_link)
ORACLE = UrdfOracle(_ROBOT.urdf_xml, _ROBOT.base_link, _ROBOT.tip_link)


@pytest.fixture(scope='module', autouse=True)
def registered():
    """Make the one call that registers the toy heuristic (once; again does nothing)."""
    register(RandomDirectionSolver)


def _targets(count: int, seed: int) -> np.ndarray:
    generator = np.random.default_rng(seed)
    return CHAIN.fk_batch(np.array([CHAIN.random_configuration(generator)
                                    for _ in range(count)]))


def test_the_name_is_registered_by_the_one_call():
    assert NAME in SOLVERS
    assert solver_class(NAME) is RandomDirectionSolver
    register(RandomDirectionSolver)  # again: nothing changes
    assert list(SOLVERS).count(NAME) == 1


def test_a_taken_name_and_a_class_without_a_search_are_refused():
    class Impostor(Solver):
        name = NAME
        search = staticmethod(RandomDirectionSolver.search)

    class Nameless(Solver):
        pass

    with pytest.raises(InvalidSolverOptionError, match='taken'):
        register(Impostor)
    with pytest.raises(InvalidSolverOptionError, match='name'):
        register(Nameless)
    with pytest.raises(InvalidSolverOptionError, match='Solver subclass'):
        register(object)
    assert solver_class(NAME) is RandomDirectionSolver


def test_solve_reaches_targets_with_the_registered_heuristic():
    for target in _targets(5, 1):
        result = solve(CHAIN, target, solver=NAME, timeout=0.5)
        assert result.success, result
        assert result.solver == NAME
        # By the oracle's own forward kinematics, not the package's.
        assert np.allclose(ORACLE.fk(result.q)[:3, 3], target[:3, 3], atol=1e-4)


def test_solve_batch_runs_the_registered_search_on_two_threads():
    targets = _targets(80, 2)
    batch = solve_batch(CHAIN, targets, solver=NAME, threads=2, max_attempts=16)
    assert batch.success.mean() > 0.9
    for k in np.flatnonzero(batch.success):
        assert np.allclose(CHAIN.fk(batch.q[k])[:3, 3], targets[k, :3, 3], atol=1e-4)
    # The same answers on one thread: the batch loop runs the registered search itself.
    again = solve_batch(CHAIN, targets, solver=NAME, threads=1, max_attempts=16)
    assert np.array_equal(again.q, batch.q)


def test_solve_many_finds_several_solutions_with_the_registered_heuristic():
    target = _targets(1, 3)[0]
    solutions = solve_many(CHAIN, target, solver=NAME, max_solutions=4, timeout=1.0)
    assert len(solutions.results) >= 2
    for q in solutions.configurations:
        assert np.allclose(CHAIN.fk(q)[:3, 3], target[:3, 3], atol=1e-4)


@pytest.mark.ros
def test_the_node_solves_streamed_targets_with_the_registered_heuristic(ros):
    node, probe = start_ur5_node(ros)
    result = node.set_parameters([Parameter('solver', value=NAME)])[0]
    assert result.successful, result.reason
    goal = UR5_CHAIN.fk(UR5_HOME + np.array([0.05, -0.05, 0.05, 0.02, -0.05, 0.05]))
    start = probe.statuses.count()
    probe.publish_target(goal)
    status = probe.statuses.wait_for(lambda s: same_position(s.target, goal), start=start)
    assert status.success and status.commanded, status.message
    assert status.solver == NAME
