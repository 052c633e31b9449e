# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The contract of solve(): validation, limits, honesty, determinism, deadline, options."""

from pathlib import Path
import subprocess
import sys

from conftest import bundled_oracle, rotation_angle as oracle_rotation_angle, UrdfOracle
import numpy as np
import pytest

from ik_solvers import (
    Chain,
    IKError,
    InvalidSeedError,
    InvalidTargetError,
    RobotModel,
    solve,
    SOLVERS,
    UnknownSolverError,
)
from ik_solvers.solvers import InvalidSolverOptionError, Solver, solver_class
from ik_solvers.solvers.pose_error import orientation_error, rotation_vector

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
TIMEOUT = 2.0

# A revolute, a prismatic and a continuous joint, with offsets that are not along the axes.
MIXED_JOINTS_URDF = """<?xml version="1.0"?>
<robot name="mixed">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="tool"/>
  <joint name="turn" type="revolute">
    <parent link="base"/><child link="a"/>
    <origin xyz="0 0 0.2" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-2.5" upper="2.5" effort="1" velocity="1"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="a"/><child link="b"/>
    <origin xyz="0.1 0 0.05" rpy="0 0.3 0"/><axis xyz="1 0 0"/>
    <limit lower="0.1" upper="0.6" effort="1" velocity="1"/>
  </joint>
  <joint name="spin" type="continuous">
    <parent link="b"/><child link="c"/>
    <origin xyz="0.05 0.02 0" rpy="0.2 0 0"/><axis xyz="0 1 0"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="c"/><child link="tool"/>
    <origin xyz="0.15 0 0.03" rpy="0 0 0"/>
  </joint>
</robot>
"""

# The middle joint mimics the first: the segments are no longer independent of each other.
MIMIC_URDF = """<?xml version="1.0"?>
<robot name="mimic">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="tool"/>
  <joint name="first" type="revolute">
    <parent link="base"/><child link="a"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <joint name="follower" type="revolute">
    <parent link="a"/><child link="b"/><origin xyz="0.3 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/>
    <mimic joint="first" multiplier="0.5" offset="0.1"/>
  </joint>
  <joint name="last" type="revolute">
    <parent link="b"/><child link="c"/><origin xyz="0.3 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="c"/><child link="tool"/><origin xyz="0.2 0 0"/>
  </joint>
</robot>
"""


def load_chain(name: str, base_link: str = 'base_link', tip_link: str = 'tool0') -> Chain:
    urdf = (URDF_DIRECTORY / (name + '.urdf')).read_text(encoding='utf-8')
    return RobotModel.from_urdf(urdf).chain(base_link, tip_link)


@pytest.fixture(scope='module')
def mixed():
    return RobotModel.from_urdf(MIXED_JOINTS_URDF).chain('base', 'tool')


def test_registry_lists_the_four_heuristics_in_a_fixed_order():
    assert tuple(SOLVERS) == ('ccd', 'fabrik', 'jacobian_transpose', 'length_relaxation')
    assert 'fabrik' in SOLVERS and 'newton' not in SOLVERS
    for name in SOLVERS:
        implementation = solver_class(name)
        assert issubclass(implementation, Solver) and implementation.name == name


def test_unknown_solver_names_the_available_ones(ur5):
    with pytest.raises(UnknownSolverError) as error:
        solve(ur5, np.eye(4), solver='newton')
    for name in SOLVERS:
        assert name in str(error.value)
    assert isinstance(error.value, IKError)


@pytest.mark.parametrize('target', [
    np.eye(3),
    np.full((4, 4), np.nan),
    'not a pose',
    np.diag([1.0, 1.0, 2.0, 1.0]),
    np.diag([1.0, 1.0, -1.0, 1.0]),
    np.array([[1.0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]]),
], ids=['3x3', 'nan', 'text', 'scaled', 'reflection', 'bad_last_row'])
def test_bad_targets_raise_invalid_target(ur5, target):
    with pytest.raises(InvalidTargetError):
        solve(ur5, target)


