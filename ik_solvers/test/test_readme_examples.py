# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The README's ``ros2 service call`` and ``ros2 topic pub`` examples, run against the default launch.

Each example's YAML is read out of the README and put into a request or message field by field,
the way ros2cli does, so that a changed README or a changed node shows up here. The nodes are the
ones the launch file starts with its default arguments: the ik_node with ``config/ik_solvers.yaml``
and the launch file's chain, and the simulated executor; the description is published on
``robot_description`` as robot_state_publisher does. launch itself is not needed.
"""

import importlib
from pathlib import Path
import re
import shlex
import threading

from geometry_msgs.msg import PoseStamped
from ik_solvers.ros.ik_node import IKNode
from ik_solvers.ros.names import (
    CARTESIAN_PATH_SERVICE,
    OBSTACLES_TOPIC,
    SOLVE_IK_SERVICE,
    TARGET_POSE_TOPIC,
)
from ik_solvers.visualization.sim_executor import SimulatedExecutor
from ik_solvers_interfaces.msg import CollisionObject, ErrorCodes
from ik_solvers_interfaces.srv import CartesianPath, SolveIK
import pytest
import rclpy
from rclpy.parameter import Parameter
from test_launch_files import _argument_defaults, _share_paths, _tree
from test_node_support import Probe, Spinner, unique_namespace, WAIT, wait_until
import yaml

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
README = PACKAGE_ROOT.parent / 'README.md'
CONFIG = PACKAGE_ROOT / 'config' / 'ik_solvers.yaml'
Codes = ErrorCodes


def _readme_commands(program: str):
    """Each ``ros2 <program> ...`` command of the README's bash blocks, split like a shell."""
    text = README.read_text(encoding='utf-8')
    commands = []
    for block in re.findall(r'```bash\n(.*?)```', text, flags=re.S):
        for command in block.replace('\\\n', ' ').splitlines():
            words = shlex.split(command, comments=True)
            if words[:2] == ['ros2', program]:
                commands.append(words)
    return commands


def _service_calls():
    """(service, type, YAML) of every ``ros2 service call`` in the README."""
    return [tuple(words[3:6]) for words in _readme_commands('service')
            if words[2] == 'call']


def _topic_pubs():
    """(topic, type, YAML) of every ``ros2 topic pub`` in the README; options dropped."""
    examples = []
    for words in _readme_commands('topic'):
        if words[2] == 'pub':
            arguments = [word for word in words[3:] if not word.startswith('-')]
            examples.append(tuple(arguments[:3]))
    return examples


def _set_fields(message, values: dict) -> None:
    """
    Fill a message from parsed YAML as ``ros2 service call``/``ros2 topic pub`` do.

    :raises AttributeError: a key is not a field of the message (ros2cli refuses it too).
    """
    types = message.get_fields_and_field_types()
    for name, value in values.items():
        if name not in types:
            raise AttributeError('%s has no field %r' % (type(message).__name__, name))
        if isinstance(value, dict):
            _set_fields(getattr(message, name), value)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            setattr(message, name, [_message_of(types[name], item) for item in value])
        elif types[name] in ('double', 'float'):
            setattr(message, name, float(value))
        else:
            setattr(message, name, value)


def _message_of(field_type: str, values: dict):
    """Build one element of a sequence of messages, e.g. ``sequence<geometry_msgs/Pose>``."""
    package, name = re.fullmatch(r'sequence<(\w+)/(\w+)(?:, \d+)?>', field_type).groups()
    element = getattr(importlib.import_module(package + '.msg'), name)()
    _set_fields(element, values)
    return element


def _call_path(probe, request):
    client = probe.node.create_client(CartesianPath, probe.solve_ik.srv_name.replace(
        'solve_ik', 'cartesian_path'))
    assert client.wait_for_service(timeout_sec=WAIT), 'no cartesian_path service'
    future = client.call_async(request)
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    assert done.wait(WAIT), 'no CartesianPath response within %g s' % WAIT
    return future.result()


def _launch_defaults():
    """Return the launch arguments' defaults and the default description's URDF text."""
    tree = _tree()
    defaults = _argument_defaults(tree)
    urdf = [path for path in _share_paths(tree) if path.parts[0] == 'urdf']
    assert len(urdf) == 1, 'the launch file names one default description'
    return defaults, (PACKAGE_ROOT / urdf[0]).read_text(encoding='utf-8')


