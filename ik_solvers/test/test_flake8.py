# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Style: the whole package passes flake8 with the ROS 2 settings."""

import pytest

ament_flake8 = pytest.importorskip(
    'ament_flake8.main', reason='ament_flake8 is not installed (rosdep key ament_flake8)')


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    return_code, errors = ament_flake8.main_with_errors(argv=[])
    assert return_code == 0, 'flake8 found %d problem(s):\n' % len(errors) + '\n'.join(errors)
