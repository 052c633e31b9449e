# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The README's reference tables against what the interface and the node enforce.

The error-code table of docs/node.md must list every constant of ``ErrorCodes.msg`` with its
value, and each parameter range in the README must be the one the parameter's descriptor
declares, written as the inclusive interval rclpy enforces: a live node accepts both ends and
refuses values just outside them.
"""

import math
from pathlib import Path
import re

from ik_solvers.ros.ik_node import IKNode
from ik_solvers.engine.settings import PARAMETERS
import pytest
import rclpy
from rclpy.parameter import Parameter
from test_node_support import unique_namespace

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / 'README.md'
NODE_DOC = ROOT / 'docs' / 'node.md'
CODES = ROOT / 'ik_solvers_interfaces' / 'msg' / 'ErrorCodes.msg'
RANGED = [spec for spec in PARAMETERS if spec.floating_range is not None]


def _msg_constants():
    """``{name: value}`` of the constants of ErrorCodes.msg."""
    return {name: int(value) for name, value in re.findall(
        r'^uint8\s+([A-Z_]+)\s*=\s*(\d+)', CODES.read_text(encoding='utf-8'), flags=re.M)}


def _table_rows(heading: str, document: Path = README):
    """Cells of each row of the first table after a heading, header rows excluded."""
    text = document.read_text(encoding='utf-8')
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
            _table_rows('## Error codes', NODE_DOC)}


def _number(text: str) -> float:
    return math.pi if text.strip() == 'π' else float(text)


def _readme_range(name: str):
    """Return the range in the README row of a parameter: (bracket, low, high, bracket)."""
    rows = {row[0].strip('`'): row for row in _table_rows('### Parameters')}
    assert name in rows, 'parameter %s is not in the README table' % name
    found = re.search(r'([\[(])\s*([-+\w.π]+)\s*,\s*([-+\w.π]+)\s*([\])])', rows[name][-1])
    assert found, 'the README gives no range for %s' % name
    return found.group(1), _number(found.group(2)), _number(found.group(3)), found.group(4)


def test_the_node_doc_lists_every_error_code_with_its_value():
    constants = _msg_constants()
    assert {'SUCCESS', 'NO_SOLUTION', 'TIMED_OUT', 'INTERNAL_ERROR'} <= set(constants)
    assert _readme_error_codes() == constants


@pytest.mark.parametrize('spec', RANGED, ids=[spec.name for spec in RANGED])
def test_the_readme_range_is_the_declared_inclusive_range(spec):
    opening, low, high, closing = _readme_range(spec.name)
    assert (opening, closing) == ('[', ']'), 'rclpy accepts both ends of %s' % spec.name
    assert (low, high) == pytest.approx(spec.floating_range, rel=1e-12)


@pytest.fixture(scope='module')
def node():
    context = rclpy.Context()
    rclpy.init(context=context)
    ik_node = IKNode(namespace=unique_namespace(), context=context)
    try:
        yield ik_node
    finally:
        ik_node.destroy_node()
        rclpy.shutdown(context=context)


def _accepted(node, name: str, value: float) -> bool:
    return node.set_parameters([Parameter(name, value=float(value))])[0].successful


@pytest.mark.parametrize('spec', RANGED, ids=[spec.name for spec in RANGED])
def test_the_node_accepts_both_ends_of_the_readme_range_and_nothing_beyond(node, spec):
    _, low, high, _ = _readme_range(spec.name)
    try:
        assert _accepted(node, spec.name, low)
        assert _accepted(node, spec.name, high)
        # Well beyond rclpy's relative tolerance at the ends.
        assert not _accepted(node, spec.name, low - max(1e-3 * abs(low), 1e-3))
        assert not _accepted(node, spec.name, high + max(1e-3 * abs(high), 1e-3))
    finally:
        assert _accepted(node, spec.name, spec.default)
