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

    ik_solvers_batch_bench --robots ur5_like panda_like --targets 10000
"""

import argparse
import os
import sys
import time
from typing import List, Optional

import numpy as np

from .anchor_interface import AnchorUnavailableError
from ik_solvers.reach.named_robots import load_robot
from .rtb_anchor import LevenbergMarquardtAnchor
from ik_solvers.kinematics import RobotModel
from ik_solvers.solvers import solve, solve_batch, warm_up

__all__ = ['main']

_TOLERANCE = 1e-5


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
    options = arguments.parse_args(argv)
    warm_up((options.solver,))
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
        solve_batch(chain, targets[:64], seeds[:64], solver=options.solver)  # compile/load

        wall, cpu = time.perf_counter(), time.process_time()
        loop_q = np.empty_like(seeds)
        loop_claimed = np.zeros(count, dtype=bool)
        for k in range(count):
            answer = solve(chain, targets[k], seed=seeds[k], solver=options.solver)
            loop_q[k], loop_claimed[k] = answer.q, answer.success
        loop_wall = time.perf_counter() - wall
        _row(rows, name, 'loop over solve()', count,
             _verified(chain, targets, loop_q, loop_claimed), loop_wall,
             time.process_time() - cpu)
        loop_cpu_rate = rows[-1][8]

        batch_rate, batch_cpu_rate = {}, {}
        for threads in (1, 2):
            wall, cpu = time.perf_counter(), time.process_time()
            result = solve_batch(chain, targets, seeds, solver=options.solver,
                                 max_attempts=options.max_attempts, threads=threads)
            elapsed = time.perf_counter() - wall
            batch_rate[threads] = count / elapsed
            batch_cpu_rate[threads] = count / (time.process_time() - cpu)
            _row(rows, name, 'solve_batch, %d thread%s' % (threads, 's' if threads > 1 else ''),
                 count, _verified(chain, targets, result.q, result.success), elapsed,
                 time.process_time() - cpu)
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
        print('%-12s batch (2 threads) / solve() loop: %.2fx; 2 threads / 1 thread: %.2fx%s'
              % (name, batch_rate[2] / loop_rate, batch_rate[2] / batch_rate[1],
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
