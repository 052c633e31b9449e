# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's picture: the path asked for and the path reached, per solver, and the errors.

Drawn with matplotlib's Agg backend, so it needs no display.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from .metrics import DragRecording

__all__ = ['plot_drags']

_FLOOR = 1e-9  # metres; keeps exact solutions visible on the logarithmic axis


def plot_drags(recordings: Sequence[DragRecording], path: Path, *, title: str) -> Path:
    """
    Write the demo's PNG.

    One panel per solver shows the goal path and the reached tip positions, seen from the
    front of the arm (base y and z); the panel below shows the position error along the path.

    :param recordings: one drag per solver, all with the same goals.
    :param path: the PNG file to write; its folder is created.
    :param title: figure title (robot and chain).
    :returns: ``path``.
    :raises ValueError: no recordings.
    """
    if not recordings:
        raise ValueError('nothing to plot: no recordings')
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot

    goals = recordings[0].goals
    on_path = [i for i, goal in enumerate(goals) if goal.reachable]
    goal_positions = np.array([goals[i].pose[:3, 3] for i in on_path]).reshape(-1, 3)
    columns = len(recordings)
    figure = pyplot.figure(figsize=(3.6 * columns, 7.2), constrained_layout=True)
    grid = figure.add_gridspec(2, columns, height_ratios=(1.0, 0.8))
    figure.suptitle(title)

    for column, recording in enumerate(recordings):
        axes = figure.add_subplot(grid[0, column])
        axes.plot(goal_positions[:, 1], goal_positions[:, 2], color='0.75', linewidth=6.0,
                  solid_capstyle='round', label='goal path', zorder=1)
        solves = [s for s in recording.solves if goals[s.goal_index].reachable]
        reached = np.array([s.reached_position for s in solves]).reshape(-1, 3)
        success = np.array([s.success for s in solves], dtype=bool)
        axes.scatter(reached[success, 1], reached[success, 2], s=5, color='tab:green',
                     label='reached', zorder=2)
        axes.scatter(reached[~success, 1], reached[~success, 2], s=24, marker='x',
                     color='tab:red', label='failed (closest)', zorder=3)
        axes.set_title(recording.solver)
        axes.set_xlabel('y (m)')
        if column == 0:
            axes.set_ylabel('z (m)')
            axes.legend(loc='lower left', fontsize='small')
        axes.set_aspect('equal', adjustable='datalim')
        axes.grid(alpha=0.3)

    errors = figure.add_subplot(grid[1, :])
    for recording in recordings:
        solves = sorted((s for s in recording.solves if goals[s.goal_index].reachable),
                        key=lambda s: s.goal_index)
        errors.semilogy([s.goal_index for s in solves],
                        [max(s.position_error, _FLOOR) for s in solves],
                        marker='.', markersize=3, linewidth=0.8, label=recording.solver)
    errors.set_xlabel('goal along the path')
    errors.set_ylabel('position error (m)')
    errors.grid(alpha=0.3, which='both')
    errors.legend(fontsize='small', ncol=len(recordings))

    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path
