# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's limit columns: every command sent, replayed as joint_trajectory_controller runs it.

:class:`CommandLog` keeps every JointTrajectory on the command topic with its arrival time (and
the joint states before the first, and the latest joint state, with its velocities, when each
arrives). :func:`replay_limits` replays them through
:class:`ik_solvers.paths.controller_replay.ControllerReplay`: each from the replayed controller's
state (position and velocity) when it arrives, or, given ``arrivals``, from the state the arm
was measured in then (the latest joint state run on at its velocity to the arrival), run until
the next arrives, sampled every 1 ms. The
node's commands carry velocities and are judged; the demo's own resets (positions only) move the
replayed controller but are not judged. The limits are the node's: ``velocity_scale`` times the
URDF velocity limits, ``acceleration_limit``, and the URDF position limits.
"""

from dataclasses import dataclass
from pathlib import Path
import threading
import time
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from rclpy.qos import qos_profile_sensor_data, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory
import yaml

from ..kinematics import Chain
from ..paths.controller_replay import ControllerReplay
from ..ros.names import JOINT_STATES_TOPIC

__all__ = ['ArrivalState', 'CommandLog', 'format_limits', 'node_limits', 'PlayedLimits',
           'replay_commands', 'replay_limits']


@dataclass(frozen=True)
class ArrivalState:
    """The latest joint state when a command arrived: when it came (s), positions, velocities."""

    received: float
    positions: Dict[str, float]
    velocities: Dict[str, float]

    def at(self, names: Sequence[str], time: float) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        """
        Return ``(positions, velocities)`` of ``names`` run on at their velocity to ``time`` (s).

        :returns: None when a joint has no position; a joint without velocity is taken still.
        """
        if not all(name in self.positions for name in names):
            return None
        velocity = np.array([self.velocities.get(name, 0.0) for name in names], dtype=float)
        position = np.array([self.positions[name] for name in names], dtype=float)
        return position + velocity * max(0.0, time - self.received), velocity


@dataclass(frozen=True)
class PlayedLimits:
    """The worst of the node's commands as the controller plays them."""

    judged: int
    single_point: int
    multi_point: int
    velocity_ratio: float
    acceleration_ratio: float
    position_excess: float
    #: Judged commands whose velocity or acceleration went above 1.0x the limit at a sample.
    above: int = 0


class CommandLog:
    """Every command on the command topic with its arrival time (s, monotonic)."""

    def __init__(self, node, command_topic: str) -> None:
        """Subscribe ``node`` to the command topic and the joint states."""
        self._lock = threading.Lock()
        self._commands: List[Tuple[float, JointTrajectory]] = []
        self._latest: dict = {}
        self._speeds: dict = {}
        self._received = 0.0
        self._first: Optional[dict] = None
        self._arrivals: List[ArrivalState] = []
        node.create_subscription(JointTrajectory, command_topic, self._on_command,
                                 QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE))
        node.create_subscription(JointState, JOINT_STATES_TOPIC, self._on_states,
                                 qos_profile_sensor_data)

    def _on_command(self, message: JointTrajectory) -> None:
        arrival = time.monotonic()
        with self._lock:
            if self._first is None:
                self._first = dict(self._latest)
            self._commands.append((arrival, message))
            self._arrivals.append(ArrivalState(self._received, dict(self._latest),
                                               dict(self._speeds)))

    def _on_states(self, message: JointState) -> None:
        received = time.monotonic()
        with self._lock:
            self._latest.update(zip(message.name, message.position))
            if len(message.velocity) == len(message.name):
                self._speeds.update(zip(message.name, message.velocity))
            self._received = received

    def recorded(self) -> Tuple[dict, List[Tuple[float, JointTrajectory]]]:
        """Return the joint states before the first command and every command so far."""
        with self._lock:
            return dict(self._first or self._latest), list(self._commands)

    def arrival_states(self) -> List[ArrivalState]:
        """Return, per command so far, the latest joint state when it arrived."""
        with self._lock:
            return list(self._arrivals)