@pytest.fixture
def default_launch():
    """Start the ik_node and simulated executor as the launch file does, plus a probe."""
    defaults, urdf = _launch_defaults()
    parameters = yaml.safe_load(CONFIG.read_text(encoding='utf-8'))['ik_node']['ros__parameters']
    parameters.update({name: defaults[name] for name in ('base_link', 'tip_link', 'solver',
                                                         'controller_name')})
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    # Every test has a namespace of its own; the README's absolute names are checked against
    # the node's names relative to it.
    namespace = unique_namespace()
    nodes = []
    try:
        ik_node = IKNode(namespace=namespace, context=context, parameter_overrides=[
            Parameter(name, value=value) for name, value in parameters.items()])
        executor = SimulatedExecutor(namespace=namespace, context=context, parameter_overrides=[
            Parameter('controller_name', value=defaults['controller_name'])])
        probe = Probe(context, namespace)
        for node in (ik_node, executor, probe.node):
            nodes.append(node)
            spinner.executor.add_node(node)
        # The launch's command topic is not the probe's, so wait for the rest of the node.
        status_topic = probe.node.resolve_topic_name('ik_node/status')
        assert wait_until(lambda: probe.targets.get_subscription_count() > 0
                          and probe.node.count_publishers(status_topic) > 0), \
            'ik_node not discovered'
        assert probe.solve_ik.wait_for_service(timeout_sec=WAIT), 'no solve_ik service'
        probe.publish_description(urdf)
        probe.wait_for_model()
        yield namespace, ik_node, probe
    finally:
        spinner.stop()
        for node in nodes:
            node.destroy_node()
        rclpy.shutdown(context=context)


def test_the_readme_has_both_kinds_of_example():
    assert _service_calls(), 'no ros2 service call example in the README'
    assert _topic_pubs(), 'no ros2 topic pub example in the README'


def test_every_service_call_example_succeeds_against_the_default_launch(default_launch):
    namespace, ik_node, probe = default_launch
    for service, service_type, text in _service_calls():
        if service_type == 'ik_solvers_interfaces/srv/CartesianPath':
            assert namespace + service == ik_node.resolve_service_name(CARTESIAN_PATH_SERVICE)
            request = CartesianPath.Request()
            _set_fields(request, yaml.safe_load(text))
            response = _call_path(probe, request)
            assert response.error_code == ErrorCodes.SUCCESS, response.message
            assert response.success and response.fraction == 1.0
            assert len(response.trajectory.points) > 2
            continue
        assert service_type == 'ik_solvers_interfaces/srv/SolveIK'
        assert namespace + service == ik_node.resolve_service_name(SOLVE_IK_SERVICE)
        request = SolveIK.Request()
        _set_fields(request, yaml.safe_load(text))
        response = probe.call(request)
        assert response.error_code == Codes.SUCCESS, response.message
        assert response.success


def test_every_topic_pub_example_is_solved_and_commanded_by_the_default_launch(default_launch):
    namespace, ik_node, probe = default_launch
    for topic, message_type, text in _topic_pubs():
        if message_type != 'geometry_msgs/msg/PoseStamped':
            continue  # obstacles: below
        assert namespace + topic == ik_node.resolve_topic_name(TARGET_POSE_TOPIC)
        message = PoseStamped()
        _set_fields(message, yaml.safe_load(text))
        start = probe.statuses.count()
        probe.targets.publish(message)
        status = probe.statuses.wait_for(lambda s: True, start=start)
        assert status.error_code == Codes.SUCCESS, status.message
        assert status.success and status.commanded


def test_every_obstacle_example_is_applied_by_the_default_launch(default_launch):
    namespace, ik_node, probe = default_launch
    examples = [(topic, text) for topic, message_type, text in _topic_pubs()
                if message_type == 'ik_solvers_interfaces/msg/CollisionObject']
    assert examples, 'no obstacle example in the README'
    publisher = probe.node.create_publisher(CollisionObject, 'ik_node/obstacles', 10)
    assert wait_until(lambda: publisher.get_subscription_count() > 0)
    operations = {b'\x00': 'add', b'\x01': 'remove', b'\x03': 'move'}
    for topic, text in examples:
        assert namespace + topic == ik_node.resolve_topic_name(OBSTACLES_TOPIC)
        message = CollisionObject()
        _set_fields(message, yaml.safe_load(text))
        start = probe.logs.count()
        publisher.publish(message)
        line = probe.logs.wait_for(lambda log: "obstacle '%s'" % message.id in log.msg,
                                   start=start)
        assert "'%s': %s;" % (message.id, operations[message.operation]) in line.msg, line.msg
