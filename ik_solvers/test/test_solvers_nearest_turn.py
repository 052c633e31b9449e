# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Solutions are returned on the turn nearest the seed: no full spin of a wide-range joint."""

import math
from pathlib import Path

from conftest import UrdfOracle
import numpy as np
import pytest

from ik_solvers import RobotModel, solve
from ik_solvers.solvers.solve import nearest_turn

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()


def _chain():
    chain = RobotModel.from_urdf(URDF).chain('base_link', 'tool0')
    assert np.all(chain.upper - chain.lower > 2.0 * math.pi), 'the test needs +-2 pi joints'
    return chain


def test_whole_turns_bring_each_joint_nearest_the_seed_within_its_limits():
    chain = _chain()
    q = np.array([-5.0, 1.0, 0.5, -6.0, 2.0, 3.0])
    seed = np.array([1.0, 1.0, 0.5, 6.0, 2.0, -3.5])
    moved = nearest_turn(q, seed, chain)
    assert moved[0] == pytest.approx(-5.0 + 2.0 * math.pi)
    assert moved[3] == pytest.approx(-6.0 + 2.0 * math.pi)   # two turns would leave the limits
    assert moved[5] == pytest.approx(3.0 - 2.0 * math.pi)
    assert list(moved[1:3]) == [1.0, 0.5]
    assert np.all(moved >= chain.lower) and np.all(moved <= chain.upper)
    same_pose = np.abs(chain.fk(moved) - chain.fk(q)).max()
    assert same_pose < 1e-12


def test_no_other_turn_of_a_returned_joint_is_nearer_the_seed():
    chain = _chain()
    rng = np.random.default_rng(5)
    for _ in range(30):
        target = chain.fk(chain.random_configuration(rng))
        seed = chain.random_configuration(rng)
        result = solve(chain, target, seed=seed, solver='ccd', timeout=1.0)
        assert result.success
        UrdfOracle(URDF, 'base_link', 'tool0').check(result.q, target)
        for shift in (-2.0 * math.pi, 2.0 * math.pi):
            other = result.q + shift
            inside = (other >= chain.lower) & (other <= chain.upper)
            nearer = np.abs(other - seed) < np.abs(result.q - seed) - 1e-9
            assert not np.any(inside & nearer), (result.q, seed)
