# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The README's reference tables against what the interface and the node enforce."""

from pathlib import Path
import re

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / 'README.md'
SRV = ROOT / 'ik_solvers_interfaces' / 'srv' / 'SolveIK.srv'


def _srv_constants():
    """``{name: value}`` of the constants in the response part of SolveIK.srv."""
    response = SRV.read_text(encoding='utf-8').split('\n---\n', 1)[1]
    return {name: int(value) for name, value in
            re.findall(r'^uint8\s+([A-Z_]+)\s*=\s*(\d+)', response, flags=re.M)}


def _table_rows(heading: str):
    """Cells of each row of the first table after a README heading, header rows excluded."""
    text = README.read_text(encoding='utf-8')
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith('|'):
            rows.append([cell.strip() for cell in line.strip().strip('|').split('|')])
        elif rows:
            break
    assert len(rows) > 2, 'no table after %r' % heading
    return rows[2:]


def _readme_error_codes():
    return {name.strip('`'): int(value) for value, name, _ in
            _table_rows('#### Error codes')}


def test_the_readme_lists_every_error_code_of_the_service_with_its_value():
    constants = _srv_constants()
    assert {'SUCCESS', 'NO_SOLUTION', 'TIMED_OUT', 'INTERNAL_ERROR'} <= set(constants)
    assert _readme_error_codes() == constants
