# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""docs/node.md's parameter table is the one table the node declares its parameters from."""

from pathlib import Path
import re

from ik_solvers.engine.settings import (
    check_parameter,
    NodeSettings,
    parameter_table,
    PARAMETERS,
)

NODE_MD = Path(__file__).resolve().parents[2] / 'docs' / 'node.md'
TABLE = re.compile(r'<!-- parameter table:[^\n]*-->\n(.*?)<!-- end of parameter table -->',
                   re.DOTALL)


def test_the_documented_table_is_the_declared_table():
    found = TABLE.search(NODE_MD.read_text())
    assert found is not None, 'docs/node.md has no parameter table between its markers'
    assert found.group(1) == parameter_table(), (
        'docs/node.md differs from engine/settings.py PARAMETERS: paste '
        'ik_solvers.engine.settings.parameter_table() between the markers')


def test_the_table_has_one_row_per_parameter_in_order():
    rows = [line for line in parameter_table().splitlines()[2:]]
    names = [re.match(r'\| `([a-z_]+)` \|', row).group(1) for row in rows]
    assert names == [spec.name for spec in PARAMETERS]
    assert len(set(names)) == len(names)


def test_every_setting_is_a_row_of_the_table():
    assert set(NodeSettings.__dataclass_fields__) <= {spec.name for spec in PARAMETERS}


def test_a_rows_own_check_refuses_what_its_range_cannot_express():
    assert 'unknown preference' in check_parameter('preference', 'nowhere')
    assert check_parameter('preference', 'nearest') is None
    assert check_parameter('rest_posture', [0.0, float('nan')]) is not None
    assert check_parameter('tip_axis', [0.0, 0.0, 0.0]) is not None
