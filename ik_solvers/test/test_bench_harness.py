# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The benchmark harness end to end, in quick mode: files, rows, and honest success counts."""

import dataclasses
import json

import numpy as np
import pytest

from ik_solvers_benchmarks.anchors import Anchor
from ik_solvers_benchmarks.bench import main, parse_option
from ik_solvers_benchmarks.grid import BenchConfig, count_work, Method, prepare_robots
from ik_solvers_benchmarks.protocol import draw_seeds, draw_targets
from ik_solvers.reach.named_robots import load_robot
from ik_solvers_benchmarks.runner import run_benchmark, run_method
from ik_solvers_benchmarks.summary import summarize
from ik_solvers.kinematics import RobotModel

TOLERANCE = 1e-5


@pytest.fixture(scope='module')
def quick_run(tmp_path_factory):
    output = tmp_path_factory.mktemp('bench')
    status = main(['--quick', '--robots', 'ur5_like', '--solvers', 'fabrik', 'ccd',
                   '--anchors', 'rtb_ik_lm', 'trac_ik', '--scaling', '--snakes', '6',
                   '--no-progress', '--output', str(output)])
    return status, output


def test_quick_run_writes_every_output(quick_run):
    status, output = quick_run
    assert status == 0
    for name in ('results.md', 'results.json', 'readme_table.md', 'headline.png',
                 'scaling.png'):
        assert (output / name).stat().st_size > 0, name
    assert (output / 'headline.png').read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_quick_run_has_a_row_per_solver_configuration_and_case(quick_run):
    _, output = quick_run
    document = json.loads((output / 'results.json').read_text())
    rows = document['rows']
    ours = [row for row in rows if row['anchor'] is None]
    methods = sorted({row['method'] for row in ours})
    # Each solver runs with its defaults and with the other polish setting.
    assert methods == ['ccd', 'ccd[polish=False]', 'fabrik', 'fabrik[polish=False]']
    for method in methods:
        cases = {(row['mode'], row['seed']) for row in ours if row['method'] == method}
        assert cases == {(mode, seed) for mode in ('pose', 'position')
                         for seed in ('mid', 'random', 'warm')}
    trac_ik = [row for row in rows if row['anchor'] == 'trac_ik']
    assert {row['seed'] for row in trac_ik} == {'mid', 'random', 'warm'}
    assert all(row['mode'] == 'pose' for row in trac_ik)
    ik_lm = [row for row in rows if row['anchor'] == 'rtb_ik_lm']
    assert {(row['mode'], row['seed']) for row in ik_lm} == {
        (mode, seed) for mode in ('pose', 'position') for seed in ('mid', 'random', 'warm')}
    assert all(row['robot'] == 'ur5_like' and row['attempts'] == 5 for row in rows)
    for row in ours:
        # Each ratio divides by its own anchor's median in the same case; TRAC-IK runs full
        # poses only, so position-only rows have no TRAC-IK ratio but do have an ik_LM one.
        for key, anchors in (('trac_ik_ratio', trac_ik), ('ik_lm_ratio', ik_lm)):
            reference = [anchor['time_all']['median'] for anchor in anchors
                         if (anchor['mode'], anchor['seed']) == (row['mode'], row['seed'])]
            if reference:
                assert row[key] == pytest.approx(row['time_all']['median'] / reference[0])
            else:
                assert row[key] is None
        assert row['claimed_rate'] == pytest.approx(row['success_rate'])
    for row in trac_ik + ik_lm:
        # Claimed = confirmed + refuted; the anchors' refuted claims are counted, not believed.
        assert row['claimed_rate'] == pytest.approx(
            100.0 * (row['successes'] + row['discrepancies']) / row['attempts'])
    assert document['checks']['refuted'] == 0
    assert document['checks']['limit_violations'] == 0
    scaling = document['scaling']
    assert sorted(row['method'] for row in scaling) == methods
    assert all(row['dof'] == 6 and row['attempts'] == 3 for row in scaling)
    report = (output / 'results.md').read_text()
    assert '## ur5_like (6 joints)' in report
    for method in methods:
        assert '| %s |' % method in report
    # The README's headline keeps each solver's recommended configuration and TRAC-IK only;
    # its scaling table keeps the variants, which show how the heuristics alone scale.
    readme = (output / 'readme_table.md').read_text()
    headline, scaling_table = readme.split('#### Targets')[0], readme.split('#### Scaling')[1]
    assert '| ur5_like | 6 | ccd |' in headline and '| ur5_like | 6 | *trac_ik* |' in headline
    assert '| ur5_like | 6 | *rtb_ik_lm* |' in headline
    assert 'median × TRAC-IK | median × ik_LM |' in headline
    assert 'polish=False' not in headline and '| ccd[polish=False] | 6 |' in scaling_table
    assert [row['variant'] for row in ours] == ['[' in row['method'] for row in ours]


