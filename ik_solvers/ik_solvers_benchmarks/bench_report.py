# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The benchmark's text outputs: Markdown tables and a README-ready summary (plots: :mod:`.plots`).

Times in the tables are in milliseconds. "all" columns count every attempt with the time it
took, failures included; "solved" columns count successful attempts only. "success %" is
what the independent check confirmed, "claimed %" what the method said of itself.
"""

from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .goals import best_row, HEADLINE_CASE
from .summary import claimed_rate

__all__ = [
    'check_summary',
    'markdown_report',
    'readme_summary',
]

Row = Dict[str, object]

_HEADER = ('| method | success % | claimed % | all: median / mean / p95 ms'
           ' | solved: median / mean / p95 ms | median × TRAC-IK | median × ik_LM'
           ' | iterations median / mean | seed distance: median max abs / median L2 (rad)'
           ' | > 0.1 rad from seed % | refuted claims | heuristic share median / p25 |')
_RULE = '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|'


def _times(times: Optional[Mapping[str, float]]) -> str:
    if not times:
        return '—'
    return '%.3f / %.3f / %.3f' % (1e3 * times['median'], 1e3 * times['mean'],
                                   1e3 * times['p95'])


def _budget(budget: Optional[float]) -> str:
    return 'no budget' if budget is None else '%g ms' % (1e3 * budget)


def _ratio(row: Row, key: str) -> str:
    ratio = row.get(key)
    return '—' if ratio is None else '%.2f' % ratio


def _claimed(row: Row) -> str:
    # A method that never says whether it succeeded has no claimed rate to show.
    rate = claimed_rate(row)
    return 'n/a' if rate is None else '%.1f' % rate


def _share(row: Row) -> str:
    # The heuristic's share of the log-error reduction in the successful start (1 = all of it).
    share = row.get('share')
    return '—' if not share else '%.0f %%' % (100.0 * share['median'])


def _share_spread(row: Row) -> str:
    share = row.get('share')
    if not share:
        return '—'
    return '%.0f %% / %.0f %%' % (100.0 * share['median'], 100.0 * share['p25'])


def _method(row: Row) -> str:
    if row['anchor'] is None:
        return row['method']
    return '*%s*' % row['method']


def _row_line(row: Row) -> str:
    iterations = row['iterations']
    distance = row['seed_distance']
    refuted = row['discrepancies']
    if row['anchor'] is None and refuted:
        refuted = '**%d !!**' % refuted
    elif not row['claims_success']:
        refuted = 'n/a'
    return '| %s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
        _method(row), row['success_rate'], _claimed(row), _times(row['time_all']),
        _times(row['time_success']), _ratio(row, 'trac_ik_ratio'), _ratio(row, 'ik_lm_ratio'),
        '—' if not iterations else '%.0f / %.1f' % (iterations['median'], iterations['mean']),
        '—' if not distance else '%.3f / %.3f' % (distance['max_median'],
                                                  distance['l2_median']),
        '—' if not distance else '%.1f' % distance['far_rate'], refuted, _share_spread(row))


def check_summary(rows: Sequence[Row], scaling_rows: Sequence[Row] = ()) -> Dict[str, int]:
    """
    Count what the independent check found, over every ik_solvers answer.

    :param rows: Benchmark rows.
    :param scaling_rows: Scaling rows.

    :returns: ``answers`` checked, ``refuted`` (claimed success that fails the FK or limit check;
        must be 0), ``limit_violations`` (returned configurations outside the limits; must be
        0), ``errors`` (calls that raised) and ``trac_ik_refuted`` (TRAC-IK's claims the
        same check refutes).
    """
    ours = [row for row in list(rows) + list(scaling_rows) if row.get('anchor') is None]
    return {
        'answers': sum(row['attempts'] for row in ours),
        'refuted': sum(row['discrepancies'] for row in ours),
        'limit_violations': sum(row['limit_violations'] for row in ours),
        'errors': sum(row['errors'] for row in ours),
        'trac_ik_refuted': sum(row['discrepancies'] for row in rows
                               if row.get('anchor') == 'trac_ik'),
    }


def _headline_table(rows: Sequence[Row], *, variants: bool = True) -> List[str]:
    mode, seed, budget = HEADLINE_CASE
    lines = ['| robot | joints | method | success % | claimed % | all: median / p95 ms |'
             ' solved: median / p95 ms | median × TRAC-IK | median × ik_LM |'
             ' heuristic share |',
             '|---|--:|---|--:|--:|--:|--:|--:|--:|--:|']
    for row in rows:
        if (row['mode'], row['seed'], row['budget']) != (mode, seed, budget):
            continue
        if row.get('variant') and not variants:
            continue
        lines.append('| %s | %d | %s | %.1f | %s | %s | %s | %s | %s | %s |' % (
            row['robot'], row['dof'], _method(row), row['success_rate'], _claimed(row),
            '—' if not row['time_all'] else '%.3f / %.3f' % (
                1e3 * row['time_all']['median'], 1e3 * row['time_all']['p95']),
            '—' if not row['time_success'] else '%.3f / %.3f' % (
                1e3 * row['time_success']['median'], 1e3 * row['time_success']['p95']),
            _ratio(row, 'trac_ik_ratio'), _ratio(row, 'ik_lm_ratio'), _share(row)))
    return lines


def _goal_cell(goal: Row) -> str:
    verdict = {True: 'yes', False: '**no**', None: None}[goal['met']]
    return goal['measured'] if verdict is None else '%s: %s' % (verdict, goal['measured'])


def _goal_table(goals: Sequence[Row]) -> List[str]:
    """One line per (target, solver), one column per robot; a table per set of robots."""
    counts = [sum(goal['met'] is verdict for goal in goals) for verdict in (True, False, None)]
    lines = ['%d met, %d not met, %d not measured' % tuple(counts)]
    cells: Dict[Tuple[str, str], Dict[str, str]] = {}
    for goal in goals:
        cells.setdefault((goal['goal'], goal['solver']), {})[goal['robot']] = _goal_cell(goal)
    # The arms share one table and the snake gets its own, without columns of blanks.
    tables: Dict[Tuple[str, ...], List[Tuple[str, str]]] = {}
    for key, by_robot in cells.items():
        tables.setdefault(tuple(by_robot), []).append(key)
    for robots, keys in tables.items():
        lines += ['', '| target | solver | %s |' % ' | '.join(robots),
                  '|---|---|%s' % ('---|' * len(robots))]
        for goal, solver in keys:
            by_robot = cells[(goal, solver)]
            measured = ' | '.join(by_robot[robot] for robot in robots)
            lines.append('| %s | %s | %s |' % (goal, solver, measured))
    return lines


def _scaling_table(scaling_rows: Sequence[Row]) -> List[str]:
    lines = ['| solver | joints | success % | all: median / p95 ms | iterations median / mean'
             ' | solved within 10 ms % |', '|---|--:|--:|--:|--:|--:|']
    for row in sorted(scaling_rows, key=lambda row: (row['method'], row['dof'])):
        iterations = row['iterations']
        lines.append('| %s | %d | %.1f | %s | %s | %.1f |' % (
            row['method'], row['dof'], row['success_rate'],
            '—' if not row['time_all'] else '%.3f / %.3f' % (
                1e3 * row['time_all']['median'], 1e3 * row['time_all']['p95']),
            '—' if not iterations else '%.0f / %.1f' % (iterations['median'],
                                                        iterations['mean']),
            row['fast_rate']))
    return lines


def _meta_lines(meta: Mapping[str, object]) -> List[str]:
    return ['- date: %s' % meta.get('date'),
            '- machine: %s, %s logical CPUs; Python %s, numpy %s'
            % (meta.get('cpu'), meta.get('cpus'), meta.get('python'), meta.get('numpy')),
            '- packages: %s' % ', '.join('%s %s' % item for item in
                                         sorted(dict(meta.get('versions') or {}).items())),
            '- command: `%s`' % meta.get('command')]


def readme_summary(rows: Sequence[Row], scaling_rows: Sequence[Row], goals: Sequence[Row],
                   meta: Mapping[str, object]) -> str:
    """
    Write the short summary for the README: headline case, targets and scaling.

    :param rows: Benchmark rows.
    :param scaling_rows: Scaling rows (may be empty).
    :param goals: Goals from :func:`goals.evaluate_goals`.
    :param meta: ``date``, ``cpu``, ``cpus``, ``python``, ``numpy``, ``versions`` (of the
        anchors and the vendor URDF package), ``command``.

    :returns: Markdown text.
    """
    mode, seed, budget = HEADLINE_CASE
    lines = ['### Benchmark (%s, %s seed, %s budget, tolerance 1e-5)' % (mode, seed,
                                                                         _budget(budget)), '']
    lines += _meta_lines(meta)
    lines += ['- times are wall-clock per call, measured around the Python call; the machine '
              'was shared, so they are noisy; each solver in its recommended configuration, '
              'the anchors *rtb_ik_lm* (Robotics Toolbox ik_LM) and *trac_ik* (pytracik, '
              'Speed) on the same targets and seeds; success % is what the independent check '
              'confirmed, claimed % what the method said', '']
    lines += _headline_table(rows, variants=False)
    lines += ['', '#### Targets', ''] + _goal_table(goals)
    if scaling_rows:
        lines += ['', '#### Scaling on snakes (position-only, random seed)', '']
        lines += _scaling_table(scaling_rows)
    return '\n'.join(lines) + '\n'


def markdown_report(rows: Sequence[Row], scaling_rows: Sequence[Row], goals: Sequence[Row],
                    meta: Mapping[str, object], notes: Sequence[str] = ()) -> str:
    """
    Write the full report: checks, targets, headline, one table per robot and mode, scaling.

    :param rows: Benchmark rows.
    :param scaling_rows: Scaling rows (may be empty).
    :param goals: Goals from :func:`goals.evaluate_goals`.
    :param meta: As for :func:`readme_summary`.
    :param notes: Messages of the run, such as skipped robots or anchors.

    :returns: Markdown text.
    """
    checks = check_summary(rows, scaling_rows)
    lines = ['# ik_solvers benchmark', ''] + _meta_lines(meta) + [
        '- protocol: targets are forward kinematics of joint vectors drawn uniformly within '
        'the limits by a fixed generator; every method sees the same targets and seeds; '
        'success = claimed by the method and confirmed by a check that shares no code with '
        "the solvers' forward kinematics: the URDF walked joint by joint (RobotModel), and "
        "every URDF joint's limits, mimic joints included "
        '(position error <= 1e-5 m, rotation angle <= 1e-5 rad)',
        '- times: wall-clock per call in ms; "all" counts failures with the time they took, '
        '"solved" counts successes only; *italic* rows are anchors (ik_LM of the Robotics '
        'Toolbox, TRAC-IK via pytracik, ikpy); "median × anchor" is the median over all '
        'attempts divided by that anchor\'s in the same case; "claimed %" is what a method '
        'said, "success %" what the check confirmed (ikpy claims nothing); ikpy has no time '
        'budget and runs on fewer targets; option variants such as `[polish=False]` run with '
        'the smallest budget only, unless asked otherwise',
        '', '## Independent check', '',
        '- ik_solvers answers checked: %d' % checks['answers'],
        '- claimed successes refuted by the check: %d%s' % (
            checks['refuted'], '' if not checks['refuted'] else '  **<-- MUST BE 0**'),
        '- returned configurations outside the limits: %d%s' % (
            checks['limit_violations'],
            '' if not checks['limit_violations'] else '  **<-- MUST BE 0**'),
        '- calls that raised: %d%s' % (
            checks['errors'], '' if not checks['errors'] else '  **<-- MUST BE 0**'),
        '- TRAC-IK claims refuted by the same check: %d' % checks['trac_ik_refuted']]
    raised = {}
    for row in list(rows) + list(scaling_rows):
        if row.get('first_error') and row['method'] not in raised:
            raised[row['method']] = row['first_error']
    lines += ['- first exception of %s: `%s`' % item for item in sorted(raised.items())]
    if notes:
        lines += ['', '## Notes', ''] + ['- %s' % note for note in notes]
    lines += ['', '## Targets', ''] + _goal_table(goals)
    lines += ['', '## Headline: %s, %s seed, %s' % (HEADLINE_CASE[0], HEADLINE_CASE[1],
                                                    _budget(HEADLINE_CASE[2])), '']
    lines += _headline_table(rows)
    robots = []
    for row in rows:
        if row['robot'] not in robots:
            robots.append(row['robot'])
    for robot in robots:
        robot_rows = [row for row in rows if row['robot'] == robot]
        lines += ['', '## %s (%d joints)' % (robot, robot_rows[0]['dof'])]
        cases = []
        for row in robot_rows:
            case = (row['mode'], row['seed'], row['budget'])
            if case not in cases:
                cases.append(case)
        for mode, seed, budget in cases:
            case_rows = [row for row in robot_rows
                         if (row['mode'], row['seed'], row['budget']) == (mode, seed, budget)]
            best = best_row(case_rows)
            lines += ['', '### %s, %s seed, %s%s' % (
                mode, seed, _budget(budget),
                '' if best is None else ' — best: %s' % best['method']), '', _HEADER, _RULE]
            lines += [_row_line(row) for row in case_rows]
    if scaling_rows:
        lines += ['', '## Scaling on snakes (position-only, random seed, %s budget)'
                  % _budget(scaling_rows[0]['budget']), ''] + _scaling_table(scaling_rows)
    return '\n'.join(lines) + '\n'
