# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The installed ``ik_node`` executable, run as its own process with the installed config."""

import os
from pathlib import Path
import signal
import subprocess

from ik_solvers.kinematics import RobotModel
from ik_solvers_interfaces.msg import ErrorCodes
import numpy as np
import pytest
import rclpy
from test_node_support import (
    COMMAND_TOPIC,
    jtc_accepts,
    oracle_confirms,
    Probe,
    same_position,
    Spinner,
    unique_namespace,
    UR5_ORACLE,
    WAIT,
)

URDF = (Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf').read_text()


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


@pytest.fixture
def ik_node_process():
    executable = _installed('lib/ik_solvers/ik_node')
    params_file = _installed('share/ik_solvers/config/ik_solvers.yaml')
    namespace = unique_namespace()
    process = subprocess.Popen(
        [str(executable), '--ros-args', '-r', '__ns:=' + namespace,
         '--params-file', str(params_file), '-p', 'command_topic:=' + COMMAND_TOPIC,
         '-p', 'timeout:=0.5', '-p', 'solver:=ccd',
         # Its goals move a joint by up to 0.25 rad at once: exact, not approximate, steps.
         '-p', 'max_joint_jump:=0.35'],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ))
    try:
        yield namespace, process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=WAIT)


def test_installed_ik_node_commands_answers_and_stops_cleanly(ik_node_process):
    namespace, process = ik_node_process
    context = rclpy.Context()
    rclpy.init(context=context)
    spinner = Spinner(context)
    probe = Probe(context, namespace)
    try:
        spinner.executor.add_node(probe.node)
        probe.wait_for_ik_node()
        chain = RobotModel.from_urdf(URDF).chain('base_link', 'tool0')
        home = np.array([0.2, -1.2, 1.4, -0.6, 0.5, 0.1])
        probe.stream_joint_states(chain.joint_names, home)
        probe.publish_description(URDF)
        probe.wait_for_model()

        goal = chain.fk(home + 0.1)
        probe.publish_target(goal)
        status = probe.statuses.wait_for(lambda s: same_position(s.target, goal))
        assert status.success and status.commanded and status.solver == 'ccd', status.message
        command = probe.commands.wait_for(lambda c: True)
        assert jtc_accepts(command, chain.joint_names)
        # The installed configuration's tolerances are the ones every test node gets.
        oracle_confirms(UR5_ORACLE, command.joint_names, command.points[-1].positions, goal)

        other = chain.fk(home - 0.1)
        response = probe.call(probe.target_request(other, solver='fabrik'))
        assert response.success and response.error_code == ErrorCodes.SUCCESS
        oracle_confirms(UR5_ORACLE, response.solution.name, response.solution.position, other)
        bad = probe.target_request(goal)
        bad.target.pose.position.x = float('nan')
        assert probe.call(bad).error_code == ErrorCodes.INVALID_TARGET
        assert process.poll() is None, 'ik_node exited'
    finally:
        spinner.stop()
        probe.node.destroy_node()
        rclpy.shutdown(context=context)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=WAIT)
    assert process.returncode == 0, output
    assert 'Traceback' not in output, output
