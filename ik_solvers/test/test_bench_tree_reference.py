# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The tree benchmark's independent check: Pinocchio where it reads the tree as ours, else not."""

import numpy as np
import pytest

pytest.importorskip('pinocchio', reason='the independent check needs Pinocchio (PyPI pin)')

from ik_solvers_benchmarks.tree_bench import _load, HUMANOID_TREES  # noqa: E402
from ik_solvers.reach.named_robots import vendor_description  # noqa: E402


@pytest.mark.parametrize('name', sorted(HUMANOID_TREES))
def test_a_humanoid_upper_body_is_checked_by_pinocchio_and_agrees_with_the_tree(name):
    if vendor_description(HUMANOID_TREES[name][0]) is None:
        pytest.skip('example-robot-data is not installed')
    _, tree, reference, _ = _load(name)
    # The legs and the head are joints of the description off the tree: they stay neutral.
    assert reference.name == 'Pinocchio'
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = tree.random_configuration(rng)
        np.testing.assert_allclose(reference.poses(q), tree.fk(q), atol=1e-9)


def test_a_tree_with_mimic_joints_on_its_paths_falls_back_to_its_chains():
    # The hand's finger joints couple by mimic tags, which Pinocchio reads as joints of their
    # own: checking with it would leave them at zero.
    _, tree, reference, _ = _load('four_finger_hand')
    assert reference.name == 'chain FK'
    q = tree.random_configuration(np.random.default_rng(4))
    np.testing.assert_allclose(reference.poses(q), tree.fk(q), atol=1e-12)
