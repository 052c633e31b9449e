# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Run the benchmark grid: robots x modes x seeds x budgets x solver configurations.

Every solver configuration and every anchor sees the same targets and the same seeds, and
every answer goes through the same independent check, so that the rows compare.
"""

from dataclasses import dataclass, field
import contextlib
import io
import sys
import time
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .anchors import Anchor, AnchorUnavailableError, make_anchor
from .progress import ProgressBar
from .protocol import check_solution, draw_seeds, draw_targets, TargetSet
from .robots import BenchRobot, load_robot
from .summary import add_anchor_ratios, Attempt, claimed_rate, summarize
from ..exceptions import IKError
from ..kinematics import Chain, RobotModel
from ..solvers import solve, solver_class

__all__ = [
    'BenchConfig',
    'BenchmarkSetupError',
    'DEFAULT_MODES',
    'MODES',
    'ORIENTATION_MODES',
    'Method',
    'PreparedRobot',
    'count_work',
    'default_log',
    'method_label',
    'prepare_robots',
    'run_benchmark',
    'run_method',
    'solver_methods',
]

MODES: Tuple[str, ...] = ('pose', 'position', 'axis')
# The benchmark's mode names -> solve()'s orientation modes.
ORIENTATION_MODES = {'pose': 'full', 'position': 'none', 'axis': 'axis'}
# Run when --modes is not given: the anchors' own problems.
DEFAULT_MODES: Tuple[str, ...] = ('pose', 'position')


class BenchmarkSetupError(IKError):
    """The benchmark cannot start: a solver, an option or a robot is wrong."""


def method_label(solver: str, options: Mapping[str, object]) -> str:
    """
    Name a solver configuration for the tables, e.g. ``fabrik`` or ``fabrik[polish=False]``.

    :param solver: Registered solver name.
    :param options: Options passed to ``solve`` beyond the protocol's own.

    :returns: The label.
    """
    if not options:
        return solver
    return '%s[%s]' % (solver, ','.join('%s=%s' % item for item in sorted(options.items())))


@dataclass(frozen=True)
class Method:
    """
    One way of solving: an ik_solvers configuration or an anchor.

    :ivar label: Name in the tables.
    :ivar solver: Registered solver name, or None for an anchor.
    :ivar options: Extra keyword options of ``solve``.
    :ivar anchor: Anchor name, or None for ik_solvers.
    """

    label: str
    solver: Optional[str] = None
    options: Mapping[str, object] = field(default_factory=dict)
    anchor: Optional[str] = None


@dataclass(frozen=True)
class BenchConfig:
    """
    What to run; every field has the default of the full benchmark.

    :ivar robots: Robot names or URDF paths (see :func:`robots.load_robot`).
    :ivar solvers: Registered solver names.
    :ivar option_sets: Extra ``solve`` options; each solver runs once with each set. The
        first set is the main configuration; the others are variants, run only with the
        smallest budget unless ``variants_on_every_budget``.
    :ivar variants_on_every_budget: Run the variant option sets with every budget too.
    :ivar targets: Targets per robot.
    :ivar anchor_targets: Targets per robot for the slow anchor without a budget (ikpy).
    :ivar budgets: Time budgets, in s.
    :ivar seed_kinds: Seed kinds, see :func:`protocol.draw_seeds`.
    :ivar modes: ``pose`` (position and orientation), ``position`` (position only) and/or
        ``axis`` (position, and the tip's z axis aimed along the target's; no anchor runs it).
    :ivar anchors: Anchor names, see :data:`anchors.ANCHORS`.
    :ivar tolerance: Position tolerance in m and orientation tolerance in rad.
    :ivar rng_seed: Seed of targets and seeds.
    """

    robots: Sequence[str]
    solvers: Sequence[str]
    option_sets: Sequence[Mapping[str, object]] = ({},)
    variants_on_every_budget: bool = False
    targets: int = 500
    anchor_targets: int = 30
    budgets: Sequence[float] = (0.005, 0.05)
    seed_kinds: Sequence[str] = ('mid', 'random', 'warm')
    modes: Sequence[str] = DEFAULT_MODES
    anchors: Sequence[str] = ('trac_ik', 'ikpy')
    tolerance: float = 1e-5
    rng_seed: int = 0


@dataclass
class PreparedRobot:
    """A loaded robot with its chain, targets and the anchors that could model it."""

    robot: BenchRobot
    model: RobotModel
    chain: Chain
    targets: TargetSet
    anchors: Dict[str, Anchor]


def prepare_robots(config: BenchConfig, *,
                   log: Callable[[str], None]) -> List[PreparedRobot]:
    """
    Load every robot, build its chain, targets and anchors; skip what cannot load.

    :param config: The benchmark configuration.
    :param log: Where messages about skipped robots and anchors go.

    :returns: The robots that loaded, in the order asked for.
    """
    prepared = []
    for name in config.robots:
        parser_output = io.StringIO()
        try:
            robot = load_robot(name)
            # Anything printed while a vendor description is read stays out of the tables.
            with contextlib.redirect_stderr(parser_output):
                model = RobotModel.from_urdf(robot.urdf_xml)
            chain = model.chain(robot.base_link, robot.tip_link)
        except IKError as error:
            log('skipping robot %s: %s' % (name, error))
            continue
        targets = draw_targets(chain, config.targets, seed=config.rng_seed)
        anchors = {}
        for anchor in config.anchors:
            try:
                anchors[anchor] = make_anchor(anchor, robot.urdf_xml, robot.base_link,
                                              robot.tip_link, chain)
            except AnchorUnavailableError as error:
                log('no %s anchor for %s: %s' % (anchor, name, error))
        prepared.append(PreparedRobot(robot, model, chain, targets, anchors))
    return prepared


def solver_methods(solvers: Sequence[str],
                   option_sets: Sequence[Mapping[str, object]]) -> List[Method]:
    """
    List the configurations to run: every solver with every option set, without repeats.

    :param solvers: Registered solver names.
    :param option_sets: Extra ``solve`` options; an option equal to the solver's own default
        is dropped, so that asking for the default gives the default configuration's row.

    :returns: The methods, solver by solver in the order given.
    """
    methods: List[Method] = []
    for solver in solvers:
        default_polish = getattr(solver_class(solver), 'polish_by_default', None)
        seen: List[Dict[str, object]] = []
        for options in option_sets:
            options = dict(options)
            if isinstance(default_polish, bool) and options.get('polish') is default_polish:
                del options['polish']
            if options not in seen:
                seen.append(options)
                methods.append(Method(method_label(solver, options), solver=solver,
                                      options=options))
    return methods


def _methods(config: BenchConfig, *, variants: bool = True) -> List[Method]:
    return solver_methods(config.solvers,
                          config.option_sets if variants else config.option_sets[:1])


def _target_count(config: BenchConfig, anchor: Anchor) -> int:
    return config.targets if anchor.honours_budget else min(config.targets,
                                                            config.anchor_targets)


Case = Tuple[str, str, Optional[float], Method, Optional[Anchor], int]


def _cases(config: BenchConfig, item: PreparedRobot) -> Iterator[Case]:
    """Yield (mode, seed kind, budget, method, anchor or None, number of targets)."""
    for mode in config.modes:
        for seed_kind in config.seed_kinds:
            for budget in config.budgets:
                # Variants that fail often cost their whole budget: the largest budgets would
                # spend most of the run on configurations that are not the recommended ones.
                variants = config.variants_on_every_budget or budget == min(config.budgets)
                for method in _methods(config, variants=variants):
                    yield mode, seed_kind, budget, method, None, config.targets
                for name, anchor in item.anchors.items():
                    if (mode == 'position' and not anchor.supports_position_only) or \
                            mode == 'axis' or not anchor.honours_budget:
                        continue
                    yield mode, seed_kind, budget, Method(name, anchor=name), anchor, \
                        config.targets
            # An anchor without a budget runs once per seed kind, not once per budget.
            for name, anchor in item.anchors.items():
                if not anchor.honours_budget and (mode == 'pose' or (
                        mode == 'position' and anchor.supports_position_only)):
                    yield mode, seed_kind, None, Method(name, anchor=name), anchor, \
                        _target_count(config, anchor)


def count_work(config: BenchConfig, prepared: Sequence[PreparedRobot]) -> int:
    """Return the number of solver calls :func:`run_benchmark` will make."""
    return sum(case[-1] for item in prepared for case in _cases(config, item))


def _attempt(chain: Chain, seed: np.ndarray, target: np.ndarray, q: np.ndarray,
             claimed: bool, elapsed: float, iterations: Optional[int], *, model: RobotModel,
             orientation_mode: str, tolerance: float, error: Optional[str] = None) -> Attempt:
    check = check_solution(chain, q, target, model=model, position_only=False,
                           orientation_mode=orientation_mode, position_tolerance=tolerance,
                           orientation_tolerance=tolerance)
    motion = np.asarray(q, dtype=float) - seed if np.shape(q) == np.shape(seed) else \
        np.full(np.shape(seed), np.inf)
    return Attempt(q=np.array(q, dtype=float), claimed_success=claimed, check=check,
                   elapsed=elapsed, iterations=iterations,
                   seed_distance_max=float(np.max(np.abs(motion))),
                   seed_distance_l2=float(np.linalg.norm(motion)), error=error)


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
        except Exception as caught:  # noqa: B902
            # Any exception on a valid target is a bug to report, but one target's crash
            # must not throw away the minutes of results gathered before it.
            elapsed = time.perf_counter() - start
            claimed, q, error = False, seed, '%s: %s' % (type(caught).__name__, caught)
        attempts.append(_attempt(chain, seed, target, q, claimed, elapsed, iterations,
                                 model=model, orientation_mode=orientation_mode,
                                 tolerance=tolerance, error=error))
        on_attempt()
    return attempts


def _preflight(item: PreparedRobot, config: BenchConfig) -> None:
    # One untimed call per configuration: a misspelt option fails here, before minutes of
    # work, and first-call costs (imports, caches, compilation) stay out of the timings.
    chain, target = item.chain, item.targets.poses[0]
    for method in _methods(config):
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
    :param prepared: Robots from :func:`prepare_robots`.
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
    main_labels = {method.label for method in _methods(config, variants=False)}
    for item in prepared:
        name = item.robot.name
        for seed_kind in config.seed_kinds:
            seeds = draw_seeds(item.chain, item.targets, seed_kind, seed=config.rng_seed)
            for mode, kind, budget, method, anchor, count in _cases(config, item):
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
    methods = [method.label for method in _methods(config)] + list(config.anchors)

    def key(row: Dict[str, object]) -> Tuple[int, int, int, float, int]:
        budget = row['budget']
        return (robots.index(row['robot']), list(config.modes).index(row['mode']),
                list(config.seed_kinds).index(row['seed']),
                float('inf') if budget is None else budget, methods.index(row['method']))
    return key


def default_log(message: str) -> None:
    """Print a message on stderr, where it does not mix with the tables on stdout."""
    print(message, file=sys.stderr, flush=True)
