# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A tree's streamed commands against a robot that lags and moves: continuity and timing.

While both hands are dragged the joint states lag behind the commands; a streamed answer is
bound to the last command while the robot follows it, and its duration keeps the limits from
the state the robot is in when the command arrives (joint_trajectory_controller splices from
there), as for chains.
"""

from pathlib import Path

from ik_solvers.demo.two_arms import two_arm_home
from ik_solvers.engine.outcome import IKRequest, TipTarget
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.tree import KinematicTree
from ik_solvers.paths.controller_spline import ControllerSpline, limit_excess
import numpy as np
import pytest
from transforms3d.quaternions import mat2quat

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'trees' / 'dual_arm_waist.urdf').read_text()
TIPS = ('left_tool', 'right_tool')
SETTINGS = NodeSettings(base_link='base_link', tip_link=TIPS[0], tip_links=TIPS, timeout=0.2,
                        avoid_collisions=False)


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def _engine(clock=None):
    # The engine's own clock: joint states age only when a test says so (a first solve that
    # loads the compiled kernels must not make them stale).
    engine = IKEngine(clock=_Clock() if clock is None else clock)
    engine.robot.load_description(URDF, 'base_link', TIPS[0])
    tree = KinematicTree(RobotModel.from_urdf(URDF), 'base_link', TIPS)
    return engine, tree


def _request(poses) -> IKRequest:
    targets = []
    for tip, pose in zip(TIPS, poses):
        w, x, y, z = mat2quat(pose[:3, :3])
        targets.append(TipTarget(tip=tip, position=tuple(pose[:3, 3]), orientation=(x, y, z, w),
                                 frame_id='base_link'))
    return IKRequest(position=(0.0, 0.0, 0.0), streamed=True, tip_targets=tuple(targets))


def _dragged_to(engine, tree, home, offsets):
    """Command a drag of small steps while the joint states stay at ``home`` (the arms lag)."""
    engine.robot.joint_states.update(tree.joint_names, home, [])
    q = home.copy()
    for offset in offsets:
        goal = q + offset
        outcome = engine.handle_tree(_request(tree.fk(goal)), SETTINGS)
        assert outcome.commanded, outcome.message
        q = np.array(outcome.command.positions)
    return q


def test_a_drag_goes_on_while_the_joint_states_lag_behind_the_commands():
    engine, tree = _engine()
    home = two_arm_home(tree)
    step = np.full(tree.num_joints, 0.04)
    # Five steps of 0.04 rad: the last command is 0.2 rad ahead of the joint states, more than
    # max_joint_jump (0.087) but within the lag allowed (0.35); each step is 0.04 from the last
    # command. Before, the third step was refused against the joint states.
    q = _dragged_to(engine, tree, home, [step] * 5)
    assert np.max(np.abs(q - home)) > 2.0 * SETTINGS.max_joint_jump


def test_a_step_far_from_the_last_command_is_still_refused():
    engine, tree = _engine()
    home = two_arm_home(tree)
    q = _dragged_to(engine, tree, home, [np.full(tree.num_joints, 0.04)] * 2)
    outcome = engine.handle_tree(_request(tree.fk(q + 0.15)), SETTINGS)
    assert not outcome.commanded
    assert 'the last command' in outcome.message and 'max_joint_jump' in outcome.message


def test_commands_are_not_run_further_ahead_of_the_robot_than_the_lag_allowed():
    engine, tree = _engine()
    home = two_arm_home(tree)
    engine.robot.joint_states.update(tree.joint_names, home, [])
    q, refused = home.copy(), None
    for _ in range(15):  # 15 steps of 0.04 rad would end 0.6 rad ahead of the joint states
        outcome = engine.handle_tree(_request(tree.fk(q + 0.04)), SETTINGS)
        if not outcome.commanded:
            refused = outcome.message
            break
        q = np.array(outcome.command.positions)
    assert refused is not None and 'the lag allowed' in refused
    assert np.max(np.abs(q - home)) <= 0.35 + 1e-9


@pytest.mark.parametrize('sign', [1.0, -1.0])
def test_a_command_that_meets_moving_arms_keeps_the_limits_from_their_state_at_arrival(sign):
    clock = _Clock()
    engine, tree = _engine(clock)
    home = two_arm_home(tree)
    rng = np.random.default_rng(3)
    velocity = sign * rng.uniform(0.15, 0.3, tree.num_joints)
    engine.robot.joint_states.update(tree.joint_names, home, velocity)
    age, delivery = 0.004, 0.003
    clock.now += age
    goal = home + 0.01
    outcome = engine.handle_tree(_request(tree.fk(goal)), SETTINGS)
    assert outcome.commanded, outcome.message
    command = outcome.command
    elapsed = age + delivery
    spline = ControllerSpline([command.duration], [command.positions],
                              np.zeros((1, tree.num_joints)),
                              start_positions=home + velocity * elapsed,
                              start_velocities=velocity)
    limits = np.ones(tree.num_joints)
    for chain, variables in zip(tree.chains, tree.tip_variables):
        limits[variables] = chain.velocity_limits
    excess = limit_excess(spline.sample_every(0.001),
                          max_velocity=SETTINGS.velocity_scale * limits,
                          max_acceleration=np.full(tree.num_joints, SETTINGS.acceleration_limit),
                          lower=tree.lower, upper=tree.upper)
    assert excess.velocity_ratio <= 1.0 and excess.acceleration_ratio <= 1.0, excess


def test_a_goal_driven_once_restarts_while_the_straight_motion_to_the_answer_collides():
    # From these joint states, the answer the search finds first for these goals is free,
    # but the straight motion to it passes through the torso; another branch's is free.
    # Before, the goal was refused IN_COLLISION ("the straight motion collides on its way").
    from ik_solvers.collision import load_robot_geometry, TreeCollisionCheck
    engine, tree = _engine()
    start = np.array([0.022, -2.295, -1.584, -1.62, -2.406, 0.913, 0.022, -1.437, 1.46, 0.498,
                      -0.397, -1.76, 0.266, 1.337, 1.537])
    goal = np.array([2.508, -0.013, 0.869, -0.709, -0.008, -2.24, 1.4, -2.371, -1.982, 1.304,
                     0.515, -0.641, 2.058, 0.411, 0.155])
    model = RobotModel.from_urdf(URDF)
    check = TreeCollisionCheck(model, tree, load_robot_geometry(model))
    assert not check.colliding(start) and not check.colliding(goal)
    engine.robot.joint_states.update(tree.joint_names, start, [])
    request = _request(tree.fk(goal))
    request = IKRequest(position=(0.0, 0.0, 0.0), execute=True, timeout=1.0,
                        tip_targets=request.tip_targets)
    settings = NodeSettings(base_link='base_link', tip_link=TIPS[0], tip_links=TIPS,
                            avoid_collisions=True, position_tolerance=1e-4,
                            orientation_tolerance=1e-3)
    outcome = engine.handle_tree(request, settings)
    assert outcome.commanded, outcome.message
    assert all(outcome.met)
    q = np.array(outcome.command.positions)
    samples = int(np.ceil(np.abs(q - start).max() / 0.01))
    assert not any(check.colliding(start + s * (q - start))
                   for s in np.linspace(0.0, 1.0, samples + 1))
