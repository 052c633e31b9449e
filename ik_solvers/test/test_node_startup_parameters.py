# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Parameters given at start-up get the runtime checks: a bad one stops the node with its reason.

rclpy itself admits values within 1e-6 (relative) of a range's end and checks neither the
solver's name nor the orientation modes; the node checks every override as a runtime change is
checked, and refuses to start with a message naming each refused parameter.
"""

import os
from pathlib import Path
import subprocess

from ik_solvers.exceptions import InvalidParameterError
from ik_solvers.ros.ik_node import IKNode
import pytest
import rclpy
from rclpy.parameter import Parameter
from test_node_support import unique_namespace, WAIT


@pytest.fixture
def context():
    context = rclpy.Context()
    rclpy.init(context=context)
    yield context
    rclpy.shutdown(context=context)


@pytest.mark.parametrize('name, value, says', [
    ('velocity_scale', 1.0000009, '[0.0'),  # within rclpy's own tolerance of 1.0
    ('cartesian_timeout', 10.000009, 'cartesian_timeout must lie in'),
    ('velocity_scale', 2.0, 'velocity_scale must lie in'),  # rclpy would raise its own error
    ('solver', 'no_such_solver', 'no_such_solver'),
    ('orientation_mode', 'sideways', 'sideways'),
    ('timeout', 'fast', 'timeout must be a float'),
])
def test_a_bad_start_up_parameter_stops_the_node_naming_it(context, name, value, says):
    with pytest.raises(InvalidParameterError) as refused:
        IKNode(namespace=unique_namespace(), context=context,
               parameter_overrides=[Parameter(name, value=value)])
    assert name in str(refused.value) and says in str(refused.value), str(refused.value)


def test_every_refused_parameter_is_named_at_once(context):
    with pytest.raises(InvalidParameterError) as refused:
        IKNode(namespace=unique_namespace(), context=context, parameter_overrides=[
            Parameter('velocity_scale', value=1.0000009), Parameter('solver', value='nope')])
    assert 'velocity_scale' in str(refused.value) and 'nope' in str(refused.value)


def test_good_start_up_parameters_are_taken_exactly(context):
    node = IKNode(namespace=unique_namespace(), context=context, parameter_overrides=[
        Parameter('velocity_scale', value=1.0), Parameter('timeout', value=1),
        Parameter('solver', value='ccd')])
    try:
        assert node.get_parameter('velocity_scale').value == 1.0
        assert node.get_parameter('timeout').value == 1.0  # an integer for a float
        assert node.get_parameter('solver').value == 'ccd'
    finally:
        node.destroy_node()


def test_the_installed_node_exits_with_1_and_the_reason_on_a_bad_yaml(tmp_path):
    try:
        from ament_index_python.packages import get_package_prefix, PackageNotFoundError
        executable = Path(get_package_prefix('ik_solvers')) / 'lib' / 'ik_solvers' / 'ik_node'
    except (ImportError, PackageNotFoundError):
        pytest.skip('ik_solvers is not built and sourced (colcon build; source install/setup)')
    if not executable.exists():
        pytest.skip('%s is not installed; rebuild with colcon' % executable)
    params = tmp_path / 'bad.yaml'
    # Any namespace: the node runs in one of its own.
    params.write_text('/**/ik_node:\n  ros__parameters:\n    velocity_scale: 1.0000009\n')
    process = subprocess.run(
        [str(executable), '--ros-args', '-r', '__ns:=' + unique_namespace(),
         '--params-file', str(params)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ),
        timeout=2 * WAIT)  # a node that started would run on: a hang bound
    assert process.returncode == 1, process.stdout
    assert 'velocity_scale must lie in' in process.stdout, process.stdout
    assert 'Traceback' not in process.stdout, process.stdout
