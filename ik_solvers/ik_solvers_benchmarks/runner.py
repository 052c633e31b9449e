# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Run the benchmark grid (:mod:`.grid`): robots x modes x seeds x budgets x solver configurations.

Every solver configuration and every anchor sees the same targets and the same seeds, and
every answer goes through the same independent check, so that the rows compare.
"""

import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .anchor_interface import Anchor
from .grid import (BenchConfig, BenchmarkSetupError, cases, config_methods, Method,
                   ORIENTATION_MODES, PreparedRobot)
from .progress import ProgressBar
from .protocol import check_solution, draw_seeds, TargetSet
from .summary import add_anchor_ratios, Attempt, claimed_rate, heuristic_share, summarize
from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.solvers import solve

__all__ = ['default_log', 'run_benchmark', 'run_method']


def _attempt(chain: Chain, seed: np.ndarray, target: np.ndarray, q: np.ndarray,
             claimed: bool, elapsed: float, iterations: Optional[int], *, model: RobotModel,
             orientation_mode: str, tolerance: float, error: Optional[str] = None,
             share: Optional[float] = None) -> Attempt:
    check = check_solution(chain, q, target, model=model, position_only=False,
                           orientation_mode=orientation_mode, position_tolerance=tolerance,
                           orientation_tolerance=tolerance)
    motion = np.asarray(q, dtype=float) - seed if np.shape(q) == np.shape(seed) else \
        np.full(np.shape(seed), np.inf)
    return Attempt(q=np.array(q, dtype=float), claimed_success=claimed, check=check,
                   elapsed=elapsed, iterations=iterations,
                   seed_distance_max=float(np.max(np.abs(motion))),
                   seed_distance_l2=float(np.linalg.norm(motion)), error=error, share=share)


def run_method(chain: Chain, method: Method, targets: TargetSet, seeds: np.ndarray, *,
               model: RobotModel, position_only: bool, budget: Optional[float], tolerance: float,
               anchor: Optional[Anchor] = None, on_attempt: Callable[[], None] = lambda: None,
               orientation_mode: Optional[str] = None) -> List[Attempt]:
    """
    Solve every target once from its seed, timing each call with ``time.perf_counter``.

    :param chain: The kinematic chain.
    :param model: The robot model the chain was cut from, for the independent check.
    :param method: What solves.
    :param targets: The targets; only the first ``len(seeds)`` are used.
    :param seeds: (K, N) one seed per target.
    :param position_only: Ignore the orientation.
    :param budget: Time budget per call, in s; None only for an anchor without a budget.
    :param tolerance: Position tolerance in m and orientation tolerance in rad.
    :param anchor: The anchor, when ``method`` is one.
    :param on_attempt: Called after each call, for the progress bar.
    :param orientation_mode: ``solve()``'s orientation mode; when given it replaces
        ``position_only`` (anchors run only ``'full'`` and ``'none'``).

    :returns: One attempt per seed. A call that raises is a failed attempt that keeps the
        exception's type and message (every target is valid, so any exception is a bug).
    """
    if orientation_mode is None:
        orientation_mode = 'none' if position_only else 'full'
    position_only = orientation_mode == 'none'
    attempts = []
    for index, seed in enumerate(seeds):
        target = targets.poses[index]
        error = None
        iterations = None
        share = None
        start = time.perf_counter()
        try:
            if anchor is not None:
                claimed, q, iterations = anchor.solve(seed, target, position_only=position_only,
                                                      timeout=budget or 0.0)
                elapsed = time.perf_counter() - start
                claimed = claimed if anchor.claims_success else True
            else:
                result = solve(chain, target, seed=seed, solver=method.solver,
                               orientation_mode=orientation_mode, position_tolerance=tolerance,
                               orientation_tolerance=tolerance, timeout=budget,
                               **method.options)
                elapsed = time.perf_counter() - start
                claimed, q, iterations = bool(result.success), result.q, int(result.iterations)
                share = heuristic_share(result.costs)
        except Exception as caught:  # noqa: B902
            # Any exception on a valid target is a bug to report, but one target's crash
            # must not throw away the minutes of results gathered before it.
            elapsed = time.perf_counter() - start
            claimed, q, error = False, seed, '%s: %s' % (type(caught).__name__, caught)
        attempts.append(_attempt(chain, seed, target, q, claimed, elapsed, iterations,
                                 model=model, orientation_mode=orientation_mode,
                                 tolerance=tolerance, error=error, share=share))
        on_attempt()
    return attempts


def _preflight(item: PreparedRobot, config: BenchConfig) -> None:
    # One untimed call per configuration: a misspelt option fails here, before minutes of
    # work, and first-call costs (imports, caches, compilation) stay out of the timings.
    chain, target = item.chain, item.targets.poses[0]
    for method in config_methods(config):
        try:
            solve(chain, target, seed=chain.mid_configuration(), solver=method.solver,
                  position_only=False, position_tolerance=config.tolerance,
                  orientation_tolerance=config.tolerance, timeout=max(config.budgets),
                  **method.options)
        except Exception as error:  # noqa: B902
            raise BenchmarkSetupError('%s cannot run on %s: %s: %s'
                                      % (method.label, item.robot.name,
                                         type(error).__name__, error)) from error


def run_benchmark(config: BenchConfig, prepared: Sequence[PreparedRobot], *,
                  progress: Optional[ProgressBar] = None) -> List[Dict[str, object]]:
    """
    Run the grid and summarize each (robot, mode, seed kind, budget, method).

    :param config: The benchmark configuration.
    :param prepared: Robots from :func:`.grid.prepare_robots`.
    :param progress: Bar to advance by one per call; none by default.

    :returns: One JSON-ready row per combination: ``robot``, ``dof``, ``mode``, ``seed``,
        ``budget`` (s, or None), ``method``, ``solver``, ``options``, ``anchor``,
        ``variant`` (an option set after the first), ``claims_success``, the figures
        of :func:`summary.summarize`, ``claimed_rate`` (see :func:`summary.claimed_rate`),
        and for ik_solvers rows ``trac_ik_ratio`` and ``ik_lm_ratio``, the median time over
        all attempts divided by TRAC-IK's or ik_LM's in the same case (None without it).

    :raises BenchmarkSetupError: A solver configuration cannot run at all.
    """
    rows: List[Dict[str, object]] = []
    for item in prepared:
        _preflight(item, config)
    main_labels = {method.label for method in config_methods(config, variants=False)}
    for item in prepared:
        name = item.robot.name
        for seed_kind in config.seed_kinds:
            seeds = draw_seeds(item.chain, item.targets, seed_kind, seed=config.rng_seed)
            for mode, kind, budget, method, anchor, count in cases(config, item):
                if kind != seed_kind:
                    continue
                label = '%s %s %s %s %s' % (name, mode, seed_kind,
                                            '-' if budget is None else '%gms' % (1e3 * budget),
                                            method.label)
                attempts = run_method(
                    item.chain, method, item.targets, seeds[:count], model=item.model,
                    position_only=False, orientation_mode=ORIENTATION_MODES[mode],
                    budget=budget,
                    tolerance=config.tolerance, anchor=anchor,
                    on_attempt=(lambda: progress.update(label=label)) if progress else
                    (lambda: None))
                row: Dict[str, object] = {
                    'robot': name, 'dof': item.chain.num_joints, 'mode': mode,
                    'seed': seed_kind, 'budget': budget, 'method': method.label,
                    'solver': method.solver, 'options': dict(method.options),
                    'anchor': method.anchor,
                    'variant': anchor is None and method.label not in main_labels,
                    'claims_success': True if anchor is None else anchor.claims_success,
                }
                row.update(summarize(attempts))
                row['claimed_rate'] = claimed_rate(row)
                rows.append(row)
    add_anchor_ratios(rows)
    return sorted(rows, key=_ordering(config, prepared))


def _ordering(config: BenchConfig, prepared: Sequence[PreparedRobot]
              ) -> Callable[[Dict[str, object]], Tuple[int, int, int, float, int]]:
    robots = [item.robot.name for item in prepared]
    methods = [method.label for method in config_methods(config)] + list(config.anchors)

    def key(row: Dict[str, object]) -> Tuple[int, int, int, float, int]:
        budget = row['budget']
        return (robots.index(row['robot']), list(config.modes).index(row['mode']),
                list(config.seed_kinds).index(row['seed']),
                float('inf') if budget is None else budget, methods.index(row['method']))
    return key


def default_log(message: str) -> None:
    """Print a message on stderr, where it does not mix with the tables on stdout."""
    print(message, file=sys.stderr, flush=True)
