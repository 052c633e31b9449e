# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The benchmark's targets and their report, judged on hand-made rows (no solver runs)."""

from ik_solvers_benchmarks.goals import evaluate_goals
from ik_solvers_benchmarks.bench_report import markdown_report, readme_summary
from ik_solvers_benchmarks.summary import add_anchor_ratios, claimed_rate

POSE = 'full pose, random seed, 5 ms: '
POSITION = 'position-only, random seed, 5 ms: median <= 30.0 µs'
WARM = 'full pose, warm seed, 5 ms: '
ALONE = 'heuristic alone (polish=False), '
SNAKE = 'snake, 100 joints, position-only, random seed: median <= 1.000 ms'


def _row(robot, method, success_rate, median, *, p95=None, mode='pose', seed='random',
         options=None, anchor=None, largest=0.01, far=0.0, dof=6, refuted=0, claims=True):
    """Make a benchmark row of 1000 attempts; ``method`` is the solver or the anchor."""
    successes = round(10 * success_rate)
    return {'robot': robot, 'dof': dof, 'mode': mode, 'seed': seed, 'budget': 0.005,
            'method': method, 'solver': None if anchor else method,
            'options': dict(options or {}), 'anchor': method if anchor else None,
            'variant': bool(options), 'claims_success': claims, 'attempts': 1000,
            'successes': successes, 'success_rate': success_rate, 'discrepancies': refuted,
            'time_all': {'median': median, 'mean': median, 'p95': p95 or median},
            'time_success': {'median': median, 'mean': median, 'p95': p95 or median},
            'iterations': None, 'limit_violations': 0, 'errors': 0, 'first_error': None,
            'seed_distance': {'max_median': largest, 'l2_median': largest,
                              'max_max': largest, 'far_rate': far} if successes else None}


def _rows():
    off = {'polish': False}
    return [
        # fabrik meets every arm target, most of them exactly at the threshold.
        _row('arm', 'fabrik', 99.9, 40e-6, p95=3e-4),
        _row('arm', 'fabrik', 100.0, 30e-6, mode='position'),
        _row('arm', 'fabrik', 100.0, 25e-6, seed='warm', largest=0.1),
        _row('arm', 'fabrik', 99.5, 4e-3, options=off),
        # A position-only heuristic row without a target of its own: judged by nothing.
        _row('arm', 'fabrik', 10.0, 5e-3, mode='position', options=off),
        # ccd misses each one just past the threshold.
        _row('arm', 'ccd', 99.8, 51e-6, p95=3.1e-4),
        _row('arm', 'ccd', 100.0, 31e-6, mode='position'),
        _row('arm', 'ccd', 100.0, 26e-6, seed='warm', largest=0.2, far=0.5),
        _row('arm', 'ccd', 99.5, 1e-3, mode='position', options=off),
        _row('arm', 'ccd', 96.9, 4e-3, options=off),
        # A faster ccd variant must not stand in for the defaults.
        _row('arm', 'ccd', 100.0, 10e-6, options={'step': 0.5}),
        _row('arm', 'rtb_ik_lm', 99.0, 50e-6, anchor=True),
        _row('arm', 'trac_ik', 90.0, 20e-6, anchor=True, refuted=30),
        # A 7-joint arm where only fabrik's full-pose row ran, without ik_LM.
        _row('arm7', 'fabrik', 100.0, 40e-6, dof=7),
        _row('arm7', 'trac_ik', 100.0, 20e-6, anchor=True, dof=7),
        # Not an arm: no arm goals for it.
        _row('snake_10', 'fabrik', 100.0, 1e-4, mode='position', dof=10),
    ]


def _scaling_rows():
    def snake(method, median, **extra):
        return dict(_row('snake_100', method, 100.0, median, mode='position', dof=100, **extra),
                    fast_rate=100.0)
    # The faster variant comes first: only its options tell it from ccd's defaults.
    return [snake('ccd', 1e-4, options={'polish': False}), snake('fabrik', 1e-3),
            snake('ccd', 1.1e-3)]


def _verdicts(goals):
    return {(goal['goal'], goal['solver'], goal['robot']): goal['met'] for goal in goals}


def test_arm_goals_are_judged_per_solver_against_their_thresholds():
    goals = evaluate_goals(_rows(), _scaling_rows(), solvers=['fabrik', 'ccd'])
    met = _verdicts(goals)
    arm = {(goal, solver): verdict for (goal, solver, robot), verdict in met.items()
           if robot == 'arm'}
    assert arm == {
        (POSE + 'success >= 99.9 %', 'fabrik'): True,
        (POSE + 'median <= ik_LM median', 'fabrik'): True,
        (POSE + 'p95 <= 0.300 ms', 'fabrik'): True,
        (POSITION, 'fabrik'): True,
        (WARM + 'median <= 25.0 µs', 'fabrik'): True,
        (WARM + 'no solution > 0.1 rad from its seed', 'fabrik'): True,
        (ALONE + 'full pose, random seed, 5 ms: success >= 99.5 %', 'fabrik'): True,
        (POSE + 'success >= 99.9 %', 'ccd'): False,
        (POSE + 'median <= ik_LM median', 'ccd'): False,
        (POSE + 'p95 <= 0.300 ms', 'ccd'): False,
        (POSITION, 'ccd'): False,
        (WARM + 'median <= 25.0 µs', 'ccd'): False,
        (WARM + 'no solution > 0.1 rad from its seed', 'ccd'): False,
        (ALONE + 'position-only, random seed, 5 ms: success >= 99.5 %', 'ccd'): True,
        (ALONE + 'full pose, random seed, 5 ms: success >= 99.5 %', 'ccd'): False,
    }
    assert not any(robot == 'snake_10' for _, _, robot in met)
    measured = {(goal['goal'], goal['solver'], goal['robot']): goal['measured']
                for goal in goals}
    assert measured[(POSE + 'success >= 99.9 %', 'ccd', 'arm')] == '99.8 % (998/1000)'
    assert measured[(POSE + 'median <= ik_LM median', 'fabrik', 'arm')] == \
        '0.040 ms; ik_LM 0.050 ms (0.80x)'
    assert measured[(WARM + 'no solution > 0.1 rad from its seed', 'ccd', 'arm')] == \
        'largest 0.200 rad; 0.5 % beyond'


