# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Every solver reaches targets sampled from forward kinematics on every bundled robot."""

from pathlib import Path
import zlib

from conftest import bundled_oracle
import numpy as np
import pytest

from ik_solvers import Chain, RobotModel, solve, SOLVERS

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
# Bundled robot -> (base link, tip link).
ROBOTS = {
    'planar_3link': ('base_link', 'tip'),
    'ur5_like': ('base_link', 'tool0'),
    'panda_like': ('panda_link0', 'panda_hand_tcp'),
    'so101_like': ('base_link', 'gripper_frame_link'),
    'snake_20': ('base_link', 'tip'),
    'snake_100': ('base_link', 'tip'),
}
TARGETS_PER_CASE = 4
# Generous, so that a loaded machine cannot turn a slow solve into a failure: speed is the
# benchmark's business, not the tests'.
TIMEOUT = 2.0


def load_chain(robot: str) -> Chain:
    base_link, tip_link = ROBOTS[robot]
    urdf = (URDF_DIRECTORY / (robot + '.urdf')).read_text(encoding='utf-8')
    return RobotModel.from_urdf(urdf).chain(base_link, tip_link)


def oracle_of(robot: str):
    return bundled_oracle(robot + '.urdf', *ROBOTS[robot])


@pytest.fixture(scope='module', params=sorted(ROBOTS))
def robot_chain(request):
    return request.param, load_chain(request.param)


@pytest.mark.parametrize('position_only', [False, True], ids=['full_pose', 'position_only'])
@pytest.mark.parametrize('solver', SOLVERS)
def test_solver_reaches_sampled_targets(robot_chain, solver, position_only):
    robot, chain = robot_chain
    rng = np.random.default_rng(zlib.crc32(('%s %s %s' % (robot, solver, position_only)).encode()))
    for _ in range(TARGETS_PER_CASE):
        target = chain.fk(chain.random_configuration(rng))
        seed = chain.random_configuration(rng)
        result = solve(chain, target, seed=seed, solver=solver, position_only=position_only,
                       timeout=TIMEOUT)
        assert result.success, (robot, solver, result)
        assert result.status == 'success'
        # The verdict is checked again by the tests' own FK and the URDF limits.
        reached = oracle_of(robot).check(
            result.q, target, orientation_mode='none' if position_only else 'full')
        assert result.position_error == pytest.approx(
            np.linalg.norm(reached[:3, 3] - target[:3, 3]), abs=1e-12)


@pytest.mark.parametrize('solver', SOLVERS)
def test_planar_three_link_classic_case(solver):
    # Three 0.5 m links in a plane: the textbook CCD example, reaching (0.8, 0.6).
    chain = load_chain('planar_3link')
    reach = chain.fk(np.zeros(chain.num_joints))[:3, 3]
    assert np.linalg.norm(reach) == pytest.approx(1.5)
    target = np.eye(4)
    target[:3, 3] = [0.8, 0.6, 0.0]
    result = solve(chain, target, solver=solver, position_only=True, timeout=TIMEOUT)
    assert result.success, result
    oracle_of('planar_3link').check(result.q, target, orientation_mode='none')


@pytest.mark.parametrize('robot', ['planar_3link', 'ur5_like', 'panda_like', 'snake_20'])
@pytest.mark.parametrize('solver', SOLVERS)
def test_heuristic_alone_reaches_positions(robot, solver):
    # Without the polish the heuristic itself must do the work (the polish would otherwise
    # hide a broken heuristic). Position only: the heuristics' linear convergence makes
    # tight full-pose tolerances the polish's job.
    chain = load_chain(robot)
    rng = np.random.default_rng(zlib.crc32(('%s %s' % (robot, solver)).encode()))
    for _ in range(2):
        target = chain.fk(chain.random_configuration(rng))
        seed = chain.random_configuration(rng)
        result = solve(chain, target, seed=seed, solver=solver, position_only=True,
                       polish=False, position_tolerance=1e-4, timeout=TIMEOUT)
        assert result.success, result
        assert not result.polished
        oracle_of(robot).check(result.q, target, position_tolerance=1e-4,
                               orientation_mode='none')


@pytest.mark.parametrize('solver', SOLVERS)
def test_warm_seed_stays_near_the_seed(solver):
    chain = load_chain('ur5_like')
    rng = np.random.default_rng(11)
    for _ in range(5):
        solution = chain.random_configuration(rng)
        target = chain.fk(solution)
        seed = chain.clip(solution + rng.uniform(-0.05, 0.05, chain.num_joints))
        result = solve(chain, target, seed=seed, solver=solver, timeout=TIMEOUT)
        assert result.success, result
        oracle_of('ur5_like').check(result.q, target)
        assert result.attempts == 1
        assert np.max(np.abs(result.q - seed)) <= 0.1
