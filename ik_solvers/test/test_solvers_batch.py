# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""solve_batch: answers confirmed by the oracle, the same on one thread and two, bad input."""

import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import bundled_oracle
from ik_solvers import InvalidSeedError, InvalidTargetError
from ik_solvers.solvers.batch import BATCH_STATUS_NAMES, solve_batch


def _problems(chain, count, seed):
    generator = np.random.default_rng(seed)
    targets = chain.fk_batch(np.array([chain.random_configuration(generator)
                                       for _ in range(count)]))
    seeds = np.array([chain.random_configuration(generator) for _ in range(count)])
    return targets, seeds


def test_every_success_is_confirmed_by_the_oracle_and_far_targets_fail(ur5):
    targets, seeds = _problems(ur5, 120, 1)
    targets[7, :3, 3] = (5.0, 0.0, 0.0)  # far beyond the arm's reach
    result = solve_batch(ur5, targets, seeds, threads=2)
    oracle = bundled_oracle('ur5_like.urdf', 'base_link', 'tool0')
    assert result.q.shape == (120, ur5.num_joints)
    assert result.success.sum() >= 110  # reachable targets: nearly all found
    for k in np.flatnonzero(result.success):
        oracle.check(result.q[k], targets[k])
    assert not result.success[7]
    assert BATCH_STATUS_NAMES[result.status[7]] == 'no_solution'
    assert np.all(result.status[result.success] == 0)
    assert np.all(result.iterations[result.success] >= 0)
    assert np.all(result.position_error[result.success] <= 1e-5)


def test_one_thread_and_two_give_the_same_answers(panda):
    targets, seeds = _problems(panda, 200, 2)
    one = solve_batch(panda, targets, seeds, threads=1)
    two = solve_batch(panda, targets, seeds, threads=2)
    for name in one._fields:
        assert np.array_equal(getattr(one, name), getattr(two, name)), name


def test_runs_longer_than_the_shortest_give_the_same_answers_on_two_threads(ur5):
    # 9,000 targets are handed out in runs of 70: each thread's share changes with the timing.
    targets, seeds = _problems(ur5, 9000, 12)
    one = solve_batch(ur5, targets, seeds, threads=1, max_attempts=8)
    two = solve_batch(ur5, targets, seeds, threads=2, max_attempts=8)
    for name in one._fields:
        assert np.array_equal(getattr(one, name), getattr(two, name)), name


def test_a_timeout_ends_a_search_that_the_cap_on_starts_would_not(panda):
    # The arm cannot bring its tip to its own base: no start solves it, and a billion starts
    # would take days. With a finite deadline the search reads the clock and stops.
    target = np.eye(4)
    target[:3, 3] = (0.0, 0.0, 0.05)
    result = solve_batch(panda, target[None], max_attempts=10**9, timeout=0.02)
    assert not result.success[0]
    assert BATCH_STATUS_NAMES[result.status[0]] in ('timed_out', 'no_solution')
    assert 1 < result.attempts[0] < 10**6


def test_axis_mode_and_position_only_goals(ur5):
    targets, seeds = _problems(ur5, 40, 3)
    oracle = bundled_oracle('ur5_like.urdf', 'base_link', 'tool0')
    for mode in ('axis', 'none'):
        result = solve_batch(ur5, targets, seeds, orientation_mode=mode, threads=2)
        assert result.success.all()
        for k in range(40):
            oracle.check(result.q[k], targets[k], orientation_mode=mode)


class _ElbowCheck:
    """A collision check that calls every configuration with a positive elbow a collision."""

    class _Finding:
        def __init__(self, colliding):
            self.colliding = colliding
            self.pairs = [('upper_arm_link', 'forearm_link')] if colliding else []
            self.unchecked_links = []

    def check(self, q, stop_at_first=False):
        return self._Finding(q[2] > 0.0)


def test_a_collision_check_rejects_colliding_solutions(ur5):
    targets, seeds = _problems(ur5, 60, 4)
    result = solve_batch(ur5, targets, seeds, collision=_ElbowCheck(), threads=2)
    assert np.all(result.q[result.success, 2] <= 0.0)
    assert result.success.sum() >= 40  # the other elbow branch reaches most of them
    colliding = result.status == BATCH_STATUS_NAMES.index('in_collision')
    assert np.all(result.q[colliding, 2] > 0.0)


