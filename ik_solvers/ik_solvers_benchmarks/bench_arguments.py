# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The command line of ``ik_solvers_bench``: its options and how they become option sets."""

import argparse
import ast
import dataclasses
import itertools
import math
from pathlib import Path
from typing import Dict, List

from .grid import DEFAULT_MODES, MODES
from .protocol import SEED_KINDS
from ik_solvers.solvers import SearchOptions

__all__ = ['DESCRIPTION', 'QUICK_ANCHOR_TARGETS', 'QUICK_SCALING_TARGETS', 'QUICK_SNAKES',
           'QUICK_TARGETS', 'SNAKES', 'build_parser', 'option_sets', 'parse_option']

#: Targets per robot, and for an anchor without a budget, with ``--quick``.
QUICK_TARGETS = 5
QUICK_ANCHOR_TARGETS = 2
#: Joint counts of the snake robots in the scaling run, in full and with ``--quick``.
SNAKES = (10, 20, 50, 100)
QUICK_SNAKES = (10, 20)
#: Targets per snake with ``--quick``.
QUICK_SCALING_TARGETS = 3
#: The program's one-line description in ``--help``.
DESCRIPTION = ('``ik_solvers_bench``: success rates and timings of the solvers against ik_LM, '
               'TRAC-IK and ikpy.')


def parse_option(text: str) -> Dict[str, object]:
    """
    Parse ``KEY=VALUE`` into a one-item dictionary, reading VALUE as a Python literal.

    :param text: For example ``polish=True`` or ``step=0.5``; a VALUE that is no literal stays
        a string.

    :returns: ``{KEY: VALUE}``.

    :raises argparse.ArgumentTypeError: No ``=`` or an empty key.
    """
    key, separator, value = text.partition('=')
    if not separator or not key.strip().isidentifier():
        raise argparse.ArgumentTypeError('expected KEY=VALUE, got %r' % text)
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        parsed = value
    return {key.strip(): parsed}


