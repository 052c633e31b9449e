# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Fixtures every test module shares."""

import pytest

from ik_solvers import warm_up


@pytest.fixture(scope='session', autouse=True)
def compiled_solvers():
    """
    Compile, or load from the disk cache, every solver before the first test runs.

    A solver is otherwise compiled on its first solve, which takes seconds after a fresh
    build: long enough to age the joint states a test has just sent, or to run past the
    timeouts of tests that start nodes.
    """
    warm_up()
