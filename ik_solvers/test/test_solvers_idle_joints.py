# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A joint that cannot move what is asked for stays where the seed put it."""

from pathlib import Path

from conftest import UrdfOracle
import numpy as np
import pytest

from ik_solvers import RobotModel, solve

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf').read_text()
# The tool frame lies on the last joint's axis: in position-only mode that joint is idle.
WRIST_ROLL = 6


@pytest.mark.parametrize('solver', ['ccd', 'fabrik', 'length_relaxation',
                                    'jacobian_transpose'])
@pytest.mark.parametrize('polish', [False, True])
def test_wrist_roll_keeps_its_seed_value_when_only_the_position_counts(solver, polish):
    chain = RobotModel.from_urdf(URDF).chain('panda_link0', 'panda_hand_tcp')
    rng = np.random.default_rng(11)
    for _ in range(8):
        seed = chain.random_configuration(rng)
        nearby = np.clip(seed + rng.uniform(-0.02, 0.02, chain.num_joints),
                         chain.lower, chain.upper)
        target = chain.fk(nearby)
        result = solve(chain, target, seed=seed, solver=solver, position_only=True,
                       polish=polish, timeout=1.0)
        assert result.success
        UrdfOracle(URDF, 'panda_link0', 'panda_hand_tcp').check(result.q, target,
                                                                orientation_mode='none')
        # Rounding noise alone must not turn it: a dragged goal would make the hand spin.
        assert result.q[WRIST_ROLL] == pytest.approx(seed[WRIST_ROLL], abs=1e-9)
