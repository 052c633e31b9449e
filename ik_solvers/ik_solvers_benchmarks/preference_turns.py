# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Preferences on a 7-joint arm with +-2 pi joints, and the branches of UR arms: time and quality.

Run ``python -m ik_solvers_benchmarks.preference_turns`` (``--help`` for the options). Two parts:

* ``panda``: the bundled Panda with every revolute joint limited to +-2 pi, random poses (from
  random configurations) and random seeds, :func:`ik_solvers.solve_many` with each preference
  at ``--timeout-ms`` (default 10). Per preference: the median and 95th percentile of the call
  time, the median processor time of the call (the wall-clock time an idle core would take;
  on a loaded machine the wall-clock time is longer), the answers, the first answers of which
  an in-limit whole-turn copy (every combination of every joint's copies) scores better by the
  preference's own measure, and the mean score of the first answers.
* ``ur``: on ur5_like and ur10_like, random poses, ``solve_many(max_solutions=8)`` against the
  closed-form solutions (:mod:`.ur_closed_form`, each arm's DH parameters): the share found,
  the same share on the poses whose branches all lie more than 0.1 rad apart (near a
  singularity a solution within the tolerances may differ from the closed form's by more than
  the 1e-3 rad match), the poses where a whole shoulder was missed, and the median time.
"""

import argparse
import itertools
import math
import re
import time
from typing import Dict, List, Optional, Sequence

import numpy as np

from ik_solvers.kinematics import RobotModel
from ik_solvers.preferences import make_preference
from ik_solvers.reach.named_robots import BUNDLED_CHAINS, bundled_urdf_directory, load_robot
from ik_solvers.solvers.solutions import joint_distance, solve_many, turn_joints
from .ur_closed_form import UR5_DH, URClosedForm

__all__ = ['UR10_DH', 'in_limit_copies', 'main', 'panda_turns', 'ur_branches', 'wide_chain']

_TURN = 2.0 * math.pi
#: The UR10's published standard DH parameters: d1, a2, a3, d4, d5, d6, m.
UR10_DH = (0.1273, -0.612, -0.5723, 0.163941, 0.1157, 0.0922)
_DH = {'ur5_like': UR5_DH, 'vendor_ur5': UR5_DH, 'ur10_like': UR10_DH}
# An oracle solution counts as found when a returned one is this close on every joint, rad.
_MATCH = 1e-3
# Near a singularity two branches meet (an elbow or a wrist at 0, the two shoulders close);
# there a solution within the tolerances may differ from the closed form's by more than
# _MATCH. The share is also given for the poses whose branches are all this far apart, rad.
_APART = 0.1
# A turn copy is better when it scores higher by more than this share of |score| + 1.
_BETTER = 1e-9
_PREFERENCES = ('nearest', 'rest_posture', 'limit_margin', 'manipulability')


def wide_chain(name: str = 'panda_like'):
    """Return the bundled ``name`` with every revolute joint limited to +-2 pi."""
    text = (bundled_urdf_directory() / ('%s.urdf' % name)).read_text(encoding='utf-8')

    def widen(match):
        block = match.group(0)
        if 'type="revolute"' not in block:
            return block
        return re.sub(r'lower="[^"]*" upper="[^"]*"',
                      'lower="%r" upper="%r"' % (-_TURN, _TURN), block)

    text = re.sub(r'<joint name="[^"]*" type="[^"]*">.*?</joint>', widen, text, flags=re.S)
    return RobotModel.from_urdf(text).chain(*BUNDLED_CHAINS[name])


def in_limit_copies(chain, q: np.ndarray) -> List[np.ndarray]:
    """Return every in-limit configuration that differs from ``q`` by whole turns."""
    options = []
    for value, low, high in zip(q, chain.lower, chain.upper):
        turns = range(math.ceil((low - value) / _TURN - 1e-12),
                      math.floor((high - value) / _TURN + 1e-12) + 1)
        options.append([value + _TURN * k for k in turns])
    return [np.array(row) for row in itertools.product(*options)]


def panda_turns(*, poses: int, timeout: float, max_solutions: int, seed: int = 0,
                preferences: Sequence[str] = _PREFERENCES) -> Dict[str, dict]:
    """Return each preference's figures on the wide Panda (see the module's description)."""
    chain = wide_chain('panda_like')
    rng = np.random.default_rng(seed)
    targets = [chain.fk(chain.random_configuration(rng)) for _ in range(poses)]
    seeds = [chain.random_configuration(rng) for _ in range(poses)]
    rest = chain.mid_configuration()
    solve_many(chain, targets[0], seed=seeds[0], timeout=timeout)  # compile before timing
    figures = {}
    for name in preferences:
        times, cpu, scores, better = [], [], [], 0
        for target, start in zip(targets, seeds):
            measure = make_preference(name, chain, seed=start, rest_posture=rest)
            started = time.process_time()
            answer = solve_many(chain, target, seed=start, max_solutions=max_solutions,
                                preference=name, rest_posture=rest, timeout=timeout)
            cpu.append(time.process_time() - started)
            times.append(answer.elapsed)
            if not answer.success:
                continue
            q = answer.results[0].q
            score = measure.score(q)
            best = max(measure.score(copy) for copy in in_limit_copies(chain, q))
            better += best > score + _BETTER * (abs(score) + 1.0)
            scores.append(score)
        figures[name] = dict(median_ms=1e3 * float(np.median(times)),
                             p95_ms=1e3 * float(np.percentile(times, 95)),
                             cpu_median_ms=1e3 * float(np.median(cpu)),
                             answered=len(scores), better_copy=int(better),
                             mean_score=float(np.mean(scores)) if scores else math.nan)
    return figures


def _apart(solutions: List[np.ndarray], modulo: np.ndarray) -> bool:
    """Return whether every two closed-form branches differ by more than :data:`_APART`."""
    return all(joint_distance(a, b, modulo) > _APART for index, a in enumerate(solutions)
               for b in solutions[:index])


def ur_branches(name: str, *, poses: int, timeout: float, seed: int = 0) -> dict:
    """Return the share of closed-form branches found on ``name``, and the median time."""
    robot = load_robot(name)
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    oracle = URClosedForm(chain, _DH[name])
    modulo = turn_joints(chain)
    rng = np.random.default_rng(seed)
    solve_many(chain, chain.fk(chain.mid_configuration()))  # compile before timing
    found_total = expected_total = missed_shoulder = 0
    apart_found = apart_expected = 0
    times, cpu = [], []
    for _ in range(poses):
        target = chain.fk(chain.random_configuration(rng))
        start = chain.random_configuration(rng)
        expected = oracle.solutions(target)
        started = time.process_time()
        answer = solve_many(chain, target, seed=start, max_solutions=8, timeout=timeout)
        cpu.append(time.process_time() - started)
        times.append(answer.elapsed)
        hits = [any(joint_distance(q, other, modulo) < _MATCH for other in answer.configurations)
                for q in expected]
        found_total += sum(hits)
        expected_total += len(expected)
        if _apart(expected, modulo):
            apart_found += sum(hits)
            apart_expected += len(expected)
        shoulders = {round(float(q[0]) % _TURN, 6) for q in expected}
        got = {round(float(q[0]) % _TURN, 6) for q, hit in zip(expected, hits) if hit}
        missed_shoulder += len(got) < len(shoulders)
    return dict(found_share=found_total / max(expected_total, 1), expected=expected_total,
                apart_share=apart_found / max(apart_expected, 1), apart_expected=apart_expected,
                missed_shoulder=missed_shoulder, median_ms=1e3 * float(np.median(times)),
                cpu_median_ms=1e3 * float(np.median(cpu)),
                p95_ms=1e3 * float(np.percentile(times, 95)))


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Print the figures of the chosen parts."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--parts', default='panda,ur', help='comma-separated: panda, ur')
    parser.add_argument('--poses', type=int, default=200)
    parser.add_argument('--timeout-ms', type=float, default=10.0,
                        help='the Panda calls\' timeout (default 10 ms)')
    parser.add_argument('--max-solutions', type=int, default=1,
                        help='max_solutions of the Panda calls (default 1: the first answer)')
    parser.add_argument('--ur-robots', default='ur5_like,ur10_like')
    parser.add_argument('--ur-timeout-ms', type=float, default=5.0)
    arguments = parser.parse_args(argv)
    parts = set(arguments.parts.split(','))
    if 'panda' in parts:
        figures = panda_turns(poses=arguments.poses, timeout=1e-3 * arguments.timeout_ms,
                              max_solutions=arguments.max_solutions)
        print('panda_like, joints +-2 pi, %d poses, timeout %.1f ms, max_solutions %d'
              % (arguments.poses, arguments.timeout_ms, arguments.max_solutions))
        print('%-15s %9s %9s %9s %9s %12s %12s' % ('preference', 'median', 'p95', 'cpu med',
                                                   'answered', 'better turn', 'mean score'))
        for name, row in figures.items():
            print('%-15s %7.2fms %7.2fms %7.2fms %5d/%-3d %12d %12.4f' % (
                name, row['median_ms'], row['p95_ms'], row['cpu_median_ms'], row['answered'],
                arguments.poses,
                row['better_copy'], row['mean_score']), flush=True)
    if 'ur' in parts:
        for name in arguments.ur_robots.split(','):
            row = ur_branches(name, poses=arguments.poses,
                              timeout=1e-3 * arguments.ur_timeout_ms)
            print('%-10s %d poses, %.1f ms: closed-form branches found %.2f %% of %d (%.2f %% '
                  'of %d on poses whose branches lie > %.1f rad apart), poses missing a '
                  'shoulder %d, median %.3f ms (processor time %.3f ms), p95 %.3f ms'
                  % (name, arguments.poses, arguments.ur_timeout_ms, 100.0 * row['found_share'],
                     row['expected'], 100.0 * row['apart_share'], row['apart_expected'],
                     _APART, row['missed_shoulder'], row['median_ms'], row['cpu_median_ms'],
                     row['p95_ms']),
                  flush=True)


if __name__ == '__main__':
    main()
