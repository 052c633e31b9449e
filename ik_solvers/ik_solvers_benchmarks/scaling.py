# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Iterations and time against joint count, on snakes of growing length.

Length relaxation claims a cost that grows slowly with the number of joints; this measures
it next to the other heuristics, on position-only targets from random seeds.
"""

from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Sequence

from .grid import solver_methods
from .progress import ProgressBar
from .protocol import draw_seeds, draw_targets
from ik_solvers.reach.named_robots import load_robot
from .runner import run_method
from .summary import summarize
from ik_solvers.exceptions import IKError
from ik_solvers.kinematics import RobotModel

__all__ = [
    'ScalingConfig',
    'run_scaling',
    'scaling_work',
]


@dataclass(frozen=True)
class ScalingConfig:
    """
    What the scaling study runs.

    :ivar joint_counts: Snake lengths; ``snake_<N>`` is the bundled file when there is one,
        a generated snake otherwise.
    :ivar solvers: Registered solver names.
    :ivar option_sets: Extra ``solve`` options, as in the main grid; the first set is the
        main configuration, the others variants. Running the heuristics without the
        polish shows their own scaling, which the polish would otherwise hide.
    :ivar targets: Position-only targets per snake.
    :ivar budget: Time budget per call, in s; generous, so that slow convergence shows as
        time rather than as failure.
    :ivar fast_threshold: A call that succeeds within this time, in s, counts as fast.
    :ivar tolerance: Position tolerance, in m.
    :ivar rng_seed: Seed of targets and seeds.
    """

    joint_counts: Sequence[int] = (10, 20, 50, 100)
    solvers: Sequence[str] = ()
    option_sets: Sequence[Mapping[str, object]] = ({},)
    targets: int = 30
    budget: float = 0.05
    fast_threshold: float = 0.01
    tolerance: float = 1e-5
    rng_seed: int = 0


def scaling_work(config: ScalingConfig) -> int:
    """Return the number of solver calls :func:`run_scaling` will make."""
    return len(config.joint_counts) * len(solver_methods(config.solvers,
                                                         config.option_sets)) * config.targets


def run_scaling(config: ScalingConfig, *, progress: Optional[ProgressBar] = None,
                log: Callable[[str], None] = lambda message: None) -> List[Dict[str, object]]:
    """
    Solve position-only targets on each snake with each solver configuration.

    :param config: The study's configuration.
    :param progress: Bar to advance by one per call; none by default.
    :param log: Where messages about skipped snakes go.

    :returns: One JSON-ready row per (snake, configuration): ``robot``, ``dof``, ``method``,
        ``solver``, ``options``, ``variant``, ``budget`` (s), the figures of
        :func:`summary.summarize`, and ``fast_rate``, the % of targets solved within
        ``fast_threshold``.
    """
    rows: List[Dict[str, object]] = []
    for count in config.joint_counts:
        try:
            robot = load_robot('snake_%d' % count)
            model = RobotModel.from_urdf(robot.urdf_xml)
            chain = model.chain(robot.base_link, robot.tip_link)
        except (IKError, ValueError) as error:
            log('skipping snake_%d: %s' % (count, error))
            if progress is not None:
                progress.update(scaling_work(config) // len(config.joint_counts))
            continue
        targets = draw_targets(chain, config.targets, seed=config.rng_seed)
        seeds = draw_seeds(chain, targets, 'random', seed=config.rng_seed)
        main_labels = {method.label for method in
                       solver_methods(config.solvers, config.option_sets[:1])}
        for method in solver_methods(config.solvers, config.option_sets):
            # One untimed call first, so that first-call costs of a new chain size stay out.
            run_method(chain, method, targets, seeds[:1], model=model, position_only=True,
                       budget=config.budget, tolerance=config.tolerance)
            label = '%s position random %gms %s' % (robot.name, 1e3 * config.budget,
                                                    method.label)
            attempts = run_method(
                chain, method, targets, seeds, model=model, position_only=True,
                budget=config.budget,
                tolerance=config.tolerance,
                on_attempt=(lambda: progress.update(label=label)) if progress else
                (lambda: None))
            row: Dict[str, object] = {
                'robot': robot.name, 'dof': chain.num_joints, 'method': method.label,
                'solver': method.solver, 'options': dict(method.options),
                'variant': method.label not in main_labels, 'budget': config.budget,
                'fast_threshold': config.fast_threshold,
            }
            row.update(summarize(attempts))
            fast = sum(attempt.success and attempt.elapsed <= config.fast_threshold
                       for attempt in attempts)
            row['fast_rate'] = 100.0 * fast / len(attempts)
            rows.append(row)
    return rows
