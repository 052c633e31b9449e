# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Every code block of README.md and docs/*.md is run or checked (docs/README-conventions.md).

``python`` blocks run in fresh processes. The ``ros2 service call``, ``ros2 topic pub`` and
``ros2 param set`` commands of ``bash`` blocks are done through rclpy, over DDS, against one
ik_node started as the launch file starts it; the other commands are checked (files, entry
points, launch arguments, options). ``bash no-run: reason`` blocks are counted and few. Every
console script the docs name is found by name, and run with ``--help``, in a shell prepared by
``tools/env.sh`` as the README prepares it.
"""

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
import importlib
import importlib.util
import os
from pathlib import Path
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time

from ament_index_python.packages import get_package_prefix
from ik_solvers.engine.settings import check_parameter, PARAMETERS
from ik_solvers.ros.ik_node import IKNode
from ik_solvers.visualization.sim_executor import SimulatedExecutor
from ik_solvers_interfaces.msg import ErrorCodes, ServoStatus
import pytest
import rclpy
from rclpy.parameter import Parameter
from rcl_interfaces.srv import SetParameters
from test_launch_files import _argument_defaults, _share_paths, _tree
from test_node_support import Collector, Probe, Spinner, unique_namespace, WAIT, wait_until
import yaml

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
ROOT = PACKAGE_ROOT.parent
FILES = [ROOT / 'README.md'] + sorted((ROOT / 'docs').glob('*.md'))
#: Files another change is rewriting; their blocks get the markers when it is merged.
PENDING: dict = {}
KINDS = {'python', 'bash', 'text', 'yaml'}
MAX_NO_RUN = 5
RUNTIME = {('service', 'call'), ('topic', 'pub'), ('param', 'set')}
PYTHON_TIMEOUT = 240.0  # s; the first run after a build compiles the batch kernels


@dataclass(frozen=True)
class Block:
    """One fenced block: where it is, its kind, its no-run reason, and its text."""

    path: Path
    line: int
    kind: str
    no_run: str
    text: str

    def __str__(self) -> str:
        return '%s:%d (%s)' % (self.path.relative_to(ROOT), self.line, self.kind)


def _blocks(path: Path):
    lines, blocks, start = path.read_text(encoding='utf-8').split('\n'), [], None
    for index, line in enumerate(lines):
        if start is None and line.startswith('```'):
            start, info = index, line[3:].strip()
        elif start is not None and line.strip() == '```':
            kind, _, rest = info.partition(' ')
            no_run = rest.partition(':')[2].strip() if rest.startswith('no-run') else ''
            assert not rest or no_run, '%s:%d: "%s" needs "no-run: reason"' % (
                path.name, start + 1, info)
            blocks.append(Block(path, start + 1, kind, no_run,
                                '\n'.join(lines[start + 1:index]) + '\n'))
            start = None
    assert start is None, '%s:%d: a fence is not closed' % (path.name, start + 1)
    return blocks


ALL = [block for path in FILES if path.name not in PENDING for block in _blocks(path)]
PYTHON = [block for block in ALL if block.kind == 'python' and not block.no_run]
BASH = [block for block in ALL if block.kind == 'bash' and not block.no_run]


def _commands(block: Block):
    """Each command of a bash block as its words; ``$(ros2 pkg prefix P)`` resolved."""
    text = re.sub(r'\$\(ros2 pkg prefix (\w+)\)', lambda m: get_package_prefix(m.group(1)),
                  block.text.replace('\\\n', ' '))
    commands = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        while words:
            cut = words.index('&&') if '&&' in words else len(words)
            commands.append(words[:cut])
            words = words[cut + 1:]
    return [words for words in commands if words]


def _is_runtime(words) -> bool:
    return words[0] == 'ros2' and tuple(words[1:3]) in RUNTIME


def test_every_block_has_a_kind_and_no_run_blocks_are_few_and_say_why():
    assert all(block.kind in KINDS for block in ALL), [str(b) for b in ALL if b.kind not in KINDS]
    no_run = [block for block in ALL if block.no_run]
    assert len(no_run) <= MAX_NO_RUN, [str(block) for block in no_run]
    for block in ALL:
        if block.kind == 'yaml':
            yaml.safe_load(block.text)
    runtime = sum(_is_runtime(words) for block in BASH for words in _commands(block))
    print('\ndoc blocks: %d python run, %d bash (%d ros2 commands run against the node), '
          '%d text/yaml, %d no-run: %s' % (
              len(PYTHON), len(BASH), runtime, len(ALL) - len(PYTHON) - len(BASH) - len(no_run),
              len(no_run), '; '.join('%s: %s' % (block, block.no_run) for block in no_run)))
    assert PYTHON and BASH and runtime >= 5


def _run_python(block: Block):
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, '-c', block.text], cwd=folder, text=True,
                              capture_output=True, timeout=PYTHON_TIMEOUT)
    return block, done


def test_every_python_block_runs_to_the_end():
    # Two at a time: a block mostly waits for imports and the kernel cache.
    with ThreadPoolExecutor(max_workers=2) as pool:
        failed = ['%s exited %d:\n%s' % (block, done.returncode, done.stderr[-2000:])
                  for block, done in pool.map(_run_python, PYTHON) if done.returncode]
    assert not failed, '\n\n'.join(failed)


# Checked commands -------------------------------------------------------------------------


def _entry_points():
    text = (PACKAGE_ROOT / 'setup.py').read_text(encoding='utf-8')
    return dict(re.findall(r"'(\w+) = ([\w.]+):\w+'", text))


def _options_defined(module: str, options) -> None:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, 'no module %s' % module
    source = ''.join(path.read_text(encoding='utf-8')
                     for path in Path(spec.origin).parent.glob('*.py'))
    for option in options:
        assert "'%s'" % option in source, '%s defines no option %s' % (module, option)


def _options(words):
    words = words[:words.index('--ros-args')] if '--ros-args' in words else words
    return [word.split('=')[0] for word in words if word.startswith('--')]


def _ros_parameters(words):
    pairs = [words[i + 1] for i, word in enumerate(words[:-1]) if word == '-p']
    return [pair.split(':=', 1) for pair in pairs]


def _check_ros2(words) -> None:
    verb = words[1]
    if verb == 'launch':
        package, launch_file = words[2:4]
        path = PACKAGE_ROOT / 'launch' / launch_file
        assert package == 'ik_solvers' and path.is_file(), 'no launch file %s' % launch_file
        declared = set(re.findall(r"DeclareLaunchArgument\(\s*'(\w+)'", path.read_text()))
        for argument in words[4:]:
            assert argument.split(':=')[0] in declared, 'undeclared argument %s' % argument
    elif verb == 'run':
        package, executable = words[2:4]
        assert package == 'ik_solvers' and executable in _entry_points(), executable
        if '--params-file' in words:
            assert Path(words[words.index('--params-file') + 1]).is_file()
        for name, value in _ros_parameters(words):
            if executable == 'ik_node':
                assert name in {spec.name for spec in PARAMETERS}, name
                assert check_parameter(name, yaml.safe_load(value)) is None, (name, value)
    elif verb == 'topic' and words[2] == 'echo':
        pass  # checked against the running node
    elif verb == 'interface' and words[2] == 'show':
        package, kind, name = words[3].split('/')
        assert hasattr(importlib.import_module('%s.%s' % (package, kind)), name), words[3]
    elif verb == 'param' and words[2] == 'describe':
        assert words[4] in {spec.name for spec in PARAMETERS}, words[4]
    else:
        raise AssertionError('no check for %s' % ' '.join(words[:3]))


def _check_command(words, sourced) -> None:
    program = words[0]
    if program == 'ros2':
        _check_ros2(words)
    elif program in ('bash', 'source'):
        assert (ROOT / words[1]).is_file(), 'no file %s' % words[1]
        if program == 'source':
            sourced.append((ROOT / words[1]).read_text(encoding='utf-8'))
    elif program == 'python' and words[1] == '-m':
        _options_defined(words[2], _options(words[3:]))
    elif program in _entry_points():
        _options_defined(_entry_points()[program], _options(words[1:]))
        for name, _ in _ros_parameters(words):
            module = importlib.util.find_spec(_entry_points()[program]).origin
            assert "'%s'" % name in Path(module).read_text(encoding='utf-8'), name
    elif any(re.search(r'^%s\(\) \{' % re.escape(program), text, re.M) for text in sourced):
        pass  # a shell function of a file sourced before it
    else:
        raise AssertionError('no check for "%s": mark the block "bash no-run: reason"'
                             % program)


@pytest.mark.parametrize('block', BASH, ids=str)
def test_every_shell_command_is_checked(block):
    sourced = []
    for words in _commands(block):
        if not _is_runtime(words):
            _check_command(words, sourced)


# Console scripts, run by name in the shell tools/env.sh prepares ---------------------------

#: Where ``colcon build`` installs the console scripts, and ``ik_solvers_path`` puts on PATH.
SCRIPTS = ROOT / 'install' / 'ik_solvers' / 'lib' / 'ik_solvers'
SCRIPT_TIMEOUT = 240.0  # s; the first import after a build may compile kernels


def _named_scripts():
    """Every console script that README.md or docs/ names, in a block or in the text."""
    text = '\n'.join(path.read_text(encoding='utf-8') for path in FILES)
    return sorted(name for name in _entry_points()
                  if re.search(r'(?<![\w.-])%s(?![\w-])' % re.escape(name), text))


def _is_node(name: str) -> bool:
    """Tell whether a console script spins a ROS node (it takes ROS arguments, no --help)."""
    origin = importlib.util.find_spec(_entry_points()[name]).origin
    return 'run_node(' in Path(origin).read_text(encoding='utf-8')


#: The README's ``source tools/env.sh && ik_solvers_setup``, its slow steps (creating the
#: environment, the colcon build, compiling the kernels: done already, as this test runs in
#: them) skipped; the rest of ``ik_solvers_setup`` runs as written.
_PREPARE = ('source "$0" && _ensure_venv() { :; } && _link_wheel_prefix() { :; } && '
            'colcon() { :; } && _warm_up() { :; } && ik_solvers_setup >/dev/null')


def _in_prepared_shell(command: str):
    """Run ``command`` in bash prepared as the README prepares it (see :data:`_PREPARE`)."""
    try:
        installed = Path(get_package_prefix('ik_solvers')).resolve()
    except KeyError:
        installed = None
    if installed != (ROOT / 'install' / 'ik_solvers').resolve() or not SCRIPTS.is_dir():
        pytest.skip('ik_solvers is not installed in this repository\'s install/ (found: %s); '
                    'run "source tools/env.sh && ik_solvers_setup" first' % installed)
    # PATH as it was before the shell was prepared: without the scripts' folder.
    path = os.pathsep.join(part for part in os.environ.get('PATH', '').split(os.pathsep)
                           if part and Path(part).resolve() != SCRIPTS.resolve())
    with tempfile.TemporaryDirectory() as folder:
        return subprocess.run(
            ['bash', '-c', '%s && %s' % (_PREPARE, command),
             str(ROOT / 'tools' / 'env.sh')],
            cwd=folder, env=dict(os.environ, PATH=path), text=True, capture_output=True,
            timeout=SCRIPT_TIMEOUT)


def test_the_docs_name_console_scripts():
    assert 'ik_solvers_reach' in _named_scripts()


@pytest.mark.parametrize('name', _named_scripts())
def test_every_named_console_script_runs_by_name_in_the_prepared_shell(name):
    found = _in_prepared_shell('command -v %s' % shlex.quote(name))
    assert found.returncode == 0, '%s: command not found in the prepared shell' % name
    assert Path(found.stdout.strip()).resolve() == (SCRIPTS / name).resolve(), found.stdout
    if _is_node(name):
        # A node spins until stopped; that it starts is tested by test_node_executable.py.
        assert os.access(SCRIPTS / name, os.X_OK), name
        return
    done = _in_prepared_shell('%s --help' % shlex.quote(name))
    assert done.returncode == 0, '%s --help exited %d:\n%s' % (name, done.returncode,
                                                               done.stderr[-2000:])
    assert 'usage' in done.stdout.lower(), done.stdout[-2000:]


# The ros2 commands, done through rclpy against one node ---------------------------------


@pytest.fixture(scope='module')
def launch():
    """Start the ik_node and simulated executor as the launch file does, plus a probe."""
    tree = _tree()
    defaults = _argument_defaults(tree)
    urdf = [path for path in _share_paths(tree) if path.parts[0] == 'urdf']
    parameters = yaml.safe_load((PACKAGE_ROOT / 'config' / 'ik_solvers.yaml').read_text())
    parameters = dict(parameters['ik_node']['ros__parameters'])
    parameters.update({name: defaults[name] for name in ('base_link', 'tip_link', 'solver',
                                                         'controller_name')})
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    namespace, nodes = unique_namespace(), []
    try:
        ik_node = IKNode(namespace=namespace, context=context, parameter_overrides=[
            Parameter(name, value=value) for name, value in parameters.items()])
        executor = SimulatedExecutor(namespace=namespace, context=context, parameter_overrides=[
            Parameter('controller_name', value=defaults['controller_name'])])
        probe = Probe(context, namespace)
        for node in (ik_node, executor, probe.node):
            nodes.append(node)
            spinner.executor.add_node(node)
        status = probe.node.resolve_topic_name('ik_node/status')
        assert wait_until(lambda: probe.targets.get_subscription_count() > 0
                          and probe.node.count_publishers(status) > 0), 'ik_node not discovered'
        assert probe.solve_ik.wait_for_service(timeout_sec=WAIT), 'no solve_ik service'
        probe.publish_description((PACKAGE_ROOT / urdf[0]).read_text(encoding='utf-8'))
        probe.wait_for_model()
        yield namespace, ik_node, probe
    finally:
        spinner.stop()
        for node in nodes:
            node.destroy_node()
        rclpy.shutdown(context=context)


def _type(name: str):
    package, kind, type_name = name.split('/')
    return getattr(importlib.import_module('%s.%s' % (package, kind)), type_name)


def _set_fields(message, values: dict) -> None:
    """Fill a message from parsed YAML as ros2cli does; an unknown field raises."""
    types = message.get_fields_and_field_types()
    for name, value in values.items():
        if name not in types:
            raise AttributeError('%s has no field %r' % (type(message).__name__, name))
        if isinstance(value, dict):
            _set_fields(getattr(message, name), value)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            element = re.fullmatch(r'sequence<(\w+)/(\w+)(?:, \d+)?>', types[name]).groups()
            items = []
            for item in value:
                items.append(_type('%s/msg/%s' % element)())
                _set_fields(items[-1], item)
            setattr(message, name, items)
        elif types[name] in ('double', 'float'):
            setattr(message, name, float(value))
        else:
            setattr(message, name, value)


def _call(node, service_type, name: str, request):
    client = node.create_client(service_type, name)
    assert client.wait_for_service(timeout_sec=WAIT), 'no service %s' % name
    future = client.call_async(request)
    done = threading.Event()
    future.add_done_callback(lambda _: done.set())
    assert done.wait(WAIT), 'no answer from %s within %g s' % (name, WAIT)
    return future.result()


def _service_call(launch, words) -> None:
    namespace, _, probe = launch
    service_type = _type(words[4])
    request = service_type.Request()
    _set_fields(request, yaml.safe_load(words[5]))
    response = _call(probe.node, service_type, namespace + words[3], request)
    assert response.error_code == ErrorCodes.SUCCESS and response.success, response.message
    if hasattr(response, 'fraction'):
        assert response.fraction == 1.0 and len(response.trajectory.points) > 2


def _topic_pub(launch, words) -> None:
    namespace, ik_node, probe = launch
    # Options and the value of --rate are not the topic, type or message.
    kept = [word for index, word in enumerate(words[3:], 3)
            if not word.startswith('-') and words[index - 1] not in ('--rate', '-r')]
    topic, message_type, text = kept[:3]
    message = _type(message_type)()
    _set_fields(message, yaml.safe_load(text))
    if namespace + topic == ik_node.resolve_topic_name('target_pose'):
        start = probe.statuses.count()
        probe.targets.publish(message)
        status = probe.statuses.wait_for(lambda s: True, start=start)
        assert status.error_code == ErrorCodes.SUCCESS and status.commanded, status.message
    elif namespace + topic == ik_node.resolve_topic_name('~/obstacles'):
        publisher = probe.node.create_publisher(type(message), namespace + topic, 10)
        assert wait_until(lambda: publisher.get_subscription_count() > 0)
        start = probe.logs.count()
        publisher.publish(message)
        operation = {b'\x00': 'add', b'\x01': 'remove', b'\x03': 'move'}[message.operation]
        line = probe.logs.wait_for(lambda log: "obstacle '%s'" % message.id in log.msg,
                                   start=start)
        assert "'%s': %s;" % (message.id, operation) in line.msg, line.msg
    elif namespace + topic == ik_node.resolve_topic_name('~/delta_twist_cmds'):
        _servo_moves(probe, namespace, message)
    else:
        raise AssertionError('no check for messages on %s' % topic)


def _servo_moves(probe, namespace: str, message) -> None:
    """Publish a twist at 50 Hz for 0.4 s, as --rate does: servoing must report motion."""
    statuses = Collector()
    probe.node.create_subscription(ServoStatus, namespace + '/ik_node/servo_status', statuses,
                                   100)
    publisher = probe.node.create_publisher(type(message), namespace + '/ik_node/'
                                            'delta_twist_cmds', 10)
    assert wait_until(lambda: publisher.get_subscription_count() > 0)
    for _ in range(20):
        publisher.publish(message)
        time.sleep(0.02)
    status = statuses.wait_for(lambda s: s.moving and s.fraction > 0.5)
    assert status.limiter in ('none', 'velocity_limit'), status.limiter


def _param_set(launch, words) -> None:
    namespace, ik_node, probe = launch
    node_name, name, value = words[3:6]
    parameter = Parameter(name, value=yaml.safe_load(value)).to_parameter_msg()
    response = _call(probe.node, SetParameters, namespace + node_name + '/set_parameters',
                     SetParameters.Request(parameters=[parameter]))
    assert response.results[0].successful, response.results[0].reason
    assert ik_node.get_parameter(name).value == yaml.safe_load(value)


def test_every_ros2_command_does_what_it_says_on_the_launch_files_node(launch):
    namespace, ik_node, probe = launch
    done = 0
    for block in BASH:
        for words in _commands(block):
            where = '%s: %s' % (block, ' '.join(words[:4]))
            try:
                if words[:3] == ['ros2', 'service', 'call']:
                    _service_call(launch, words)
                elif words[:3] == ['ros2', 'topic', 'pub']:
                    _topic_pub(launch, words)
                elif words[:3] == ['ros2', 'param', 'set']:
                    _param_set(launch, words)
                elif words[:3] == ['ros2', 'topic', 'echo']:
                    assert probe.node.count_publishers(namespace + words[3]) > 0, words[3]
                else:
                    continue
            except AssertionError as error:
                raise AssertionError('%s\n%s' % (where, error)) from error
            done += 1
    assert done >= 5
