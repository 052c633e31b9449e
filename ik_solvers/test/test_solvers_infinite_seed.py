# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""A seed holding +inf or -inf for one joint is refused by every library entry point."""

import numpy as np
import pytest

from ik_solvers import InvalidSeedError, solve, solve_many
from ik_solvers.paths.cartesian import cartesian_path
from ik_solvers.solvers.batch import solve_batch

INFINITIES = pytest.mark.parametrize('value', [np.inf, -np.inf], ids=['plus_inf', 'minus_inf'])


def _seed(chain, value):
    seed = np.array(chain.random_configuration(np.random.default_rng(3)))
    seed[2] = value
    return seed


@INFINITIES
def test_solve_refuses_an_infinite_seed(ur5, value):
    with pytest.raises(InvalidSeedError):
        solve(ur5, ur5.fk(np.zeros(6)), seed=_seed(ur5, value))


@INFINITIES
def test_solve_many_refuses_an_infinite_seed(ur5, value):
    with pytest.raises(InvalidSeedError):
        solve_many(ur5, ur5.fk(np.zeros(6)), seed=_seed(ur5, value))


@INFINITIES
def test_solve_batch_refuses_an_infinite_seed_by_its_row(ur5, value):
    generator = np.random.default_rng(4)
    seeds = np.array([ur5.random_configuration(generator) for _ in range(5)])
    targets = ur5.fk_batch(seeds)
    seeds[3, 2] = value
    with pytest.raises(InvalidSeedError, match='row 3'):
        solve_batch(ur5, targets, seeds)


@INFINITIES
def test_cartesian_path_refuses_an_infinite_start(ur5, value):
    with pytest.raises(InvalidSeedError):
        cartesian_path(ur5, [ur5.fk(np.zeros(6))], seed=_seed(ur5, value))
