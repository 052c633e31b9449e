# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The demo's script and arithmetic: the drag path, the reach bound, the table figures."""

import math
from pathlib import Path

import numpy as np
import pytest
import transforms3d

from ik_solvers import RobotModel, solve
from ik_solvers.demo import DragRecording, scripted_drag, ScriptedGoal, SolveRecord, summarise
from ik_solvers.demo.metrics import APPROXIMATE_CODE, max_joint_jump
from ik_solvers.demo.demo_table import format_header, format_row, ProgressLine
from ik_solvers.demo.scripted_drag import figure_eight, out_of_reach

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf').read_text()


@pytest.fixture(scope='module')
def chain():
    return RobotModel.from_urdf(URDF).chain('panda_link0', 'panda_hand_tcp')


def _start():
    start = np.eye(4)
    start[:3, :3] = transforms3d.euler.euler2mat(math.pi, 0.3, 0.0)
    start[:3, 3] = [0.5, 0.0, 0.4]
    return start


def _angle(a, b):
    cosine = (np.trace(a[:3, :3].T @ b[:3, :3]) - 1.0) / 2.0
    return math.acos(max(-1.0, min(1.0, cosine)))


def test_the_figure_eight_is_closed_smooth_and_bounded():
    start = _start()
    poses = figure_eight(start, count=300, width=0.24, height=0.14, depth=-0.06,
                         tilt=math.radians(20.0))
    assert np.allclose(poses[0], start) and np.allclose(poses[-1], start)
    offsets = np.array([pose[:3, 3] - start[:3, 3] for pose in poses])
    assert np.max(np.abs(offsets), axis=0) == pytest.approx([0.03, 0.12, 0.07], rel=1e-3)
    steps = np.linalg.norm(np.diff(offsets, axis=0), axis=1)
    assert np.max(steps) < 0.005  # a hand, not a teleport: under 5 mm between goals
    turns = [_angle(a, b) for a, b in zip(poses, poses[1:])]
    assert max(turns) < math.radians(1.0)
    assert max(_angle(start, pose) for pose in poses) <= math.radians(20.0) * 1.12 + 1e-9
    for pose in poses:
        rotation = pose[:3, :3]
        assert rotation @ rotation.T == pytest.approx(np.eye(3), abs=1e-12)


def test_far_goals_lie_beyond_the_reach(chain):
    start = chain.fk(chain.mid_configuration())
    from ik_solvers.demo.headless_demo import reach_bound
    reach = reach_bound(chain)
    for pose in out_of_reach(start, count=5, reach=reach):
        assert np.linalg.norm(pose[:3, 3]) > 1.9 * reach


def test_the_reach_bound_holds_for_random_configurations(chain):
    from ik_solvers.demo.headless_demo import reach_bound
    reach = reach_bound(chain)
    rng = np.random.default_rng(3)
    tips = chain.fk_batch(np.array([chain.random_configuration(rng) for _ in range(500)]))
    assert np.max(np.linalg.norm(tips[:, :3, 3], axis=1)) <= reach
    assert reach < 2.0  # and it is a bound of the right size for a 0.9 m arm


def test_the_default_path_of_the_bundled_arm_is_reachable(chain, panda_oracle):
    home = chain.mid_configuration()
    goals = scripted_drag(chain.fk(home), path_length=40, unreachable=3, reach=2.0)
    assert [goal.reachable for goal in goals] == [True] * 40 + [False] * 3
    seed = home
    for goal in goals[:40]:
        # A generous deadline: warm-seeded, each solve ends at its first solution within
        # milliseconds; a loaded machine must not turn that into a timeout.
        result = solve(chain, goal.pose, seed=seed, solver='fabrik', timeout=2.0,
                       position_tolerance=1e-4, orientation_tolerance=1e-3)
        assert result.success, result.status
        panda_oracle.check(result.q, goal.pose, position_tolerance=1e-4,
                           orientation_tolerance=1e-3)
        seed = result.q


