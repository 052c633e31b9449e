# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Every installed node ends on the first SIGINT or SIGTERM, whatever it is doing at that moment.

The signal goes to the node's process group, as a terminal's Ctrl-C does. The ik_node is first
driven through what preceded a missed Ctrl-C in the field: a target out of reach, then a
service call with an unknown frame. Rounds are repeated because the fault was intermittent.
Before the signal goes out, the state it is meant to meet is confirmed: a streamed solve burning
CPU on the node's worker, or a service solve holding the node's only request place.
"""

import importlib.util
import os
from pathlib import Path
import signal
import subprocess
import time

from ik_solvers.kinematics import RobotModel
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
import rclpy
from test_node_support import (
    COMMAND_TOPIC,
    Probe,
    same_position,
    Spinner,
    unique_namespace,
    WAIT,
    wait_until,
)
import yaml

#: Seconds from the signal to the process's exit. A hang bound, not a speed test: the node exits
#: well within a second (ik_solvers_benchmarks.node_stress reports the figure, node_exit_seconds),
#: and a missed signal left it running until it was killed. Below the 10 s solves started here,
#: so that a process waiting for its solve to end is caught too.
EXIT_WITHIN = 6.0
#: Seconds a solve started below keeps running (the longest timeout the node accepts): the
#: signal arrives well before its deadline.
BUSY_SECONDS = 10
URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf').read_text()
CHAIN = RobotModel.from_urdf(URDF).chain('panda_link0', 'panda_hand_tcp')
#: (signal, what the ik_node is doing when it arrives), one process per round: 'idle' (the
#: worker waits, the executor too), 'solving' (the worker is in a streamed solve), 'answering'
#: (the spinning thread is in a service solve).
STATES = ('idle', 'solving', 'answering')
#: CPU seconds one of the node's threads must burn before a streamed solve counts as running;
#: the threads of an idle node wait and burn next to nothing.
SOLVING_CPU = 0.2
ROUNDS = [pytest.param(signum, state, id='%s-%s-%d' % (signum.name, state, index))
          for index, (signum, state) in enumerate(
              [(signal.SIGINT, state) for state in STATES * 3]
              + [(signal.SIGTERM, state) for state in STATES])]


def _installed(relative: str) -> Path:
    try:
        from ament_index_python.packages import get_package_prefix, PackageNotFoundError
    except ImportError:
        pytest.skip('ament_index_python is not installed')
    try:
        path = Path(get_package_prefix('ik_solvers')) / relative
    except PackageNotFoundError:
        pytest.skip('ik_solvers is not built and sourced (colcon build; source install/setup)')
    if not path.exists():
        pytest.skip('%s is not installed; rebuild with colcon' % path)
    return path


class NodeProcess:
    """An installed executable in a process group of its own, its output in a file."""

    def __init__(self, executable: str, ros_arguments, log: Path) -> None:
        self.log = log
        with open(log, 'w') as output:
            # A file, not a pipe: a pipe nobody reads would stall a chatty node on its own.
            self.process = subprocess.Popen(
                [str(_installed('lib/ik_solvers/' + executable)), '--ros-args', *ros_arguments],
                stdout=output, stderr=subprocess.STDOUT, start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(errors='replace')

    def interrupt(self, signum: int) -> float:
        """
        Send ``signum`` to the process group and wait for the exit.

        :returns: Seconds from the signal to the exit.
        :raises AssertionError: The process did not exit within :data:`EXIT_WITHIN` seconds.
        """
        start = time.monotonic()
        os.killpg(self.process.pid, signum)
        try:
            self.process.wait(timeout=EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            raise AssertionError('still running %g s after %s:\n%s' % (
                EXIT_WITHIN, signal.Signals(signum).name, self.output()[-3000:]))
        return time.monotonic() - start

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=WAIT)


@pytest.fixture
def ros():
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    try:
        yield context, spinner.executor
    finally:
        spinner.stop()
        rclpy.shutdown(context=context)


def _description_parameters(tmp_path: Path) -> Path:
    """Write a parameters file giving every node the robot description; return its path."""
    path = tmp_path / 'description.yaml'
    path.write_text(yaml.safe_dump({'/**': {'ros__parameters': {'robot_description': URDF}}}))
    return path


def _thread_cpu_seconds(pid: int) -> dict:
    """Return the CPU seconds (user + system) of each thread of a process, by thread id."""
    ticks = os.sysconf('SC_CLK_TCK')
    seconds = {}
    for task in Path('/proc/%d/task' % pid).iterdir():
        try:
            # The fields after the command name, which is in parentheses and may hold spaces.
            fields = (task / 'stat').read_text().rsplit(')', 1)[1].split()
        except (OSError, IndexError):
            continue  # the thread ended meanwhile
        seconds[task.name] = (int(fields[11]) + int(fields[12])) / ticks
    return seconds


def _a_thread_burns_cpu(pid: int, before: dict) -> bool:
    now = _thread_cpu_seconds(pid)
    return any(now[tid] - before.get(tid, 0.0) >= SOLVING_CPU for tid in now)


def _check_clean_exit(node: NodeProcess) -> None:
    output = node.output()
    assert node.process.returncode == 0, output[-3000:]
    assert 'Traceback' not in output and 'Exception ignored' not in output, output[-3000:]


def _ik_node_round(ros, tmp_path: Path, index: int, signum: int, state: str) -> float:
    context, executor = ros
    namespace = unique_namespace()
    # While 'solving', the streamed solve of a target just beyond the arm's reach runs to this
    # deadline: the solver cannot prove it out of reach and keeps searching.
    timeout = '%d.0' % BUSY_SECONDS if state == 'solving' else '0.05'
    far = np.eye(4)
    far[:3, 3] = [10.0, 0.0, 0.5]  # provably out of reach: given up at once
    searched = np.eye(4)
    searched[:3, 3] = [1.0, 0.0, 0.5]
    node = NodeProcess('ik_node', [
        '-r', '__ns:=' + namespace,
        '--params-file', str(_installed('share/ik_solvers/config/ik_solvers.yaml')),
        '-p', 'command_topic:=' + COMMAND_TOPIC, '-p', 'base_link:=' + CHAIN.base_link,
        '-p', 'tip_link:=' + CHAIN.tip_link, '-p', 'timeout:=' + timeout,
        '-p', 'solver:=jacobian_transpose', '-p', 'max_pending_requests:=1',
        # Approximate tracking would cut the streamed search short; the round needs it running.
        '-p', 'approximate_tracking:=false'],
        tmp_path / ('ik_node_%d.log' % index))
    probe = Probe(context, namespace)
    executor.add_node(probe.node)
    try:
        probe.wait_for_ik_node()
        probe.stream_joint_states(CHAIN.joint_names, CHAIN.mid_configuration())
        probe.publish_description(URDF)
        probe.wait_for_model()
        start = probe.statuses.count()
        probe.publish_target(far)
        probe.statuses.wait_for(lambda s: same_position(s.target, far), start=start)
        unknown = probe.target_request(CHAIN.fk(CHAIN.mid_configuration()))
        unknown.target.header.frame_id = 'no_such_frame'
        assert probe.call(unknown).error_code == ErrorCodes.UNKNOWN_FRAME
        if state == 'solving':
            before = _thread_cpu_seconds(node.process.pid)
            start = probe.statuses.count()
            probe.publish_target(searched)
            assert wait_until(lambda: _a_thread_burns_cpu(node.process.pid, before)), (
                'no thread of the ik_node started solving')
            assert probe.statuses.count() == start, 'the solve ended before the signal'
        if state == 'answering':
            # Searched until the deadline, as the streamed one above. (A reachable target with
            # a tolerance of 1e-300 is not: a solve can land on it with errors of exactly 0.)
            slow = probe.target_request(searched)
            slow.timeout.sec = BUSY_SECONDS
            slow_answer = probe.solve_ik.call_async(slow)
            # Taken after the slow request (one client's requests keep their order): refused
            # because the slow one holds the node's only place (max_pending_requests = 1).
            ping = probe.call(probe.target_request(CHAIN.fk(CHAIN.mid_configuration())))
            assert ping.error_code == ErrorCodes.BUSY, ping.message
            assert not slow_answer.done(), 'the slow solve ended before the signal'
        assert node.process.poll() is None, node.output()[-3000:]
        elapsed = node.interrupt(signum)
        _check_clean_exit(node)
        return elapsed
    finally:
        node.kill()
        executor.remove_node(probe.node)
        probe.node.destroy_node()


@pytest.mark.parametrize('signum, state', ROUNDS)
def test_the_ik_node_ends_on_the_first_signal_whatever_it_is_doing(ros, tmp_path, signum, state):
    # One process per round; interrupt() asserts the exit within the hang bound.
    _ik_node_round(ros, tmp_path, 0, signum, state)


def test_the_simulated_executor_ends_on_the_first_signal(tmp_path):
    for index, signum in enumerate([signal.SIGINT] * 3 + [signal.SIGTERM]):
        node = NodeProcess('sim_executor', [
            '-r', '__ns:=' + unique_namespace(),
            '--params-file', str(_description_parameters(tmp_path))],
            tmp_path / ('sim_executor_%d.log' % index))
        try:
            assert wait_until(lambda: 'robot description from the parameter' in node.output()
                              or node.process.poll() is not None)
            assert node.process.poll() is None, node.output()
            node.interrupt(signum)
            _check_clean_exit(node)
        finally:
            node.kill()


def test_the_goal_marker_ends_on_the_first_signal(tmp_path):
    if importlib.util.find_spec('interactive_markers') is None:
        pytest.skip('interactive_markers is not installed (rosdep key interactive_markers), so '
                    'the goal_marker executable cannot start')
    for index, signum in enumerate([signal.SIGINT] * 3 + [signal.SIGTERM]):
        node = NodeProcess('goal_marker', [
            '-r', '__ns:=' + unique_namespace(), '-p', 'tip_link:=' + CHAIN.tip_link,
            '--params-file', str(_description_parameters(tmp_path))],
            tmp_path / ('goal_marker_%d.log' % index))
        try:
            assert wait_until(lambda: 'interactive marker server' in node.output()
                              or node.process.poll() is not None)
            assert node.process.poll() is None, node.output()
            node.interrupt(signum)
            _check_clean_exit(node)
        finally:
            node.kill()
