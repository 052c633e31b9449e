# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
``ik_solvers_bench``: success rates and timings of the solvers against ik_LM, TRAC-IK and ikpy.

It follows the protocol of the TRAC-IK benchmark (see :mod:`.protocol`) and writes
``results.md``, ``results.json``, ``readme_table.md`` and PNG plots to the output folder.
``ik_solvers_bench --collision-free [options]`` runs :mod:`.collision_free` instead.
The exit status is 1 when the independent check (forward kinematics by
:class:`~ik_solvers.kinematics.RobotModel`, not the solvers' chain) refutes a claimed success or
finds a configuration outside the limits, or when a solver call raises; 2 on bad arguments.
"""

import argparse
import ast
import datetime
import importlib.metadata
import inspect
import itertools
import json
import math
import os
from pathlib import Path
import platform
import shlex
import sys
from typing import Dict, List, Mapping, Optional, Sequence

import numpy as np

from . import collision_free
from .goals import evaluate_goals
from .progress import ProgressBar
from .protocol import SEED_KINDS
from .report import check_summary, markdown_report, readme_summary, write_plots
from .robots import bundled_robot_names, load_robot, vendor_robot_names
from .runner import (BenchConfig, BenchmarkSetupError, count_work, DEFAULT_MODES, MODES,
                     prepare_robots, run_benchmark)
from .scaling import run_scaling, ScalingConfig, scaling_work
from ..exceptions import IKError, UnknownSolverError
from ..kinematics import RobotModel
from ..solvers import check_solver_names, SOLVERS, solve

__all__ = [
    'build_parser',
    'default_robots',
    'main',
    'parse_option',
]

_QUICK_TARGETS = 5
_QUICK_ANCHOR_TARGETS = 2
_SNAKES = (10, 20, 50, 100)
_QUICK_SNAKES = (10, 20)
_QUICK_SCALING_TARGETS = 3


def default_robots() -> List[str]:
    """
    Return the robots of the default run: bundled 6- and 7-joint arms, then vendor arms.

    :returns: Names for :func:`robots.load_robot`; vendor arms only when example-robot-data is
        installed.
    """
    arms = []
    for name in bundled_robot_names():
        if name.startswith('snake'):
            continue
        try:
            robot = load_robot(name)
            model = RobotModel.from_urdf(robot.urdf_xml)
            joints = model.chain(robot.base_link, robot.tip_link).num_joints
        except IKError:
            continue
        if joints in (6, 7):
            arms.append(name)
    return arms + vendor_robot_names()


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
        prog='ik_solvers_bench', description=__doc__.split('\n\n')[0].strip(),
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
                        help='extra solve() option for every run, e.g. polish=True')
    parser.add_argument('--grid', action='append', type=_grid, default=[],
                        metavar='KEY=V1,V2', help='run every solver once per value')
    polish = parser.add_mutually_exclusive_group()
    polish.add_argument('--polish', dest='polish', action='store_const', const='on',
                        help='run with polish=True only')
    polish.add_argument('--no-polish', dest='polish', action='store_const', const='off',
                        help='run with polish=False only')
    polish.add_argument('--polish-grid', dest='polish', action='store_const', const='grid',
                        help='run with the solver defaults and with the other polish setting '
                             '(the default when solve() has a polish option)')
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
                        % (' '.join(map(str, _SNAKES)), ' '.join(map(str, _QUICK_SNAKES))))
    parser.add_argument('--scaling-targets', type=_positive_int, default=30,
                        help='targets per snake')
    parser.add_argument('--scaling-budget', type=_positive_float, default=0.05,
                        metavar='SECONDS', help='time budget per call on the snakes')
    parser.add_argument('--quick', action='store_true',
                        help='smoke run of a few seconds: %d targets, %d for ikpy, 5 ms budget'
                        % (_QUICK_TARGETS, _QUICK_ANCHOR_TARGETS))
    parser.add_argument('--output', type=Path, default=Path('output') / 'bench',
                        help='folder for results.md, results.json and the plots')
    parser.add_argument('--no-progress', action='store_true', help='no progress bar')
    return parser


def _option_sets(arguments: argparse.Namespace) -> List[Dict[str, object]]:
    base: Dict[str, object] = {}
    for option in arguments.options:
        base.update(option)
    grids: Dict[str, List[object]] = {}
    for grid in arguments.grid:
        grids.update(grid)
    polish = arguments.polish
    parameter = inspect.signature(solve).parameters.get('polish')
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


def _meta(argv: Sequence[str]) -> Dict[str, object]:
    cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as cpuinfo:
            for line in cpuinfo:
                if line.lower().startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    versions = {}
    for distribution in ('roboticstoolbox-python', 'pytracik', 'ikpy', 'example-robot-data'):
        try:
            versions[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            versions[distribution] = 'not installed'
    return {
        'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        'cpu': cpu,
        'cpus': os.cpu_count(),
        'python': platform.python_version(),
        'numpy': np.__version__,
        'versions': versions,
        'command': ' '.join(['ik_solvers_bench'] + [shlex.quote(arg) for arg in argv]),
    }


def _json_ready(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(item) for item in value]
    if isinstance(value, np.generic):
        return _json_ready(value.item())
    return value


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Run the benchmark from the command line.

    :param argv: Arguments without the program name; ``sys.argv[1:]`` by default.

    :returns: 0 on success, 1 when the independent check refutes ik_solvers or a call raises,
        2 on bad arguments or when nothing can run.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ['--collision-free']:  # its own options: see collision_free.py
        return collision_free.main(argv[1:])
    parser = build_parser()
    arguments = parser.parse_args(argv)
    notes: List[str] = []

    def log(message: str) -> None:
        notes.append(message)
        print(message, file=sys.stderr, flush=True)

    solvers = arguments.solvers or list(SOLVERS)
    try:
        check_solver_names(solvers)
    except UnknownSolverError as error:
        parser.error(str(error))
    quick = arguments.quick
    config = BenchConfig(
        robots=arguments.robots or default_robots(), solvers=solvers,
        option_sets=_option_sets(arguments),
        variants_on_every_budget=arguments.variants_on_every_budget,
        targets=_QUICK_TARGETS if quick else arguments.targets,
        anchor_targets=_QUICK_ANCHOR_TARGETS if quick else arguments.anchor_targets,
        budgets=(arguments.budgets[0],) if quick else tuple(arguments.budgets),
        seed_kinds=tuple(arguments.seeds), modes=tuple(arguments.modes),
        anchors=tuple(arguments.anchors), tolerance=arguments.tolerance,
        rng_seed=arguments.rng_seed)
    scaling_config = None
    if arguments.scaling:
        scaling_config = ScalingConfig(
            joint_counts=tuple(arguments.snakes or (_QUICK_SNAKES if quick else _SNAKES)),
            solvers=solvers, option_sets=config.option_sets,
            targets=_QUICK_SCALING_TARGETS if quick else arguments.scaling_targets,
            budget=arguments.scaling_budget, tolerance=arguments.tolerance,
            rng_seed=arguments.rng_seed)
    if not config.robots:
        log('no robot to run: no bundled arm found and example-robot-data is not installed')
        return 2
    prepared = prepare_robots(config, log=log)
    if not prepared and scaling_config is None:
        log('no robot could be loaded')
        return 2
    total = count_work(config, prepared) + (scaling_work(scaling_config)
                                            if scaling_config else 0)
    progress = None if arguments.no_progress else ProgressBar(total)
    try:
        rows = run_benchmark(config, prepared, progress=progress)
        scaling_rows = run_scaling(scaling_config, progress=progress, log=log) \
            if scaling_config else []
    except BenchmarkSetupError as error:
        if progress is not None:
            progress.close()
        print('ik_solvers_bench: %s' % error, file=sys.stderr)
        return 2
    if progress is not None:
        progress.close()

    meta = _meta(argv)
    goals = evaluate_goals(rows, scaling_rows, solvers=solvers, tolerance=config.tolerance)
    output = arguments.output
    output.mkdir(parents=True, exist_ok=True)
    report = markdown_report(rows, scaling_rows, goals, meta, notes)
    (output / 'results.md').write_text(report)
    (output / 'readme_table.md').write_text(readme_summary(rows, scaling_rows, goals, meta))
    checks = check_summary(rows, scaling_rows)
    document = {
        'meta': meta, 'config': {
            'robots': list(config.robots), 'solvers': list(solvers),
            'option_sets': list(config.option_sets),
            'variants_on_every_budget': config.variants_on_every_budget, 'targets': config.targets,
            'anchor_targets': config.anchor_targets, 'budgets': list(config.budgets),
            'seeds': list(config.seed_kinds), 'modes': list(config.modes),
            'anchors': list(config.anchors), 'tolerance': config.tolerance,
            'rng_seed': config.rng_seed,
            'scaling': None if scaling_config is None else {
                'joint_counts': list(scaling_config.joint_counts),
                'targets': scaling_config.targets, 'budget': scaling_config.budget}},
        'checks': checks, 'notes': notes, 'goals': goals, 'rows': rows,
        'scaling': scaling_rows,
    }
    with open(output / 'results.json', 'w') as stream:
        json.dump(_json_ready(document), stream, indent=1, allow_nan=False)
    plots = write_plots(rows, scaling_rows, output)
    print(report)
    print('wrote %s' % ', '.join(str(path) for path in
                                 [output / 'results.md', output / 'results.json',
                                  output / 'readme_table.md'] + plots), file=sys.stderr)
    if checks['refuted'] or checks['limit_violations'] or checks['errors']:
        print('!' * 78 + '\nik_solvers_bench: the independent check REFUTED %d claimed '
              'success(es), found %d configuration(s) outside the limits, and %d call(s) '
              'RAISED\n' % (checks['refuted'], checks['limit_violations'], checks['errors'])
              + '!' * 78, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