def test_quick_run_reports_every_target_for_every_solver(quick_run):
    _, output = quick_run
    document = json.loads((output / 'results.json').read_text())
    goals = document['goals']
    by_solver = {solver: [goal for goal in goals if goal['solver'] == solver]
                 for solver in ('ccd', 'fabrik')}
    # Per arm and solver: success, median against ik_LM, p95, position-only median, warm
    # median and seed distance, and the heuristic alone (CCD in both modes, FABRIK in poses).
    assert len([g for g in by_solver['ccd'] if g['robot'] == 'ur5_like']) == 8
    assert len([g for g in by_solver['fabrik'] if g['robot'] == 'ur5_like']) == 7
    arm_goals = [goal for goal in goals if goal['robot'] == 'ur5_like']
    # Everything the arm goals need ran (5 ms, 1e-5, ik_LM, polish=False): all measured.
    assert all(isinstance(goal['met'], bool) for goal in arm_goals), arm_goals
    lm = [goal for goal in arm_goals if goal['goal'].endswith('median <= ik_LM median')]
    assert len(lm) == 2 and all('ik_LM' in goal['measured'] for goal in lm)
    # The scaling study ran a 6-joint snake only: the 100-joint goal is not measured, for
    # each solver, rather than left out.
    snake = [goal for goal in goals if goal['goal'].startswith('snake, 100 joints')]
    assert sorted(goal['solver'] for goal in snake) == ['ccd', 'fabrik']
    assert all(goal['met'] is None and goal['measured'] == 'not measured' for goal in snake)
    readme = (output / 'readme_table.md').read_text()
    assert '| target | solver | ur5_like |' in readme
    assert '| target | solver | snake_100 |' in readme


def _independent_verdicts(robot, chain, attempts, targets, position_only):
    """Success of each attempt per Pinocchio's FK and the URDF's limits."""
    pinocchio = pytest.importorskip(
        'pinocchio', reason='Pinocchio (PyPI: pin) is the independent FK reference')
    model = pinocchio.buildModelFromXML(robot.urdf_xml)
    data = model.createData()
    base, tip = model.getFrameId(robot.base_link), model.getFrameId(robot.tip_link)
    indices = [model.joints[model.getJointId(name)].idx_q for name in chain.joint_names]
    verdicts, margins = [], []
    for attempt, target in zip(attempts, targets.poses):
        q = pinocchio.neutral(model)
        q[indices] = attempt.q
        pinocchio.framesForwardKinematics(model, data, q)
        reached = data.oMf[base].actInv(data.oMf[tip])
        goal = pinocchio.SE3(target[:3, :3], target[:3, 3])
        position_error = np.linalg.norm(reached.translation - goal.translation)
        angle = 0.0 if position_only else np.linalg.norm(
            pinocchio.log3(goal.rotation.T @ reached.rotation))
        inside = np.all(q >= model.lowerPositionLimit - 1e-9) and \
            np.all(q <= model.upperPositionLimit + 1e-9)
        verdicts.append(bool(attempt.claimed_success and position_error <= TOLERANCE
                             and angle <= TOLERANCE and inside))
        margins.append(min(abs(position_error - TOLERANCE), abs(angle - TOLERANCE)))
    return verdicts, margins


@pytest.mark.parametrize('seed_kind,position_only',
                         [('random', False), ('warm', False), ('random', True)])
