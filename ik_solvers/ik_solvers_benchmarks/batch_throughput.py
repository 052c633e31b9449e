# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
``ik_solvers_batch_bench``: solve_batch against a loop over solve() and over ik_LM.

Full poses at 1e-5 m and 1e-5 rad, targets from random configurations, random seeds; every
success of every row is checked here by forward kinematics. Rows: a Python loop over
``solve()`` (its default 5 ms deadline), ``solve_batch`` on 1 and 2 threads (a cap on starts,
no deadline), and a loop over the Robotics Toolbox's ``ik_LM`` (on fewer targets: it is
slow) when it is installed. Wall and process CPU time are both given: on a shared machine the
wall time of the threaded rows depends on what else runs (CPU/wall near 2 shows two threads
running at once; targets per CPU second is the cost of one target, whatever the load).

The batch rows are the medians of ``--repeats`` runs, 1 and 2 threads taking turns. Beside
their ratio the benchmark prints the machine's own, timed the same way on two compiled loops
that share nothing between the threads: a series of sines (bound by latency) and products of
6x6 matrices held in cache (bound by floating-point throughput, as the search is). On a shared
virtual machine even these often stay well below 2x.

    ik_solvers_batch_bench --robots ur5_like panda_like --targets 10000
"""

import argparse
from concurrent.futures import ThreadPoolExecutor
import math
import os
import sys
import time
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from .anchor_interface import AnchorUnavailableError
from ik_solvers.reach.named_robots import load_robot
from .rtb_anchor import LevenbergMarquardtAnchor
from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.jit import compiled
from ik_solvers.solvers import solve, solve_batch, warm_up
from ik_solvers.solvers.request import from_keywords
from ik_solvers.solvers.tuning import TUNING_KEYWORDS

__all__ = ['main']

_TOLERANCE = 1e-5
# Sizes of the loops that give the machine's own scaling: about 0.3 s each on one core.
_SERIES_TERMS = 10_000_000
_PRODUCTS = 1_000_000


@compiled
def _series(terms: int) -> float:
    """Sum a series of sines and cosines: arithmetic alone, no memory traffic."""
    total = 0.0
    for i in range(terms):
        total += math.sin(i * 1e-3) * math.cos(i * 2e-3)
    return total


@compiled
def _products(count: int) -> float:
    """Multiply 6x6 matrices held in cache, ``count`` times: floating-point throughput."""
    factor = np.empty((6, 6))
    for i in range(6):
        for j in range(6):
            factor[i, j] = 0.05 * ((i * 7 + j * 3) % 11)
    power = factor.copy()
    product = np.empty((6, 6))
    total = 0.0
    for _ in range(count):
        for i in range(6):
            for j in range(6):
                value = 0.0
                for k in range(6):
                    value += factor[i, k] * power[k, j]
                product[i, j] = value
        power[:, :] = product
        total += power[0, 0]
        if total > 1e6 or total < -1e6:
            power[:, :] = factor
    return total


def _twice(loop: Callable[[int], float], size: int) -> Callable[[int], None]:
    """Return a run of ``loop(size)`` twice, one after the other or on two threads at once."""
    def run(threads: int) -> None:
        if threads == 1:
            loop(size)
            loop(size)
            return
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(loop, (size, size)))
    return run


def _option(pair: str) -> Tuple[str, Any]:
    """Parse ``NAME=VALUE``: an integer, else a number, else the text itself."""
    name, _, text = pair.partition('=')
    for kind in (int, float):
        try:
            return name, kind(text)
        except ValueError:
            pass
    return name, text


def _turns(run: Callable[[int], object], repeats: int) -> Tuple[dict, dict, dict]:
    """
    Time ``run(threads)`` on 1 and 2 threads, taking turns ``repeats`` times.

    :returns: ({threads: median wall s}, {threads: median process CPU s},
        {threads: the last run's result}).
    """
    walls: dict = {1: [], 2: []}
    cpus: dict = {1: [], 2: []}
    results: dict = {}
    for _ in range(repeats):
        for threads in (1, 2):
            wall, cpu = time.perf_counter(), time.process_time()
            results[threads] = run(threads)
            walls[threads].append(time.perf_counter() - wall)
            cpus[threads].append(time.process_time() - cpu)
    return ({threads: float(np.median(times)) for threads, times in walls.items()},
            {threads: float(np.median(times)) for threads, times in cpus.items()}, results)


def _verified(chain, targets: np.ndarray, q: np.ndarray, claimed: np.ndarray) -> np.ndarray:
    """Return which claimed successes forward kinematics confirms."""
    reached = chain.fk_batch(np.ascontiguousarray(q))
    position = np.linalg.norm(reached[:, :3, 3] - targets[:, :3, 3], axis=1)
    relative = np.einsum('kji,kjl->kil', reached[:, :3, :3], targets[:, :3, :3])
    cosine = np.clip((np.trace(relative, axis1=1, axis2=2) - 1.0) / 2.0, -1.0, 1.0)
    angle = np.arccos(cosine)
    return claimed & (position <= _TOLERANCE * (1 + 1e-6)) & (angle <= _TOLERANCE * 1.01)


def _row(rows: list, robot: str, method: str, count: int, success: np.ndarray, wall: float,
         cpu: float) -> None:
    rows.append((robot, method, count, 100.0 * success.mean(), wall, cpu, cpu / wall,
                 count / wall, count / cpu))
    print('%-12s %-22s %6d %8.2f %8.2f %8.2f %8.2f %10.0f %10.0f' % rows[-1], flush=True)


def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark; print the table and the ratios."""
    arguments = argparse.ArgumentParser(prog='ik_solvers_batch_bench', description=__doc__,
                                        formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument('--robots', nargs='+', default=['ur5_like', 'panda_like'])
    arguments.add_argument('--targets', type=int, default=10000)
    arguments.add_argument('--rtb-targets', type=int, default=1000,
                           help='targets of the ik_LM loop (a share of --targets)')
    arguments.add_argument('--max-attempts', type=int, default=64,
                           help='starts per target of solve_batch')
    arguments.add_argument('--solver', default='jacobian_transpose')
    arguments.add_argument('--seed', type=int, default=0)
    arguments.add_argument('--option', action='append', default=[], metavar='NAME=VALUE',
                           help='a solver option or a field of the search\'s tuning, for the '
                           'solve() loop and the batch alike, e.g. handoff_ratio=0.5 or '
                           'direction=transpose; may be repeated')
    arguments.add_argument('--repeats', type=int, default=3,
                           help='runs of each batch row (1 and 2 threads take turns); the '
                           'median is printed')
    options = arguments.parse_args(argv)
    solver_options = dict(_option(pair) for pair in options.option)
    loop_goal, loop_options = from_keywords(dict(solver_options, solver=options.solver))
    # The batch takes the tuning whole (the loop's, built above), the solver's options apart.
    tuning = loop_options.tuning
    solver_options = {name: value for name, value in solver_options.items()
                      if name not in TUNING_KEYWORDS}
    warm_up((options.solver,))
    _series(10)  # compile (or load) the machine's own loops before they are timed
    _products(10)
    print('%-12s %-22s %6s %8s %8s %8s %8s %10s %10s' % (
        'robot', 'method', 'K', 'success%', 'wall s', 'CPU s', 'CPU/wall', 'targets/s',
        'per CPU s'))
    rows: list = []
    for name in options.robots:
        robot = load_robot(name)
        chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
        generator = np.random.default_rng(options.seed)
        count = options.targets
        targets = chain.fk_batch(np.array([chain.random_configuration(generator)
                                           for _ in range(count)]))
        seeds = np.array([chain.random_configuration(generator) for _ in range(count)])
        solve_batch(chain, targets[:64], seeds[:64], solver=options.solver, tuning=tuning,
                    **solver_options)  # compile/load

        wall, cpu = time.perf_counter(), time.process_time()
        loop_q = np.empty_like(seeds)
        loop_claimed = np.zeros(count, dtype=bool)
        for k in range(count):
            answer = solve(chain, targets[k], seeds[k], goal=loop_goal, options=loop_options)
            loop_q[k], loop_claimed[k] = answer.q, answer.success
        loop_wall = time.perf_counter() - wall
        _row(rows, name, 'loop over solve()', count,
             _verified(chain, targets, loop_q, loop_claimed), loop_wall,
             time.process_time() - cpu)
        loop_cpu_rate = rows[-1][8]

        walls, cpus, results = _turns(
            lambda threads: solve_batch(chain, targets, seeds, solver=options.solver,
                                        tuning=tuning, **solver_options,
                                        max_attempts=options.max_attempts, threads=threads),
            options.repeats)
        batch_rate = {threads: count / walls[threads] for threads in walls}
        batch_cpu_rate = {threads: count / cpus[threads] for threads in cpus}
        for threads in (1, 2):
            _row(rows, name, 'solve_batch, %d thread%s' % (threads, 's' if threads > 1 else ''),
                 count, _verified(chain, targets, results[threads].q, results[threads].success),
                 walls[threads], cpus[threads])
        series, _, _ = _turns(_twice(_series, _SERIES_TERMS), options.repeats)
        products, _, _ = _turns(_twice(_products, _PRODUCTS), options.repeats)
        rtb_rate = None
        try:
            anchor = LevenbergMarquardtAnchor(robot.urdf_xml, robot.base_link, robot.tip_link,
                                              chain, tolerance=_TOLERANCE)
        except AnchorUnavailableError as error:
            print('%-12s ik_LM unavailable: %s' % (name, error))
        else:
            subset = min(options.rtb_targets, count)
            rtb_q = np.empty((subset, chain.num_joints))
            claimed = np.zeros(subset, dtype=bool)
            wall, cpu = time.perf_counter(), time.process_time()
            for k in range(subset):
                claimed[k], rtb_q[k], _ = anchor.solve(seeds[k], targets[k],
                                                       position_only=False, timeout=0.005)
            elapsed = time.perf_counter() - wall
            rtb_rate = subset / elapsed
            _row(rows, name, 'loop over ik_LM', subset,
                 _verified(chain, targets[:subset], rtb_q, claimed), elapsed,
                 time.process_time() - cpu)
        loop_rate = count / loop_wall
        print('%-12s batch (2 threads) / solve() loop: %.2fx; 2 threads / 1 thread: %.2fx '
              '(the machine\'s own: sines %.2fx, 6x6 products %.2fx)%s'
              % (name, batch_rate[2] / loop_rate, batch_rate[2] / batch_rate[1],
                 series[1] / series[2], products[1] / products[2],
                 '' if rtb_rate is None else '; batch / ik_LM loop: %.1fx'
                 % (batch_rate[2] / rtb_rate)), flush=True)
        # On a shared machine the wall-clock ratios above depend on the other processes; per
        # CPU second they do not. Two threads at best halve the wall time of one.
        print('%-12s per CPU second: batch / solve() loop: %.2fx; batch / ik_LM loop: %s; '
              'batch CPU per target, 2 threads / 1 thread: %.2f; load average %.1f'
              % (name, batch_cpu_rate[2] / loop_cpu_rate,
                 '-' if rtb_rate is None else '%.2fx' % (batch_cpu_rate[2] / rows[-1][8]),
                 batch_cpu_rate[1] / batch_cpu_rate[2], os.getloadavg()[0]), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