def node_limits(params_file: Path) -> Tuple[float, float]:
    """
    Read ``velocity_scale`` and ``acceleration_limit`` from the node's parameters file.

    :returns: ``(velocity_scale, acceleration_limit rad/s^2)``; the node's defaults (0.5, 5.0)
        for what the file does not set.
    """
    values = {}
    if params_file.is_file():
        document = yaml.safe_load(params_file.read_text(encoding='utf-8')) or {}
        values = (document.get('ik_node') or {}).get('ros__parameters') or {}
    return float(values.get('velocity_scale', 0.5)), float(values.get('acceleration_limit', 5.0))


def _seconds(duration) -> float:
    return duration.sec + 1e-9 * duration.nanosec


def replay_commands(chain: Chain, start: dict, commands,
                    arrivals: Optional[Sequence[ArrivalState]] = None
                    ) -> Tuple[ControllerReplay, List[bool]]:
    """
    Replay ``(arrival s, JointTrajectory)`` pairs in order, as the controller plays them.

    A command with velocities is judged; positions alone (a test driver's reset) move the
    replayed controller but are not judged.

    :param chain: The chain whose joints are replayed; other trajectories are skipped.
    :param start: Joint positions before the first command.
    :param arrivals: Per command, the latest joint state when it arrived: each then starts
        from the arm's measured state (:meth:`ArrivalState.at`); None: from the replayed
        controller's.
    :returns: ``(replay, single)``: the replay, and per replayed command whether it had one
        point.
    """
    names = list(chain.joint_names)
    replay = ControllerReplay(names, [start.get(name, 0.0) for name in names])
    single = []
    for number, (arrival, message) in enumerate(commands):
        points = message.points
        if not points or not set(message.joint_names) <= set(names):
            continue
        velocities = [list(point.velocities) for point in points]
        accelerations = [list(point.accelerations) for point in points]
        judged = all(velocities)
        replay.receive(arrival, message.joint_names,
                       [_seconds(point.time_from_start) for point in points],
                       [list(point.positions) for point in points],
                       velocities if judged else None,
                       accelerations if judged and all(accelerations) else None, judged=judged,
                       actual=None if arrivals is None else arrivals[number].at(names, arrival))
        single.append(len(points) == 1)
    return replay, single


def replay_limits(chain: Chain, start: dict, commands, *, velocity_scale: float,
                  acceleration: float,
                  arrivals: Optional[Sequence[ArrivalState]] = None) -> PlayedLimits:
    """
    Replay ``(arrival s, JointTrajectory)`` pairs in order; give the worst of the judged ones.

    :param chain: The chain whose joints (and limits) are judged; other trajectories are skipped.
    :param start: Joint positions before the first command.
    :param arrivals: See :func:`replay_commands`.
    """
    replay, single = replay_commands(chain, start, commands, arrivals)
    judged = [command.judged for command in replay.commands]
    found = [excess for excess in replay.excesses(
        max_velocity=velocity_scale * np.asarray(chain.velocity_limits),
        max_acceleration=np.full(chain.num_joints, acceleration), lower=chain.lower,
        upper=chain.upper) if excess is not None]
    return PlayedLimits(sum(judged), sum(1 for s, j in zip(single, judged) if s and j),
                        sum(1 for s, j in zip(single, judged) if j and not s),
                        max([e.velocity_ratio for e in found], default=0.0),
                        max([e.acceleration_ratio for e in found], default=0.0),
                        max([e.position_excess for e in found], default=0.0),
                        sum(1 for e in found
                            if max(e.velocity_ratio, e.acceleration_ratio) > 1.0))


def format_limits(limits: PlayedLimits, start: str = 'its state') -> str:
    """Say the limit columns in two lines; ``start``: what each command was replayed from."""
    return ('Limits of the node\'s %d commands (%d single-point, %d multi-point), replayed as the '
            'controller plays them from %s, every 1 ms:\n'
            '  max velocity / limit %.3f, max acceleration / limit %.3f, max past a URDF position '
            'limit %.1e rad; %d commands above 1.0x'
            % (limits.judged, limits.single_point, limits.multi_point, start,
               limits.velocity_ratio, limits.acceleration_ratio, limits.position_excess,
               limits.above))
