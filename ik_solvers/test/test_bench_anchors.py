# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark anchors: TRAC-IK and ikpy solve our targets, as our own FK confirms."""

import numpy as np
import pytest

from ik_solvers_benchmarks.anchors import AnchorUnavailableError, make_anchor
from ik_solvers_benchmarks.protocol import check_solution, draw_seeds, draw_targets
from ik_solvers.reach.named_robots import load_robot
from ik_solvers.kinematics import RobotModel


def _setup(name: str, count: int):
    robot = load_robot(name)
    model = RobotModel.from_urdf(robot.urdf_xml)
    chain = model.chain(robot.base_link, robot.tip_link)
    targets = draw_targets(chain, count, seed=11)
    seeds = draw_seeds(chain, targets, 'warm', seed=11)
    return robot, model, chain, targets, seeds


def test_trac_ik_solves_full_poses_that_our_fk_confirms():
    pytest.importorskip('pytracik', reason='TRAC-IK anchor needs pytracik (PyPI)')
    # The Panda's root link has an inertia, which KDL refuses unless the anchor works around it.
    robot, model, chain, targets, seeds = _setup('panda_like', 10)
    anchor = make_anchor('trac_ik', robot.urdf_xml, robot.base_link, robot.tip_link, chain)
    confirmed = 0
    for seed, target in zip(seeds, targets.poses):
        claimed, q, _ = anchor.solve(seed, target, position_only=False, timeout=0.05)
        verdict = check_solution(chain, q, target, model=model, position_only=False)
        # Its epsilon is set so that whatever it claims passes our norm-based check.
        assert verdict.ok or not claimed
        confirmed += claimed and verdict.ok
    assert confirmed >= 9
    with pytest.raises(AnchorUnavailableError, match='position-only'):
        anchor.solve(seeds[0], targets.poses[0], position_only=True, timeout=0.005)


def test_trac_ik_refuses_a_chain_it_sees_differently():
    pytest.importorskip('pytracik', reason='TRAC-IK anchor needs pytracik (PyPI)')
    robot, _, chain, _, _ = _setup('ur5_like', 1)
    with pytest.raises(AnchorUnavailableError, match='joints'):
        make_anchor('trac_ik', robot.urdf_xml, robot.base_link, 'wrist_2_link', chain)


def test_ikpy_solves_from_warm_seeds_in_both_modes():
    pytest.importorskip('ikpy', reason='ikpy anchor needs ikpy (PyPI)')
    robot, model, chain, targets, seeds = _setup('ur5_like', 2)
    anchor = make_anchor('ikpy', robot.urdf_xml, robot.base_link, robot.tip_link, chain)
    assert not anchor.claims_success and not anchor.honours_budget
    for seed, target in zip(seeds, targets.poses):
        for position_only in (False, True):
            _, q, _ = anchor.solve(seed, target, position_only=position_only, timeout=0.005)
            verdict = check_solution(chain, q, target, model=model, position_only=position_only)
            assert verdict.ok, verdict
            assert np.max(np.abs(q - seed)) < 0.5


def test_unknown_anchor_is_refused():
    robot, _, chain, _, _ = _setup('ur5_like', 1)
    with pytest.raises(AnchorUnavailableError, match='unknown anchor'):
        make_anchor('ikfast', robot.urdf_xml, robot.base_link, robot.tip_link, chain)
