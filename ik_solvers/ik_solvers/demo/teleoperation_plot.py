# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The teleoperation segment's picture: the tip's path, the joints that matter, the fraction.

For the first solver run: the tip path seen from above (base x-y) and from the side (base x-z),
each phase in its colour, with arrows along the commanded linear velocity and the arm drawn
(a line between consecutive joint origins) at the start, at the wrist crossing and at the end;
the wrist and elbow joints over time; and, for every solver, the achieved fraction of the
command over time. The wrist-singularity moment (the wrist joint crossing 0) and the cycles at
the edge of the workspace (the elbow straight) are marked in every panel.
Drawn with matplotlib's Agg backend, so it needs no display.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from .teleoperation import ELBOW_JOINT, PHASES, TeleopRun, WRIST_JOINT

__all__ = ['plot_teleoperation']

_VIEWS = (('from above', 0, 1, 'x (m)', 'y (m)'), ('from the side', 0, 2, 'x (m)', 'z (m)'))
_COLOURS = ('tab:blue', 'tab:green', 'tab:purple')
#: An arrow of the commanded direction every this many cycles; its length, m.
_ARROW_EVERY = 60
_ARROW_LENGTH = 0.04
#: The path panels show the tip's path and this much around it, m (the arm is cut off).
_MARGIN = 0.12


def _skeleton(run: TeleopRun, q: np.ndarray) -> np.ndarray:
    """Joint origins from the base to the tip, (K, 3), m."""
    frames, tip = run.chain.joint_frames(q)
    return np.vstack([np.zeros(3), frames[:, :3, 3], tip[:3, 3]])


def _path_panel(axes, run: TeleopRun, tips: np.ndarray, view: tuple) -> None:
    title, a, b, x_label, y_label = view
    for index, (name, colour) in enumerate(zip(PHASES, _COLOURS)):
        cycles = np.flatnonzero(run.phases == index)
        if cycles.size:
            points = tips[np.r_[cycles, cycles[-1] + 1]]
            axes.plot(points[:, a], points[:, b], color=colour, linewidth=2.0, label=name)
    shown = [0] + ([run.wrist_cycle + 1] if run.wrist_cycle >= 0 else []) + [len(tips) - 1]
    for shade, k in zip(np.linspace(0.25, 0.8, len(shown)), shown):
        arm = _skeleton(run, run.positions[k])
        axes.plot(arm[:, a], arm[:, b], '-o', color=(0.3, 0.3, 0.3, shade), markersize=3,
                  linewidth=1.5, zorder=0)
    arrows = np.arange(0, len(run.times), _ARROW_EVERY)
    linear = run.commands[arrows, :3]
    size = np.linalg.norm(linear, axis=1)
    keep = size > 1e-9
    direction = linear[keep] / size[keep, None] * _ARROW_LENGTH
    start = tips[arrows[keep]]
    axes.quiver(start[:, a], start[:, b], direction[:, a], direction[:, b], angles='xy',
                scale_units='xy', scale=1.0, width=0.006, zorder=3, color='tab:orange',
                label='commanded direction')
    edge = np.where(run.edge[:, None], tips[1:], np.nan)  # gaps where it left the edge
    axes.plot(edge[:, a], edge[:, b], color='tab:red', alpha=0.3, linewidth=9.0,
              solid_capstyle='round', zorder=1, label='at the edge (elbow straight)')
    if run.wrist_cycle >= 0:
        crossing = tips[run.wrist_cycle + 1]
        axes.plot(crossing[a], crossing[b], '*', color='black', markersize=14,
                  label='wrist singularity crossed')
    centre = 0.5 * (tips.min(axis=0) + tips.max(axis=0))
    half = 0.5 * float(np.max(np.ptp(tips[:, [a, b]], axis=0))) + _MARGIN
    axes.set_xlim(centre[a] - half, centre[a] + half)
    axes.set_ylim(centre[b] - half, centre[b] + half)
    axes.set_title('tip path, %s' % title, fontsize='medium')
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    axes.set_aspect('equal', adjustable='box')
    axes.grid(alpha=0.3)


def _mark_moments(axes, run: TeleopRun) -> None:
    """Shade the edge cycles and draw the wrist crossing on a panel over time."""
    if run.wrist_cycle >= 0:
        axes.axvline(run.times[run.wrist_cycle], color='black', linestyle=':',
                     label='wrist crossing')
    edge = run.times[run.edge]
    if edge.size:
        axes.axvspan(edge.min(), edge.max(), color='tab:red', alpha=0.08,
                     label='at the edge')


def plot_teleoperation(runs: Sequence[TeleopRun], path: Path) -> Path:
    """
    Write the segment's PNG.

    :param runs: The segment's runs; the first is drawn in full, the fraction of each.
    :param path: The PNG file to write; its folder is created.
    :returns: ``path``.
    :raises ValueError: No runs.
    """
    if not runs:
        raise ValueError('nothing to plot: no runs')
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot

    run = runs[0]
    tips = run.chain.fk_batch(run.positions)[:, :3, 3]
    figure = pyplot.figure(figsize=(15.0, 9.0), constrained_layout=True)
    grid = figure.add_gridspec(2, 3, height_ratios=(1.3, 1.0))
    figure.suptitle('ur5_like servoed at %.0f Hz with %s: through the wrist singularity, to '
                    'the edge of the workspace and along it (arm at the start, the crossing '
                    'and the end)' % (1.0 / (run.times[1] - run.times[0]), run.summary.solver))
    for column, view in enumerate(_VIEWS):
        axes = figure.add_subplot(grid[0, column])
        _path_panel(axes, run, tips, view)
        if column == 0:
            axes.legend(loc='best', fontsize='small')
    joints = figure.add_subplot(grid[0, 2])
    names = run.chain.joint_names
    for name, colour in ((WRIST_JOINT, 'black'), (ELBOW_JOINT, 'tab:red')):
        angle = run.positions[1:, names.index(name)]
        joints.plot(run.times, angle, color=colour, label=name)
    joints.axhline(0.0, color='0.6', linewidth=0.8)
    _mark_moments(joints, run)
    joints.set_title('wrist joint crosses 0, elbow straightens', fontsize='medium')
    joints.set_xlabel('time (s)')
    joints.set_ylabel('rad')
    joints.grid(alpha=0.3)
    joints.legend(loc='best', fontsize='small')
    fraction = figure.add_subplot(grid[1, :])
    for other in runs:
        fraction.plot(other.times, other.fractions, linewidth=1.2, label=other.summary.solver)
    begin = 0.0
    for index, colour in enumerate(_COLOURS):
        cycles = np.flatnonzero(run.phases == index)
        if cycles.size:
            end = run.times[cycles[-1]]
            fraction.axvspan(begin, end, color=colour, alpha=0.06)
            fraction.text(0.5 * (begin + end), 1.08, PHASES[index], ha='center',
                          fontsize='small')
            begin = end
    _mark_moments(fraction, run)
    fraction.set_ylim(-0.05, 1.15)
    fraction.set_xlabel('time (s)')
    fraction.set_ylabel('achieved fraction of the command')
    fraction.grid(alpha=0.3)
    fraction.legend(loc='lower left', fontsize='small', ncol=3)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
    return path