@pytest.mark.parametrize('seed', [np.zeros(5), np.zeros(7), np.array([0, 0, 0, np.inf, 0, 0]),
                                  [[0.0] * 6]])
def test_bad_seeds_raise_invalid_seed(ur5, seed):
    with pytest.raises(InvalidSeedError):
        solve(ur5, ur5.fk(np.zeros(6)), seed=seed)


@pytest.mark.parametrize('keyword', [
    {'position_tolerance': 0.0}, {'orientation_tolerance': -1.0},
    {'position_tolerance': np.nan}])
def test_bad_tolerances_raise_invalid_target(ur5, keyword):
    with pytest.raises(InvalidTargetError):
        solve(ur5, ur5.fk(np.zeros(6)), **keyword)


@pytest.mark.parametrize('keyword', [
    {'timeout': 0.0}, {'timeout': -1.0}, {'timeout': np.inf}, {'no_such_option': 1},
    {'max_iterations': 0}, {'polish_iterations': 0}, {'max_attempts': 0},
    {'orientation_weight': -1.0}])
def test_bad_options_raise_invalid_option(ur5, keyword):
    with pytest.raises(InvalidSolverOptionError):
        solve(ur5, ur5.fk(np.zeros(6)), solver='ccd', **keyword)


@pytest.mark.parametrize('good, bad, error', [
    ({'polish_iterations': 20}, {'polish_iterations': 20.0}, InvalidSolverOptionError),
    ({'max_attempts': 1}, {'max_attempts': True}, InvalidSolverOptionError),
    ({'position_only': False}, {'position_only': 0}, InvalidTargetError),
    ({'position_tolerance': 1}, {'position_tolerance': True}, InvalidTargetError)])
def test_a_value_refused_stays_refused_after_an_equal_valid_one(ur5, good, bad, error):
    # solve() keeps what it derives from valid options; an equal value of another type that
    # the checks refuse must not pass for the kept one.
    target = ur5.fk(np.full(6, 0.3))
    assert solve(ur5, target, seed=np.full(6, 0.25), timeout=TIMEOUT, **good).success
    with pytest.raises(error):
        solve(ur5, target, seed=np.full(6, 0.25), timeout=TIMEOUT, **bad)


def test_bad_ccd_weights_are_rejected(ur5):
    target = ur5.fk(np.zeros(6))
    with pytest.raises(InvalidSolverOptionError):
        solve(ur5, target, solver='ccd', weights=[1.0] * 6 + [2.0])
    with pytest.raises(InvalidSolverOptionError):
        solve(ur5, target, solver='ccd', weights=[1.0, 1.0])


@pytest.mark.parametrize('solver', SOLVERS)
def test_result_reports_errors_measured_by_forward_kinematics(ur5, ur5_oracle, solver):
    rng = np.random.default_rng(3)
    target = ur5.fk(ur5.random_configuration(rng))
    # Loose tolerance and no polish: a near miss whose reported errors must still be true.
    result = solve(ur5, target, solver=solver, polish=False, position_tolerance=1e-2,
                   orientation_tolerance=1e-1, max_attempts=1, timeout=TIMEOUT)
    # True by the tests' own FK, not the package's.
    reached = ur5_oracle.fk(result.q)
    assert result.position_error == pytest.approx(
        np.linalg.norm(reached[:3, 3] - target[:3, 3]), abs=1e-12)
    assert result.orientation_error == pytest.approx(oracle_rotation_angle(reached, target),
                                                     abs=1e-12)
    assert result.success == (result.position_error <= 1e-2
                              and result.orientation_error <= 1e-1)
    if result.success:
        ur5_oracle.check(result.q, target, position_tolerance=1e-2, orientation_tolerance=1e-1)
    assert ur5_oracle.limit_violations(result.q) == []
    assert result.solver == solver and result.iterations >= 1


