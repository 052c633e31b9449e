# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
``ik_solvers_bench``: success rates and timings of the solvers against ik_LM, TRAC-IK and ikpy.

It follows the protocol of the TRAC-IK benchmark (see :mod:`.protocol`) and writes
``results.md``, ``results.json``, ``readme_table.md`` and PNG plots to the output folder.
``ik_solvers_bench --collision-free [options]`` runs :mod:`.collision_free_bench` instead, and
``ik_solvers_bench --paper [cejka fabrik welman]`` the papers' experiments
(:mod:`.paper_experiments`), and ``ik_solvers_bench --trees [options]`` the tree solvers
(:mod:`.tree_bench`).
The exit status is 1 when the independent check (forward kinematics by
:class:`~ik_solvers.kinematics.RobotModel`, not the solvers' chain) refutes a claimed success or
finds a configuration outside the limits, or when a solver call raises; 2 on bad arguments.
"""

import datetime
import importlib.metadata
import json
import math
import os
import platform
import shlex
import sys
from typing import Dict, List, Mapping, Optional, Sequence

import numpy as np

from . import collision_free_bench as collision_free, paper_experiments, tree_bench
from .bench_arguments import (build_parser, option_sets, parse_option, QUICK_ANCHOR_TARGETS,
                              QUICK_SCALING_TARGETS, QUICK_SNAKES, QUICK_TARGETS, SNAKES)
from .goals import evaluate_goals
from .grid import BenchConfig, BenchmarkSetupError, count_work, prepare_robots
from .plots import write_plots
from .progress import ProgressBar
from .bench_report import check_summary, markdown_report, readme_summary
from ik_solvers.reach.named_robots import bundled_robot_names, load_robot, vendor_robot_names
from .runner import run_benchmark
from .scaling import run_scaling, ScalingConfig, scaling_work
from ik_solvers.exceptions import IKError, UnknownSolverError
from ik_solvers.kinematics import RobotModel
from ik_solvers.solvers import check_solver_names, SOLVERS

__all__ = [
    'build_parser',
    'default_robots',
    'main',
    'parse_option',
]


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
    if argv[:1] == ['--collision-free']:  # its own options: see collision_free_bench.py
        return collision_free.main(argv[1:])
    if '--paper' in argv:  # the papers' experiments: see paper_experiments.py
        return paper_experiments.main(argv)
    if argv[:1] == ['--trees']:  # several tips at once: see tree_bench.py
        return tree_bench.main(argv[1:])
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
        option_sets=option_sets(arguments),
        variants_on_every_budget=arguments.variants_on_every_budget,
        targets=QUICK_TARGETS if quick else arguments.targets,
        anchor_targets=QUICK_ANCHOR_TARGETS if quick else arguments.anchor_targets,
        budgets=(arguments.budgets[0],) if quick else tuple(arguments.budgets),
        seed_kinds=tuple(arguments.seeds), modes=tuple(arguments.modes),
        anchors=tuple(arguments.anchors), tolerance=arguments.tolerance,
        rng_seed=arguments.rng_seed)
    scaling_config = None
    if arguments.scaling:
        scaling_config = ScalingConfig(
            joint_counts=tuple(arguments.snakes or (QUICK_SNAKES if quick else SNAKES)),
            solvers=solvers, option_sets=config.option_sets,
            targets=QUICK_SCALING_TARGETS if quick else arguments.scaling_targets,
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
