# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The benchmark grid: what to run, on which robots, and the cases that makes.

A case is one robot, mode, seed kind, budget and method (a solver configuration or an
anchor); :mod:`.runner` runs them.
"""

from dataclasses import dataclass, field
import contextlib
import io
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from .anchors import Anchor, AnchorUnavailableError, make_anchor
from .protocol import draw_targets, TargetSet
from ik_solvers.reach.named_robots import BenchRobot, load_robot
from ik_solvers.exceptions import BenchmarkSetupError, IKError
from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.solvers import solver_class

__all__ = [
    'BenchConfig',
    'BenchmarkSetupError',
    'Case',
    'DEFAULT_MODES',
    'MODES',
    'ORIENTATION_MODES',
    'Method',
    'PreparedRobot',
    'cases',
    'config_methods',
    'count_work',
    'method_label',
    'prepare_robots',
    'solver_methods',
]

MODES: Tuple[str, ...] = ('pose', 'position', 'axis')
# The benchmark's mode names -> solve()'s orientation modes.
ORIENTATION_MODES = {'pose': 'full', 'position': 'none', 'axis': 'axis'}
# Run when --modes is not given: the anchors' own problems.
DEFAULT_MODES: Tuple[str, ...] = ('pose', 'position')


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


def config_methods(config: BenchConfig, *, variants: bool = True) -> List[Method]:
    """
    List the solver configurations of a benchmark configuration.

    :param config: The benchmark configuration.
    :param variants: Include the variant option sets, not only the main one.
    :returns: The methods, see :func:`solver_methods`.
    """
    return solver_methods(config.solvers,
                          config.option_sets if variants else config.option_sets[:1])


def _target_count(config: BenchConfig, anchor: Anchor) -> int:
    return config.targets if anchor.honours_budget else min(config.targets,
                                                            config.anchor_targets)


#: One cell of the grid: (mode, seed kind, budget, method, anchor or None, targets).
Case = Tuple[str, str, Optional[float], Method, Optional[Anchor], int]


def cases(config: BenchConfig, item: PreparedRobot) -> Iterator[Case]:
    """Yield (mode, seed kind, budget, method, anchor or None, number of targets)."""
    for mode in config.modes:
        for seed_kind in config.seed_kinds:
            for budget in config.budgets:
                # Variants that fail often cost their whole budget: the largest budgets would
                # spend most of the run on configurations that are not the recommended ones.
                variants = config.variants_on_every_budget or budget == min(config.budgets)
                for method in config_methods(config, variants=variants):
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
    """Return the number of solver calls :func:`.runner.run_benchmark` will make."""
    return sum(case[-1] for item in prepared for case in cases(config, item))