@pytest.mark.parametrize('solver', SOLVERS)
def test_unreachable_target_returns_the_closest_pose_without_raising(ur5, ur5_oracle, solver):
    target = np.eye(4)
    target[:3, 3] = [3.0, 0.0, 0.5]  # well beyond the arm's reach of about 1 m
    result = solve(ur5, target, solver=solver, position_only=True, timeout=0.05)
    assert not result.success
    assert result.status in ('timed_out', 'no_solution')
    assert ur5_oracle.limit_violations(result.q) == []
    # The closest pose stretches toward the target: about 3 m minus the reach.
    reach = np.linalg.norm(ur5_oracle.fk(result.q)[:3, 3] - target[:3, 3])
    assert reach == pytest.approx(result.position_error)
    assert result.position_error < 3.0 - 0.8


@pytest.mark.parametrize('solver', SOLVERS)
def test_joint_limits_are_kept(panda, panda_oracle, solver):
    # Targets drawn near the limits, seeds outside them: every answer lies within.
    rng = np.random.default_rng(5)
    for _ in range(3):
        solution = np.where(rng.random(7) < 0.5, panda.lower, panda.upper) * 0.98
        target = panda.fk(solution)
        seed = panda.random_configuration(rng) * 1.5
        result = solve(panda, target, seed=seed, solver=solver, timeout=TIMEOUT)
        assert panda.within_limits(result.q)
        assert result.success, result
        panda_oracle.check(result.q, target)


@pytest.mark.parametrize('solver', SOLVERS)
def test_same_inputs_give_the_same_output(panda, panda_oracle, solver):
    rng = np.random.default_rng(9)
    target = panda.fk(panda.random_configuration(rng))
    seed = panda.random_configuration(rng)
    first = solve(panda, target, seed=seed, solver=solver, timeout=TIMEOUT)
    second = solve(panda, target, seed=seed, solver=solver, timeout=TIMEOUT)
    assert first.success and second.success
    panda_oracle.check(first.q, target)
    np.testing.assert_array_equal(first.q, second.q)
    assert first.attempts == second.attempts and first.iterations == second.iterations


def test_every_layout_of_target_and_seed_gives_the_same_answer(panda, panda_oracle):
    # Arrays as callers usually pass them take a direct call of the compiled search; any
    # other layout must be converted first, never read as if it were that one.
    rng = np.random.default_rng(12)
    target = panda.fk(panda.random_configuration(rng))
    seed = panda.random_configuration(rng)
    reference = solve(panda, target, seed=seed, timeout=TIMEOUT)
    assert reference.success
    panda_oracle.check(reference.q, target)
    read_only_target, read_only_seed = target.copy(), seed.copy()
    read_only_target.setflags(write=False)
    read_only_seed.setflags(write=False)
    wide_seed = np.zeros((panda.num_joints, 2))
    wide_seed[:, 0] = seed
    layouts = [
        (np.asfortranarray(target), seed),
        (target.tolist(), seed.tolist()),
        (read_only_target, read_only_seed),
        (np.repeat(target, 2, axis=1)[:, ::2], wide_seed[:, 0]),
        (np.ascontiguousarray(target.T).T, seed.astype(np.longdouble)),
    ]
    for layout_target, layout_seed in layouts:
        result = solve(panda, layout_target, seed=layout_seed, timeout=TIMEOUT)
        assert result.success
        panda_oracle.check(result.q, target)
        np.testing.assert_array_equal(result.q, reference.q)
    assert not read_only_seed.flags.writeable and np.array_equal(read_only_seed, seed)


