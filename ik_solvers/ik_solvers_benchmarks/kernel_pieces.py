# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What one iteration of the compiled search costs, piece by piece, and a batch per target.

Run ``python -m ik_solvers_benchmarks.kernel_pieces [--robots ...] [--targets K]``. Each piece
is called ``--calls`` times from a compiled loop on one configuration and one target (a full
pose, the settings ``solve_batch`` packs for ``jacobian_transpose``), so no Python dispatch
is counted; the figure is the best of ``--repeats`` loops, ns per call (the loops that change
``q`` restore it first, about 5 ns). The batch rows run ``solve_batch`` on one thread over K
random targets from random seeds: process CPU per target, iterations (heuristic and polish
steps) and starts per target, and CPU per iteration. See docs/batch.md.
"""

import argparse
import time
from typing import List, Optional, Sequence

import numpy as np

from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.jit import compiled, monotonic_seconds
from ik_solvers.kinematics.kernels import (
    forward_frames,
    jacobian_from_frames,
    LIMIT_LOWER,
    LIMIT_UPPER,
)
from ik_solvers.reach.named_robots import load_robot
from ik_solvers.solvers import solve_batch, warm_up
from ik_solvers.solvers.jacobian_transpose import jacobian_transpose_step
from ik_solvers.solvers.request import Goal, SearchOptions
from ik_solvers.solvers.step_api import (
    assess,
    damped_rows,
    effective_goal,
    evaluate,
    goal_residual,
    search_settings,
    STEP_MEMORY_COLUMNS,
    weighted_system,
)

__all__ = ['main']


@compiled
def _fk(chain, q, frames, calls):
    for _ in range(calls):
        forward_frames(chain, q, frames)


@compiled
def _jacobian(chain, frames, out, calls):
    for _ in range(calls):
        jacobian_from_frames(chain, frames, out)


@compiled
def _residual(target, frames, settings, error, calls):
    total = 0.0
    for _ in range(calls):
        total += goal_residual(target, frames[-1], settings, error)[1]
    return total


@compiled
def _assess(target, settings, error, calls):
    total = 0.0
    for k in range(calls):
        total += assess(target, settings, 1e-3, 1e-3 + k * 1e-15, error)[0]
    return total


@compiled
def _evaluate(chain, target, settings, q, frames, error, best_q, best, calls):
    total = 0.0
    for _ in range(calls):
        best[0] = 0.0
        total += evaluate(chain, target, settings, q, frames, error, best_q, best)[0]
    return total


@compiled
def _goal(target, frames, settings, error, goal, calls):
    for _ in range(calls):
        effective_goal(target, frames[-1], settings, error, goal)


@compiled
def _rows(target, frames, settings, error, jacobian, system, residual, calls):
    total = 0
    for _ in range(calls):
        total += weighted_system(target, frames[-1], settings, error, jacobian, system,
                                 residual)
    return total


@compiled
def _step(chain, target, goal, settings, options, q, frames, error, memory, calls):
    start = q.copy()
    for _ in range(calls):
        q[:] = start
        memory[:, :] = 0.0
        jacobian_transpose_step(chain, target, goal, settings, options, q, frames, error, 1.0,
                                memory)
    q[:] = start


@compiled
def _polish_step(chain, target, settings, q, frames, error, calls):
    # The linear part of one polish step, as the search's polish runs it.
    count = q.shape[0]
    lower = chain.joint_limits[:, LIMIT_LOWER]
    upper = chain.joint_limits[:, LIMIT_UPPER]
    jacobian = np.empty((6, count))
    system = np.empty((6, count))
    residual = np.empty(6)
    step = np.empty(count)
    normal = np.empty((max(6, count), max(6, count)))
    multipliers = np.empty(max(6, count))
    for _ in range(calls):
        jacobian_from_frames(chain, frames, jacobian)
        rows = weighted_system(target, frames[-1], settings, error, jacobian, system, residual)
        damped_rows(system, residual, rows, 0.1, q, lower, upper, step, normal, multipliers)


@compiled
def _clock(calls):
    total = 0.0
    for _ in range(calls):
        total += monotonic_seconds()
    return total


def _best_ns(loop, arguments: tuple, calls: int, repeats: int) -> float:
    loop(*arguments, 10)  # compile or load
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        loop(*arguments, calls)
        best = min(best, time.perf_counter() - start)
    return 1e9 * best / calls


def _pieces(chain, calls: int, repeats: int) -> List[tuple]:
    rng = np.random.default_rng(1)
    arrays = chain.arrays
    q = chain.random_configuration(rng)
    target = chain.fk(chain.random_configuration(rng))
    search = SearchOptions(solver='jacobian_transpose', polish=None, polish_iterations=20,
                           max_attempts=64, solver_options={})
    heuristic = search.heuristic
    settings = search_settings(chain, Goal(mode='full', tip_axis=(0.0, 0.0, 1.0),
                                           position_tolerance=1e-5, orientation_tolerance=1e-5,
                                           position_bounds=None, rotation_bounds=None), search)
    options = heuristic.packed_options(chain)
    joints = chain.num_joints
    frames = np.empty((arrays.segments.shape[0], 4, 4))
    error = np.empty(6)
    forward_frames(arrays, q, frames)
    goal_residual(target, frames[-1], settings, error)
    jacobian = np.empty((6, joints))
    jacobian_from_frames(arrays, frames, jacobian)
    goal = np.empty((4, 4))
    memory = np.zeros((max(joints, 6), STEP_MEMORY_COLUMNS))
    effective_goal(target, frames[-1], settings, error, goal)
    rows = (
        ('forward_frames', _fk, (arrays, q, frames)),
        ('jacobian_from_frames', _jacobian, (arrays, frames, np.empty((6, joints)))),
        ('goal_residual', _residual, (target, frames, settings, error)),
        ('assess', _assess, (target, settings, error)),
        ('evaluate (FK, residual, assess)', _evaluate,
         (arrays, target, settings, q, frames, error, q.copy(), np.zeros(1))),
        ('effective_goal', _goal, (target, frames, settings, error, goal)),
        ('weighted_system', _rows, (target, frames, settings, error, jacobian,
                                    np.empty((6, joints)), np.empty(6))),
        ('jacobian_transpose_step', _step, (arrays, target, goal, settings, options, q, frames,
                                            error, memory)),
        ('polish step without FK', _polish_step, (arrays, target, settings, q, frames,
                                                  error)),
        ('monotonic clock', _clock, ()),
    )
    return [(name, _best_ns(loop, arguments, calls, repeats)) for name, loop, arguments in rows]


def _batch(chain, count: int) -> tuple:
    rng = np.random.default_rng(0)
    targets = chain.fk_batch(np.array([chain.random_configuration(rng) for _ in range(count)]))
    seeds = np.array([chain.random_configuration(rng) for _ in range(count)])
    solve_batch(chain, targets[:64], seeds[:64], threads=1)
    best = np.inf
    for _ in range(3):
        start = time.process_time()
        result = solve_batch(chain, targets, seeds, threads=1, max_attempts=64)
        best = min(best, time.process_time() - start)
    iterations = float(result.iterations.mean())
    return (100.0 * result.success.mean(), 1e6 * best / count, iterations,
            float(result.attempts.mean()), 1e6 * best / count / iterations)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the per-call cost of each piece and the batch's cost per target and iteration."""
    arguments = argparse.ArgumentParser(prog='kernel_pieces', description=__doc__,
                                        formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument('--robots', nargs='+', default=['ur5_like', 'panda_like'])
    arguments.add_argument('--calls', type=int, default=100000)
    arguments.add_argument('--repeats', type=int, default=15)
    arguments.add_argument('--targets', type=int, default=2000)
    options = arguments.parse_args(argv)
    warm_up(('jacobian_transpose',))
    for name in options.robots:
        robot = load_robot(name)
        chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
        print('%s (%d joints), ns per call:' % (name, chain.num_joints))
        for piece, nanoseconds in _pieces(chain, options.calls, options.repeats):
            print('  %-34s %8.1f' % (piece, nanoseconds))
        if options.targets > 0:
            print('  batch, 1 thread, %d targets: success %.1f %%, CPU %.1f us per target, '
                  '%.1f iterations and %.2f starts per target, %.3f us per iteration'
                  % ((options.targets,) + _batch(chain, options.targets)), flush=True)
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