def _record(index, success, solve_time=0.001, position_error=1e-6):
    return SolveRecord(goal_index=index, success=success, error_code=0 if success else 1,
                       solve_time=solve_time, position_error=position_error,
                       orientation_error=1e-4, commanded=success,
                       reached_position=(0.0, 0.0, 0.0))


def test_the_summary_counts_solved_goals_once_and_separates_far_goals():
    goals = [ScriptedGoal(np.eye(4), True)] * 4 + [ScriptedGoal(np.eye(4), False)] * 2
    recording = DragRecording(solver='ccd', goals=goals)
    recording.solves = [_record(0, True), _record(1, True, 0.003, 2e-6), _record(1, True),
                        _record(3, False, 0.05, 0.02), _record(4, False, 0.05, 1.0),
                        _record(5, True, 0.05, 1e-6)]
    recording.path_commands = [np.zeros(2), np.array([0.1, -0.3]), np.array([0.2, -0.2])]
    summary = summarise(recording)
    assert (summary.path_sent, summary.path_solved, summary.path_success) == (4, 3, 2)
    assert summary.success_rate == pytest.approx(2 / 3)
    assert (summary.unreachable_sent, summary.unreachable_solved,
            summary.unreachable_flagged) == (2, 2, 1)
    assert summary.solve_time_median == pytest.approx(0.002)  # path solves only: no 0.05 s
    assert summary.position_error_max == pytest.approx(0.02)
    assert summary.max_joint_jump == pytest.approx(0.3)
    # Two exact commands (goals 0 and 1), one goal answered without a command (3); of the far
    # goals none was approximate and one (5) was reported reached.
    assert (summary.path_exact, summary.path_approximate, summary.path_uncommanded) == (2, 0, 1)
    assert summary.before_first_exact == 0
    row = format_row(summary)
    assert row.startswith('ccd') and '3/4' in row and '0/2 (1 reached?)' in row
    assert '17.19' in row  # 0.3 rad in degrees


def test_the_summary_counts_approximate_commands_and_their_errors():
    goals = [ScriptedGoal(np.eye(4), True)] * 4 + [ScriptedGoal(np.eye(4), False)]
    recording = DragRecording(solver='ccd', goals=goals)
    approximate = [SolveRecord(goal_index=index, success=False, error_code=APPROXIMATE_CODE,
                               solve_time=0.001, position_error=error, orientation_error=0.1,
                               commanded=True, reached_position=(0.0, 0.0, 0.0))
                   for index, error in ((0, 0.03), (1, 0.01), (4, 0.5))]
    recording.solves = approximate[:2] + [_record(2, True), _record(3, True)] + approximate[2:]
    summary = summarise(recording)
    assert (summary.path_exact, summary.path_approximate, summary.path_uncommanded) == (2, 2, 0)
    assert summary.approximate_error_median == pytest.approx(0.02)
    assert summary.approximate_error_max == pytest.approx(0.03)
    assert summary.before_first_exact == 2
    assert summary.unreachable_approximate == 1 and summary.unreachable_flagged == 1
    row = format_row(summary)
    assert '20.0' in row and '30.0' in row and '1/1' in row


def test_an_empty_recording_reports_dashes_not_errors():
    summary = summarise(DragRecording(solver='fabrik', goals=[ScriptedGoal(np.eye(4), True)]))
    assert math.isnan(summary.success_rate)
    assert format_row(summary).count('-') >= 4
    assert max_joint_jump([]) == 0.0


def test_the_header_and_rows_line_up(tmp_path):
    header = format_header().splitlines()
    summary = summarise(DragRecording(solver='length_relaxation',
                                      goals=[ScriptedGoal(np.eye(4), True)]))
    assert len(header) == 3 and set(header[2]) == {'-'}
    assert len(format_row(summary)) <= len(header[2])
    with open(tmp_path / 'progress.txt', 'w') as stream:
        line = ProgressLine('ccd', stream=stream)
        for done in range(1, 101):
            line.update(done, 100, done)
        line.finish('ccd row')
    lines = (tmp_path / 'progress.txt').read_text().splitlines()
    assert len(lines) == 4 and lines[-1] == 'ccd row'  # not a terminal: a few lines only
