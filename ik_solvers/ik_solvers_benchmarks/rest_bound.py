# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How near the rest posture any exact solution of a pose can be, on a redundant arm.

Run ``python -m ik_solvers_benchmarks.rest_bound`` (``--help`` for the options). On the
Panda's poses of ``solutions_bench --parts panda`` (the same generator, the same targets and
seeds), it prints per arm the mean distance to the rest posture (the middle of the limits,
Euclidean, rad) of ``nearest``'s and ``rest_posture``'s answers, and the mean of a per-pose
near-global minimum of that distance over every exact solution within the limits: the best
any preference could reach, so the smallest achievable ratio to ``nearest``.

The minimum of one pose (:func:`rest_minimum`): the swept joint (the last, which parametrises
a 7-joint arm's self-motion) takes ``grid`` values spread over its limits; with it locked, the
other joints form a non-redundant chain with finitely many solutions, searched by damped
Newton steps on their pose error from ``starts`` random configurations per value, all in one
batch. Every converged configuration within the limits is a candidate (so is the
configuration the target was made from). The best few distinct candidates are then refined
over all joints by SLSQP (distance to the rest, the pose error as equality constraints, the
limits as bounds) and polished by least-norm Newton steps; a refined configuration replaces its
candidate only when forward kinematics confirms it within the limits. The sweep misses roots
whose Newton basin is tiny (near a singularity of the locked chain), so the answers of
``nearest`` and ``rest_posture``, refined the same way, join the minimum; how often they lower
it is printed. Every minimum reported meets the pose within 1e-9 m and 1e-9 rad.

``--validate K`` checks the minimum on the first K poses twice: the sweep again with a grid and
starts ``--validate-factor`` times denser, and 200 random seeds solved by ``solve()`` with no
joint locked, each refined the same way; it prints the largest decrease either found (a
minimum that holds shows none beyond the refinement's precision).
"""

import argparse
import time
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ik_solvers.kinematics import RobotModel
from ik_solvers.reach.named_robots import load_robot
from ik_solvers.solvers import solve
from ik_solvers.solvers.solutions import solve_many

from .exact_refinement import exact_rows, into_limits, locked_newton, refine_to_rest

__all__ = ['main', 'rest_minimum']

# Distinct candidates refined by SLSQP, and what makes two of them distinct (rad, any joint).
_REFINED = 4
_DISTINCT = 0.1
# Random seeds of the check without the sweep (--validate).
_INDEPENDENT_SEEDS = 200


def _chain(name: str):
    robot = load_robot(name)
    return RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)


def rest_minimum(chain, target: np.ndarray, rest: np.ndarray, *, grid: int = 160,
                 starts: int = 16, swept: int = -1, rng: np.random.Generator,
                 known: Sequence[np.ndarray] = ()) -> Tuple[np.ndarray, float, int]:
    """
    Return a near-global minimum of ``|q - rest|`` over the exact solutions of ``target``.

    :param chain: a redundant :class:`ik_solvers.Chain` (one more joint than six).
    :param target: (4, 4) tip pose, m.
    :param rest: (N,) the rest configuration, rad or m.
    :param grid: values of the swept joint, spread evenly over its limits.
    :param starts: random starts of the locked sub-chain per value.
    :param swept: index of the joint swept (default the last).
    :param rng: generator of the starts.
    :param known: exact solutions at hand (e.g. the configuration the target came from).
    :returns: ``(q, distance, candidates)``: the best solution, its distance (rad), and the
        count of exact candidates the sweep found.
    :raises ValueError: no exact solution within the limits was found.
    """
    size = chain.num_joints
    swept = swept % size
    lower, upper = np.asarray(chain.lower), np.asarray(chain.upper)
    values = np.linspace(lower[swept], upper[swept], grid)
    q = lower + (upper - lower) * rng.random((grid * starts, size))
    q[:, swept] = np.repeat(values, starts)
    free = np.ones(size, dtype=bool)
    free[swept] = False
    q = into_limits(chain, locked_newton(chain, target, q, free))
    candidates = q[exact_rows(chain, q, target)]
    if len(known):
        extra = np.asarray(known, dtype=float)
        candidates = np.concatenate((candidates, extra[exact_rows(chain, extra, target)]))
    if not len(candidates):
        raise ValueError('no exact solution within the limits found')
    distances = np.linalg.norm(candidates - rest, axis=1)
    order = np.argsort(distances)
    chosen: List[np.ndarray] = []
    for index in order:
        if all(np.max(np.abs(candidates[index] - other)) > _DISTINCT for other in chosen):
            chosen.append(candidates[index])
        if len(chosen) == _REFINED:
            break
    best, best_distance = candidates[order[0]], float(distances[order[0]])
    for start in chosen:
        refined = refine_to_rest(chain, target, rest, start)
        if refined is not None and np.linalg.norm(refined - rest) < best_distance:
            best, best_distance = refined, float(np.linalg.norm(refined - rest))
    return best, best_distance, len(candidates)


def independent_minimum(chain, target: np.ndarray, rest: np.ndarray, *, seeds: int,
                        rng: np.random.Generator) -> float:
    """
    Return the least distance to ``rest`` found without the sweep: a check of it.

    Each of ``seeds`` random configurations is solved by :func:`ik_solvers.solve` (the whole
    chain, no joint locked), then refined as the sweep's candidates are.
    """
    best = np.inf
    for _ in range(seeds):
        result = solve(chain, target, seed=chain.random_configuration(rng), timeout=0.05)
        if not result.success:
            continue
        refined = refine_to_rest(chain, target, rest, result.q)
        for q in (result.q, refined):
            if q is not None and _exact_loose(chain, q, target):
                best = min(best, float(np.linalg.norm(q - rest)))
    return best


def _poses(chain, poses: int, seed: int = 0):
    """Return the configurations, targets and seeds of ``solutions_bench``'s panda part."""
    rng = np.random.default_rng(seed)
    # The same draws in the same order as solutions_bench.panda_preferences: targets, seeds.
    sources = [chain.random_configuration(rng) for _ in range(poses)]
    seeds = [chain.random_configuration(rng) for _ in range(poses)]
    return sources, [chain.fk(q) for q in sources], seeds


def arm_figures(name: str, *, poses: int, timeout: float, max_solutions: int,
                null_space_steps: int, grid: int, starts: int, validate: int,
                factor: int) -> dict:
    """Return the per-pose distances of nearest, rest_posture and the minimum on ``name``."""
    chain = _chain(name)
    rest = chain.mid_configuration()
    sources, targets, seeds = _poses(chain, poses)
    answers = {}
    for preference in ('nearest', 'rest_posture'):
        wanted = 1 if preference == 'nearest' else max_solutions
        rows = []
        for target, start in zip(targets, seeds):
            answer = solve_many(chain, target, seed=start, max_solutions=wanted,
                                preference=preference, rest_posture=rest, timeout=timeout,
                                null_space_steps=null_space_steps)
            q = answer.results[0].q if answer.success else None
            exact = q is not None and bool(_exact_loose(chain, q, target))
            rows.append(q if exact else np.full(chain.num_joints, np.nan))
        answers[preference] = np.array(rows)
    rng = np.random.default_rng(1)
    bound, best, candidates, started = [], [], [], time.perf_counter()
    for source, target in zip(sources, targets):
        q, distance, count = rest_minimum(chain, target, rest, grid=grid, starts=starts,
                                          rng=rng, known=[source])
        bound.append(distance)
        best.append(q)
        candidates.append(count)
    seconds = (time.perf_counter() - started) / max(1, poses)
    # The library's own answers, refined as the candidates are, join the minimum: the sweep
    # misses roots whose Newton basin is tiny (near a singularity of the locked chain).
    answered = []
    for index, target in enumerate(targets):
        for key in ('nearest', 'rest_posture'):
            q = answers[key][index]
            refined = None if np.isnan(q[0]) else refine_to_rest(chain, target, rest, q)
            if refined is None:
                continue
            lowered = bound[index] - float(np.linalg.norm(refined - rest))
            if lowered > 0.0:
                answered.append(lowered)
                bound[index], best[index] = bound[index] - lowered, refined
    denser, independent = [], []
    for source, target, value in zip(sources[:validate], targets[:validate], bound):
        _, distance, _ = rest_minimum(chain, target, rest, grid=grid * factor,
                                      starts=starts * factor, rng=rng, known=[source])
        denser.append(value - distance)
        independent.append(value - independent_minimum(chain, target, rest,
                                                       seeds=_INDEPENDENT_SEEDS, rng=rng))
    return dict(nearest=answers['nearest'], rest_posture=answers['rest_posture'],
                rest=rest, bound=np.array(bound), best=np.array(best),
                candidates=float(np.mean(candidates)), seconds=seconds,
                denser=np.array(denser), independent=np.array(independent),
                answered=np.array(answered))


def _exact_loose(chain, q: np.ndarray, target: np.ndarray) -> bool:
    """Whether ``q`` meets ``target`` within 1e-5 m and lies within the limits (as the bench)."""
    reached = chain.fk(q)
    return bool(np.linalg.norm(reached[:3, 3] - target[:3, 3]) <= 1e-5
                and chain.within_limits(q))


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Print the table of every arm."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--arms', default='panda_like,vendor_panda')
    parser.add_argument('--poses', type=int, default=300)
    parser.add_argument('--timeout-ms', type=float, default=10.0)
    parser.add_argument('--max-solutions', type=int, default=4)
    parser.add_argument('--null-space-steps', type=int, default=30)
    parser.add_argument('--grid', type=int, default=160, help='values of the swept joint')
    parser.add_argument('--starts', type=int, default=16, help='starts per value')
    parser.add_argument('--validate', type=int, default=5, help='poses searched again denser')
    parser.add_argument('--validate-factor', type=int, default=4)
    arguments = parser.parse_args(argv)
    print('%-13s %6s %10s %13s %12s %9s %9s %9s' % (
        'arm', 'poses', 'nearest', 'rest_posture', 'minimum', 'rest/near', 'min/near',
        'rest/min'))
    for name in arguments.arms.split(','):
        figures = arm_figures(name, poses=arguments.poses, timeout=1e-3 * arguments.timeout_ms,
                              max_solutions=arguments.max_solutions,
                              null_space_steps=arguments.null_space_steps,
                              grid=arguments.grid, starts=arguments.starts,
                              validate=arguments.validate, factor=arguments.validate_factor)
        _print_arm(name, figures, arguments)


def _print_arm(name: str, figures: dict, arguments) -> None:
    """Print one arm's row and its notes."""
    rest = figures['rest']
    distance = {key: np.linalg.norm(figures[key] - rest, axis=1)
                for key in ('nearest', 'rest_posture')}
    both = ~np.isnan(distance['nearest']) & ~np.isnan(distance['rest_posture'])
    nearest = float(np.mean(distance['nearest'][both]))
    preferred = float(np.mean(distance['rest_posture'][both]))
    bound = float(np.mean(figures['bound'][both]))
    print('%-13s %3d/%-3d %9.3f %13.3f %12.3f %9.2f %9.2f %9.2f' % (
        name, int(both.sum()), arguments.poses, nearest, preferred, bound, preferred / nearest,
        bound / nearest, preferred / bound), flush=True)
    gap = distance['rest_posture'][both] - figures['bound'][both]
    missed = gap > 0.01
    # Far from the minimum on some joint: another branch of the self-motion, not a step short.
    apart = np.max(np.abs(figures['rest_posture'][both] - figures['best'][both]), axis=1)
    print('  %.0f exact candidates per pose, %.2f s per pose; rest_posture more than 0.01 rad '
          'above the minimum on %d poses (mean gap there %.3f rad; %d of them over 0.5 rad '
          'apart on some joint); below it by over 1e-4 rad on %d poses, by at most %.1e rad' % (
              figures['candidates'], figures['seconds'], int(missed.sum()),
              float(np.mean(gap[missed])) if missed.any() else 0.0,
              int(np.sum(missed & (apart > 0.5))), int(np.sum(gap < -1e-4)),
              max(0.0, -float(np.min(gap)))), flush=True)
    lowered = figures['answered']
    print('  refined answers of nearest/rest_posture lowered the sweep\'s minimum %d times, by '
          'at most %.2e rad, in all %.4f rad of the mean' % (
              lowered.size, float(np.max(lowered)) if lowered.size else 0.0,
              float(np.sum(lowered)) / max(1, figures['bound'].size)), flush=True)
    for label, decrease in (('denser sweep (x%d)' % arguments.validate_factor,
                             figures['denser']),
                            ('%d solve() seeds + SLSQP' % _INDEPENDENT_SEEDS,
                             figures['independent'])):
        if decrease.size:
            print('  check by %s on %d poses: largest decrease of the minimum %.2e rad'
                  % (label, decrease.size, float(np.max(decrease))), flush=True)


if __name__ == '__main__':
    main()
