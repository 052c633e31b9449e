# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Every Python file of the package opens with a copyright line and its license."""

from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
HEADER_LINES = 5


def _python_files():
    skipped = {'build', 'install', 'log', '.venv'}
    return sorted(
        path for path in PACKAGE_ROOT.rglob('*.py')
        if not skipped.intersection(path.relative_to(PACKAGE_ROOT).parts))


@pytest.mark.copyright
@pytest.mark.linter
def test_every_python_file_has_a_license_header():
    files = _python_files()
    assert files, 'no Python files found under %s' % PACKAGE_ROOT
    missing = []
    for path in files:
        head = path.read_text(encoding='utf-8').splitlines()[:HEADER_LINES]
        has_copyright = any(line.startswith('# Copyright ') for line in head)
        has_license = any('SPDX-License-Identifier: Apache-2.0' in line for line in head)
        if not (has_copyright and has_license):
            missing.append(str(path.relative_to(PACKAGE_ROOT)))
    assert not missing, 'files without a copyright and license header: %s' % missing
