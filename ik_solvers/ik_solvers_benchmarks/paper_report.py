# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Tables and the plot of the papers' experiments (:mod:`.paper_experiments`).

The targets checked are the project's: length relaxation needs fewer iterations than CCD in at
least 50 of the 55 runs at N = 5..55 and converges at N = 100, its median iterations grow at
most linearly in N; the library's FABRIK needs at most 1.5 times the paper's mean iterations
(2.8, 6.3, 1.6) and fewer than CCD, and bends at most 1.2 times as much as the paper's
algorithm.
"""

from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np

__all__ = ['summaries', 'write_plot']

Row = Dict[str, object]
#: Mean iterations Aristidou and Lasenby report for their chain, by case.
FABRIK_PAPER = {'stretched start, 1e-3 x reach': 2.8, 'stretched start, 1e-5 m': 6.3,
                'random start, 1e-5 m': 1.6}


def _pick(rows: Sequence[Row], **where) -> List[Row]:
    return [row for row in rows if all(row.get(key) == value for key, value in where.items())]


def _wins(rows: Sequence[Row], start: str, joints: Sequence[int]) -> tuple:
    """Count the runs where length relaxation converged in fewer iterations than CCD."""
    wins = total = 0
    for lr in _pick(rows, experiment='cejka', solver='length_relaxation', start=start):
        if lr['joints'] not in joints:
            continue
        ccd = _pick(rows, experiment='cejka', solver='ccd', start=start, joints=lr['joints'],
                    chain=lr['chain'])[0]
        total += 1
        wins += lr['converged'] and (not ccd['converged'] or lr['iterations'] < ccd['iterations'])
    return wins, total


def _median(rows: Sequence[Row]) -> float:
    return float(np.median([row['iterations'] for row in rows])) if rows else float('nan')


def _cejka(rows: Sequence[Row]) -> List[str]:
    counts = sorted({row['joints'] for row in rows})
    lines = ['## Čejka §V: length relaxation against CCD', '',
             '| N | start | LR median it. | CCD median it. | LR fewer | LR converged | '
             'CCD converged |', '|--:|---|--:|--:|--:|--:|--:|']
    for start in ('random', 'stretched'):
        for joints in counts:
            lr = _pick(rows, solver='length_relaxation', start=start, joints=joints)
            ccd = _pick(rows, solver='ccd', start=start, joints=joints)
            wins, total = _wins(rows, start, (joints,))
            lines.append('| %d | %s | %.0f | %.0f | %d / %d | %d / %d | %d / %d |' % (
                joints, start, _median(lr), _median(ccd), wins, total,
                sum(r['converged'] for r in lr), len(lr), sum(r['converged'] for r in ccd),
                len(ccd)))
    lines.append('')
    small = [n for n in counts if n <= 55]
    for start in ('random', 'stretched'):
        wins, total = _wins(rows, start, small)
        lines.append('- %s start, N = %d..%d: length relaxation needs fewer iterations than '
                     'CCD in **%d of %d** runs (target: at least 50 of 55, random start)'
                     % (start, small[0], small[-1], wins, total))
    big = _pick(rows, solver='length_relaxation', start='random', joints=100)
    if big:
        lines.append('- N = 100, random start: length relaxation converged on **%d of %d** '
                     'chains' % (sum(r['converged'] for r in big), len(big)))
    medians = [(n, _median(_pick(rows, solver='length_relaxation', start='random',
                                 joints=n))) for n in counts]
    medians = [(n, m) for n, m in medians if m > 0]
    if len(medians) >= 2:
        slope = np.polyfit(np.log([n for n, _ in medians]), np.log([m for _, m in medians]), 1)[0]
        lines.append('- growth of the median iterations of length relaxation (random start): '
                     'exponent %.2f in N (log-log fit; target: at most 1)' % slope)
    return lines + ['']


def _fabrik(rows: Sequence[Row]) -> List[str]:
    lines = ['## FABRIK: 10 hinges of 0.1 m, position only, one start', '',
             '| case | method | mean it. | median it. | p95 it. | converged % | '
             'mean bending (rad²) |', '|---|---|--:|--:|--:|--:|--:|']
    cases = list(dict.fromkeys(row['case'] for row in rows))
    methods = list(dict.fromkeys(row['method'] for row in rows))
    for case in cases:
        for method in methods:
            picked = _pick(rows, case=case, method=method)
            iterations = [r['iterations'] for r in picked]
            lines.append('| %s | %s | %.2f | %.0f | %.0f | %.1f | %.2f |' % (
                case, method, np.mean(iterations), np.median(iterations),
                np.percentile(iterations, 95),
                100.0 * np.mean([r['converged'] for r in picked]),
                np.mean([r['bending'] for r in picked])))
    lines.append('')
    for case in cases:
        ours = _pick(rows, case=case, method='fabrik')
        ccd = _pick(rows, case=case, method='ccd')
        paper = _pick(rows, case=case, method='paper FABRIK (points)')
        mean = np.mean([r['iterations'] for r in ours])
        lines.append('- %s: FABRIK %.2f iterations = %.2f x the paper\'s %.1f (target <= 1.5), '
                     'CCD %.2f; bending %.2f x the paper algorithm\'s (target <= 1.2)' % (
                         case, mean, mean / FABRIK_PAPER[case], FABRIK_PAPER[case],
                         np.mean([r['iterations'] for r in ccd]),
                         np.mean([r['bending'] for r in ours])
                         / np.mean([r['bending'] for r in paper])))
    return lines + ['']


def _welman(rows: Sequence[Row]) -> List[str]:
    lines = ['## Welman §4.3: CCD against Jacobian transpose', '',
             '| N | CCD median it. | CCD converged | JT median it. | JT converged |',
             '|--:|--:|--:|--:|--:|']
    for joints in sorted({row['joints'] for row in rows}):
        ccd = _pick(rows, solver='ccd', joints=joints)
        jt = _pick(rows, solver='jacobian_transpose', joints=joints)
        lines.append('| %d | %.0f | %d / %d | %.0f | %d / %d |' % (
            joints, _median(ccd), sum(r['converged'] for r in ccd), len(ccd), _median(jt),
            sum(r['converged'] for r in jt), len(jt)))
    return lines + ['']


def summaries(rows: Sequence[Row]) -> List[str]:
    """Return the markdown lines of every experiment present in ``rows``."""
    lines: List[str] = []
    for name, table in (('cejka', _cejka), ('fabrik', _fabrik), ('welman', _welman)):
        picked = _pick(rows, experiment=name)
        if picked:
            lines += table(picked)
    return lines


def write_plot(rows: Sequence[Row], path: Path) -> Optional[Path]:
    """Draw the three experiments side by side into ``path``; None without matplotlib."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    cejka = _pick(rows, experiment='cejka')
    for solver, start, style in (('length_relaxation', 'random', 'o-'),
                                 ('ccd', 'random', 's-'),
                                 ('length_relaxation', 'stretched', 'o--'),
                                 ('ccd', 'stretched', 's--')):
        counts = sorted({row['joints'] for row in cejka})
        medians = [_median(_pick(cejka, solver=solver, start=start, joints=n)) for n in counts]
        if counts:
            axes[0].plot(counts, medians, style, label='%s, %s start' % (solver, start))
    axes[0].set(title='Čejka §V: median iterations', xlabel='joints', yscale='log')
    fabrik = _pick(rows, experiment='fabrik')
    cases = list(dict.fromkeys(row['case'] for row in fabrik))
    methods = list(dict.fromkeys(row['method'] for row in fabrik))
    width = 0.8 / max(len(methods), 1)
    for k, method in enumerate(methods):
        means = [np.mean([r['iterations'] for r in _pick(fabrik, case=c, method=method)])
                 for c in cases]
        axes[1].bar(np.arange(len(cases)) + width * k, means, width, label=method)
    axes[1].set(title='FABRIK chain: mean iterations', yscale='log')
    axes[1].set_xticks(np.arange(len(cases)) + width * (len(methods) - 1) / 2.0,
                       [c.replace(', ', '\n') for c in cases])
    welman = _pick(rows, experiment='welman')
    for solver, style in (('ccd', 's-'), ('jacobian_transpose', 'd-')):
        counts = sorted({row['joints'] for row in welman})
        if counts:
            axes[2].plot(counts, [_median(_pick(welman, solver=solver, joints=n))
                                  for n in counts], style, label=solver)
    axes[2].set(title='Welman §4.3: median iterations', xlabel='joints', yscale='log')
    for axis in axes:
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
