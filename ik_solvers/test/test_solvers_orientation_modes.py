# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Orientation modes, per-axis bounds and the closest-orientation fallback, checked by FK."""

import math
from pathlib import Path
import zlib

from conftest import bundled_oracle
import numpy as np
import pytest
import transforms3d

from ik_solvers import Chain, RobotModel, solve, SOLVERS
from ik_solvers.exceptions import InvalidTargetError
from ik_solvers.solvers._core.goal_kernels import assess, goal_residual
from ik_solvers.solvers import Goal
from ik_solvers.solvers._core.pack import pack_goal
from ik_solvers.solvers.pose_error import orientation_error

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
ROBOTS = {
    'ur5_like': ('base_link', 'tool0'),
    'panda_like': ('panda_link0', 'panda_hand_tcp'),
    'so101_like': ('base_link', 'gripper_frame_link'),
}
# Generous: speed is the benchmark's business.
TIMEOUT = 2.0
TOLERANCE = 1e-5


def load_chain(robot: str) -> Chain:
    base_link, tip_link = ROBOTS[robot]
    urdf = (URDF_DIRECTORY / (robot + '.urdf')).read_text(encoding='utf-8')
    return RobotModel.from_urdf(urdf).chain(base_link, tip_link)


def oracle_of(robot: str):
    """Return the tests' own FK and limits of a bundled robot's chain."""
    return bundled_oracle(robot + '.urdf', *ROBOTS[robot])


def axis_angle(reached: np.ndarray, target: np.ndarray, tip_axis=(0.0, 0.0, 1.0)) -> float:
    """Angle between the tip axis of two poses, rad, computed without the solver's code."""
    axis = np.asarray(tip_axis, dtype=float) / np.linalg.norm(tip_axis)
    first, second = reached[:3, :3] @ axis, target[:3, :3] @ axis
    # atan2 keeps small angles exact, where acos of a cosine near 1 would round them.
    return math.atan2(float(np.linalg.norm(np.cross(first, second))), float(first @ second))


def spin(pose: np.ndarray, angle: float, tip_axis=(0.0, 0.0, 1.0)) -> np.ndarray:
    """Return the pose turned by ``angle`` about its own ``tip_axis``."""
    turned = pose.copy()
    turned[:3, :3] = pose[:3, :3] @ transforms3d.axangles.axangle2mat(tip_axis, angle)
    return turned


@pytest.fixture(scope='module', params=sorted(ROBOTS))
def robot_chain(request):
    return request.param, load_chain(request.param)


@pytest.mark.parametrize('mode', ['full', 'axis', 'none'])
@pytest.mark.parametrize('solver', SOLVERS)
def test_every_solver_converges_in_every_mode(robot_chain, solver, mode):
    robot, chain = robot_chain
    rng = np.random.default_rng(zlib.crc32(('%s %s %s' % (robot, solver, mode)).encode()))
    for _ in range(3):
        target = chain.fk(chain.random_configuration(rng))
        result = solve(chain, target, seed=chain.random_configuration(rng), solver=solver,
                       orientation_mode=mode, timeout=TIMEOUT)
        assert result.success, (robot, solver, mode, result)
        oracle_of(robot).check(result.q, target, orientation_mode=mode)
        reached = chain.fk(result.q)
        assert np.linalg.norm(reached[:3, 3] - target[:3, 3]) <= TOLERANCE
        if mode == 'axis':
            assert axis_angle(reached, target) <= TOLERANCE
            assert result.orientation_error == pytest.approx(axis_angle(reached, target),
                                                             abs=1e-9)
        elif mode == 'full':
            assert orientation_error(reached, target) <= TOLERANCE
        else:
            assert result.orientation_error == 0.0


@pytest.mark.parametrize('solver', SOLVERS)
def test_heuristics_alone_converge_in_axis_mode(solver):
    chain = load_chain('ur5_like')
    rng = np.random.default_rng(zlib.crc32(solver.encode()))
    solved = 0
    for _ in range(10):
        target = chain.fk(chain.random_configuration(rng))
        result = solve(chain, target, solver=solver, orientation_mode='axis', polish=False,
                       timeout=TIMEOUT)
        if result.success:
            oracle_of('ur5_like').check(result.q, target, orientation_mode='axis')
            solved += 1
    assert solved >= 8


def test_axis_error_is_the_angle_between_the_tip_axis_and_the_target_direction():
    chain = load_chain('panda_like')
    rng = np.random.default_rng(7)
    for tip_axis in ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, 2.0, 2.0)):
        target = chain.fk(chain.random_configuration(rng))
        # One short heuristic step: far from solved, so the error is a real, large angle.
        result = solve(chain, target, seed=chain.random_configuration(rng),
                       orientation_mode='axis', tip_axis=tip_axis, polish=False,
                       max_attempts=1, max_iterations=1, timeout=TIMEOUT)
        expected = axis_angle(chain.fk(result.q), target, tip_axis)
        assert expected > 1e-3
        assert result.orientation_error == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize('robot', sorted(ROBOTS))
