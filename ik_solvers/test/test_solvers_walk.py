# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The compiled walk settles nearby targets in order and hands back the first it cannot.

Every settled row is checked against its target by the URDF oracle of conftest.py, not by the
library's own kinematics.
"""

import math

import numpy as np
import pytest

from ik_solvers import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError
from ik_solvers.solvers.prepared import PreparedSolver

PANDA_READY = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])


def _line(chain, q, count, step):
    """Targets straight down from the tip pose at q, ``step`` m apart; row 0 is the start."""
    targets = np.repeat(chain.fk(q)[None], count, axis=0)
    targets[:, 2, 3] -= step * np.arange(count)
    return targets


def _path(chain, count):
    out = np.full((count, chain.num_joints), np.nan)  # rows the walk must not touch stay NaN
    out[0] = PANDA_READY
    return out


def test_a_fine_line_is_settled_point_by_point(panda, panda_oracle):
    targets = _line(panda, PANDA_READY, 41, 0.001)
    out = _path(panda, 41)
    stop = PreparedSolver(panda).walk(targets, out, 1, 40, max_steps=4, max_joint_motion=0.1,
                                      deadline=math.inf)
    assert stop == 41
    for index in range(1, 41):
        panda_oracle.check(out[index], targets[index], position_tolerance=1e-5,
                           orientation_tolerance=1e-5)
    assert np.abs(np.diff(out, axis=0)).max() <= 0.1


def test_a_target_the_steps_do_not_settle_is_handed_back_untouched(panda, panda_oracle):
    targets = _line(panda, PANDA_READY, 8, 0.001)
    targets[5:, 2, 3] -= 0.1  # a 10 cm leap: one damped step cannot close it to 1e-5
    out = _path(panda, 8)
    stop = PreparedSolver(panda).walk(targets, out, 1, 7, max_steps=1, max_joint_motion=0.5,
                                      deadline=math.inf)
    assert stop == 5
    for index in range(1, 5):
        panda_oracle.check(out[index], targets[index], position_tolerance=1e-5,
                           orientation_tolerance=1e-5)
    assert np.isnan(out[5:]).all()


def test_a_target_out_of_reach_is_handed_back(panda):
    targets = _line(panda, PANDA_READY, 6, 0.001)
    targets[3, :3, 3] = (5.0, 0.0, 0.0)  # far beyond the arm
    out = _path(panda, 6)
    stop = PreparedSolver(panda).walk(targets, out, 1, 5, max_steps=8, max_joint_motion=0.5,
                                      deadline=math.inf)
    assert stop == 3
    assert np.isnan(out[3:]).all()


def test_an_answer_that_moves_a_joint_too_far_is_handed_back(panda):
    targets = _line(panda, PANDA_READY, 4, 0.001)
    out = _path(panda, 4)
    # A millimetre of the tip turns some joint by more than a microradian.
    stop = PreparedSolver(panda).walk(targets, out, 1, 3, max_steps=4, max_joint_motion=1e-6,
                                      deadline=math.inf)
    assert stop == 1
    assert np.isnan(out[1:]).all()


def test_without_steps_only_targets_already_met_are_settled(panda):
    targets = _line(panda, PANDA_READY, 5, 0.0)
    targets[3, 2, 3] -= 0.001
    out = _path(panda, 5)
    stop = PreparedSolver(panda).walk(targets, out, 1, 4, max_steps=0, max_joint_motion=0.1,
                                      deadline=math.inf)
    assert stop == 3
    assert np.array_equal(out[1], PANDA_READY) and np.array_equal(out[2], PANDA_READY)


def test_a_passed_deadline_starts_no_target(panda):
    targets = _line(panda, PANDA_READY, 4, 0.001)
    out = _path(panda, 4)
    stop = PreparedSolver(panda).walk(targets, out, 1, 3, max_steps=4, max_joint_motion=0.1,
                                      deadline=0.0)
    assert stop == 1
    assert np.isnan(out[1:]).all()


def test_bad_walk_arguments_are_refused(panda):
    prepared = PreparedSolver(panda)
    targets = _line(panda, PANDA_READY, 4, 0.001)
    out = _path(panda, 4)
    for steps in (-1, 1.5, True):
        with pytest.raises(InvalidSolverOptionError):
            prepared.walk(targets, out, 1, 3, max_steps=steps, max_joint_motion=0.1,
                          deadline=math.inf)
    for motion in (0.0, -1.0, math.nan):
        with pytest.raises(InvalidSolverOptionError):
            prepared.walk(targets, out, 1, 3, max_steps=4, max_joint_motion=motion,
                          deadline=math.inf)
    for wrong in (out[:, :3].copy(), out.astype(np.float32), np.asfortranarray(out)):
        with pytest.raises(InvalidSeedError):
            prepared.walk(targets, wrong, 1, 3, max_steps=4, max_joint_motion=0.1,
                          deadline=math.inf)
    with pytest.raises(InvalidTargetError):
        prepared.walk(targets[:, :3], out, 1, 3, max_steps=4, max_joint_motion=0.1,
                      deadline=math.inf)
    for first, last in ((0, 3), (1, 4)):
        with pytest.raises(InvalidTargetError):
            prepared.walk(targets, out, first, last, max_steps=4, max_joint_motion=0.1,
                          deadline=math.inf)
    assert np.isnan(out[1:]).all()