@pytest.mark.parametrize('solver', SOLVERS)
def test_the_timeout_is_honoured_on_the_long_snake(solver):
    chain = load_chain('snake_100', 'base_link', 'tip')
    target = chain.fk(chain.random_configuration(np.random.default_rng(3)))
    # Long enough that a loaded machine still runs the first iteration before the deadline
    # (at 0.02 s, beside `stress --cpu 2`, the deadline once passed before any iteration).
    timeout = 0.2
    # A tolerance no floating-point pose can meet and a start that never gives up: the search
    # runs until the deadline, in its first start, which is a lack of time, not of reach.
    result = solve(chain, target, solver=solver, timeout=timeout, polish=False,
                   position_tolerance=1e-300, orientation_tolerance=1e-300,
                   max_iterations=10 ** 9, stall_iterations=10 ** 9)
    # The deadline, not the iteration budget, ended it; how far past the deadline a solve
    # returns is measured by ik_solvers_benchmarks.solve_overhead, not asserted here.
    assert result.status == 'timed_out'
    assert result.attempts == 1 and 1 <= result.iterations < 10 ** 9


@pytest.mark.parametrize('solver', SOLVERS)
def test_a_target_beyond_reach_is_no_solution_at_once(ur5, solver):
    target = np.eye(4)
    target[:3, 3] = [3.0, 0.0, 0.0]  # the arm is about 1 m long
    result = solve(ur5, target, solver=solver, timeout=1.0)
    assert result.status == 'no_solution' and not result.success
    assert result.attempts == 1 and ur5.within_limits(result.q)


def test_a_search_that_stops_improving_is_no_solution(ur5):
    # Within reach, but a tolerance nothing meets: the best error stops improving long before
    # the deadline, which tells "unreachable" from "out of time".
    target = ur5.fk(ur5.mid_configuration() + 0.3)
    result = solve(ur5, target, solver='ccd', timeout=0.5, position_tolerance=1e-300,
                   orientation_tolerance=1e-300)
    assert result.status == 'no_solution' and result.attempts >= 8


def test_max_attempts_ends_with_no_solution(ur5):
    # Out of the arm's true reach (about 0.85 m from the shoulder), but within the bound the
    # solver can prove (the sum of the distances between joint origins), so it must search.
    target = np.eye(4)
    target[:3, 3] = [1.0, 0.0, 0.3]
    result = solve(ur5, target, solver='ccd', max_attempts=2, timeout=TIMEOUT)
    assert result.status == 'no_solution' and result.attempts == 2


@pytest.mark.parametrize('solver', SOLVERS)
def test_prismatic_and_continuous_joints(mixed, solver):
    rng = np.random.default_rng(13)
    for position_only in (True, False):
        for _ in range(3):
            solution = mixed.random_configuration(rng)
            target = mixed.fk(solution)
            result = solve(mixed, target, solver=solver, position_only=position_only,
                           timeout=TIMEOUT)
            assert result.success, (position_only, result)
            assert mixed.within_limits(result.q)
            UrdfOracle(MIXED_JOINTS_URDF, 'base', 'tool').check(
                result.q, target, orientation_mode='none' if position_only else 'full')


@pytest.mark.parametrize('solver', SOLVERS)
def test_singular_straight_start(solver):
    # The snake starts straight (a singular configuration) toward a target along its body.
    chain = load_chain('snake_20', 'base_link', 'tip')
    target = np.eye(4)
    target[:3, 3] = [1.6, 0.3, 0.2]
    result = solve(chain, target, seed=np.zeros(chain.num_joints), solver=solver,
                   position_only=True, timeout=TIMEOUT)
    assert result.success, result
    bundled_oracle('snake_20.urdf', 'base_link', 'tip').check(result.q, target,
                                                              orientation_mode='none')


def test_ccd_weights_lock_joints(ur5):
    rng = np.random.default_rng(17)
    seed = ur5.random_configuration(rng)
    target = ur5.fk(ur5.random_configuration(rng))
    weights = [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]
    result = solve(ur5, target, seed=seed, solver='ccd', polish=False, max_attempts=1,
                   weights=weights, position_only=True, timeout=TIMEOUT)
    assert result.q[3] == seed[3]
    free = solve(ur5, target, seed=seed, solver='ccd', polish=False, max_attempts=1,
                 position_only=True, timeout=TIMEOUT)
    assert free.q[3] != seed[3]


