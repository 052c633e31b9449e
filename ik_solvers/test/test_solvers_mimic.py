# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Solving chains with mimic joints: the follower's motion counts in every Jacobian step."""

from conftest import UrdfOracle
import numpy as np
import pytest

from ik_solvers import RobotModel, solve


# A six-joint arm whose forearm carries a seventh joint that follows the elbow at 0.8 times its
# angle: the follower swings the whole wrist, so a Jacobian without its column is far off.
MIMIC_ARM_URDF = """<?xml version="1.0" encoding="utf-8"?>
<robot name="mimic_arm">
  <link name="base"/><link name="l1"/><link name="l2"/><link name="l3"/><link name="l4"/>
  <link name="l5"/><link name="l6"/><link name="l7"/><link name="tool"/>
  <joint name="pan" type="revolute">
    <parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="lift" type="revolute">
    <parent link="l1"/><child link="l2"/>
    <origin xyz="0 0.08 0.05" rpy="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="l2"/><child link="l3"/>
    <origin xyz="0 -0.05 0.3" rpy="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2.5" upper="2.5" effort="1" velocity="1"/>
  </joint>
  <joint name="forearm" type="revolute">
    <parent link="l3"/><child link="l4"/>
    <origin xyz="0 0 0.25" rpy="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="elbow" multiplier="0.8" offset="0"/>
  </joint>
  <joint name="wrist1" type="revolute">
    <parent link="l4"/><child link="l5"/>
    <origin xyz="0 0.04 0.15" rpy="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="wrist2" type="revolute">
    <parent link="l5"/><child link="l6"/>
    <origin xyz="0 0 0.08" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="wrist3" type="revolute">
    <parent link="l6"/><child link="l7"/>
    <origin xyz="0 0.06 0.05" rpy="0 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="l7"/><child link="tool"/>
    <origin xyz="0 0.05 0" rpy="0 0 0"/>
  </joint>
</robot>
"""


@pytest.fixture(scope='module')
def arm():
    chain = RobotModel.from_urdf(MIMIC_ARM_URDF).chain('base', 'tool')
    assert chain.num_joints == 6 and 'forearm' not in chain.joint_names
    return chain


@pytest.mark.parametrize('position_only', [False, True], ids=['pose', 'position'])
def test_polish_converges_quadratically_through_the_follower(arm, position_only):
    # From 0.1 rad away, Gauss-Newton steps with the right Jacobian reach 1e-9 in a handful
    # of steps; without the follower's column in the elbow's, each step misses by the
    # follower's share of the elbow motion and the 1e-9 takes many more.
    rng = np.random.default_rng(21)
    for _ in range(10):
        solution = arm.clip(rng.uniform(-1.5, 1.5, arm.num_joints))
        start = arm.clip(solution + rng.uniform(-0.1, 0.1, arm.num_joints))
        start[2] = solution[2] + 0.1  # the elbow, which drives the follower, must move
        target = arm.fk(solution)
        # The heuristic's one step is held to nothing: the polish alone does the work.
        result = solve(arm, target, seed=start, solver='jacobian_transpose', max_iterations=1,
                       trust_region=1e-12, max_attempts=1, polish_iterations=6,
                       position_tolerance=1e-9, orientation_tolerance=1e-9,
                       position_only=position_only, timeout=5.0)
        assert result.success, (result, start, solution)
        UrdfOracle(MIMIC_ARM_URDF, 'base', 'tool').check(
            result.q, target, position_tolerance=1e-9, orientation_tolerance=1e-9,
            orientation_mode='none' if position_only else 'full')


@pytest.mark.parametrize('solver', ['ccd', 'fabrik', 'jacobian_transpose', 'length_relaxation'])
def test_every_solver_reaches_poses_of_a_chain_with_a_mimic_joint(arm, solver):
    rng = np.random.default_rng(22)
    solved = 0
    cases = 10
    for _ in range(cases):
        q_goal = arm.clip(rng.uniform(-2.0, 2.0, arm.num_joints))
        target = arm.fk(q_goal)
        result = solve(arm, target, solver=solver, timeout=0.5, max_attempts=20)
        oracle = UrdfOracle(MIMIC_ARM_URDF, 'base', 'tool')
        assert arm.within_limits(result.q) and not oracle.limit_violations(result.q)
        if result.success:
            oracle.check(result.q, target)
            solved += 1
    assert solved >= cases - 1


# The same arm with wrist3 following wrist1: its last moving joint is a mimic joint.
MIMIC_LAST_URDF = MIMIC_ARM_URDF.replace(
    '<limit lower="-3" upper="3" effort="1" velocity="1"/>\n  </joint>\n'
    '  <joint name="tool_joint"',
    '<limit lower="-3" upper="3" effort="1" velocity="1"/>\n'
    '    <mimic joint="wrist1" multiplier="-0.5" offset="0.1"/>\n  </joint>\n'
    '  <joint name="tool_joint"')


def test_tip_offset_is_exact_unless_a_mimic_joint_moves_last(arm):
    last_follows = RobotModel.from_urdf(MIMIC_LAST_URDF).chain('base', 'tool')
    assert last_follows.joint_names == ('pan', 'lift', 'elbow', 'wrist1', 'wrist2')
    q = np.array([0.3, -0.4, 0.5, 0.6, -0.7])
    poses = last_follows.poses(q)
    assert not last_follows.tip_offset_is_exact
    assert not np.allclose(poses[-2] @ last_follows.tip_offset, poses[-1], atol=1e-6)
    assert arm.tip_offset_is_exact


@pytest.mark.parametrize('solver', ['fabrik', 'length_relaxation'])
def test_point_methods_aim_at_the_tip_when_a_mimic_joint_moves_last(solver):
    # Aiming the last independent joint at target * inv(tip_offset) would put it where the
    # follower's turn is not: from 0.3 rad away the heuristic alone then stalls 5-7 cm off.
    chain = RobotModel.from_urdf(MIMIC_LAST_URDF).chain('base', 'tool')
    rng = np.random.default_rng(5)
    position_errors = []
    for _ in range(10):
        q_goal = chain.random_configuration(rng)
        seed = chain.clip(q_goal + rng.uniform(-0.3, 0.3, chain.num_joints))
        result = solve(chain, chain.fk(q_goal), seed=seed, solver=solver, polish=False,
                       timeout=1.0, max_attempts=1, max_iterations=500)
        assert chain.within_limits(result.q)
        # Measured by the tests' own FK, which places the follower from the URDF text.
        oracle = UrdfOracle(MIMIC_LAST_URDF, 'base', 'tool')
        assert not oracle.limit_violations(result.q)
        position_errors.append(np.linalg.norm(
            oracle.fk(result.q)[:3, 3] - chain.fk(q_goal)[:3, 3]))
    assert max(position_errors) < 0.02
