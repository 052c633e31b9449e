# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Dragging at the library level: warm-seeded solves keep to the seed's branch, singular or not."""

from conftest import UrdfOracle
import numpy as np
import pytest

from ik_solvers import RobotModel, RobotModelError, solve, SOLVERS
from ik_solvers.reach.named_robots import load_robot
from ik_solvers.demo.scripted_drag import figure_eight

# The largest joint motion allowed between two consecutive solutions of the drag, rad; the
# dragged path itself moves each joint by at most 0.005 rad per goal.
LARGEST_STEP = np.radians(2.0)
# Deadline of each solve, s. Generous, so that a loaded machine does not turn a success into
# a timeout: a warm-seeded solve ends at its first solution, within milliseconds.
SOLVE_TIMEOUT = 2.0


@pytest.mark.parametrize('solver', SOLVERS)
def test_a_drag_through_the_stretched_elbow_never_flips(ur5, ur5_oracle, solver):
    # The elbow goes from +0.3 to -0.3 rad: halfway the arm is stretched straight, a singular
    # configuration (121 goals, so one of them is exactly there). Each goal is solved from the
    # previous solution, as the node does while a goal is dragged.
    start = np.array([0.3, -1.2, 0.3, -0.8, 1.0, 0.2])
    end = np.array([0.5, -1.0, -0.3, -1.0, 1.2, 0.4])
    path = [start + (end - start) * t for t in np.linspace(0.0, 1.0, 121)]
    assert any(abs(q[2]) < 1e-12 for q in path)
    q = path[0]
    for goal in path[1:]:
        target = ur5.fk(goal)
        result = solve(ur5, target, seed=q, solver=solver, timeout=SOLVE_TIMEOUT)
        assert result.success, result
        ur5_oracle.check(result.q, target)
        assert np.max(np.abs(result.q - q)) <= LARGEST_STEP, (goal, q, result.q)
        q = result.q


@pytest.mark.parametrize('solver', SOLVERS)
def test_a_warm_seed_prefers_a_near_solution_to_a_restart_far_away(solver):
    # The vendor UR5 at zero is stretched flat and wrist-singular (four parallel axes). The
    # first goal of the demo's figure-eight from there tilts the tool a little, which that
    # pose cannot do: the arm must fold, elbow down (67 degrees at most) or up (99 degrees).
    # The seed's own start stalls at the singularity and random restarts find solutions half
    # a turn away (176-179 degrees); near restarts and the search for a nearer solution must
    # return a fold, not a flip.
    try:
        robot = load_robot('vendor_ur5')
    except RobotModelError as error:
        pytest.skip('the vendor UR5 (example-robot-data) is not installed: %s' % error)
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    zero = np.zeros(chain.num_joints)
    goal = figure_eight(chain.fk(zero), count=300)[1]
    result = solve(chain, goal, seed=zero, solver=solver, timeout=SOLVE_TIMEOUT)
    assert result.success, result
    UrdfOracle(robot.urdf_xml, robot.base_link, robot.tip_link).check(result.q, goal)
    assert np.max(np.abs(result.q - zero)) <= np.radians(105.0), result.q
