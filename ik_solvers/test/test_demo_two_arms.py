# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The demo's two-armed segment: every solver in the table, the held hand held (few goals)."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers.demo.two_arms import (
    format_two_arm_table,
    run_two_arms,
    TIPS,
    TwoArmOptions,
)
from ik_solvers.exceptions import IKError
from ik_solvers.solvers import SOLVERS

URDF = Path(__file__).resolve().parents[1] / 'urdf' / 'trees' / 'dual_arm_waist.urdf'


@pytest.fixture(scope='module')
def short_run():
    options = TwoArmOptions(solvers=tuple(SOLVERS), path_length=30)
    return options, run_two_arms(options, URDF.read_text(encoding='utf-8'))


def test_every_solver_has_a_row_and_the_held_hand_stays_within_tolerance(short_run):
    options, runs = short_run
    table = format_two_arm_table(runs, options)
    rows = table.splitlines()[4:-1]
    assert [row.split()[0] for row in rows] == list(SOLVERS)
    for run in runs:
        summary = run.summary
        assert summary.goals == 2 * options.path_length
        assert summary.exact > 0, summary
        assert summary.held_position_error <= options.position_tolerance
        assert summary.held_orientation_error <= options.orientation_tolerance
        assert summary.colliding_commands == 0
        assert summary.max_joint_jump <= 0.087 + 1e-9  # the node's default max_joint_jump


def test_the_held_hand_does_not_move_while_the_other_one_does(short_run):
    _, runs = short_run
    left, right = TIPS.index('left_tool'), TIPS.index('right_tool')
    for run in runs:
        moved = 0
        # configurations[k + 1] is where goal k left the robot: a command, or where it was.
        for k in range(run.hold_from, len(run.targets)):
            before, after = run.configurations[k], run.configurations[k + 1]
            if np.array_equal(before, after):
                continue
            hands = run.tree.fk(after)[:, :3, 3]
            assert np.linalg.norm(hands[left] - run.targets[k, left]) <= 1e-5
            assert np.linalg.norm(hands[right] - run.targets[k, right]) <= 1e-5
            moved += 1
        assert moved > 0, run.summary


def test_the_picture_draws_the_robot(short_run, tmp_path):
    pytest.importorskip('matplotlib', reason='matplotlib is not installed')
    from ik_solvers.demo.two_arm_plot import plot_two_arms
    path = plot_two_arms(short_run[1], tmp_path / 'two_arms.png')
    assert path.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    with pytest.raises(ValueError):
        plot_two_arms([], tmp_path / 'none.png')


def test_bad_options_are_refused():
    with pytest.raises(IKError):
        TwoArmOptions(solvers=('fabrik',), path_length=1)
    with pytest.raises(IKError):
        TwoArmOptions(solvers=('fabrik',), width=0.0)
