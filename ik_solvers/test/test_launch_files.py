# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The launch file and the RViz config, checked where launch_ros and RViz are not installed.

The launch file is read as a Python syntax tree (never imported: that needs launch_ros), the
RViz config as YAML. Every package file and executable the launch file names must be in the
install space, and the RViz displays must listen where the nodes publish.
"""

import ast
import importlib
import os
from pathlib import Path

import pytest
import yaml

from ik_solvers.kinematics import RobotModel

PACKAGE = 'ik_solvers'
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
LAUNCH_FILE = PACKAGE_ROOT / 'launch' / 'ik_solvers.launch.py'
RVIZ_FILE = PACKAGE_ROOT / 'config' / 'ik_solvers.rviz'
ARGUMENTS = {'description_file', 'base_link', 'tip_link', 'solver', 'use_rviz',
             'sim_execution', 'controller_name', 'orientation_mode', 'tip_links'}


def _tree():
    return ast.parse(LAUNCH_FILE.read_text(encoding='utf-8'), filename=str(LAUNCH_FILE))


def _constants(tree):
    """Module-level NAME = 'text' assignments, and the names imported from ik_solvers.ros."""
    names = {}
    for statement in tree.body:
        if (isinstance(statement, ast.ImportFrom)
                and (statement.module or '').startswith('ik_solvers.ros')):
            module = importlib.import_module(statement.module)
            names.update({alias.asname or alias.name: getattr(module, alias.name)
                          for alias in statement.names
                          if isinstance(getattr(module, alias.name), str)})
        if (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = statement.value.value
    return names


def _text(node, constants):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _calls(tree, name):
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, 'id', getattr(node.func, 'attr', None)) == name]


def _keyword(call, name):
    return next((k.value for k in call.keywords if k.arg == name), None)


def _share_paths(tree):
    """Relative paths of PathJoinSubstitution([FindPackageShare(PACKAGE), 'a', 'b'])."""
    constants = _constants(tree)
    paths = set()
    for call in _calls(tree, 'PathJoinSubstitution'):
        parts = call.args[0].elts
        head = parts[0]
        if (isinstance(head, ast.Call) and getattr(head.func, 'id', '') == 'FindPackageShare'
                and _text(head.args[0], constants) == PACKAGE):
            paths.add(Path(*[_text(part, constants) for part in parts[1:]]))
    return paths


def _ik_solvers_executables(tree):
    constants = _constants(tree)
    return {_text(_keyword(call, 'executable'), constants): call
            for call in _calls(tree, 'Node')
            if _text(_keyword(call, 'package'), constants) == PACKAGE}


def _argument_defaults(tree):
    constants = _constants(tree)
    defaults = {}
    for call in _calls(tree, 'DeclareLaunchArgument'):
        default = _keyword(call, 'default_value')
        defaults[_text(call.args[0], constants)] = (
            _text(default, constants) if default is not None else None)
    return defaults


def _rviz():
    return yaml.safe_load(RVIZ_FILE.read_text(encoding='utf-8'))


def _display(config, plugin):
    displays = [d for d in config['Visualization Manager']['Displays']
                if d['Class'] == 'rviz_default_plugins/' + plugin]
    assert len(displays) == 1, 'expected one %s display' % plugin
    return displays[0]


def test_the_launch_file_is_python_with_the_entry_point_and_arguments():
    tree = _tree()
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert 'generate_launch_description' in functions
    assert set(_argument_defaults(tree)) == ARGUMENTS


def test_the_description_reaches_robot_state_publisher_as_a_string():
    tree = _tree()
    calls = _calls(tree, 'ParameterValue')
    assert calls, 'robot_description must be wrapped in ParameterValue'
    assert all(getattr(_keyword(call, 'value_type'), 'id', None) == 'str' for call in calls)
    constants = _constants(tree)
    packages = {_text(_keyword(call, 'package'), constants) for call in _calls(tree, 'Node')}
    assert {'robot_state_publisher', 'rviz2', PACKAGE} <= packages


def test_the_default_arguments_name_a_chain_of_the_default_description():
    tree = _tree()
    defaults = _argument_defaults(tree)
    urdf = [path for path in _share_paths(tree) if path.parts[0] == 'urdf']
    assert len(urdf) == 1
    model = RobotModel.from_urdf((PACKAGE_ROOT / urdf[0]).read_text(encoding='utf-8'))
    chain = model.chain(defaults['base_link'], defaults['tip_link'])
    assert chain.num_joints == 7
    assert _rviz()['Visualization Manager']['Global Options']['Fixed Frame'] == \
        defaults['base_link']


def test_every_file_and_program_the_launch_file_names_is_installed():
    index = pytest.importorskip(
        'ament_index_python.packages', reason='ament_index_python is not installed')
    try:
        share = Path(index.get_package_share_directory(PACKAGE))
        prefix = Path(index.get_package_prefix(PACKAGE))
    except index.PackageNotFoundError:
        pytest.skip('ik_solvers is not installed: build it and source install/local_setup.bash')
    tree = _tree()
    paths = _share_paths(tree) | {Path('launch') / LAUNCH_FILE.name}
    assert {Path('config/ik_solvers.yaml'), Path('config/ik_solvers.rviz')} <= paths
    for relative in paths:
        installed = share / relative
        assert installed.is_file(), '%s is not installed' % installed
        assert installed.read_bytes() == (PACKAGE_ROOT / relative).read_bytes(), \
            '%s differs from the source tree: rebuild' % installed
    executables = _ik_solvers_executables(tree)
    assert set(executables) == {'ik_node', 'goal_marker', 'sim_executor'}
    for name in executables:
        program = prefix / 'lib' / PACKAGE / name
        assert os.access(program, os.X_OK), '%s is not installed' % program


def test_the_ik_node_parameters_file_configures_the_node_the_launch_file_starts():
    tree = _tree()
    node_names = {name: _text(_keyword(call, 'name'), _constants(tree))
                  for name, call in _ik_solvers_executables(tree).items()}
    parameters = yaml.safe_load((PACKAGE_ROOT / 'config' / 'ik_solvers.yaml').read_text())
    assert node_names['ik_node'] in parameters
    assert 'ros__parameters' in parameters[node_names['ik_node']]


def test_rviz_reads_the_late_description_and_shows_the_goal_and_the_result():
    config = _rviz()
    robot = _display(config, 'RobotModel')
    assert robot['Description Source'] == 'Topic'
    assert robot['Description Topic']['Value'] == '/robot_description'
    assert robot['Description Topic']['Durability Policy'] == 'Transient Local'
    assert robot['Enabled'] is True
    assert _display(config, 'TF')['Enabled'] is True

    tree = _tree()
    goal_node = _text(_keyword(_ik_solvers_executables(tree)['goal_marker'], 'name'),
                      _constants(tree))
    goal = _display(config, 'InteractiveMarkers')
    assert goal['Interactive Markers Namespace'] == '/' + goal_node
    markers = _display(config, 'MarkerArray')
    from ik_solvers.ros.names import MARKERS_TOPIC, NODE_NAME
    assert markers['Topic']['Value'] == MARKERS_TOPIC.replace('~', '/' + NODE_NAME)


def test_rviz_starts_with_the_interact_tool():
    tools = _rviz()['Visualization Manager']['Tools']
    # RViz makes the first tool of the list the default and current one.
    assert tools[0]['Class'] == 'rviz_default_plugins/Interact'


def _parameter_dicts(call):
    """Return the dict literals in a Node call's parameters list, as {key: value node}."""
    parameters = _keyword(call, 'parameters')
    return [{key.value: value for key, value in zip(item.keys, item.values) if key is not None}
            for item in parameters.elts if isinstance(item, ast.Dict)]


