# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The collision-free benchmark runs and judges on the vendor arms."""

import pytest

from ik_solvers_benchmarks.collision_free_bench import markdown_table, run_robot
from ik_solvers.reach.named_robots import vendor_robot_names


@pytest.mark.skipif('vendor_ur5' not in vendor_robot_names(),
                    reason='example-robot-data is not installed')
def test_a_short_run_gives_rows_with_and_without_the_check():
    rows = run_robot('vendor_ur5', targets=20, budget=0.05, solvers=['jacobian_transpose'],
                     anchor=False)
    assert [row['method'] for row in rows] == ['jacobian_transpose',
                                               'jacobian_transpose (no check)']
    checked = rows[0]
    assert checked['targets'] == 20
    assert checked['colliding_successes'] == 0 and checked['false_successes'] == 0
    assert checked['free_success'] > 50.0
    assert 'vendor_ur5 | jacobian_transpose | 20 |' in markdown_table(rows)