def test_spin_about_the_axis_is_free(robot):
    chain = load_chain(robot)
    rng = np.random.default_rng(zlib.crc32(robot.encode()))
    for tip_axis in ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0)):
        target = chain.fk(chain.random_configuration(rng))
        seed = chain.random_configuration(rng)
        for spun in (target, spin(target, 1.3, tip_axis), spin(target, -2.5, tip_axis)):
            result = solve(chain, spun, seed=seed, orientation_mode='axis', tip_axis=tip_axis,
                           timeout=TIMEOUT)
            assert result.success, (robot, tip_axis, result)
            oracle_of(robot).check(result.q, spun, orientation_mode='axis', tip_axis=tip_axis)


def test_a_spun_target_of_a_five_joint_arm_needs_axis_mode():
    # The SO-101's five joints reach a position and the direction of the jaws' x axis, but not
    # an arbitrary spin about it: full pose fails, aiming the axis succeeds.
    chain = load_chain('so101_like')
    rng = np.random.default_rng(11)
    tip_axis = (1.0, 0.0, 0.0)
    failures = 0
    for _ in range(4):
        target = spin(chain.fk(chain.random_configuration(rng)), 0.8, tip_axis)
        full = solve(chain, target, timeout=0.05)
        reached = oracle_of('so101_like').fk(full.q)
        truly_met = (np.linalg.norm(reached[:3, 3] - target[:3, 3]) <= TOLERANCE
                     and orientation_error(reached, target) <= TOLERANCE)
        assert full.success == truly_met
        failures += not full.success
        aimed = solve(chain, target, orientation_mode='axis', tip_axis=tip_axis,
                      timeout=TIMEOUT)
        assert aimed.success
        oracle_of('so101_like').check(aimed.q, target, orientation_mode='axis',
                                      tip_axis=tip_axis)
    assert failures == 4


def _settings(**goal) -> np.ndarray:
    return pack_goal(Goal.of(**goal), 0.1, math.inf)


def test_position_bounds_accept_and_refuse_at_their_edges():
    settings = _settings(orientation_mode='none', position_bounds=(1e-3, 2e-3, math.inf))
    target = np.eye(4)
    for offset, expected in (((0.999e-3, 0.0, 0.0), True), ((1.001e-3, 0.0, 0.0), False),
                             ((0.0, -1.999e-3, 0.0), True), ((0.0, -2.001e-3, 0.0), False),
                             ((0.0, 0.0, 5.0), True)):
        tip = np.eye(4)
        tip[:3, 3] = np.subtract((0.0, 0.0, 0.0), offset)
        error = np.empty(6)
        position_error, orientation = goal_residual(target, tip, settings, error)
        _, solved, _ = assess(target, settings, position_error, orientation, error)
        assert solved == expected, offset


def test_rotation_bounds_are_per_axis_of_the_target_frame():
    settings = _settings(rotation_bounds=(0.01, 0.02, math.inf))
    target = np.eye(4)
    target[:3, :3] = transforms3d.euler.euler2mat(0.4, -0.7, 1.1)
    for rotation_in_target, expected in (((0.0099, 0.0, 0.0), True), ((0.0101, 0.0, 0.0), False),
                                         ((0.0, 0.0199, 0.0), True), ((0.0, 0.0201, 0.0), False),
                                         ((0.0, 0.0, 2.0), True)):
        # The tip sits at the target turned back by the rotation, given in the target frame.
        tip = target.copy()
        vector = np.asarray(rotation_in_target)
        tip[:3, :3] = target[:3, :3] @ transforms3d.axangles.axangle2mat(
            vector, -np.linalg.norm(vector))
        error = np.empty(6)
        position_error, orientation = goal_residual(target, tip, settings, error)
        _, solved, _ = assess(target, settings, position_error, orientation, error)
        assert solved == expected, rotation_in_target


