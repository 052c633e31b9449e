# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The Python overhead of ``solve()``: its checks and its result, apart from the compiled search.

Run ``python -m ik_solvers_benchmarks.solve_overhead``. Each target is reached by its own seed,
so the compiled search only measures it once; the overhead is the median time of ``solve()``
minus the median time of the same compiled search called directly with prepared arrays.
Figures are medians over blocks of calls, in microseconds.

It also prints how far past its deadline a solve returns: a search on the 100-joint snake that
only the deadline can end (a tolerance no pose meets), median and largest overshoot in ms. The
tests assert only that such a solve ends timed out, not how late.
"""

import argparse
import time
from typing import List, Sequence

import numpy as np

from .kinematics_timing import median_microseconds
from ik_solvers.reach.named_robots import bundled_urdf_directory
from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.solvers import PreparedSolver, SearchOptions, solve, SOLVERS
from ik_solvers.solvers.request import from_keywords

__all__ = ['main']


def _measure(chain: Chain, solver: str, *, calls: int, blocks: int) -> List[float]:
    rng = np.random.default_rng(0)
    seeds = np.array([chain.random_configuration(rng) for _ in range(calls)])
    targets = [chain.fk(seed) for seed in seeds]
    pairs = list(zip(seeds, targets))
    solve(chain, targets[0], seed=seeds[0], solver=solver)  # compiled and loaded
    # As solve() prepares it; a deadline no target reaches (solve()'s own is 5 ms).
    prepared = PreparedSolver(chain, options=SearchOptions(solver=solver, timeout=3600.0))

    def whole(index: np.ndarray) -> None:
        seed, target = pairs[int(index[0])]
        solve(chain, target, seed=seed, solver=solver)

    def compiled_only(index: np.ndarray) -> None:
        seed, target = pairs[int(index[0])]
        prepared.compiled_call(target, seed.copy())

    indices = np.arange(calls, dtype=float).reshape(-1, 1)
    solve_time = median_microseconds(whole, indices, blocks=blocks)
    search_time = median_microseconds(compiled_only, indices, blocks=blocks)
    return [solve_time, search_time, solve_time - search_time]


def deadline_overshoot(solver: str, *, timeout: float, runs: int) -> List[float]:
    """
    Return the median and the largest time (ms) a solve ran past its ``timeout`` (s).

    :param solver: One of :data:`ik_solvers.SOLVERS`.
    :param timeout: The solves' deadline, seconds.
    :param runs: How many solves to time.
    :returns: ``[median, largest]`` in milliseconds.
    """
    urdf = (bundled_urdf_directory() / 'snake_100.urdf').read_text(encoding='utf-8')
    chain = RobotModel.from_urdf(urdf).chain('base_link', 'tip')
    rng = np.random.default_rng(3)
    late = []
    # Tolerances no search meets and caps no search reaches: every solve runs to its deadline.
    goal, options = from_keywords(dict(
        solver=solver, timeout=timeout, polish=False, position_tolerance=1e-300,
        orientation_tolerance=1e-300, max_iterations=10 ** 9, stall_iterations=10 ** 9))
    for _ in range(runs):
        target = chain.fk(chain.random_configuration(rng))
        started = time.perf_counter()
        solve(chain, target, goal=goal, options=options)
        late.append(1e3 * (time.perf_counter() - started - timeout))
    return [float(np.median(late)), float(np.max(late))]


def main(argv: Sequence[str] = None) -> None:
    """Print the overhead table for the bundled arms."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--calls', type=int, default=2000, help='calls per block')
    parser.add_argument('--blocks', type=int, default=7, help='blocks per figure')
    parser.add_argument('--deadline-runs', type=int, default=20,
                        help='timed solves per solver for the deadline overshoot')
    arguments = parser.parse_args(argv)
    robots = (('panda_like.urdf', 'panda_link0', 'panda_hand_tcp'),
              ('ur5_like.urdf', 'base_link', 'tool0'))
    print('median us per call over %d blocks of %d calls' % (arguments.blocks, arguments.calls))
    print('%-12s %-20s %10s %16s %10s' % ('robot', 'solver', 'solve()', 'compiled search',
                                          'overhead'))
    for file_name, base, tip in robots:
        urdf = (bundled_urdf_directory() / file_name).read_text(encoding='utf-8')
        chain = RobotModel.from_urdf(urdf).chain(base, tip)
        for solver in SOLVERS:
            figures = _measure(chain, solver, calls=arguments.calls, blocks=arguments.blocks)
            print('%-12s %-20s %10.1f %16.1f %10.1f' % ((file_name[:-5], solver) + tuple(figures)))
    print('\nms past a 20 ms deadline, snake_100, %d solves each' % arguments.deadline_runs)
    print('%-20s %10s %10s' % ('solver', 'median', 'largest'))
    for solver in SOLVERS:
        median, largest = deadline_overshoot(solver, timeout=0.02, runs=arguments.deadline_runs)
        print('%-20s %10.2f %10.2f' % (solver, median, largest))


if __name__ == '__main__':
    main()