def _grid(text: str) -> Dict[str, List[object]]:
    key, separator, values = text.partition('=')
    if not separator or not values:
        raise argparse.ArgumentTypeError('expected KEY=V1,V2,..., got %r' % text)
    return {key.strip(): [next(iter(parse_option('%s=%s' % (key, value)).values()))
                          for value in values.split(',')]}


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError('expected a positive integer, got %s' % text)
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0.0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError('expected a positive number, got %s' % text)
    return value


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser of ``ik_solvers_bench``."""
    parser = argparse.ArgumentParser(
        prog='ik_solvers_bench', description=DESCRIPTION,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--robots', nargs='+', metavar='ROBOT',
                        help='bundled names, vendor_ur5, vendor_panda, snake_<N> or .urdf '
                             'paths (default: bundled 6/7-joint arms and vendor arms)')
    parser.add_argument('--solvers', nargs='+', metavar='SOLVER',
                        help='registered solvers (default: all)')
    parser.add_argument('--targets', type=_positive_int, default=500,
                        help='targets per robot')
    parser.add_argument('--anchor-targets', type=_positive_int, default=30,
                        help='targets per robot for ikpy, which is slow')
    parser.add_argument('--budgets', nargs='+', type=_positive_float, default=[0.005, 0.05],
                        metavar='SECONDS', help='time budgets per call')
    parser.add_argument('--seeds', nargs='+', choices=SEED_KINDS, default=list(SEED_KINDS),
                        help='seed kinds')
    parser.add_argument('--modes', nargs='+', choices=MODES, default=list(DEFAULT_MODES),
                        help='pose (position and orientation), position only, and/or axis '
                             '(position and the tip z axis; the anchors do not run it)')
    parser.add_argument('--anchors', nargs='*', default=['rtb_ik_lm', 'trac_ik', 'ikpy'],
                        help='reference libraries; none with an empty list')
    parser.add_argument('--option', dest='options', action='append', type=parse_option,
                        default=[], metavar='KEY=VALUE',
                        help='extra solve() option for every run, e.g. polish=True, or a '
                        'field of the search\'s SearchTuning, e.g. handoff_ratio=0.5')
    parser.add_argument('--grid', action='append', type=_grid, default=[],
                        metavar='KEY=V1,V2',
                        help='run every solver once per value, e.g. handoff_ratio=0.9,0.95,0.98 '
                        "for the hand-over's trade-off (median time against heuristic share)")
    polish = parser.add_mutually_exclusive_group()
    polish.add_argument('--polish', dest='polish', action='store_const', const='on',
                        help='run with polish=True only')
    polish.add_argument('--no-polish', dest='polish', action='store_const', const='off',
                        help='run with polish=False only')
    polish.add_argument('--polish-grid', dest='polish', action='store_const', const='grid',
                        help='run with the solver defaults and with the other polish setting '
                             '(the default when the search options have a polish field)')
    parser.add_argument('--variants-on-every-budget', action='store_true',
                        help='run option variants (polish, --grid) with every budget, not '
                             'only the smallest')
    parser.add_argument('--tolerance', type=_positive_float, default=1e-5,
                        help='position (m) and orientation (rad) tolerance')
    parser.add_argument('--rng-seed', type=int, default=0, help='seed of targets and seeds')
    parser.add_argument('--scaling', action='store_true',
                        help='also run iterations and time against joint count on snakes')
    parser.add_argument('--snakes', nargs='+', type=_positive_int, metavar='JOINTS',
                        help='snake lengths of the scaling study (default: %s; %s with --quick)'
                        % (' '.join(map(str, SNAKES)), ' '.join(map(str, QUICK_SNAKES))))
    parser.add_argument('--scaling-targets', type=_positive_int, default=30,
                        help='targets per snake')
    parser.add_argument('--scaling-budget', type=_positive_float, default=0.05,
                        metavar='SECONDS', help='time budget per call on the snakes')
    parser.add_argument('--quick', action='store_true',
                        help='smoke run of a few seconds: %d targets, %d for ikpy, 5 ms budget'
                        % (QUICK_TARGETS, QUICK_ANCHOR_TARGETS))
    parser.add_argument('--output', type=Path, default=Path('output') / 'bench',
                        help='folder for results.md, results.json and the plots')
    parser.add_argument('--no-progress', action='store_true', help='no progress bar')
    return parser


def option_sets(arguments: argparse.Namespace) -> List[Dict[str, object]]:
    """
    Turn ``--option``, ``--grid`` and ``--polish`` into the option sets of the run.

    :param arguments: The parsed command line.
    :returns: The option sets, each once; the first is the main configuration.
    """
    base: Dict[str, object] = {}
    for option in arguments.options:
        base.update(option)
    grids: Dict[str, List[object]] = {}
    for grid in arguments.grid:
        grids.update(grid)
    polish = arguments.polish
    # The polish switch is a field of the search options (solve() takes them whole).
    parameter = {field.name: field for field in dataclasses.fields(SearchOptions)}.get('polish')
    if polish is None and parameter is not None and 'polish' not in base \
            and 'polish' not in grids:
        polish = 'grid'
    if polish == 'on':
        base['polish'] = True
    elif polish == 'off':
        base['polish'] = False
    sets = []
    for values in itertools.product(*grids.values()):
        options = dict(base)
        options.update(zip(grids.keys(), values))
        sets.append(options)
    if polish == 'grid':
        # The defaults are the recommended configuration; the other setting shows its worth.
        default = parameter.default if parameter is not None and \
            isinstance(parameter.default, bool) else None
        flags = (False, True) if default is None else (not default,)
        sets = [variant for options in sets
                for variant in [options] + [dict(options, polish=flag) for flag in flags]]
    unique = []
    for options in sets:
        if options not in unique:
            unique.append(options)
    return unique
