# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Several solutions per pose and the preferences, against a closed-form oracle and ``nearest``.

Run ``python -m ik_solvers_benchmarks.solutions_bench`` (``--help`` for the parts). Three parts:

* ``ur``: on ur5_like and the vendor UR5, random poses (from random configurations), all
  solutions by :func:`ik_solvers.solvers.solutions.solve_many` within the budget, against the
  closed-form solutions (:mod:`.ur_closed_form`) within the limits: the share found, every
  returned one verified by forward kinematics, duplicates among them, and the median time of
  ``max_solutions=8``.
* ``panda``: on the bundled Panda, each preference against ``nearest`` (same poses, same
  seeds): mean smallest normalised limit margin, mean manipulability, mean distance to the
  rest posture (the middle of the limits), and whether every answer met the tolerances.
* ``drag``: the demo's figure-eight (as :mod:`.drag`) twice around on the Panda, every goal
  solved from the last command with the streamed budget; with ``rest_posture`` (the start
  configuration as the rest) each solution then takes bounded null-space steps. Reported: the
  largest joint difference between the end and the start, goals met exactly, largest step.
"""

import argparse
import math
import time
from typing import Optional, Sequence

import numpy as np

from ik_solvers.reach.named_robots import load_robot
from .ur_closed_form import URClosedForm
from ik_solvers.demo.scripted_drag import figure_eight, start_configuration
from ik_solvers.kinematics import RobotModel
from ik_solvers.preferences import make_preference
from ik_solvers.solvers import Goal, SearchOptions, solve
from ik_solvers.solvers.approximate import STREAMED_EXACT_ATTEMPTS, STREAMED_EXACT_BUDGET
from ik_solvers.solvers.null_space import null_space_improve
from ik_solvers.solvers.solutions import joint_distance, solve_many, turn_joints

__all__ = ['drag_loop', 'main', 'panda_preferences', 'ur_solutions']


# An oracle solution counts as found when a returned one is this close on every joint (rad).
_MATCH = 1e-3
# The drag's tolerances: the node's defaults, as in .drag.
_DRAG_POSITION_TOLERANCE = 1e-4
_DRAG_ORIENTATION_TOLERANCE = 1e-3
# Largest step of a drag command, rad (1.1 degrees).
_DRAG_LARGEST_STEP = math.radians(1.1)


def _chain(name: str):
    robot = load_robot(name)
    return RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)


def ur_solutions(name: str, *, poses: int, timeout: float, seed: int = 0,
                 closure_starts: Optional[int] = 8) -> dict:
    """Return the UR figures of ``name`` (see the module's description)."""
    chain = _chain(name)
    oracle = URClosedForm(chain)
    modulo = turn_joints(chain)
    rng = np.random.default_rng(seed)
    solve_many(chain, chain.fk(chain.mid_configuration()))  # compile before timing
    shares, times, duplicates, unverified, counts = [], [], 0, 0, []
    for _ in range(poses):
        target = chain.fk(chain.random_configuration(rng))
        reference = [q for q in oracle.solutions(target)
                     if chain.within_limits(_in_limits(q, chain))]
        started = time.perf_counter()
        answer = solve_many(chain, target, max_solutions=8, timeout=timeout,
                            closure_starts=closure_starts)
        times.append(time.perf_counter() - started)
        found = answer.configurations
        counts.append(len(found))
        if reference:
            shares.append(sum(any(joint_distance(q, other, modulo) < _MATCH for other in found)
                              for q in reference) / len(reference))
        for index, q in enumerate(found):
            reached = chain.fk(q)
            if (np.linalg.norm(reached[:3, 3] - target[:3, 3]) > 1e-5
                    or not chain.within_limits(q)):
                unverified += 1
            duplicates += sum(joint_distance(q, other, modulo) <= 0.01
                              for other in found[:index])
    return dict(found_share=float(np.mean(shares)), median_ms=1e3 * float(np.median(times)),
                p95_ms=1e3 * float(np.percentile(times, 95)),
                duplicates=duplicates, unverified=unverified,
                solutions_per_pose=float(np.mean(counts)))


def _in_limits(q: np.ndarray, chain) -> np.ndarray:
    """Move each joint by whole turns into the limits where it can be."""
    q = np.array(q, dtype=float)
    q = np.where(q < chain.lower, q + 2.0 * math.pi, q)
    return np.where(q > chain.upper, q - 2.0 * math.pi, q)


def panda_preferences(name: str, *, poses: int, timeout: float, max_solutions: int,
                      null_space_steps: int = 30, seed: int = 0) -> dict:
    """Return each preference's mean figure of merit, and nearest's, on the same poses."""
    chain = _chain(name)
    rng = np.random.default_rng(seed)
    targets = [chain.fk(chain.random_configuration(rng)) for _ in range(poses)]
    seeds = [chain.random_configuration(rng) for _ in range(poses)]
    rest = chain.mid_configuration()
    measures = {name_: make_preference(name_, chain, rest_posture=rest)
                for name_ in ('rest_posture', 'limit_margin', 'manipulability')}
    figures = {}
    for preference in ('nearest', 'rest_posture', 'limit_margin', 'manipulability'):
        values = {key: [] for key in measures}
        exact, times = 0, []
        for target, start in zip(targets, seeds):
            wanted = 1 if preference == 'nearest' else max_solutions
            answer = solve_many(chain, target, seed=start, max_solutions=wanted,
                                preference=preference, rest_posture=rest, timeout=timeout,
                                null_space_steps=null_space_steps)
            times.append(answer.elapsed)
            if not answer.success:
                continue
            q = answer.results[0].q
            reached = chain.fk(q)
            exact += (np.linalg.norm(reached[:3, 3] - target[:3, 3]) <= 1e-5
                      and chain.within_limits(q))
            for key, measure in measures.items():
                values[key].append(measure.score(q))
        figures[preference] = dict(
            exact=exact, answered=len(values['rest_posture']),
            median_ms=1e3 * float(np.median(times)),
            rest_distance=-float(np.mean(values['rest_posture'])),
            limit_margin=float(np.mean(values['limit_margin'])),
            manipulability=float(np.mean(values['manipulability'])))
    return figures


def drag_loop(name: str, *, preference: str, goals: int, laps: int = 2,
              start: str = 'mid') -> dict:
    """Drag the Panda's tip around the figure-eight ``laps`` times (see the description)."""
    chain = _chain(name)
    commanded = start_configuration(chain, start)
    first = commanded.copy()
    lap = figure_eight(chain.fk(commanded), count=goals)
    ranking = make_preference(preference, chain, rest_posture=first)
    exact, largest, count = 0, 0.0, 0
    streamed_goal = Goal(position_tolerance=_DRAG_POSITION_TOLERANCE,
                         orientation_tolerance=_DRAG_ORIENTATION_TOLERANCE)
    streamed_options = SearchOptions(timeout=STREAMED_EXACT_BUDGET,
                                     max_attempts=STREAMED_EXACT_ATTEMPTS)
    for goal in lap * laps:
        count += 1
        result = solve(chain, goal, commanded, goal=streamed_goal, options=streamed_options)
        if not result.success:
            continue
        q = result.q
        if ranking.has_gradient and np.max(np.abs(q - commanded)) > _DRAG_LARGEST_STEP:
            # The search's answer left the step bound: first back toward the last command
            # along the self-motion (a rest posture at the last command), then the preference.
            back = make_preference('rest_posture', chain, rest_posture=commanded)
            q = null_space_improve(chain, q, goal, back,
                                   position_tolerance=_DRAG_POSITION_TOLERANCE,
                                   orientation_tolerance=_DRAG_ORIENTATION_TOLERANCE,
                                   max_steps=8).q
        if ranking.has_gradient:
            q = null_space_improve(chain, q, goal, ranking,
                                   position_tolerance=_DRAG_POSITION_TOLERANCE,
                                   orientation_tolerance=_DRAG_ORIENTATION_TOLERANCE,
                                   max_steps=4, max_change=_DRAG_LARGEST_STEP,
                                   anchor=commanded).q
        reached = chain.fk(q)
        rotation = goal[:3, :3] @ reached[:3, :3].T
        angle = math.acos(max(-1.0, min(1.0, 0.5 * (np.trace(rotation) - 1.0))))
        exact += (np.linalg.norm(reached[:3, 3] - goal[:3, 3]) <= _DRAG_POSITION_TOLERANCE
                  and angle <= _DRAG_ORIENTATION_TOLERANCE)
        largest = max(largest, float(np.max(np.abs(q - commanded))))
        commanded = q
    return dict(goals=count, exact=exact, largest_step_deg=math.degrees(largest),
                end_minus_start=float(np.max(np.abs(commanded - first))))


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Print the figures of the chosen parts."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--parts', default='ur,panda,drag', help='comma-separated: ur, panda, '
                        'drag (default: all)')
    parser.add_argument('--poses', type=int, default=300)
    parser.add_argument('--timeout-ms', type=float, default=5.0)
    parser.add_argument('--max-solutions', type=int, default=4,
                        help='solutions ranked per Panda pose by a preference (default 4)')
    parser.add_argument('--null-space-steps', type=int, default=30,
                        help='cap on null-space steps per Panda solution (default 30)')
    parser.add_argument('--ur-robots', default='ur5_like,vendor_ur5')
    parser.add_argument('--closure-starts', default='8',
                        help='UR: comma-separated closure_starts of solve_many to compare '
                        '("none": search until the deadline; default 8)')
    parser.add_argument('--panda', default='panda_like')
    parser.add_argument('--goals', type=int, default=300, help='drag goals per lap')
    arguments = parser.parse_args(argv)
    parts = set(arguments.parts.split(','))
    timeout = 1e-3 * arguments.timeout_ms
    if 'ur' in parts:
        for closure in arguments.closure_starts.split(','):
            closure_starts = None if closure.strip().lower() == 'none' else int(closure)
            for name in arguments.ur_robots.split(','):
                figures = ur_solutions(name, poses=arguments.poses, timeout=timeout,
                                       closure_starts=closure_starts)
                print('%-11s %d poses, %.1f ms, closure_starts %s: closed-form solutions found '
                      '%.1f %%, solutions per pose %.2f, unverified %d, duplicates %d, median '
                      '%.3f ms, p95 %.3f ms'
                      % (name, arguments.poses, arguments.timeout_ms, closure_starts,
                         100.0 * figures['found_share'], figures['solutions_per_pose'],
                         figures['unverified'], figures['duplicates'], figures['median_ms'],
                         figures['p95_ms']), flush=True)
    if 'panda' in parts:
        figures = panda_preferences(arguments.panda, poses=arguments.poses, timeout=timeout,
                                    max_solutions=arguments.max_solutions,
                                    null_space_steps=arguments.null_space_steps)
        base = figures['nearest']
        header = ('preference', 'exact', 'median', 'rest dist', 'limit margin', 'manipulability')
        print('%-15s %6s %8s %12s %12s %14s' % header)
        for preference, row in figures.items():
            print('%-15s %3d/%-3d %6.2fms %12.4f %12.4f %14.5f' % (
                preference, row['exact'], row['answered'], row['median_ms'],
                row['rest_distance'], row['limit_margin'], row['manipulability']))
        print('vs nearest: rest_posture distance x%.2f, limit_margin margin +%.0f %%, '
              'manipulability +%.0f %%' % (
                  figures['rest_posture']['rest_distance'] / base['rest_distance'],
                  100.0 * (figures['limit_margin']['limit_margin'] / base['limit_margin'] - 1),
                  100.0 * (figures['manipulability']['manipulability']
                           / base['manipulability'] - 1)), flush=True)
    if 'drag' in parts:
        for preference in ('nearest', 'rest_posture'):
            row = drag_loop(arguments.panda, preference=preference, goals=arguments.goals)
            print('drag %-13s %d goals twice around: exact %d, largest step %.3f deg, end - '
                  'start %.4f rad (largest joint)' % (
                      preference, row['goals'], row['exact'], row['largest_step_deg'],
                      row['end_minus_start']), flush=True)


if __name__ == '__main__':
    main()