def test_success_counts_equal_an_independent_fk_check(seed_kind, position_only):
    robot = load_robot('ur5_like')
    model = RobotModel.from_urdf(robot.urdf_xml)
    chain = model.chain(robot.base_link, robot.tip_link)
    targets = draw_targets(chain, 8, seed=21)
    seeds = draw_seeds(chain, targets, seed_kind, seed=21)
    attempts = run_method(chain, Method('fabrik', solver='fabrik'), targets, seeds,
                          model=model, position_only=position_only, budget=0.05,
                          tolerance=TOLERANCE)
    verdicts, margins = _independent_verdicts(robot, chain, attempts, targets, position_only)
    summary = summarize(attempts)
    assert summary['attempts'] == 8
    assert any(verdicts)  # the comparison covers successes, not only failures
    for attempt, verdict, margin in zip(attempts, verdicts, margins):
        if margin > 1e-9:  # Two FK implementations may disagree only at the very boundary.
            assert attempt.success == verdict
    assert summary['successes'] == sum(attempt.success for attempt in attempts)
    assert summary['discrepancies'] == sum(a.claimed_success and not a.check.ok
                                           for a in attempts)
    if seed_kind == 'warm':
        distances = [np.max(np.abs(a.q - seed)) for a, seed in zip(attempts, seeds)
                     if a.success]
        assert summary['seed_distance'] is None or \
            summary['seed_distance']['max_max'] == pytest.approx(max(distances))


class _Boaster(Anchor):
    """Claims success for every target but returns a configuration 2 rad from the seed."""

    name = 'boaster'

    def solve(self, seed, target, *, position_only, timeout):
        return True, np.array(seed, dtype=float) + 2.0, 3


def test_claimed_successes_that_fail_the_check_are_counted_not_believed():
    robot = load_robot('ur5_like')
    model = RobotModel.from_urdf(robot.urdf_xml)
    chain = model.chain(robot.base_link, robot.tip_link)
    targets = draw_targets(chain, 4, seed=2)
    seeds = draw_seeds(chain, targets, 'warm', seed=2)
    attempts = run_method(chain, Method('boaster', anchor='boaster'), targets, seeds,
                          model=model, position_only=False, budget=0.005, tolerance=TOLERANCE,
                          anchor=_Boaster())
    summary = summarize(attempts)
    assert summary['successes'] == 0
    assert summary['discrepancies'] == 4
    assert summary['iterations']['median'] == 3
    assert summary['seed_distance'] is None
    # Wherever a joint was within 2 rad of its upper limit, the answer is out of the limits.
    assert summary['limit_violations'] == sum(
        not chain.within_limits(seed + 2.0) for seed in seeds)


def test_bad_arguments_fail_before_any_work(tmp_path, capsys):
    output = tmp_path / 'never'
    with pytest.raises(SystemExit) as raised:
        main(['--quick', '--solvers', 'no_such_solver', '--output', str(output)])
    assert raised.value.code == 2
    assert 'unknown solver' in capsys.readouterr().err
    assert not output.exists()
    status = main(['--quick', '--robots', 'ur5_like', '--solvers', 'fabrik', '--option',
                   'no_such_option=1', '--anchors', '--no-progress', '--output', str(output)])
    assert status == 2
    assert not (output / 'results.json').exists()
    assert parse_option('polish=True') == {'polish': True}
    assert parse_option('name=abc') == {'name': 'abc'}


def test_variants_run_with_the_smallest_budget_only_unless_asked():
    config = BenchConfig(robots=['ur5_like'], solvers=['fabrik'],
                         option_sets=[{}, {'polish': False}], targets=2,
                         budgets=(0.005, 0.05), seed_kinds=('mid',), modes=('pose',),
                         anchors=())
    prepared = prepare_robots(config, log=lambda message: None)
    # 5 ms: defaults and the variant; 50 ms: defaults only; two targets each.
    assert count_work(config, prepared) == 2 * (2 + 1)
    everywhere = dataclasses.replace(config, variants_on_every_budget=True)
    assert count_work(everywhere, prepared) == 2 * (2 + 2)
    rows = run_benchmark(config, prepared)
    assert [(row['budget'], row['method']) for row in rows] == [
        (0.005, 'fabrik'), (0.005, 'fabrik[polish=False]'), (0.05, 'fabrik')]
