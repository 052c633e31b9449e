# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The node's parameters: defaults agree everywhere, descriptors carry ranges, checks refuse."""

from dataclasses import fields
import math
from pathlib import Path

from ik_solvers import SOLVERS
from ik_solvers.ros.names import command_topic_for
from ik_solvers.engine.settings import check_parameter, MAX_TIMEOUT, NodeSettings, PARAMETERS
from ik_solvers.kinematics import RobotModel
from ik_solvers.ros.node_parameters import describe
import pytest
from rcl_interfaces.msg import ParameterType

yaml = pytest.importorskip('yaml', reason='PyYAML is not installed')

CONFIG = Path(__file__).resolve().parents[1] / 'config' / 'ik_solvers.yaml'


#: The YAML names the chain of the robot the README and the launch file run the node on.
CHAIN_PARAMETERS = ('base_link', 'tip_link')
BUNDLED_ROBOT = Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf'


def test_yaml_lists_every_parameter_with_its_default_but_the_chain():
    values = yaml.safe_load(CONFIG.read_text())['ik_node']['ros__parameters']
    assert set(values) == {spec.name for spec in PARAMETERS}
    for spec in PARAMETERS:
        value = values[spec.name]
        if isinstance(spec.default, tuple):  # YAML has lists only
            value = type(spec.default)(value)
        assert type(value) is type(spec.default), spec.name
        if spec.name not in CHAIN_PARAMETERS:
            assert value == pytest.approx(spec.default), spec.name


def test_yaml_chain_is_a_chain_of_the_bundled_robot():
    values = yaml.safe_load(CONFIG.read_text())['ik_node']['ros__parameters']
    model = RobotModel.from_urdf(BUNDLED_ROBOT.read_text())
    chain = model.chain(values['base_link'] or model.root_link, values['tip_link'])
    assert chain.num_joints == 7 and chain.tip_link == values['tip_link']


def test_yaml_chain_is_the_launch_files_default():
    launch_text = (CONFIG.parents[1] / 'launch' / 'ik_solvers.launch.py').read_text()
    values = yaml.safe_load(CONFIG.read_text())['ik_node']['ros__parameters']
    for name in CHAIN_PARAMETERS:
        assert "'%s', default_value='%s'" % (name, values[name]) in launch_text, name


def test_settings_defaults_match_the_declared_defaults():
    declared = {spec.name: spec.default for spec in PARAMETERS}
    for field in fields(NodeSettings):
        assert getattr(NodeSettings(), field.name) == pytest.approx(declared[field.name])
    assert NodeSettings.from_values({'solver': 'ccd', 'unrelated': 1}).solver == 'ccd'


def test_descriptors_carry_type_range_and_read_only():
    by_name = {spec.name: describe(spec) for spec in PARAMETERS}
    assert by_name['solver'].type == ParameterType.PARAMETER_STRING
    assert by_name['position_only'].type == ParameterType.PARAMETER_BOOL
    timeout = by_name['timeout']
    assert timeout.type == ParameterType.PARAMETER_DOUBLE
    assert timeout.floating_point_range[0].to_value == MAX_TIMEOUT
    assert timeout.floating_point_range[0].from_value > 0.0
    assert by_name['command_topic'].read_only and not by_name['solver'].read_only
    assert all(descriptor.description for descriptor in by_name.values())
    for name in SOLVERS:
        assert name in by_name['solver'].additional_constraints


def test_every_float_default_lies_in_its_range():
    for spec in PARAMETERS:
        if spec.floating_range is not None:
            low, high = spec.floating_range
            assert low <= spec.default <= high, spec.name
            assert math.isfinite(low) and math.isfinite(high)


def test_the_queue_bound_is_an_integer_parameter_with_a_range():
    spec = [spec for spec in PARAMETERS if spec.name == 'max_pending_requests'][0]
    descriptor = describe(spec)
    assert descriptor.type == ParameterType.PARAMETER_INTEGER
    bounds = descriptor.integer_range[0]
    assert 1 == bounds.from_value <= spec.default <= bounds.to_value


def test_unknown_solver_is_refused_with_a_reason():
    reason = check_parameter('solver', 'gradient_descent')
    assert reason is not None and 'gradient_descent' in reason
    for name in SOLVERS:
        assert check_parameter('solver', name) is None
    assert check_parameter('timeout', 0.5) is None


def test_command_topic_defaults_to_the_controller_topic():
    assert command_topic_for('', 'joint_trajectory_controller') == \
        '/joint_trajectory_controller/joint_trajectory'
    assert command_topic_for('', '/arm_controller/') == '/arm_controller/joint_trajectory'
    assert command_topic_for('/custom', 'ignored') == '/custom'
    with pytest.raises(ValueError):
        command_topic_for(' ', '')