def test_goals_without_their_case_are_reported_as_not_measured():
    goals = evaluate_goals(_rows(), [], solvers=['fabrik', 'ccd'])
    arm7 = {(goal['goal'], goal['solver']): goal for goal in goals if goal['robot'] == 'arm7'}
    assert len(arm7) == 15  # as many as on the arm where everything ran
    lm = arm7[(POSE + 'median <= ik_LM median', 'fabrik')]
    assert lm['met'] is None and lm['measured'] == 'no ik_LM in this run'
    assert arm7[(POSE + 'success >= 99.9 %', 'fabrik')]['met'] is True
    unmeasured = [goal for key, goal in arm7.items()
                  if key not in {(POSE + 'success >= 99.9 %', 'fabrik'),
                                 (POSE + 'p95 <= 0.300 ms', 'fabrik')}]
    assert all(goal['met'] is None for goal in unmeasured)
    snake = [goal for goal in goals if goal['goal'] == SNAKE]
    assert [(goal['solver'], goal['met']) for goal in snake] == [('fabrik', None), ('ccd', None)]
    nothing = evaluate_goals([], [], solvers=['fabrik'])
    assert [goal['met'] for goal in nothing] == [None, None]
    assert nothing[0]['measured'] == 'no such arm in this run'


def test_arm_goals_are_not_judged_at_another_tolerance():
    goals = evaluate_goals(_rows(), _scaling_rows(), solvers=['fabrik', 'ccd'],
                           tolerance=1e-4)
    arm = [goal for goal in goals if goal['robot'] in ('arm', 'arm7')]
    assert len(arm) == 30
    assert all(goal['met'] is None and 'tolerance 0.0001' in goal['measured'] for goal in arm)
    # The snake target names no tolerance; it is still judged.
    assert [goal['met'] for goal in goals if goal['goal'] == SNAKE] == [True, False]


def test_snake_goal_takes_each_solvers_defaults():
    goals = evaluate_goals([], _scaling_rows(), solvers=['fabrik', 'ccd', 'jacobian_transpose'])
    snake = {goal['solver']: goal for goal in goals if goal['goal'] == SNAKE}
    assert snake['fabrik']['met'] is True  # exactly 1 ms
    assert snake['ccd']['met'] is False  # its faster polish=False variant does not count
    assert snake['jacobian_transpose']['met'] is None
    assert snake['ccd']['measured'] == '1.100 ms (100.0 % solved)'


def test_report_shows_both_ratios_and_claimed_beside_verified_success():
    rows = _rows()
    add_anchor_ratios(rows)
    fabrik = rows[0]
    assert fabrik['trac_ik_ratio'] == 40e-6 / 20e-6
    assert fabrik['ik_lm_ratio'] == 40e-6 / 50e-6
    assert rows[13]['trac_ik_ratio'] == 2.0 and rows[13]['ik_lm_ratio'] is None
    trac_ik = rows[12]
    assert claimed_rate(trac_ik) == 93.0  # 900 confirmed + 30 refuted of 1000
    assert claimed_rate(dict(trac_ik, claims_success=False)) is None
    goals = evaluate_goals(rows, _scaling_rows(), solvers=['fabrik', 'ccd'])
    meta = {'command': 'ik_solvers_bench'}
    readme = readme_summary(rows, _scaling_rows(), goals, meta)
    assert '| arm | 6 | fabrik | 99.9 | 99.9 | 0.040 / 0.300 | 0.040 / 0.300 | 2.00 | 0.80 |' \
        in readme
    assert '| arm | 6 | *trac_ik* | 90.0 | 93.0 |' in readme
    # One line per target and solver, one column per arm; the snake in a table of its own.
    assert '| target | solver | arm | arm7 |' in readme
    assert '| %s | fabrik | yes: 0.040 ms; ik_LM 0.050 ms (0.80x) | no ik_LM in this run |' % (
        POSE + 'median <= ik_LM median') in readme
    assert '| %s | ccd | **no**: 99.8 %% (998/1000) | not measured |' % (
        POSE + 'success >= 99.9 %') in readme
    assert '| target | solver | snake_100 |' in readme
    assert '| %s | ccd | **no**: 1.100 ms (100.0 %% solved) |' % SNAKE in readme
    counts = [sum(goal['met'] is verdict for goal in goals) for verdict in (True, False, None)]
    assert '%d met, %d not met, %d not measured' % tuple(counts) in readme
    report = markdown_report(rows, _scaling_rows(), goals, meta)
    assert '| *trac_ik* | 90.0 | 93.0 |' in report
    assert '| fabrik | 99.9 | 99.9 |' in report
    assert '| *ikpy* | 90.0 | n/a |' in markdown_report(
        [_row('arm', 'ikpy', 90.0, 1e-2, anchor=True, claims=False)], [], [], meta)