def test_a_free_position_axis_lets_a_planar_arm_reach_above_its_plane():
    urdf = (URDF_DIRECTORY / 'planar_3link.urdf').read_text(encoding='utf-8')
    chain = RobotModel.from_urdf(urdf).chain('base_link', 'tip')
    target = chain.fk(np.array([0.3, -0.5, 0.4]))
    target[2, 3] += 0.02  # out of the plane the arm moves in
    free = solve(chain, target, orientation_mode='none', position_bounds=(1e-5, 1e-5, math.inf),
                 timeout=TIMEOUT)
    assert free.success
    bundled_oracle('planar_3link.urdf', 'base_link', 'tip').check(
        free.q, target, orientation_mode='none', position_bounds=(1e-5, 1e-5, math.inf))
    assert free.position_error == pytest.approx(0.02, abs=1e-6)
    bounded = solve(chain, target, orientation_mode='none',
                    position_bounds=(1e-5, 1e-5, 0.019), timeout=0.05)
    assert not bounded.success
    assert bounded.status != 'success'


@pytest.mark.parametrize('solver', SOLVERS)
def test_fallback_meets_the_position_and_is_never_a_success(solver):
    chain = load_chain('so101_like')
    rng = np.random.default_rng(zlib.crc32(solver.encode()) + 1)
    for _ in range(4):
        target = chain.fk(chain.random_configuration(rng))
        target[:3, :3] = transforms3d.euler.euler2mat(*rng.uniform(-0.3, 0.3, 3)) @ target[:3, :3]
        plain = solve(chain, target, solver=solver, timeout=0.02)
        # The fallback searches the full pose for most of its timeout and the position in the
        # rest: 0.02 s, and under `stress --cpu 2` even 0.2 s, left the position too little.
        result = solve(chain, target, solver=solver, orientation_fallback=True, timeout=1.0)
        assert not plain.success and not result.success
        assert result.status == 'closest_orientation'
        # The position is met (by the tests' own FK); the orientation is not.
        reached = oracle_of('so101_like').check(result.q, target, orientation_mode='none')
        assert result.orientation_error == pytest.approx(orientation_error(reached, target),
                                                         abs=1e-9)
        assert result.orientation_error > TOLERANCE
        assert chain.within_limits(result.q)
        # Closer than reaching the position with the orientation left to chance.
        others = [orientation_error(chain.fk(solve(chain, target, seed=seed,
                                                   position_only=True, timeout=TIMEOUT).q),
                                    target)
                  for seed in (chain.random_configuration(rng) for _ in range(3))]
        assert result.orientation_error <= min(others) + 1e-6


def test_position_only_is_an_alias_of_mode_none():
    chain = load_chain('ur5_like')
    target = chain.fk(chain.random_configuration(np.random.default_rng(3)))
    alias = solve(chain, target, position_only=True)
    named = solve(chain, target, orientation_mode='none')
    assert alias.success and named.success
    oracle_of('ur5_like').check(alias.q, target, orientation_mode='none')
    assert np.array_equal(alias.q, named.q)


@pytest.mark.parametrize('options', [
    {'orientation_mode': 'sideways'},
    {'orientation_mode': 'axis', 'tip_axis': (0.0, 0.0, 0.0)},
    {'orientation_mode': 'axis', 'tip_axis': (0.0, 1.0)},
    {'orientation_mode': 'axis', 'tip_axis': (0.0, math.nan, 1.0)},
    {'orientation_mode': 'axis', 'position_only': True},
    {'orientation_mode': 'axis', 'rotation_bounds': (0.1, 0.1, 0.1)},
    {'position_bounds': (1e-3, -1e-3, 1e-3)},
    {'position_bounds': (math.inf, math.inf, math.inf)},
    {'rotation_bounds': (0.1, math.nan, 0.1)},
    {'orientation_mode': 'none', 'orientation_fallback': True},
    {'orientation_fallback': 'yes'},
])
def test_invalid_goal_options_are_refused(options):
    chain = load_chain('ur5_like')
    with pytest.raises(InvalidTargetError):
        solve(chain, chain.fk(chain.mid_configuration()), **options)


@pytest.mark.parametrize('bounds', [{'position_bounds': (1e-4, 1e-4, 1e-4)},
                                    {'rotation_bounds': (1e-4, 1e-4, 1e-4)}],
                         ids=['position_bounds', 'rotation_bounds'])
def test_bounds_on_one_part_leave_the_other_to_its_tolerance(bounds):
    # Bounding the position must not free the orientation, nor the reverse.
    chain = load_chain('ur5_like')
    rng = np.random.default_rng(21)
    for _ in range(5):
        target = chain.fk(chain.random_configuration(rng))
        result = solve(chain, target, timeout=TIMEOUT, **bounds)
        assert result.success, result
        oracle_of('ur5_like').check(
            result.q, target, position_bounds=(1e-4, 1e-4, 1e-4),
            orientation_tolerance=TOLERANCE if 'position_bounds' in bounds else 2e-4)
        if 'position_bounds' in bounds:
            assert result.orientation_error <= TOLERANCE
        else:
            assert result.position_error <= TOLERANCE
