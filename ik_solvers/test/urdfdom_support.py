# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The references the URDF tests compare with: urdfdom's own verdict, and the vendor URDFs.

urdfdom's ``check_urdf`` tool ships in the cmeel-urdfdom wheel that Pinocchio (PyPI: pin)
depends on; the vendor URDFs are those of example-robot-data.
"""

import importlib.metadata
import os
from pathlib import Path
import subprocess
import tempfile
from typing import List, Optional

import pytest

#: Vendor descriptions robot_state_publisher loads, each with a chain of it: (path under
#: example-robot-data's robots/, base link, tip link). The tip is a leaf at the end of the
#: longest moving chain; pr2's and panda's chains end at a finger whose leader is off the chain.
VENDOR_CHAINS = [
    ('pr2_description/urdf/pr2.urdf', 'base_footprint', 'r_gripper_r_finger_tip_link'),
    ('icub_description/robots/icub.urdf', 'root_link', 'r_hand'),
    ('icub_description/robots/icub_reduced.urdf', 'root_link', 'r_hand'),
    ('romeo_description/urdf/romeo_laas_small.urdf', 'base_link', 'r_wrist'),
    ('romeo_description/urdf/romeo.urdf', 'base_link', 'r_wrist'),
    ('double_pendulum_description/urdf/double_pendulum.urdf', 'base_link', 'link2'),
    ('double_pendulum_description/urdf/double_pendulum_continuous.urdf', 'base_link', 'link2'),
    ('double_pendulum_description/urdf/double_pendulum_simple.urdf', 'base_link', 'link2'),
    ('iris_description/robots/iris.urdf', 'iris__base_link', 'iris__rotor_0'),
    ('panda_description/urdf/panda.urdf', 'panda_link0', 'panda_rightfinger'),
]
#: Test ids of :data:`VENDOR_CHAINS`: file name and tip link.
VENDOR_CHAIN_IDS = [relative.rsplit('/', 1)[1] + ':' + tip for relative, _, tip in VENDOR_CHAINS]

#: Seconds check_urdf may take on one description before the test fails: it takes
#: milliseconds; the bound only keeps a hung process from hanging the suite.
CHECK_URDF_HANG_BOUND = 60.0


def _cmeel_file(distribution: str, relative: str) -> Optional[Path]:
    try:
        found = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
    path = Path(found.locate_file('cmeel.prefix/' + relative))
    return path if path.exists() else None


def urdfdom_verdict(urdf_xml: str) -> Optional[bool]:
    """
    Tell whether urdfdom parses a description, as robot_state_publisher would.

    :returns: True or False; None when check_urdf is not installed.
    """
    tool = _cmeel_file('cmeel-urdfdom', 'bin/check_urdf')
    if tool is None:
        return None
    library = tool.parent.parent / 'lib'
    environment = dict(os.environ)
    environment['LD_LIBRARY_PATH'] = os.pathsep.join(
        part for part in (str(library), environment.get('LD_LIBRARY_PATH', '')) if part)
    with tempfile.NamedTemporaryFile('w', suffix='.urdf', encoding='utf-8') as file:
        file.write(urdf_xml)
        file.flush()
        finished = subprocess.run([str(tool), file.name], env=environment,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=CHECK_URDF_HANG_BOUND, check=False)
    return finished.returncode == 0


def urdfdom_accepts(urdf_xml: str) -> bool:
    """Tell whether urdfdom parses a description; skip the test without check_urdf."""
    verdict = urdfdom_verdict(urdf_xml)
    if verdict is None:
        pytest.skip("urdfdom's check_urdf is not installed (PyPI: cmeel-urdfdom, with pin)")
    return verdict


def example_robot_urdfs() -> List[Path]:
    """Return every URDF of example-robot-data, sorted; skip the test when it is absent."""
    robots = _cmeel_file('example-robot-data', 'share/example-robot-data/robots')
    if robots is None:
        pytest.skip('example-robot-data (PyPI) is not installed; it holds the vendor URDFs')
    return sorted(robots.rglob('*.urdf'))


def example_robot_urdf(relative: str) -> str:
    """Return the text of one example-robot-data URDF, e.g. ``pr2_description/urdf/pr2.urdf``."""
    robots = _cmeel_file('example-robot-data', 'share/example-robot-data/robots')
    if robots is None:
        pytest.skip('example-robot-data (PyPI) is not installed; it holds the vendor URDFs')
    return (robots / relative).read_text(encoding='utf-8')