def _splats(call):
    """Return the names unpacked (``**name``) into the dict literals of a Node's parameters."""
    parameters = _keyword(call, 'parameters')
    return [value.id for item in parameters.elts if isinstance(item, ast.Dict)
            for key, value in zip(item.keys, item.values)
            if key is None and isinstance(value, ast.Name)]


def test_the_tip_links_argument_reaches_the_goal_marker_and_the_ik_node():
    tree = _tree()
    assert _argument_defaults(tree)['tip_links'] == ''
    executables = _ik_solvers_executables(tree)
    for name in ('goal_marker', 'ik_node'):
        assert _splats(executables[name]) == ['tip_links'], name


def test_the_orientation_mode_argument_reaches_the_goal_marker_and_the_ik_node():
    tree = _tree()
    assert _argument_defaults(tree)['orientation_mode'] == 'full'
    from ik_solvers.visualization.goal_marker_mode import ORIENTATION_MODES
    assert ORIENTATION_MODES[0] == 'full'
    executables = _ik_solvers_executables(tree)
    for name in ('goal_marker', 'ik_node'):
        passed = [entries['orientation_mode'] for entries in _parameter_dicts(executables[name])
                  if 'orientation_mode' in entries]
        assert len(passed) == 1, name
        # _text('orientation_mode'): the launch argument, as a string.
        value = passed[0]
        assert getattr(value.func, 'id', None) == '_text'
        assert _text(value.args[0], _constants(tree)) == 'orientation_mode'
