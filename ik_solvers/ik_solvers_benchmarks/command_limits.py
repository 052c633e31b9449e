# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The limits of every command a running ik_node sends, as a joint_trajectory_controller runs them.

Run ``python -m ik_solvers_benchmarks.command_limits --duration 300`` beside a node (the demo,
say: ``tools/demo.sh`` in the same ROS domain). It records every JointTrajectory on the command
topic with its arrival time, the joint states and the robot description; then it replays the
commands through :class:`ik_solvers.paths.controller_replay.ControllerReplay` (each from the
controller's state when it arrives, run until the next arrives) and samples every 1 ms. The
node's commands give velocities; trajectories of positions alone (a test driver's resets) move
the replayed controller but are not judged. Reported: commands judged, single-point and
multi-point, and the largest velocity and acceleration as shares of the node's limits
(``--velocity-scale`` times the URDF's, ``--acceleration``) and the largest excursion past a
URDF position limit.
"""

import argparse
import pickle  # noqa: S403 - the benchmark's own recordings only
import signal
import threading
import time
from typing import Sequence

import numpy as np
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from ik_solvers.demo.played_limits import CommandLog, replay_commands
from ik_solvers.kinematics import RobotModel

__all__ = ['main', 'replay_table']

_DEFAULT_TOPIC = '/joint_trajectory_controller/joint_trajectory'


class _Recorder(Node):
    """Records commands with their arrival, the latest joint states and the description."""

    def __init__(self, topic: str, context) -> None:
        super().__init__('command_limits_recorder', context=context)
        self.log = CommandLog(self, topic)
        self.urdf = ''
        self.create_subscription(String, 'robot_description', self._on_description, QoSProfile(
            depth=1, reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.TRANSIENT_LOCAL))

    def _on_description(self, message: String) -> None:
        self.urdf = message.data


def replay_table(urdf: str, base_link: str, tip_link: str, start: dict, commands: Sequence,
                 *, velocity_scale: float, acceleration: float) -> str:
    """
    Replay recorded commands and return the markdown table of their limits.

    :param commands: ``(arrival s, JointTrajectory)`` pairs in order of arrival.
    """
    chain = RobotModel.from_urdf(urdf).chain(base_link, tip_link)
    replay, single = replay_commands(chain, start, commands)
    limits = dict(max_velocity=velocity_scale * np.asarray(chain.velocity_limits),
                  max_acceleration=np.full(chain.num_joints, acceleration),
                  lower=chain.lower, upper=chain.upper)
    judged = [command.judged for command in replay.commands]
    lines = ['| commands | judged | max velocity / limit | max acceleration / limit '
             '| max past URDF limit (rad) |', '|---|--:|--:|--:|--:|']
    for label, kinds in (('single-point', single), ('multi-point', [not s for s in single]),
                         ('all', [True] * len(single))):
        count = sum(1 for kind, flag in zip(kinds, judged) if kind and flag)
        excess = replay.excess(kinds=kinds, **limits)
        lines.append('| %s | %d | %.4f | %.4f | %.1e |' % (
            label, count, excess.velocity_ratio, excess.acceleration_ratio,
            excess.position_excess))
    return '\n'.join(lines)


def main(argv: Sequence[str] = None) -> None:
    """Record the node's commands for a while, then print their limits."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--topic', default=_DEFAULT_TOPIC)
    parser.add_argument('--duration', type=float, default=300.0,
                        help='s to record; Ctrl-C stops earlier')
    parser.add_argument('--base-link', default='')
    parser.add_argument('--tip-link', default='tool0')
    parser.add_argument('--velocity-scale', type=float, default=0.5)
    parser.add_argument('--acceleration', type=float, default=5.0, help='rad/s^2')
    parser.add_argument('--save', default='', help='also write what was recorded (pickle)')
    parser.add_argument('--load', default='', help='replay a --save file instead of recording')
    arguments = parser.parse_args(argv)
    if arguments.load:
        with open(arguments.load, 'rb') as stream:
            urdf, start, commands = pickle.load(stream)
        _print(arguments, urdf, start, commands)
        return
    context = rclpy.Context()
    rclpy.init(context=context)
    recorder = _Recorder(arguments.topic, context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(recorder)
    deadline = time.monotonic() + arguments.duration
    stop = threading.Event()
    # A script that runs this in the background stops it with SIGTERM (SIGINT is ignored there).
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while time.monotonic() < deadline and not stop.is_set():
            executor.spin_once(timeout_sec=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        start, commands = recorder.log.recorded()
        urdf = recorder.urdf
        executor.shutdown()
        rclpy.try_shutdown(context=context)
    if not urdf:
        print('no robot_description was received; nothing to replay')
        return
    if arguments.save:
        with open(arguments.save, 'wb') as stream:
            pickle.dump((urdf, start, commands), stream)
    _print(arguments, urdf, start, commands)


def _print(arguments, urdf: str, start: dict, commands: Sequence) -> None:
    print('%d trajectories recorded on %s' % (len(commands), arguments.topic))
    print(replay_table(urdf, arguments.base_link, arguments.tip_link, start, commands,
                       velocity_scale=arguments.velocity_scale,
                       acceleration=arguments.acceleration))


if __name__ == '__main__':
    main()
