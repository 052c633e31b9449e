# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
``ik_solvers_bench --trees``: the tree solvers on the bundled trees, every figure of one run.

Per tree (two arms on a waist and on a fixed torso, full poses; a hand's four fingertips and a
quadruped's four feet, positions, with the body on a lifting joint and fixed; and, when
example-robot-data is installed, the upper bodies of three humanoids, torso and both arms, full
poses) and per heuristic, on goal sets that are the forward kinematics of random configurations
within the limits:

* success with the defaults and alone (``polish=False``), each answer re-checked by an
  independent forward kinematics (:mod:`.tree_reference`): false successes and answers outside
  the limits are counted, and the exit status is 1 when there is any;
* median and 95th percentile time (ms) and the heuristic's iterations;
* on the two-arm trees and the humanoids, the median against one arm solved as a chain and against
  Levenberg–Marquardt on the stacked problem (:func:`.tree_reference.lm_anchor`), same run;
* holding: the first tip walks, the others are given their pose of the first step; the largest
  error of a held tip over the walk.
"""

import argparse
import sys
import time
from typing import Dict, List, Optional, Sequence

import numpy as np

from .tree_reference import lm_anchor, reference_name, tip_errors, TreeReference
from ik_solvers.kinematics import RobotModel
from ik_solvers.solvers import solve
from ik_solvers.solvers.request import Goal
from ik_solvers.kinematics.tree import KinematicTree
from ik_solvers.reach.named_robots import bundled_urdf_directory, vendor_description
from ik_solvers.solvers.tree_goals import TipGoal
from ik_solvers.solvers.tree_solve import solve_tree, TREE_SOLVERS, TreeOptions

__all__ = ['HUMANOID_TREES', 'TREES', 'main']

#: The bundled trees: base, tips, goal mode.
TREES = {
    'dual_arm_waist': ('base_link', ('left_tool', 'right_tool'), 'full'),
    'dual_arm_fixed_torso': ('base_link', ('left_tool', 'right_tool'), 'full'),
    'four_finger_hand': ('palm', ('index_tip', 'middle_tip', 'ring_tip', 'thumb_tip'), 'none'),
    'quadruped_legs': ('world', ('front_left_foot', 'front_right_foot', 'hind_left_foot',
                                 'hind_right_foot'), 'none'),
    # The same legs from the body: the base fixed, each leg a 3-joint chain of its own.
    'quadruped_fixed_base': ('base_link', ('front_left_foot', 'front_right_foot',
                                           'hind_left_foot', 'hind_right_foot'), 'none'),
}
#: Humanoid upper bodies of example-robot-data: path under its robots/ folder, base, tips, mode.
#: The pelvis is the base: the torso's joints (two, three, one) are shared by both arms.
HUMANOID_TREES = {
    'talos_upper_body': ('talos_data/robots/talos_reduced.urdf', 'base_link',
                         ('arm_left_7_link', 'arm_right_7_link'), 'full'),
    'icub_upper_body': ('icub_description/robots/icub_reduced.urdf', 'base_link',
                        ('l_hand', 'r_hand'), 'full'),
    'romeo_upper_body': ('romeo_description/urdf/romeo_small.urdf', 'base_link',
                         ('l_wrist', 'r_wrist'), 'full'),
}
# Trees cut from another tree's description.
_DESCRIPTIONS = {'quadruped_fixed_base': 'quadruped_legs'}
_TOLERANCES = (1e-5, 1e-5)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='ik_solvers_bench --trees', description=__doc__)
    installed = [name for name, (relative, _, _, _) in HUMANOID_TREES.items()
                 if vendor_description(relative) is not None]
    parser.add_argument('--only', dest='names', nargs='*',
                        choices=sorted(TREES) + sorted(HUMANOID_TREES),
                        default=list(TREES) + installed,
                        help='trees to run (all by default; the humanoids when installed)')
    parser.add_argument('--solvers', nargs='+', choices=sorted(TREE_SOLVERS),
                        default=list(TREE_SOLVERS))
    parser.add_argument('--targets', type=int, default=100, help='goal sets per tree')
    parser.add_argument('--anchor-targets', type=int, default=20,
                        help='goal sets of the LM anchor per two-arm tree')
    parser.add_argument('--anchor-timeout', type=float, default=1.0, help='LM deadline, s')
    parser.add_argument('--timeout', type=float, default=TreeOptions().timeout,
                        help='deadline of a solve with the polish, s')
    parser.add_argument('--alone-timeout', type=float, default=0.5,
                        help='deadline of a heuristic alone (polish=False), s')
    parser.add_argument('--hold-steps', type=int, default=30, help='steps of the holding walk')
    parser.add_argument('--rng-seed', type=int, default=0)
    return parser


def _load(name: str):
    if name in HUMANOID_TREES:
        relative, base, tips, mode = HUMANOID_TREES[name]
        text = vendor_description(relative)
        if text is None:
            raise SystemExit('%s needs example-robot-data (pip install example-robot-data)'
                             % name)
    else:
        base, tips, mode = TREES[name]
        description = _DESCRIPTIONS.get(name, name)
        text = (bundled_urdf_directory() / 'trees' / (description + '.urdf')).read_text()
    model = RobotModel.from_urdf(text)
    tree = KinematicTree(model, base, tips)
    return model, tree, TreeReference(text, tree), mode


def _goal_sets(tree: KinematicTree, count: int, seed: int) -> List[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [tree.fk(tree.random_configuration(rng)) for _ in range(count)]


def _run(tree: KinematicTree, reference: TreeReference, mode: str, goal_sets, solver: str,
         options: TreeOptions) -> Dict[str, float]:
    """Solve every goal set; count successes, refuted ones, answers outside the limits."""
    times, iterations, results, success, refuted, outside = [], [], [], 0, 0, 0
    modes = [mode] * len(tree.tip_links)
    # Only the solves are timed, back to back, as the chain's are (:func:`_chain_median`):
    # each goal set's generator is made before the clock starts (some 15 us), and the
    # independent check runs after the last solve, so that its work does not cool the
    # solver's caches between timed calls.
    for k, targets in enumerate(goal_sets):
        goals = [TipGoal(tip, targets[t], Goal(mode=mode))
                 for t, tip in enumerate(tree.tip_links)]
        rng = np.random.default_rng(k)
        began = time.perf_counter()
        result = solve_tree(tree, goals, solver, options=options, rng=rng)
        times.append(time.perf_counter() - began)
        results.append(result)
    for result, targets in zip(results, goal_sets):
        iterations.append(result.iterations)
        outside += not tree.within_limits(result.q)
        if result.success:
            errors = tip_errors(reference.poses(result.q), targets, modes)
            if np.any(errors > np.array(_TOLERANCES) * (1 + 1e-6)):
                refuted += 1
            else:
                success += 1
    return {'success': 100.0 * success / len(goal_sets), 'refuted': refuted,
            'outside': outside, 'median': 1e3 * float(np.median(times)),
            'p95': 1e3 * float(np.percentile(times, 95)),
            'iterations': float(np.median(iterations))}


def _chain_median(model: RobotModel, tree: KinematicTree, solver: str, count: int,
                  seed: int) -> float:
    """Median ms of the first tip's path solved as a chain, the chain solver's defaults."""
    chain = model.chain(tree.base_link, tree.tip_links[0])
    rng = np.random.default_rng(seed)
    times = []
    for _ in range(count):
        target = chain.fk(chain.random_configuration(rng))
        began = time.perf_counter()
        solve(chain, target, solver=solver)
        times.append(time.perf_counter() - began)
    return 1e3 * float(np.median(times))


def _anchor(tree, reference, mode, goal_sets, timeout) -> Dict[str, float]:
    rng = np.random.default_rng(1)
    times, success = [], 0
    for targets in goal_sets:
        ok, _, seconds, _ = lm_anchor(reference, targets, [mode] * len(tree.tip_links),
                                      _TOLERANCES, timeout, rng)
        success += ok
        times.append(seconds)
    return {'success': 100.0 * success / len(goal_sets), 'median': 1e3 * float(np.median(times))}


def _hold(tree: KinematicTree, reference: TreeReference, mode: str, solver: str, steps: int,
          seed: int) -> Dict[str, float]:
    """Walk the first tip by small steps of its own joints; the other tips hold their pose."""
    rng = np.random.default_rng(seed)
    q = tree.random_configuration(rng)
    start = tree.fk(q)
    shared = set()
    for variables in tree.tip_variables[1:]:
        shared.update(int(v) for v in variables)
    own = [int(v) for v in tree.tip_variables[0] if int(v) not in shared]
    walk, answer = q.copy(), q.copy()
    worst, failures = np.zeros(2), 0
    modes = [mode] * len(tree.tip_links)
    for _ in range(steps):
        walk[own] = np.clip(walk[own] + rng.uniform(-0.03, 0.03, len(own)),
                            tree.lower[own], tree.upper[own])
        targets = start.copy()
        targets[0] = tree.fk(walk)[0]
        goals = [TipGoal(tip, targets[t], Goal(mode=mode))
                 for t, tip in enumerate(tree.tip_links)]
        result = solve_tree(tree, goals, solver, seed=answer)
        failures += not result.success
        answer = result.q
        errors = tip_errors(reference.poses(answer), targets, modes)[1:]
        worst = np.maximum(worst, errors.max(axis=0))
    return {'failures': failures, 'position': float(worst[0]), 'orientation': float(worst[1])}


def _table(header: Sequence[str], rows: List[Sequence[object]]) -> str:
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(str(cell) for cell in row) + ' |' for row in rows]
    return '\n'.join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """
    Run the tree benchmark and print its tables.

    :returns: 0, or 1 when the independent check refuted a success or found an answer outside
        the limits.
    """
    arguments = _parser().parse_args(argv)
    print('# Tree solvers (%s installed); tolerances 1e-5 m, 1e-5 rad; %d goal sets per tree\n'
          % (reference_name(), arguments.targets))
    success_rows, speed_rows, hold_rows, iteration_rows = [], [], [], []
    bad = 0
    for name in arguments.names:
        model, tree, reference, mode = _load(name)
        goal_sets = _goal_sets(tree, arguments.targets, arguments.rng_seed)
        warm = [TipGoal(tip, goal_sets[0][t], Goal(mode=mode))
                for t, tip in enumerate(tree.tip_links)]
        anchor = None
        if name.startswith('dual_arm') or name in HUMANOID_TREES:
            anchor = _anchor(tree, reference, mode, goal_sets[:arguments.anchor_targets],
                             arguments.anchor_timeout)
        for solver in arguments.solvers:
            for polish in (True, False):   # compiled before the clock runs
                solve_tree(tree, warm, solver, options=TreeOptions(polish=polish,
                                                                   max_attempts=1))
            full = _run(tree, reference, mode, goal_sets, solver,
                        TreeOptions(timeout=arguments.timeout))
            alone = _run(tree, reference, mode, goal_sets, solver,
                         TreeOptions(polish=False, timeout=arguments.alone_timeout))
            bad += full['refuted'] + full['outside'] + alone['refuted'] + alone['outside']
            success_rows.append((
                name, tree.num_joints, reference.name, solver, '%.1f' % full['success'],
                '%.1f' % alone['success'], full['refuted'] + alone['refuted'],
                full['outside'] + alone['outside'], '%.2f' % full['median'],
                '%.2f' % full['p95'], '%.2f' % alone['median'], '%.0f' % full['iterations'],
                '%.0f' % alone['iterations']))
            if mode == 'none':
                iteration_rows.append((name, solver, '%.0f' % alone['iterations']))
            if anchor is not None:
                chain = _chain_median(model, tree, solver, arguments.targets,
                                      arguments.rng_seed)
                speed_rows.append((name, solver, '%.2f' % full['median'], '%.2f' % chain,
                                   '%.2f' % (full['median'] / chain), '%.1f' % anchor['median'],
                                   '%.1f' % anchor['success'],
                                   '%.3f' % (full['median'] / anchor['median'])))
            held = _hold(tree, reference, mode, solver, arguments.hold_steps,
                         arguments.rng_seed)
            hold_rows.append((name, solver, arguments.hold_steps, held['failures'],
                              '%.1e' % held['position'], '%.1e' % held['orientation']))
            print('done %s %s' % (name, solver), file=sys.stderr, flush=True)
    print('## Success and time (defaults: polish on, %g s; alone: polish=False, %g s)\n'
          % (arguments.timeout, arguments.alone_timeout))
    print(_table(('tree', 'joints', 'checked by', 'solver', 'success %', 'alone %',
                  'false successes', 'outside limits', 'median ms', 'p95 ms', 'alone median ms',
                  'iterations', 'alone iterations'), success_rows))
    print('\n## Two arms against one arm as a chain and against LM on the stacked problem\n')
    print(_table(('tree', 'solver', 'tree median ms', 'one arm (chain) median ms',
                  'tree / chain', 'LM median ms', 'LM success %', 'tree / LM'), speed_rows))
    print('\n## Heuristic iterations alone on the position-only trees (median)\n')
    print(_table(('tree', 'solver', 'iterations'), iteration_rows))
    print('\n## Holding: the first tip walks, the others hold their pose\n')
    print(_table(('tree', 'solver', 'steps', 'failed steps', 'worst held position m',
                  'worst held orientation rad'), hold_rows))
    if bad:
        print('the independent check refuted successes or found answers outside the limits: %d'
              % bad, file=sys.stderr)
        return 1
    return 0
