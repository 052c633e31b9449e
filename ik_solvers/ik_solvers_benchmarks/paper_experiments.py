# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The papers' own experiments, run on the library's heuristics: ``ik_solvers_bench --paper``.

* ``cejka`` (Čejka §V): length relaxation against CCD on random planar chains of N = 5, 10,
  ..., 55 and 100 hinges (links of 0.5-1.5 m), 5 chains each, targets from forward kinematics
  of random configurations, precision 1e-4 times the chain's length; iterations to converge
  from a random start and from the stretched chain.
* ``fabrik`` (Aristidou and Lasenby): the chain of 10 hinges of 0.1 m, reachable targets,
  position only, one start; mean iterations and bending (sum of squared joint angles) of
  FABRIK as the paper states it (on points, :func:`.planar_chains.paper_fabrik`), the library's
  FABRIK, CCD and Jacobian transpose; and FABRIK with the library's defaults (trust region,
  stall rule and restarts on, no polish) for comparison.
* ``welman`` (Welman §4.3): CCD against Jacobian transpose, iterations on the same kind of
  random planar chains.

Every heuristic runs alone, as in the papers: no polish, one start, no trust region, no
stall rule, CCD without over-relaxation (Welman's sweep); Jacobian transpose with its defaults.
"""

import argparse
import json
import math
import os
from pathlib import Path
import platform
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

from .paper_report import summaries, write_plot
from .planar_chains import bending, paper_fabrik, planar_chain, random_lengths
from ik_solvers.solvers import Goal, SearchOptions, solve
from ik_solvers.solvers.request import from_keywords

__all__ = ['EXPERIMENTS', 'main', 'run_cejka', 'run_fabrik', 'run_welman']

Row = Dict[str, object]
EXPERIMENTS = ('cejka', 'fabrik', 'welman')
#: How each heuristic runs here: alone, one start, as the papers state it.
PAPER_OPTIONS = dict(polish=False, max_attempts=1, trust_region=1e9, stall_iterations=10 ** 9,
                     max_iterations=200000, timeout=60.0, position_only=True)
SOLVER_OPTIONS = {'ccd': {'over_relaxation': 1.0}}
CEJKA_JOINTS = (5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 100)
WELMAN_JOINTS = (5, 10, 20, 40)


def _solve(chain, target, seed, solver: str, tolerance: float):
    goal, options = from_keywords(dict(PAPER_OPTIONS, solver=solver, position_tolerance=tolerance,
                                       **SOLVER_OPTIONS.get(solver, {})))
    return solve(chain, target, seed, goal=goal, options=options)


def _random_chain(rng: np.random.Generator, joints: int):
    lengths = random_lengths(rng, joints)
    return planar_chain(lengths), float(np.sum(lengths))


def run_cejka(rng_seed: int, *, joint_counts: Sequence[int] = CEJKA_JOINTS, chains: int = 5,
              log: Callable[[str], None] = print) -> List[Row]:
    """Čejka §V; one row per (N, chain, start, solver): iterations and convergence."""
    rng = np.random.default_rng(rng_seed)
    rows: List[Row] = []
    for joints in joint_counts:
        for index in range(chains):
            chain, total = _random_chain(rng, joints)
            target = chain.fk(rng.uniform(-math.pi, math.pi, joints))
            starts = {'random': rng.uniform(-math.pi, math.pi, joints),
                      'stretched': np.zeros(joints)}
            for start, seed in starts.items():
                for solver in ('length_relaxation', 'ccd'):
                    result = _solve(chain, target, seed, solver, 1e-4 * total)
                    rows.append(dict(experiment='cejka', joints=joints, chain=index,
                                     start=start, solver=solver,
                                     iterations=result.iterations,
                                     converged=bool(result.success)))
        log('cejka: N = %d done' % joints)
    return rows


def run_fabrik(rng_seed: int, *, targets: int = 1000,
               log: Callable[[str], None] = print) -> List[Row]:
    """Aristidou and Lasenby's chain; one row per (case, method, target)."""
    rng = np.random.default_rng(rng_seed)
    lengths = np.full(10, 0.1)
    chain = planar_chain(lengths)
    reach = float(np.sum(lengths))
    goals = [chain.fk(rng.uniform(-math.pi, math.pi, 10)) for _ in range(targets)]
    random_starts = [rng.uniform(-math.pi, math.pi, 10) for _ in range(targets)]
    cases = (('stretched start, 1e-3 x reach', False, 1e-3 * reach),
             ('stretched start, 1e-5 m', False, 1e-5),
             ('random start, 1e-5 m', True, 1e-5))
    rows: List[Row] = []
    for case, random_start, tolerance in cases:
        for k, goal in enumerate(goals):
            seed = random_starts[k] if random_start else np.zeros(10)
            iterations, angles = paper_fabrik(lengths, seed, goal[:2, 3], tolerance)
            rows.append(dict(experiment='fabrik', case=case, method='paper FABRIK (points)',
                             iterations=iterations, converged=True, bending=bending(angles)))
            for solver in ('fabrik', 'ccd', 'jacobian_transpose'):
                result = _solve(chain, goal, seed, solver, tolerance)
                rows.append(dict(experiment='fabrik', case=case, method=solver,
                                 iterations=result.iterations,
                                 converged=bool(result.success), bending=bending(result.q)))
            # The library's own defaults alone: trust region, stall rule and restarts on.
            result = solve(chain, goal, seed, goal=Goal(mode='none', position_tolerance=tolerance),
                           options=SearchOptions(solver='fabrik', polish=False, timeout=1.0))
            rows.append(dict(experiment='fabrik', case=case, method='fabrik, defaults',
                             iterations=result.iterations, converged=bool(result.success),
                             bending=bending(result.q)))
        log('fabrik: %s done' % case)
    return rows


def run_welman(rng_seed: int, *, joint_counts: Sequence[int] = WELMAN_JOINTS,
               chains: int = 5, targets: int = 10,
               log: Callable[[str], None] = print) -> List[Row]:
    """Welman §4.3; one row per (N, chain, target, solver)."""
    rng = np.random.default_rng(rng_seed)
    rows: List[Row] = []
    for joints in joint_counts:
        for index in range(chains):
            chain, total = _random_chain(rng, joints)
            for _ in range(targets):
                target = chain.fk(rng.uniform(-math.pi, math.pi, joints))
                seed = rng.uniform(-math.pi, math.pi, joints)
                for solver in ('ccd', 'jacobian_transpose'):
                    result = _solve(chain, target, seed, solver, 1e-4 * total)
                    rows.append(dict(experiment='welman', joints=joints, chain=index,
                                     solver=solver, iterations=result.iterations,
                                     converged=bool(result.success)))
        log('welman: N = %d done' % joints)
    return rows


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as cpuinfo:
            for line in cpuinfo:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    return '%s, %s logical CPUs; Python %s, numpy %s' % (cpu, os.cpu_count(),
                                                         platform.python_version(),
                                                         np.__version__)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of ``ik_solvers_bench --paper``."""
    parser = argparse.ArgumentParser(
        prog='ik_solvers_bench --paper',
        description='the papers\' experiments on the library\'s heuristics (run alone)',
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--paper', nargs='*', choices=EXPERIMENTS, default=list(EXPERIMENTS),
                        help='experiments to run (all when none is named)')
    parser.add_argument('--fabrik-targets', type=int, default=1000,
                        help='targets of the FABRIK experiment')
    parser.add_argument('--chains', type=int, default=5, help='random chains per joint count')
    parser.add_argument('--quick', action='store_true',
                        help='smoke run: N up to 15, 2 chains, 20 FABRIK targets')
    parser.add_argument('--rng-seed', type=int, default=0, help='seed of chains and targets')
    parser.add_argument('--output', type=Path, default=Path('output/papers'),
                        help='folder for results.md, results.json and the plot')
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Run the experiments named after ``--paper``, print their tables, write them and a plot.

    :returns: 0; 2 on bad arguments (argparse exits).
    """
    arguments = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    names = arguments.paper or list(EXPERIMENTS)
    quick = arguments.quick
    chains = 2 if quick else arguments.chains

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    rows: List[Row] = []
    started = time.time()
    if 'cejka' in names:
        rows += run_cejka(arguments.rng_seed, chains=chains, log=log,
                          joint_counts=(5, 10, 15) if quick else CEJKA_JOINTS)
    if 'fabrik' in names:
        rows += run_fabrik(arguments.rng_seed, log=log,
                           targets=20 if quick else arguments.fabrik_targets)
    if 'welman' in names:
        rows += run_welman(arguments.rng_seed, chains=chains, log=log,
                           joint_counts=(5, 10) if quick else WELMAN_JOINTS)
    header = ['# The papers\' experiments', '',
              '- date: %s' % time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started)),
              '- machine: %s' % _machine(),
              '- command: `ik_solvers_bench %s`'
              % ' '.join(sys.argv[1:] if argv is None else argv),
              '- every heuristic alone: no polish, one start, no trust region, no stall '
              'rule; CCD without over-relaxation', '']
    text = '\n'.join(header + summaries(rows)) + '\n'
    print(text)
    arguments.output.mkdir(parents=True, exist_ok=True)
    (arguments.output / 'results.md').write_text(text)
    (arguments.output / 'results.json').write_text(json.dumps(rows))
    plot = write_plot(rows, arguments.output / 'paper_experiments.png')
    if plot is not None:
        log('wrote %s' % plot)
    log('wrote %s' % (arguments.output / 'results.md'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
