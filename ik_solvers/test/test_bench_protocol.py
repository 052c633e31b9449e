# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark protocol: deterministic reachable targets, the three seed kinds, the check."""

from pathlib import Path

import numpy as np
import pytest
import transforms3d

from ik_solvers_benchmarks.protocol import (
    check_solution,
    draw_seeds,
    draw_targets,
    orientation_distance,
    WARM_SEED_RADIUS,
)
from ik_solvers.kinematics import RobotModel

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'


@pytest.fixture(scope='module')
def panda_model() -> RobotModel:
    return RobotModel.from_urdf((URDF_DIR / 'panda_like.urdf').read_text())


def test_targets_are_deterministic_for_a_fixed_seed(panda):
    first = draw_targets(panda, 20, seed=7)
    again = draw_targets(panda, 20, seed=7)
    other = draw_targets(panda, 20, seed=8)
    np.testing.assert_array_equal(first.configurations, again.configurations)
    np.testing.assert_array_equal(first.poses, again.poses)
    assert not np.allclose(first.configurations, other.configurations)


def test_targets_come_from_configurations_within_the_limits(panda):
    targets = draw_targets(panda, 50, seed=1)
    assert len(targets) == 50
    assert all(panda.within_limits(q, tolerance=0.0) for q in targets.configurations)
    for q, pose in zip(targets.configurations, targets.poses):
        np.testing.assert_allclose(pose, panda.fk(q), atol=1e-12)
    # Drawn over the whole range, not bunched: every joint covers most of its range.
    spread = np.ptp(targets.configurations, axis=0) / (panda.upper - panda.lower)
    assert np.all(spread > 0.6)


def test_warm_seeds_stay_near_the_source_configuration_and_within_limits(panda):
    targets = draw_targets(panda, 200, seed=3)
    seeds = draw_seeds(panda, targets, 'warm', seed=3)
    offsets = np.abs(seeds - targets.configurations)
    assert offsets.max() <= WARM_SEED_RADIUS + 1e-12
    assert offsets.max() > 0.5 * WARM_SEED_RADIUS
    assert all(panda.within_limits(seed, tolerance=0.0) for seed in seeds)
    np.testing.assert_array_equal(seeds, draw_seeds(panda, targets, 'warm', seed=3))


def test_mid_and_random_seeds(panda):
    targets = draw_targets(panda, 30, seed=0)
    mid = draw_seeds(panda, targets, 'mid')
    np.testing.assert_allclose(mid, np.tile(panda.mid_configuration(), (30, 1)))
    random = draw_seeds(panda, targets, 'random', seed=0)
    assert all(panda.within_limits(seed, tolerance=0.0) for seed in random)
    # Random seeds are independent of the targets they go with.
    assert np.median(np.abs(random - targets.configurations)) > 0.3


def test_unknown_seed_kind_is_refused(panda):
    targets = draw_targets(panda, 2)
    with pytest.raises(ValueError, match='unknown seed kind'):
        draw_seeds(panda, targets, 'lukewarm')
    with pytest.raises(ValueError, match='at least 1'):
        draw_targets(panda, 0)


def test_orientation_distance_matches_the_axis_angle_of_the_relative_rotation():
    rng = np.random.default_rng(5)
    for angle in (0.0, 1e-7, 1e-5, 0.3, 2.0, np.pi - 1e-3):
        axis = rng.normal(size=3)
        base = transforms3d.euler.euler2mat(*rng.uniform(-np.pi, np.pi, 3))
        rotated = base @ transforms3d.axangles.axangle2mat(axis, angle)
        assert orientation_distance(base, rotated) == pytest.approx(angle, abs=1e-12)


def test_check_accepts_exact_answers_and_refuses_errors_beyond_tolerance(panda, panda_model):
    targets = draw_targets(panda, 1, seed=2)
    q, target = targets.configurations[0], targets.poses[0]
    assert check_solution(panda, q, target, model=panda_model, position_only=False).ok

    shifted = target.copy()
    shifted[:3, 3] += [2e-5, 0.0, 0.0]
    far = check_solution(panda, q, shifted, model=panda_model, position_only=False)
    assert not far.ok and far.position_error == pytest.approx(2e-5, rel=1e-6)

    turned = target.copy()
    turned[:3, :3] = target[:3, :3] @ transforms3d.axangles.axangle2mat([0, 0, 1], 3e-5)
    twisted = check_solution(panda, q, turned, model=panda_model, position_only=False)
    assert not twisted.ok and twisted.orientation_error == pytest.approx(3e-5, rel=1e-6)
    # Position-only targets ignore the orientation entirely.
    assert check_solution(panda, q, turned, model=panda_model, position_only=True).ok


def test_check_flags_limits_and_malformed_configurations(panda, panda_model):
    targets = draw_targets(panda, 1, seed=4)
    q = targets.configurations[0].copy()
    q[3] = panda.upper[3] + 1e-3
    outside = check_solution(panda, q, panda.fk(q), model=panda_model, position_only=False)
    assert outside.reached and not outside.within_limits and not outside.ok
    for bad in (q[:-1], np.full(panda.num_joints, np.nan)):
        verdict = check_solution(panda, bad, targets.poses[0], model=panda_model,
                                 position_only=False)
        assert not verdict.ok and verdict.position_error == np.inf


def test_check_grades_with_the_urdf_model_not_the_chain(panda):
    # The same chain checked against a description whose hand is 1 cm longer: the error the
    # check measures is the model's, whatever the chain's forward kinematics says.
    urdf = (URDF_DIR / 'panda_like.urdf').read_text()
    longer = RobotModel.from_urdf(urdf.replace('xyz="0 0 0.1034"', 'xyz="0 0 0.1134"'))
    targets = draw_targets(panda, 1, seed=5)
    q, target = targets.configurations[0], targets.poses[0]
    verdict = check_solution(panda, q, target, model=longer, position_only=True)
    assert not verdict.ok and verdict.position_error == pytest.approx(0.01, abs=1e-9)


MIMIC_GRIPPER_URDF = """<robot name="gripper">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="leader" type="revolute"><parent link="base"/><child link="a"/>
    <axis xyz="0 0 1"/><limit lower="-2.5" upper="2.5" effort="1" velocity="1"/></joint>
  <joint name="follower" type="revolute"><parent link="a"/><child link="b"/>
    <origin xyz="1 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-0.2" upper="0.2" effort="1" velocity="1"/>
    <mimic joint="leader" multiplier="0.8"/></joint>
</robot>"""


def test_check_keeps_mimic_followers_within_their_own_limits():
    model = RobotModel.from_urdf(MIMIC_GRIPPER_URDF)
    chain = model.chain('base', 'b')
    for leader, inside in ((0.2, True), (0.3, False), (2.0, False)):
        q = np.array([leader])
        verdict = check_solution(chain, q, chain.fk(q), model=model, position_only=False)
        assert verdict.reached and verdict.within_limits == inside
