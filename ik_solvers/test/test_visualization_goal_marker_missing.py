# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Without interactive_markers, ``goal_marker`` stops with one line naming the package."""

import importlib.util

import pytest

pytest.importorskip('rclpy', reason='rclpy is not installed')
if importlib.util.find_spec('interactive_markers') is not None:
    pytest.skip('interactive_markers is installed: the node runs '
                '(test_visualization_goal_marker_node.py)', allow_module_level=True)

from ik_solvers.visualization import goal_marker_node  # noqa: E402


def test_goal_marker_without_interactive_markers_exits_with_one_clear_line():
    with pytest.raises(SystemExit) as stopped:
        goal_marker_node.main([])
    message = str(stopped.value.code)
    assert '\n' not in message
    assert 'interactive_markers' in message and 'not installed' in message
