# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Every module imports only what its row of the layer table in docs/ARCHITECTURE.md allows."""

import ast
import fnmatch
from pathlib import Path
import re
import sys

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / 'ik_solvers'
# The benchmarks are a sibling package, outside the importable library; one row of the table.
BENCHMARKS = PACKAGE.parent / 'ik_solvers_benchmarks'
BENCHMARKS_ROW = 'ik_solvers_benchmarks'
ARCHITECTURE = Path(__file__).resolve().parents[2] / 'docs' / 'ARCHITECTURE.md'
ROOT_ROW = '(root)'

if not ARCHITECTURE.is_file():
    pytest.skip('docs/ARCHITECTURE.md is not beside the package (an installed copy)',
                allow_module_level=True)


def _layer_table():
    """Folder -> (allowed package layers, allowed outside modules), read from the table."""
    rows = {}
    for line in ARCHITECTURE.read_text(encoding='utf-8').splitlines():
        cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
        if len(cells) != 4 or not cells[0].startswith('`'):
            continue
        folder = cells[0].strip('`').rstrip('/')
        inside = set(re.findall(r'`([^`]+)`', cells[2]))
        outside = set(re.findall(r'`([^`]+)`', cells[3]))
        rows[folder] = (inside, outside)
    return rows


def _layer_of(path: Path) -> str:
    if BENCHMARKS in path.parents:
        return BENCHMARKS_ROW
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else ROOT_ROW


def _imports(path: Path):
    """Yield (inside, name) per import: inside names are dotted below the package."""
    if BENCHMARKS in path.parents:
        folder = [BENCHMARKS_ROW] + list(path.relative_to(BENCHMARKS).parts[:-1])
    else:
        folder = list(path.relative_to(PACKAGE).parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield _classify(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield _classify(node.module)
        elif isinstance(node, ast.ImportFrom):
            base = folder[:len(folder) - node.level + 1]
            module = base + (node.module.split('.') if node.module else [])
            if module:
                yield True, '.'.join(module)
            else:
                # ``from .. import name``: the names are modules or packages of the root.
                for alias in node.names:
                    yield True, alias.name


def _classify(module: str):
    if module == BENCHMARKS_ROW or module.startswith(BENCHMARKS_ROW + '.'):
        return True, module
    if module == 'ik_solvers' or module.startswith('ik_solvers.'):
        return True, module[len('ik_solvers.'):] if '.' in module else ROOT_ROW
    return False, module


def _allowed_inside(name: str, own: str, allowed) -> bool:
    first = name.split('.')[0]
    return first == own or first in allowed or any(
        name == entry or name.startswith(entry + '.') for entry in allowed)


def _modules():
    return sorted(path for root in (PACKAGE, BENCHMARKS) for path in root.rglob('*.py')
                  if '__pycache__' not in path.parts)


def test_the_table_has_a_row_for_every_folder_of_the_package():
    table = _layer_table()
    folders = {_layer_of(path) for path in _modules()}
    assert folders == set(table), 'rows %s, folders %s' % (sorted(table), sorted(folders))


def test_the_core_rows_allow_neither_rclpy_nor_messages():
    table = _layer_table()
    for folder in ('kinematics', 'solvers', 'paths', 'collision', 'reach', 'servo'):
        inside, outside = table[folder]
        assert not inside & {'ros', 'visualization', 'demo', BENCHMARKS_ROW}, folder
        ros_like = [name for name in outside if name.startswith('rcl')
                    or name.endswith(('_msgs', '_interfaces')) or name.startswith('tf2')]
        assert not ros_like, (folder, ros_like)
    assert table[BENCHMARKS_ROW][0] <= {'exceptions', 'kinematics', 'solvers', 'paths',
                                        'collision', 'demo.scripted_drag',
                                        'demo.played_limits', 'reach',
                                        'preferences', 'servo'}


@pytest.mark.parametrize('path', _modules(),
                         ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_every_import_is_allowed_by_the_layer_table(path):
    table = _layer_table()
    own = _layer_of(path)
    allowed_inside, allowed_outside = table[own]
    stdlib = set(sys.stdlib_module_names)
    wrong = []
    for inside, name in _imports(path):
        if inside:
            if not _allowed_inside(name, own, allowed_inside):
                wrong.append(name)
        else:
            top = name.split('.')[0]
            if top not in stdlib and top != '__future__' and not any(
                    fnmatch.fnmatch(top, pattern) for pattern in allowed_outside):
                wrong.append(name)
    assert not wrong, '%s (row %s) imports %s; docs/ARCHITECTURE.md does not allow it' % (
        path.relative_to(PACKAGE.parent), own, ', '.join(wrong))
