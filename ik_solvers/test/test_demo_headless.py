# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A short headless demo through the installed ik_node and sim_executor, over real DDS.

This is the README's main command in miniature: one solver, a short drag, two far goals.
"""

import io
import math
from pathlib import Path

import pytest

pytest.importorskip('rclpy', reason='rclpy is not installed')
pytest.importorskip('ik_solvers_interfaces.msg', reason='ik_solvers_interfaces is not built')
pytest.importorskip('matplotlib', reason='matplotlib is not installed (the demo plots with it)')

from ik_solvers.demo.demo_cli import main  # noqa: E402
from ik_solvers.demo.headless_demo import DemoOptions, run_demo  # noqa: E402
from ik_solvers.demo.processes import find_executable, ProcessError  # noqa: E402


def _installed():
    try:
        find_executable('ik_node')
        find_executable('sim_executor')
    except ProcessError as error:
        return str(error)
    return None


def test_a_short_drag_is_followed_and_far_goals_are_reported(tmp_path):
    missing = _installed()
    if missing:
        pytest.fail('the demo needs the installed nodes: %s' % missing)
    stream = io.StringIO()
    # Generous waits: on a loaded machine the node answers late, never wrongly. The start-up
    # bound is a hang bound: beside `stress --cpu 2` the node's start took over 30 s once.
    result = run_demo(DemoOptions(output=tmp_path, solvers=('fabrik',), path_length=40,
                                  rate=40.0, unreachable=2, answer_timeout=20.0,
                                  startup_timeout=180.0),
                      stream=stream)
    (summary,) = result.summaries
    (recording,) = result.recordings
    # The node may skip any goal superseded while it was busy (latest wins), so how many it
    # solved depends on the load; what it answered must be right.
    assert summary.path_solved >= 1
    reachable = [goal.reachable for goal in recording.goals]
    for solve in recording.solves:
        if reachable[solve.goal_index] and solve.success:
            assert solve.position_error <= 1e-4 and solve.orientation_error <= 1e-3
    assert summary.unreachable_flagged == 2
    # Consecutive commands along a smooth path never swing a joint by a large angle.
    assert summary.max_joint_jump < math.radians(60.0)
    assert summary.path_commands >= summary.path_success
    assert recording.unmatched == 0
    # The hand dragged into the table and the base: the demo's own exact check of every
    # command of that segment finds none in collision.
    collisions = result.collisions
    assert collisions is not None and collisions.commands >= 1
    assert collisions.colliding_commands == 0
    assert collisions.held_for_collision >= 1, collisions.answers_by_code

    text = stream.getvalue()
    assert 'panda_link0 -> panda_hand_tcp' in text
    assert any(line.startswith('fabrik ') for line in text.splitlines())
    assert 'Collision segment (fabrik)' in text and 'colliding commands' in text
    png = Path(result.plot)
    assert png.parent == tmp_path and png.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    assert (tmp_path / 'logs' / 'ik_node.log').is_file()
    # The square of straight lines: planned whole, commanded, played along the lines.
    lines = result.lines
    assert lines.error_code == 0 and lines.fraction == 1.0, lines.message
    assert lines.points > 4 and len(lines.positions) > 1
    assert 'Straight lines: a 10 cm square' in text
    # The limit columns: every command the node sent, replayed on the controller's splines
    # (its values depend on when each command arrived; the benchmark reports them).
    limits = result.limits
    assert limits is not None and limits.judged >= summary.path_commands
    assert limits.single_point >= 1 and limits.multi_point >= 1  # the square is one path
    assert 'max velocity / limit' in text and 'max acceleration / limit' in text
    assert Path(result.lines_plot).read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


@pytest.mark.parametrize('arguments, message', [
    (['--solvers', 'fabrik,simplex'], "unknown solver 'simplex'"),
    (['--tip-link', 'no_such_link'], 'no_such_link'),
    (['--poses', '1'], 'at least 2'),
    (['--description', '/nonexistent/robot.urdf'], 'cannot read'),
])
def test_bad_options_stop_with_a_clear_message_before_starting_anything(
        arguments, message, tmp_path, capsys):
    assert main(arguments + ['--output', str(tmp_path)]) == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / 'logs').exists()
