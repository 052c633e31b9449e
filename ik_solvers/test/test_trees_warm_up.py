# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The setup's warm-up of the tree solvers: each runs once; an unknown one is refused."""

from ik_solvers.exceptions import UnknownSolverError
from ik_solvers.solvers.tree_solve import TREE_SOLVERS
from ik_solvers.solvers.tree_warm_up import warm_up_trees
import pytest


def test_every_tree_solver_is_warmed_up():
    assert warm_up_trees(TREE_SOLVERS) > 0.0


def test_an_unknown_solver_is_refused():
    with pytest.raises(UnknownSolverError):
        warm_up_trees(['no_such_solver'])
