# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The benchmark's PNG plots: the headline case per robot, and the scaling study on snakes.

Times are plotted in milliseconds. matplotlib is optional: without it no plot is drawn.
"""

from pathlib import Path
from typing import Dict, List, Sequence

from .goals import HEADLINE_CASE

__all__ = ['write_plots']

Row = Dict[str, object]


def write_plots(rows: Sequence[Row], scaling_rows: Sequence[Row],
                directory: Path) -> List[Path]:
    """
    Draw the headline case per robot and, when present, the scaling study.

    :param rows: Benchmark rows.
    :param scaling_rows: Scaling rows (may be empty).
    :param directory: Where the PNG files go; it must exist.

    :returns: The files written; empty when matplotlib is not installed.
    """
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        from matplotlib.ticker import ScalarFormatter
    except ImportError:
        return []
    written = []
    headline = [row for row in rows
                if (row['mode'], row['seed'], row['budget']) == HEADLINE_CASE]
    robots = sorted({row['robot'] for row in headline})
    if robots:
        height = 2.2 + 0.9 * len(headline) / len(robots)
        figure, axes = plt.subplots(len(robots), 1, figsize=(8, height), squeeze=False)
        for axis, robot in zip(axes[:, 0], robots):
            robot_rows = [row for row in headline if row['robot'] == robot and row['time_all']]
            labels = [row['method'] for row in robot_rows]
            medians = [1e3 * row['time_all']['median'] for row in robot_rows]
            p95 = [1e3 * row['time_all']['p95'] for row in robot_rows]
            colors = ['tab:gray' if row['anchor'] else 'tab:blue' for row in robot_rows]
            positions = range(len(robot_rows))
            axis.barh(positions, p95, color='none', edgecolor='tab:red', label='p95')
            axis.barh(positions, medians, color=colors, label='median')
            for position, row, value in zip(positions, robot_rows, p95):
                axis.text(value, position, ' %.1f %%' % row['success_rate'], va='center',
                          fontsize=8)
            axis.set_yticks(list(positions))
            axis.set_yticklabels(labels, fontsize=8)
            axis.set_xscale('log')
            axis.xaxis.set_major_formatter(ScalarFormatter())
            axis.set_title('%s: pose, random seed, 5 ms (time over all attempts; '
                           'label: success)' % robot, fontsize=9)
        axes[-1, 0].set_xlabel('time per call [ms]')
        figure.tight_layout()
        path = directory / 'headline.png'
        figure.savefig(path, dpi=110)
        plt.close(figure)
        written.append(path)
    if scaling_rows:
        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        for method in sorted({row['method'] for row in scaling_rows}):
            method_rows = sorted((row for row in scaling_rows if row['method'] == method),
                                 key=lambda row: row['dof'])
            joints = [row['dof'] for row in method_rows]
            style = {'marker': 'o', 'label': method,
                     'linestyle': '--' if method_rows[0].get('variant') else '-'}
            left.plot(joints, [row['iterations']['median'] if row['iterations'] else float('nan')
                               for row in method_rows], **style)
            right.plot(joints, [1e3 * row['time_all']['median'] for row in method_rows],
                       **style)
        left.set_ylabel('median iterations')
        right.set_ylabel('median time over all attempts [ms]')
        for axis in (left, right):
            axis.set_xscale('log')
            axis.set_yscale('log')
            axis.xaxis.set_major_formatter(ScalarFormatter())
            axis.yaxis.set_major_formatter(ScalarFormatter())
            axis.set_xlabel('joints')
            axis.grid(True, which='both', alpha=0.3)
        right.axhline(10.0, color='tab:red', linestyle='--', linewidth=1, label='10 ms')
        right.legend(fontsize=8)
        figure.suptitle('Snakes, position-only, random seed', fontsize=10)
        figure.tight_layout()
        path = directory / 'scaling.png'
        figure.savefig(path, dpi=110)
        plt.close(figure)
        written.append(path)
    return written
