# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The demo's teleoperation segment on a short script: no stops, the wrist crossed, limits kept."""

from pathlib import Path

import numpy as np
import pytest

from ik_solvers.demo.teleoperation import (
    format_teleop_table,
    run_teleoperation,
    TeleopOptions,
    WRIST_JOINT,
)
from ik_solvers.exceptions import IKError

URDF = Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf'
SOLVER = 'jacobian_transpose'


@pytest.fixture(scope='module')
def short_run():
    options = TeleopOptions(solvers=(SOLVER,), wrist_angle=0.4, stretch=2.0, slide=0.5)
    return options, run_teleoperation(options, URDF.read_text(encoding='utf-8'))[0]


def test_the_arm_never_stops_while_part_of_the_command_is_achievable(short_run):
    _, run = short_run
    assert run.summary.stops == 0
    # The push outward and the slide happen with the elbow straight, and the tip still moves
    # along the part of the command that points along the edge.
    assert np.any(run.edge), run.summary
    assert run.summary.slide_fraction > 0.2, run.summary


def test_the_tip_crosses_the_wrist_singularity(short_run):
    options, run = short_run
    wrist = run.chain.joint_names.index(WRIST_JOINT)
    angles = run.positions[:, wrist]
    assert angles[0] == pytest.approx(options.wrist_angle)
    assert angles[-1] < -0.5 * options.wrist_angle
    assert run.summary.crossed and run.wrist_cycle >= 0
    assert angles[run.wrist_cycle] > 0.0 >= angles[run.wrist_cycle + 1]
    # It keeps moving through the crossing: the tip follows a good share of the command there.
    assert run.summary.wrist_fraction > 0.3, run.summary


def test_no_point_goes_past_the_velocity_limits(short_run):
    options, run = short_run
    settings = options.settings
    limits = run.chain.velocity_limits * settings.velocity_scale
    # Each cycle moves at the mean of two points' velocities: at most the limit.
    mean_speeds = np.abs(np.diff(run.positions, axis=0)) / settings.period
    assert np.all(mean_speeds <= limits * (1.0 + 1e-9))
    assert run.summary.velocity_ratio <= 1.0 + 1e-9
    assert run.summary.acceleration_ratio <= 1.0 + 1e-9


def test_the_table_has_the_solver_row(short_run):
    options, run = short_run
    table = format_teleop_table([run], options)
    rows = table.splitlines()
    assert rows[4].split()[:3] == [SOLVER, str(run.summary.cycles), '0']


def test_the_picture_is_written(short_run, tmp_path):
    pytest.importorskip('matplotlib', reason='matplotlib is not installed')
    from ik_solvers.demo.teleoperation_plot import plot_teleoperation
    path = plot_teleoperation([short_run[1]], tmp_path / 'teleoperation.png')
    assert path.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    with pytest.raises(ValueError):
        plot_teleoperation([], tmp_path / 'none.png')


def test_bad_options_and_arms_are_refused():
    with pytest.raises(IKError):
        TeleopOptions(solvers=(SOLVER,), wrist_angle=0.0)
    with pytest.raises(IKError):
        TeleopOptions(solvers=(SOLVER,), slide=float('nan'))
    with pytest.raises(IKError):
        run_teleoperation(TeleopOptions(solvers=('no_such_solver',)),
                          URDF.read_text(encoding='utf-8'))
    panda = URDF.with_name('panda_like.urdf').read_text(encoding='utf-8')
    with pytest.raises(IKError):
        run_teleoperation(TeleopOptions(solvers=(SOLVER,)), panda)
