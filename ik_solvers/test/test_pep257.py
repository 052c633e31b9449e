# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Style: docstrings follow PEP 257 with the ROS 2 settings."""

import pytest

ament_pep257 = pytest.importorskip(
    'ament_pep257.main', reason='ament_pep257 is not installed (rosdep key ament_pep257)')


@pytest.mark.linter
@pytest.mark.pep257
def test_pep257():
    return_code = ament_pep257.main(argv=['.', 'test'])
    assert return_code == 0, 'pep257 found docstring problems (listed above)'
