# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Fixtures every test module shares."""

from pathlib import Path

import pytest

from ik_solvers import RobotModel, warm_up

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'


@pytest.fixture(scope='session', autouse=True)
def compiled_solvers():
    """
    Compile, or load from the disk cache, every solver before the first test runs.

    A solver is otherwise compiled on its first solve, which takes seconds after a fresh
    build: long enough to age the joint states a test has just sent, or to run past the
    timeouts of tests that start nodes.
    """
    warm_up()


def bundled_chain(file_name: str, base_link: str, tip_link: str):
    """
    Cut a chain out of one of the package's bundled URDFs.

    :param file_name: A file of ``urdf/``.
    :param base_link: Base of the chain.
    :param tip_link: Tip of the chain.
    :returns: The chain.
    """
    return RobotModel.from_urdf((URDF_DIRECTORY / file_name).read_text(encoding='utf-8')).chain(
        base_link, tip_link)


@pytest.fixture(scope='session')
def ur5():
    """Return the bundled UR5-like arm, ``base_link`` to ``tool0``."""
    return bundled_chain('ur5_like.urdf', 'base_link', 'tool0')


@pytest.fixture(scope='session')
def panda():
    """Return the bundled Panda-like arm, ``panda_link0`` to ``panda_hand_tcp``."""
    return bundled_chain('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')


@pytest.fixture
def ros():
    """
    Yield a ROS context with helpers to start nodes in it; everything is shut down after.

    Imported here, not at the top: the core's tests run without ROS.
    """
    from test_node_support import Ros
    harness = Ros()
    try:
        yield harness
    finally:
        harness.close()
