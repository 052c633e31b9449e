# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's drag without ROS: exact and approximate tracking along a dragged path, per solver.

Run ``python -m ik_solvers_benchmarks.drag``. Each arm starts where the demo starts it (the
middle of its limits, ``--start zero``, or given joint values) and follows the demo's
figure-eight of goals through its start pose (``--path-offset 0.15`` moves the eight's centre
15 cm toward the base, where every goal is reachable), then a few goals far out of reach. Every
goal is handled as the ik_node handles a streamed target:

1. an exact search from the last command, with the streamed budget (a short deadline and a few
   starts near the seed), at the node's default tolerances;
2. its solution is commanded when no joint moves more than ``max_joint_jump`` from the last
   command;
3. otherwise the approximate step (:func:`ik_solvers.approach`) commands the configuration
   within ``max_joint_jump`` of the last command that brings the tip closest to the goal.
   When that meets the tolerances (checked by forward kinematics) it counts as exact.

The table gives, per solver, the path goals commanded exactly and approximately and those left
without a command, the largest joint change between consecutive commands, the position error
of the approximate commands, the 95th percentile of the time per goal (both steps), the path
goals before the first exact one, and how the far goals were answered.
"""

import argparse
import math
import time
from typing import List, Optional, Sequence

import numpy as np

from .arm_collisions import arm_collision_check, line_collisions
from ik_solvers.reach.named_robots import bundled_robot_names, load_robot, vendor_robot_names
from ik_solvers.demo.scripted_drag import (
    figure_eight,
    moved_toward_base,
    out_of_reach,
    start_configuration,
)
from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.solvers import approach, Goal, SearchOptions, solve, SOLVERS
from ik_solvers.solvers.approximate import STREAMED_EXACT_ATTEMPTS, STREAMED_EXACT_BUDGET

__all__ = ['DragFigures', 'drag', 'main']

# The node's default tolerances (config/ik_solvers.yaml).
_POSITION_TOLERANCE = 1e-4
_ORIENTATION_TOLERANCE = 1e-3
# Largest joint change per command, rad: 5 degrees, the bound approximate tracking is measured
# with (docs/DECISIONS.md); the node's max_joint_jump of 0.35 rad predates it.
_MAX_JOINT_JUMP = 0.087
# The exact search's budget per streamed goal, as the node's.
STREAMED_BUDGET = STREAMED_EXACT_BUDGET
STREAMED_ATTEMPTS = STREAMED_EXACT_ATTEMPTS
# Configurations checked per second of a commanded motion: one every millisecond.
_SAMPLES_PER_SECOND = 1000.0
# The node's default velocity_scale and min_duration (s), which time its commands.
_VELOCITY_SCALE = 0.5
_MIN_DURATION = 0.1
# Largest time of the approximate step per goal, s; it usually needs a tenth of it.
_APPROACH_TIMEOUT = 0.002


class DragFigures:
    """
    What one drag gave.

    :ivar exact: path goals commanded with a solution within the tolerances (by FK).
    :ivar approximate: path goals commanded with an approximate configuration.
    :ivar uncommanded: path goals answered without a command.
    :ivar largest_jump: largest change of one joint between consecutive commands along the
        path, rad or m.
    :ivar approximate_errors: position error of each approximate command, m.
    :ivar times: time spent on each goal (exact search and approximate step), s.
    :ivar cpu_times: processor time of this thread on each goal, s: the time per goal on an
        idle machine (on a shared one, the wall-clock times include waits for a core).
    :ivar first_exact: path goals before the first exact command (all of them if none).
    :ivar far_approximate: far goals commanded approximately.
    :ivar far_success: far goals reported reached (none should be).
    :ivar far_count: far goals driven.
    :ivar far_largest_jump: largest change of one joint commanded for a far goal, rad or m.
    :ivar swept_samples: configurations checked along the commanded motions: each command
        played from the previous one in its duration (the node's timing), sampled every 1 ms.
    :ivar swept_colliding: of those, the ones in collision (robot with itself) by the exact
        check of :mod:`.arm_collisions`; ``-1`` when no check was given.
    """

    def __init__(self) -> None:
        """Start with nothing counted."""
        self.exact = 0
        self.approximate = 0
        self.uncommanded = 0
        self.largest_jump = 0.0
        self.approximate_errors: List[float] = []
        self.times: List[float] = []
        self.cpu_times: List[float] = []
        self.first_exact: Optional[int] = None
        self.far_approximate = 0
        self.far_success = 0
        self.far_count = 0
        self.far_largest_jump = 0.0
        self.swept_samples = 0
        self.swept_colliding = -1


def _duration(chain: Chain, start: np.ndarray, end: np.ndarray) -> float:
    """Seconds the node gives a command (its defaults: half the velocity limits, >= 0.1 s)."""
    limits = np.asarray(chain.velocity_limits, dtype=float)
    usable = np.isfinite(limits) & (limits > 0.0)
    times = np.abs(end - start)[usable] / (_VELOCITY_SCALE * limits[usable])
    return max(float(np.max(times)) if times.size else 0.0, _MIN_DURATION)


def _track(chain: Chain, goal: np.ndarray, commanded: np.ndarray, solver: str,
           max_joint_jump: float, approximate: bool, budget: float, attempts: int) -> tuple:
    """
    Handle one streamed goal; return ``(q, kind, position_error, seconds)``.

    ``kind`` is 'exact', 'approximate' or '' (nothing commanded; ``q`` is None then).
    """
    result = solve(chain, goal, commanded,
                   goal=Goal(position_tolerance=_POSITION_TOLERANCE,
                             orientation_tolerance=_ORIENTATION_TOLERANCE),
                   options=SearchOptions(solver=solver, timeout=budget, max_attempts=attempts))
    seconds = result.elapsed
    bound = max_joint_jump if max_joint_jump > 0.0 else math.inf
    if result.success and float(np.max(np.abs(result.q - commanded))) <= bound:
        return result.q, 'exact', result.position_error, seconds
    if not approximate or not math.isfinite(bound):
        return None, '', result.position_error, seconds
    near = approach(chain, goal, start=commanded, max_joint_step=bound,
                    position_tolerance=_POSITION_TOLERANCE,
                    orientation_tolerance=_ORIENTATION_TOLERANCE, timeout=_APPROACH_TIMEOUT)
    seconds += near.elapsed
    return near.q, 'exact' if near.success else 'approximate', near.position_error, seconds


def drag(chain: Chain, start: np.ndarray, solver: str, *, goals: int = 300,
         max_joint_jump: float = _MAX_JOINT_JUMP, path_offset: float = 0.0,
         unreachable: int = 5, approximate: bool = True, budget: float = STREAMED_BUDGET,
         attempts: int = STREAMED_ATTEMPTS, check=None) -> DragFigures:
    """
    Drag the chain's tip along the demo's figure-eight from ``start`` (rad or m).

    :param path_offset: m, how far the eight's centre lies from the start tip toward the base
        (see :func:`~ik_solvers.demo.scripted_drag.moved_toward_base`); 0 puts it at the tip.
    :param unreachable: far goals after the path.
    :param approximate: command approximate configurations when no exact one is near.
    :param budget: the exact search's deadline per goal, s; ``attempts`` caps its starts.
    :param check: a collision model of the arm: every commanded motion is then sampled every
        1 ms of its duration and checked (:attr:`DragFigures.swept_colliding`).
    :returns: The figures of the drag.
    """
    figures = DragFigures()
    commanded = np.array(start, dtype=float)
    centre = moved_toward_base(chain, commanded, path_offset)
    path = figure_eight(centre, count=goals)
    far = out_of_reach(chain.fk(commanded), count=unreachable, reach=chain.arrays.reach)
    for index, goal in enumerate(path + far):
        cpu_started = time.thread_time()
        q, kind, position_error, seconds = _track(chain, goal, commanded, solver,
                                                  max_joint_jump, approximate, budget, attempts)
        figures.cpu_times.append(time.thread_time() - cpu_started)
        figures.times.append(seconds)
        jump = 0.0 if q is None else float(np.max(np.abs(q - commanded)))
        if q is not None and check is not None:
            samples = max(1, int(math.ceil(_SAMPLES_PER_SECOND * _duration(
                chain, commanded, q))))
            figures.swept_samples += samples
            figures.swept_colliding = max(0, figures.swept_colliding) + line_collisions(
                check, commanded, q, samples)
        if q is not None:
            commanded = q
        if index >= goals:
            figures.far_largest_jump = max(figures.far_largest_jump, jump)
            figures.far_count += 1
            figures.far_approximate += kind == 'approximate'
            figures.far_success += kind == 'exact'
            continue
        figures.largest_jump = max(figures.largest_jump, jump)
        if kind == 'exact':
            figures.exact += 1
            if figures.first_exact is None:
                figures.first_exact = index
        elif kind == 'approximate':
            figures.approximate += 1
            figures.approximate_errors.append(position_error)
        else:
            figures.uncommanded += 1
    if figures.first_exact is None:
        figures.first_exact = goals
    return figures


_HEADER = ('%-13s %-19s %6s %6s %6s %7s %13s %7s %7s %6s %-15s %s' % (
    'robot', 'solver', 'exact', 'approx', 'none', 'jump', 'approx err mm', 'p95 ms',
    'cpu p95', 'first', 'far (jump)', 'swept in collision'))


def _row(name: str, solver: str, figures: DragFigures) -> str:
    errors = figures.approximate_errors
    error_text = ('%6.1f %6.1f' % (1e3 * float(np.median(errors)), 1e3 * max(errors))
                  if errors else '%6s %6s' % ('-', '-'))
    far = '%4d/%d (%.1f°)' % (figures.far_approximate, figures.far_count,
                              math.degrees(figures.far_largest_jump))
    swept = ('-' if figures.swept_colliding < 0
             else '%d/%d' % (figures.swept_colliding, figures.swept_samples))
    return '%-13s %-19s %6d %6d %6d %6.2f° %13s %7.2f %7.2f %6d %-15s %s%s' % (
        name, solver, figures.exact, figures.approximate, figures.uncommanded,
        math.degrees(figures.largest_jump), error_text,
        1e3 * float(np.percentile(figures.times, 95)),
        1e3 * float(np.percentile(figures.cpu_times, 95)), figures.first_exact,
        far, swept, ' %d reached?' % figures.far_success if figures.far_success else '')


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Print the drag table for the bundled and vendor arms."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--robots', nargs='+',
                        help='robots (default: the bundled 6- and 7-joint arms and the vendor '
                             'arms that are installed)')
    parser.add_argument('--start', default='mid',
                        help="'mid' (the default), 'zero', or comma-separated joint values")
    parser.add_argument('--solvers', default=','.join(SOLVERS),
                        help='comma-separated solvers (default: all)')
    parser.add_argument('--goals', type=int, default=300)
    parser.add_argument('--unreachable', type=int, default=5, help='far goals after the path')
    parser.add_argument('--path-offset', type=float, default=0.0,
                        help="m: the eight's centre moves this far from the start tip toward "
                             'the base (0.15 puts every goal within reach)')
    parser.add_argument('--max-joint-jump', type=float, default=_MAX_JOINT_JUMP,
                        help='rad: largest joint change per command; 0 commands every exact '
                             'solution and nothing approximate')
    parser.add_argument('--no-approximate', action='store_true',
                        help='command exact solutions only, as without approximate tracking')
    parser.add_argument('--budget-ms', type=float, default=1e3 * STREAMED_BUDGET,
                        help="the exact search's deadline per goal, ms")
    parser.add_argument('--attempts', type=int, default=STREAMED_ATTEMPTS,
                        help="the exact search's cap on starts per goal")
    parser.add_argument('--no-swept', action='store_true',
                        help='skip the collision check of the commanded motions, sampled every '
                             '1 ms (the last column)')
    arguments = parser.parse_args(argv)
    names = arguments.robots or [name for name in bundled_robot_names()
                                 if name in ('ur5_like', 'panda_like')] + vendor_robot_names()
    solvers = [name for name in arguments.solvers.split(',') if name]
    print('%d path goals from the start %s, path offset %.2f m, max_joint_jump %.3f rad, exact '
          'budget %.2f ms / %d starts, approximate tracking %s'
          % (arguments.goals, arguments.start, arguments.path_offset,
             arguments.max_joint_jump, arguments.budget_ms, arguments.attempts,
             'off' if arguments.no_approximate else 'on'))
    print(_HEADER)
    for name in names:
        check = None
        if arguments.no_swept:
            robot = load_robot(name)
            chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
        else:
            robot, chain, check, _ = arm_collision_check(name)
        start = start_configuration(chain, arguments.start)
        for solver in solvers:
            figures = drag(chain, start, solver, goals=arguments.goals,
                           max_joint_jump=arguments.max_joint_jump,
                           path_offset=arguments.path_offset,
                           unreachable=arguments.unreachable,
                           approximate=not arguments.no_approximate,
                           budget=1e-3 * arguments.budget_ms, attempts=arguments.attempts,
                           check=check)
            print(_row(name, solver, figures), flush=True)


if __name__ == '__main__':
    main()
