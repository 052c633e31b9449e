# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The two-armed segment's picture: the robot itself at a few instants and both hands' paths.

Each link is drawn as a line between consecutive joint origins (base, waist, shoulder, ...,
hand), seen from above (base x-y), from the front (base y-z) and from the side (x-z, where the
figure-eights lie), for the first solver run.
Drawn with matplotlib's Agg backend, so it needs no display.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from .two_arms import TwoArmRun

__all__ = ['plot_two_arms']

#: Instants drawn per sub-segment (the start of each, and evenly along it).
_INSTANTS = 4
_VIEWS = (('from above', 0, 1, 'x (m)', 'y (m)'), ('from the front', 1, 2, 'y (m)', 'z (m)'),
          ('from the side', 0, 2, 'x (m)', 'z (m)'))


def _skeletons(run: TwoArmRun, q: np.ndarray) -> list[np.ndarray]:
    """Joint origins of each arm from the base to the hand, (K, 3) per arm, m."""
    arms = []
    for chain, variables in zip(run.tree.chains, run.tree.tip_variables):
        frames, tip = chain.joint_frames(q[variables])
        arms.append(np.vstack([np.zeros(3), frames[:, :3, 3], tip[:3, 3]]))
    return arms


def plot_two_arms(runs: Sequence[TwoArmRun], path: Path) -> Path:
    """
    Write the segment's PNG: one row per sub-segment, one column per view.

    :param runs: The segment's runs; the first is drawn.
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
    hands = np.array([run.tree.fk(q) for q in run.configurations])
    segments = (('both hands trace a figure-eight', 0, run.hold_from),
                ('the left hand holds, the right one traces', run.hold_from,
                 len(run.targets)))
    figure, grid = pyplot.subplots(len(segments), len(_VIEWS), figsize=(15.0, 9.0),
                                   constrained_layout=True)
    figure.suptitle('dual_arm_waist with %s: the robot at %d instants per part (darker is '
                    'later), goals and hands' % (run.summary.solver, _INSTANTS))
    for row, (label, first, last) in enumerate(segments):
        # configurations[k + 1] is the robot after goal k; configurations[first] before it.
        instants = np.linspace(first, last, _INSTANTS).round().astype(int)
        for column, (view, a, b, x_label, y_label) in enumerate(_VIEWS):
            axes = grid[row, column]
            for shade, k in zip(np.linspace(0.25, 1.0, _INSTANTS), instants):
                for arm in _skeletons(run, run.configurations[k]):
                    axes.plot(arm[:, a], arm[:, b], '-o', color=(0.1, 0.2, 0.6, shade),
                              markersize=3, linewidth=2.0)
            for hand, colour in ((0, 'tab:orange'), (1, 'tab:green')):
                goals = run.targets[first:last, hand]
                axes.plot(goals[:, a], goals[:, b], color='0.7', linewidth=5.0,
                          solid_capstyle='round', zorder=0)
                reached = hands[first + 1:last + 1, hand, :3, 3]
                axes.plot(reached[:, a], reached[:, b], '.', color=colour, markersize=2.5,
                          label='%s hand' % ('left', 'right')[hand])
            axes.set_title('%s, %s' % (label, view), fontsize='medium')
            axes.set_xlabel(x_label)
            axes.set_ylabel(y_label)
            axes.set_aspect('equal', adjustable='datalim')
            axes.grid(alpha=0.3)
            if row == 0 and column == 0:
                axes.legend(loc='lower left', fontsize='small')
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
    return path