@pytest.mark.parametrize('solver', SOLVERS)
def test_heuristic_error_decreases_within_few_iterations(ur5, solver):
    rng = np.random.default_rng(19)
    solution = ur5.random_configuration(rng)
    target = ur5.fk(solution)
    seed = ur5.clip(solution + 0.3)
    start_error = np.linalg.norm(ur5.fk(seed)[:3, 3] - target[:3, 3])
    result = solve(ur5, target, seed=seed, solver=solver, polish=False, max_attempts=1,
                   max_iterations=30, position_only=True, timeout=TIMEOUT)
    assert result.iterations <= 30
    assert result.position_error < 0.2 * start_error


def test_polish_reaches_tight_tolerances_in_fewer_iterations_than_the_heuristic(
        ur5, ur5_oracle):
    # Counted in iterations, not seconds: the same start and tolerances, one attempt each.
    rng = np.random.default_rng(23)
    solution = ur5.random_configuration(rng)
    target = ur5.fk(solution)
    seed = ur5.clip(solution + 0.1)
    tight = {'position_tolerance': 1e-9, 'orientation_tolerance': 1e-9}
    polished = solve(ur5, target, seed=seed, solver='jacobian_transpose', polish=True,
                     max_attempts=1, timeout=TIMEOUT, **tight)
    assert polished.success and polished.polished
    ur5_oracle.check(polished.q, target, position_tolerance=1e-9, orientation_tolerance=1e-9)
    alone = solve(ur5, target, seed=seed, solver='jacobian_transpose', polish=False,
                  max_attempts=1, max_iterations=1000, timeout=TIMEOUT, **tight)
    assert not alone.polished
    assert polished.iterations < alone.iterations, (polished, alone)


def test_rotation_vector_recovers_axis_and_angle_up_to_a_half_turn():
    rng = np.random.default_rng(29)
    for angle in (0.0, 1e-9, 0.3, 2.0, np.pi - 1e-4, np.pi):
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        skew = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]],
                         [-axis[1], axis[0], 0]])
        rotation = np.eye(3) + np.sin(angle) * skew + (1 - np.cos(angle)) * skew @ skew
        vector = rotation_vector(rotation)
        assert np.linalg.norm(vector) == pytest.approx(angle, abs=1e-9)
        if 0.0 < angle < np.pi:
            np.testing.assert_allclose(vector, angle * axis, atol=1e-7)
        assert orientation_error(rotation, np.eye(3)) == pytest.approx(angle, abs=1e-7)


@pytest.mark.parametrize('solver', SOLVERS)
def test_chains_with_mimic_joints_are_solved(solver):
    chain = RobotModel.from_urdf(MIMIC_URDF).chain('base', 'tool')
    assert chain.num_joints == 2
    rng = np.random.default_rng(31)
    for _ in range(3):
        target = chain.fk(chain.random_configuration(rng))
        result = solve(chain, target, solver=solver, position_only=True, timeout=TIMEOUT)
        assert result.success, result
        UrdfOracle(MIMIC_URDF, 'base', 'tool').check(result.q, target, orientation_mode='none')


def test_a_slow_warm_up_tells_the_user_on_stderr_without_any_logging_setup():
    # Threshold 0: the notice a first compilation (about 75 s) prints after 2 s; loading
    # from the disk cache is never slow enough to print it.
    script = ('import importlib, time; '
              'w = importlib.import_module("ik_solvers.solvers.warm_up"); '
              'w._NOTICE_AFTER = 0.0; w.warm_up(("ccd",)); time.sleep(0.2)')
    done = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                          timeout=600, check=True)
    assert 'compiling the solver kernels on first use' in done.stderr