def test_bad_targets_and_seeds_are_refused_with_their_index(ur5):
    targets, seeds = _problems(ur5, 10, 5)
    targets[6, 0, 0] = 3.0
    with pytest.raises(InvalidTargetError, match='index 6'):
        solve_batch(ur5, targets, seeds)
    with pytest.raises(InvalidTargetError):
        solve_batch(ur5, np.zeros((3, 3, 3)))
    targets, seeds = _problems(ur5, 10, 5)
    with pytest.raises(InvalidSeedError):
        solve_batch(ur5, targets, seeds[:, :3])
    seeds[4, 1] = np.nan
    with pytest.raises(InvalidSeedError, match='row 4'):
        solve_batch(ur5, targets, seeds)


def _mirrored(pose):
    pose = pose.copy()
    pose[:3, 0] *= -1.0  # orthonormal, but left-handed
    return pose


def _sheared(pose):
    pose = pose.copy()
    pose[:3, 1] += 1e-4 * pose[:3, 0]  # the first two columns no longer orthogonal
    return pose


def _bottom_row(pose):
    pose = pose.copy()
    pose[3, 2] = 1e-3
    return pose


def _not_finite(pose):
    pose = pose.copy()
    pose[1, 3] = np.inf
    return pose


@pytest.mark.parametrize('defect', [_mirrored, _sheared, _bottom_row, _not_finite])
def test_each_kind_of_broken_target_is_counted_and_the_first_named(ur5, defect):
    targets, seeds = _problems(ur5, 40, 8)
    for index in (11, 12, 30):
        targets[index] = defect(targets[index])
    with pytest.raises(InvalidTargetError, match=r'^3 target\(s\) .* index 11$'):
        solve_batch(ur5, targets, seeds)
    # Within the tolerance (1e-6) a pose is still rigid, and the batch solves it.
    targets, seeds = _problems(ur5, 4, 9)
    targets[2, 0, 1] += 5e-7
    assert solve_batch(ur5, targets, seeds).success[2]


_WARM_UP_CHECK = """
import json
from ik_solvers.kinematics.jit import JIT_ENABLED
from ik_solvers.solvers import SOLVERS, warm_up
from ik_solvers.solvers._core.batch_kernels import run_batch
from ik_solvers.solvers._core.input_checks import invalid_targets
import ik_solvers.reach.named_robots as robots
from ik_solvers.kinematics import RobotModel
from ik_solvers.solvers.batch import solve_batch
import numpy as np
if not JIT_ENABLED:
    print('no-jit')
    raise SystemExit(0)
kernels = [run_batch, invalid_targets]
before = {k.py_func.__name__: len(k.signatures) for k in kernels}
warm_up()
after = {k.py_func.__name__: len(k.signatures) for k in kernels}
robot = robots.load_robot('ur5_like')
chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
generator = np.random.default_rng(3)
targets = chain.fk_batch(np.array([chain.random_configuration(generator) for _ in range(80)]))
for solver in SOLVERS:
    solve_batch(chain, targets, threads=2, solver=solver, max_attempts=2)
used = {k.py_func.__name__: len(k.signatures) for k in kernels}
print(json.dumps([sorted(before.values()), sorted(after.values()), after == used]))
"""


def test_warm_up_compiles_every_batch_loop_with_the_types_a_batch_uses():
    # A fresh process: in this one earlier tests may already have compiled the loops.
    done = subprocess.run([sys.executable, '-c', _WARM_UP_CHECK], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    if done.stdout.strip() == 'no-jit':
        pytest.skip('numba JIT disabled: nothing is compiled')
    before, after, same = json.loads(done.stdout.strip().splitlines()[-1])
    assert before == [0] * 2  # nothing compiled before warm_up()
    assert after == [1] * 2  # one signature of the one loop (and the targets' check) after it
    assert same  # solve_batch used exactly those: no new compilation
