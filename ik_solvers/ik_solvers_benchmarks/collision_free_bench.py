# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The collision-free benchmark: solutions that must not put the arm through itself.

Run ``python -m ik_solvers_benchmarks.collision_free_bench`` (or ``ik_solvers_bench
--collision-free``). On the vendor UR5 and Panda of example-robot-data, with their collision
meshes and SRDFs, each target is the forward kinematics of a random collision-free
configuration, each seed a random configuration; every solver runs with ``collision=`` the
exact model, and without it for comparison. Beside them, in the same run, the MoveIt-style
anchor: TRAC-IK (Speed mode) whose every answer goes through the same exact check, reseeded
from random configurations until the budget runs out, as MoveIt's kinematics plugins do with
a validity callback. Every claimed success is judged by forward kinematics the solvers do not
use (:func:`.protocol.check_solution`) and by the full exact check (every pair, not the first).
"""

import argparse
import math
from pathlib import Path
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .anchors import AnchorUnavailableError, make_anchor
from .protocol import check_solution
from ik_solvers.reach.named_robots import load_robot, vendor_robot_names
from ik_solvers.collision import CollisionModel, load_robot_geometry, parse_srdf
from ik_solvers.kinematics import RobotModel
from ik_solvers.solvers import solve, SOLVERS

__all__ = ['SRDF_FILES', 'main', 'run_robot']

# The SRDF of each vendor robot, under example-robot-data's robots/ folder.
SRDF_FILES: Dict[str, str] = {
    'vendor_ur5': 'ur_description/srdf/ur5.srdf',
    'vendor_panda': 'panda_description/srdf/panda.srdf',
}
# The anchor's TRAC-IK solvers are built per budget; remaining budgets are rounded down to
# this step (s) so that a handful of solvers serve every call.
_ANCHOR_BUDGET_STEP = 0.0005
_ANCHOR = 'trac_ik + check'


def _setup(name: str):
    robot = load_robot(name)
    source = Path(robot.source)
    robots_folder = source.parents[2]
    model = RobotModel.from_urdf(robot.urdf_xml)
    chain = model.chain(robot.base_link, robot.tip_link)
    geometry = load_robot_geometry(robot.urdf_xml, search_roots=[str(robots_folder.parents[1])])
    disabled = parse_srdf((robots_folder / SRDF_FILES[name]).read_text(encoding='utf-8'))
    return robot, model, chain, CollisionModel(model, chain, geometry, disabled=disabled)


def _problems(chain, model: RobotModel, collision: CollisionModel, count: int,
              rng: np.random.Generator) -> Tuple[List[np.ndarray], List[np.ndarray]]:
    targets, seeds = [], []
    while len(targets) < count:
        q = chain.random_configuration(rng)
        if collision.check(q, stop_at_first=True).colliding:
            continue
        targets.append(model.transform(chain.base_link, chain.tip_link,
                                       dict(zip(chain.joint_names, q))))
        seeds.append(chain.random_configuration(rng))
    return targets, seeds


def _anchor_solve(anchor, collision: CollisionModel, chain, target: np.ndarray,
                  seed: np.ndarray, budget: float, rng: np.random.Generator
                  ) -> Tuple[bool, np.ndarray]:
    """TRAC-IK plus the exact check, reseeded until the budget runs out (MoveIt's way)."""
    deadline = time.perf_counter() + budget
    start = seed
    best = seed
    while True:
        remaining = deadline - time.perf_counter()
        steps = math.floor(remaining / _ANCHOR_BUDGET_STEP)
        if steps < 1:
            return False, best
        claimed, q, _ = anchor.solve(start, target, position_only=False,
                                     timeout=steps * _ANCHOR_BUDGET_STEP)
        if claimed:
            best = q
            if not collision.check(q, stop_at_first=True).colliding:
                return True, q
        start = chain.random_configuration(rng)


def run_robot(name: str, *, targets: int, budget: float, solvers: Sequence[str],
              tolerance: float = 1e-5, seed: int = 0, anchor: bool = True) -> List[Dict]:
    """
    Run every solver, with and without the collision check, and the anchor, on one robot.

    :returns: One row per method: ``robot``, ``method``, ``targets``, ``free_success`` (%
        of targets solved, verified and collision-free), ``colliding_successes`` (claimed
        successes that the exact check finds colliding), ``false_successes`` (claimed
        successes that forward kinematics refutes), ``median_ms``, ``p95_ms``.
    """
    _, model, chain, collision = _setup(name)
    poses, seeds = _problems(chain, model, collision, targets, np.random.default_rng(seed))
    methods: List[Tuple[str, Optional[str], bool]] = []
    for solver in solvers:
        methods.append((solver, solver, True))
        methods.append((solver + ' (no check)', solver, False))
    checker = None
    if anchor:
        try:
            checker = make_anchor('trac_ik', load_robot(name).urdf_xml, chain.base_link,
                                  chain.tip_link, chain)
            methods.append((_ANCHOR, None, True))
        except AnchorUnavailableError as error:
            print('anchor left out: %s' % error, file=sys.stderr)
    rows = []
    for label, solver, checked in methods:
        times, free, colliding, false = [], 0, 0, 0
        rng = np.random.default_rng(seed + 1)
        for target, start in zip(poses, seeds):
            began = time.perf_counter()
            if solver is None:
                claimed, q = _anchor_solve(checker, collision, chain, target, start, budget,
                                           rng)
            else:
                result = solve(chain, target, seed=start, solver=solver, timeout=budget,
                               position_tolerance=tolerance, orientation_tolerance=tolerance,
                               collision=collision if checked else None)
                claimed, q = result.success, result.q
            times.append(time.perf_counter() - began)
            if not claimed:
                continue
            verdict = check_solution(chain, q, target, model=model, position_only=False,
                                     position_tolerance=tolerance,
                                     orientation_tolerance=tolerance)
            if not (verdict.reached and verdict.within_limits):
                false += 1
            elif collision.check(q).colliding:
                colliding += 1
            else:
                free += 1
        rows.append({'robot': name, 'method': label, 'targets': len(poses),
                     'free_success': 100.0 * free / len(poses),
                     'colliding_successes': colliding, 'false_successes': false,
                     'median_ms': 1e3 * float(np.median(times)),
                     'p95_ms': 1e3 * float(np.percentile(times, 95))})
    return rows


def markdown_table(rows: Sequence[Dict]) -> str:
    """Format the rows as a Markdown table."""
    lines = ['| robot | method | targets | collision-free verified success | successes that '
             'collide | refuted successes | median ms | p95 ms |',
             '|---|---|---:|---:|---:|---:|---:|---:|']
    for row in rows:
        lines.append('| %s | %s | %d | %.2f %% | %d | %d | %.3f | %.3f |' % (
            row['robot'], row['method'], row['targets'], row['free_success'],
            row['colliding_successes'], row['false_successes'], row['median_ms'],
            row['p95_ms']))
    return '\n'.join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark and print its table; return 1 if a success collides or is refuted."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--robots', default=','.join(SRDF_FILES),
                        help='comma-separated vendor robots (default: %(default)s)')
    parser.add_argument('--targets', type=int, default=200, help='targets per robot')
    parser.add_argument('--timeout', type=float, default=0.005, help='budget per call, s')
    parser.add_argument('--solvers', default=','.join(SOLVERS),
                        help='comma-separated solvers (default: all)')
    parser.add_argument('--seed', type=int, default=0, help='seed of targets and seeds')
    parser.add_argument('--no-anchor', action='store_true', help='leave TRAC-IK out')
    args = parser.parse_args(argv)
    available = vendor_robot_names()
    rows = []
    for name in args.robots.split(','):
        if name not in available or name not in SRDF_FILES:
            print('%s left out: needs example-robot-data (and is one of %s)'
                  % (name, ', '.join(SRDF_FILES)), file=sys.stderr)
            continue
        rows += run_robot(name, targets=args.targets, budget=args.timeout,
                          solvers=args.solvers.split(','), seed=args.seed,
                          anchor=not args.no_anchor)
    print(markdown_table(rows))
    # The rows without the check show the problem; the anchor's own misses are not ours.
    failed = any((row['false_successes'] or row['colliding_successes'])
                 and 'no check' not in row['method'] and row['method'] != _ANCHOR
                 for row in rows)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
