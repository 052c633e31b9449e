# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The two-hand node benchmark: its report, and a short real run over DDS."""

from ik_solvers_benchmarks.tree_node import format_report, run, TreeNodeFigures


def test_the_report_gives_the_share_exact_and_the_largest_change_against_the_bound():
    figures = TreeNodeFigures(goal_sets=4, exact=3, seconds=[1.0, 2.0, 3.0, 4.0],
                              drag_goals=10, drag_met=9, drag_commands=9, drag_max_jump=0.05,
                              checked_states=100)
    lines = format_report(figures).splitlines()
    assert '3 of 4 goal sets exact (75.0 %)' in lines[0]
    assert 'median 2.50 s, max 4.00 s' in lines[0]
    assert '10 goals, 9 answers met every tip, 9 commands' in lines[1]
    assert '0.0500 rad (max_joint_jump 0.087)' in lines[1]
    assert lines[2].endswith('100, in collision 0')


def test_a_goal_set_published_once_is_reached_and_a_short_drag_keeps_the_bound(tmp_path):
    figures = run(1, 20, seed=1, output=tmp_path)
    assert figures.goal_sets == 1 and figures.exact == 1, figures.notes
    assert figures.drag_goals == 20 and figures.drag_met >= 1, figures.notes
    assert figures.drag_max_jump <= 0.087, figures.notes
    assert figures.checked_states > 0 and figures.colliding_states == 0
