# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The servo latency benchmark: its cases, its table, and a short real run over DDS."""

import math

from ik_solvers_benchmarks.servo_latency import (build_parser, Case, CaseFigures, cases,
                                                 configure, format_table, measure,
                                                 servo_session)


def test_the_cases_cover_each_input_output_and_start_at_each_rate():
    found = cases((100.0, 500.0))
    assert len(set(found)) == 16
    assert {(case.source, case.output, case.start) for case in found if case.rate == 500.0} \
        == {(source, output, start) for source in ('twist', 'joint')
            for output in ('trajectory', 'position_array') for start in ('rest', 'moving')}
    arguments = build_parser().parse_args([])
    assert arguments.samples >= 200 and arguments.rates == '100,500'


def test_the_table_judges_the_p99_against_one_period_plus_2_ms():
    within = CaseFigures(Case('twist', 'trajectory', 100.0, 'rest'), [5.0] * 100, 0,
                         node_cpu=31.2, node_waited=5.0)
    late = CaseFigures(Case('joint', 'position_array', 500.0, 'moving'),
                       [1.0] * 97 + [9.0] * 3, 2, 1)
    lines = format_table([within, late]).splitlines()
    assert lines[2] == ('| 100 | twist | trajectory | rest | 100 | 0 | 5.00 | 5.00 | 5.00 '
                        '| 5.00 | 12.0 | met | 31 | 5 |')
    assert lines[3].startswith('| 500 | joint | position_array | moving | 100 | 2 (1 silent) '
                               '| 1.00 |')
    assert lines[3].endswith('| 9.00 | 4.0 | not met | nan | nan |')


def test_twists_and_joint_commands_show_in_both_outputs_from_rest_and_while_moving(tmp_path):
    log = tmp_path / 'ik_node.log'
    with servo_session('ur5_like', log) as probe:
        for case in (Case('twist', 'trajectory', 100.0, 'rest'),
                     Case('twist', 'position_array', 500.0, 'moving'),
                     Case('joint', 'trajectory', 500.0, 'rest'),
                     Case('joint', 'position_array', 100.0, 'moving')):
            configure(probe, case.rate, case.output)
            figures = measure(probe, case, 3)
            assert figures.lost == 0, (case, log.read_text())
            assert len(figures.latencies_ms) == 3
            assert all(math.isfinite(value) and value > 0.0 for value in figures.latencies_ms)
