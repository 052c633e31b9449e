# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The performance targets of the project, checked against a benchmark run.

Each goal is reported as measured, met or not; a goal whose case was not run is reported as
not measured rather than silently dropped.
"""

from typing import Dict, List, Optional, Sequence

__all__ = [
    'ARM_JOINT_COUNTS',
    'HEADLINE_CASE',
    'best_row',
    'evaluate_goals',
]

# (mode, seed kind, budget in s): the case of the TRAC-IK benchmark's headline figures.
HEADLINE_CASE = ('pose', 'random', 0.005)
ARM_JOINT_COUNTS = (6, 7)

Row = Dict[str, object]


def _case_rows(rows: Sequence[Row], robot: str, mode: str, seed: str,
               budget: Optional[float]) -> List[Row]:
    return [row for row in rows if row['robot'] == robot and row['mode'] == mode
            and row['seed'] == seed and row['budget'] == budget]


def _median_all(row: Row) -> float:
    return row['time_all']['median'] if row['time_all'] else float('inf')


def best_row(rows: Sequence[Row]) -> Optional[Row]:
    """
    Pick the best ik_solvers configuration among rows of one case.

    :param rows: Rows of one (robot, mode, seed, budget) case.

    :returns: The highest success rate, ties broken by the lower median time over all attempts;
        None when no ik_solvers row is given.
    """
    ours = [row for row in rows if row['anchor'] is None]
    if not ours:
        return None
    return max(ours, key=lambda row: (row['success_rate'], -_median_all(row)))


def _ms(seconds: Optional[float]) -> str:
    return 'n/a' if seconds is None else '%.3g ms' % (1e3 * seconds)


def _goal(goal: str, robot: str, measured: str, met: Optional[bool]) -> Row:
    return {'goal': goal, 'robot': robot, 'measured': measured, 'met': met}


def _arm_goals(rows: Sequence[Row], robot: str, solvers: Sequence[str]) -> List[Row]:
    goals = []
    mode, seed, budget = HEADLINE_CASE
    case = _case_rows(rows, robot, mode, seed, budget)
    best = best_row(case)
    name = 'pose 1e-5, random seed, 5 ms'
    if best is None:
        goals.append(_goal(name + ': best configuration', robot, 'not measured', None))
    else:
        goals.append(_goal(name + ': best configuration solves >= 99.5 %', robot,
                           '%s: %.1f %%' % (best['method'], best['success_rate']),
                           best['success_rate'] >= 99.5))
        ratio = best.get('trac_ik_ratio')
        goals.append(_goal(
            name + ': best median <= 3x TRAC-IK median', robot,
            'no TRAC-IK in this run' if ratio is None else
            '%s: %.2fx (%s)' % (best['method'], ratio, _ms(best['time_all']['median'])),
            None if ratio is None else ratio <= 3.0))
    for solver in solvers:
        # The recommended configuration is the solver's own defaults, i.e. no extra options.
        recommended = [row for row in case if row['solver'] == solver and not row['options']]
        if not recommended:
            goals.append(_goal(name + ': %s (defaults) solves >= 99 %%' % solver, robot,
                               'not measured', None))
            continue
        row = recommended[0]
        goals.append(_goal(name + ': %s (defaults) solves >= 99 %%' % solver, robot,
                           '%.1f %%' % row['success_rate'], row['success_rate'] >= 99.0))
    position = best_row(_case_rows(rows, robot, 'position', seed, budget))
    goals.append(_goal(
        'position-only, random seed, 5 ms: median <= 0.2 ms', robot,
        'not measured' if position is None else '%s: %s (%.1f %% solved)' % (
            position['method'], _ms(_median_all(position)), position['success_rate']),
        None if position is None else _median_all(position) <= 2e-4))
    warm = best_row(_case_rows(rows, robot, 'pose', 'warm', budget))
    goals.append(_goal(
        'pose, warm seed, 5 ms: median <= 0.2 ms', robot,
        'not measured' if warm is None else '%s: %s (%.1f %% solved)' % (
            warm['method'], _ms(_median_all(warm)), warm['success_rate']),
        None if warm is None else _median_all(warm) <= 2e-4))
    if warm is None or warm['seed_distance'] is None:
        goals.append(_goal('pose, warm seed: no solution > 0.1 rad from its seed', robot,
                           'not measured', None))
    else:
        distance = warm['seed_distance']
        goals.append(_goal(
            'pose, warm seed: no solution > 0.1 rad from its seed', robot,
            '%s: largest %.3g rad, %.1f %% beyond' % (warm['method'], distance['max_max'],
                                                      distance['far_rate']),
            distance['max_max'] <= 0.1))
    return goals


def evaluate_goals(rows: Sequence[Row], scaling_rows: Sequence[Row], *,
                   solvers: Sequence[str]) -> List[Row]:
    """
    Check the project's targets.

    The arm goals apply to every robot of 6 or 7 joints that was run (the UR5-like and
    Panda-like arms, bundled and vendor); the snake goal to each solver's recommended
    configuration on the 100-joint snake of the scaling study.

    :param rows: Rows of :func:`runner.run_benchmark`.
    :param scaling_rows: Rows of :func:`scaling.run_scaling`.
    :param solvers: The solver names that ran.

    :returns: JSON-ready goals: ``goal``, ``robot``, ``measured`` (text), ``met`` (True, False,
        or None when not measured).
    """
    goals: List[Row] = []
    arms = []
    for row in rows:
        if row['dof'] in ARM_JOINT_COUNTS and row['robot'] not in arms:
            arms.append(row['robot'])
    for robot in arms:
        goals.extend(_arm_goals(rows, robot, solvers))
    snake = [row for row in scaling_rows if row['dof'] == 100 and not row.get('variant')]
    name = 'snake, 100 joints, position-only, random seed: >= 99 % solved within 10 ms'
    if not snake:
        goals.append(_goal(name, 'snake_100', 'not measured', None))
    for row in snake:
        goals.append(_goal(
            name, '%s (%s)' % (row['robot'], row['method']),
            '%.1f %% within %s; median %s, %.1f %% solved within %s' % (
                row['fast_rate'], _ms(row['fast_threshold']), _ms(_median_all(row)),
                row['success_rate'], _ms(row['budget'])),
            row['fast_rate'] >= 99.0))
    return goals
