# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's straight lines: a square in a vertical plane through ``~/cartesian_path``.

The node plans the square and commands it (``execute``); the simulated executor plays the
timed trajectory, and the joint states it publishes are recorded until the arm rests at the
end. The tool's path, by forward kinematics of those joint states, is compared with the ideal
square (:func:`deviations_from_polyline`) and drawn against it (:func:`plot_square`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
import threading
import time
from typing import List, Sequence

from geometry_msgs.msg import PoseStamped
from ik_solvers_interfaces.srv import CartesianPath
import numpy as np
from rclpy.node import Node
from sensor_msgs.msg import JointState

from ..exceptions import IKError
from ..kinematics import Chain
from ..ros.conversions import matrix_to_pose
from ..ros.names import CARTESIAN_PATH_SERVICE, JOINT_STATES_TOPIC, NODE_NAME, of_node

__all__ = ['LineRecording', 'StraightLineRun', 'deviations_from_polyline', 'plot_square',
           'square_in_vertical_plane']


def square_in_vertical_plane(start: np.ndarray, side: float) -> List[np.ndarray]:
    """
    Corners of a square in the vertical plane of the base's y and z axes, back to the start.

    :param start: (4, 4) tip pose where the square starts (its first corner), m.
    :param side: Side length, m.
    :returns: Four poses with the start's orientation: sideways, down, back, up.
    """
    corners = []
    for offset in ((0.0, side, 0.0), (0.0, side, -side), (0.0, 0.0, -side), (0.0, 0.0, 0.0)):
        corner = np.array(start, dtype=float)
        corner[:3, 3] += offset
        corners.append(corner)
    return corners


def deviations_from_polyline(points: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """
    Distance of each point from the nearest segment of a polyline.

    :param points: (M, 3) positions, m.
    :param corners: (W + 1, 3) the polyline's corners in order, m.
    :returns: (M,) distances, m.
    """
    best = np.full(points.shape[0], np.inf)
    for first, second in zip(corners[:-1], corners[1:]):
        direction = second - first
        squared = float(direction @ direction)
        along = np.zeros(points.shape[0]) if squared == 0.0 else np.clip(
            (points - first) @ direction / squared, 0.0, 1.0)
        nearest = first + along[:, None] * direction
        best = np.minimum(best, np.linalg.norm(points - nearest, axis=1))
    return best


@dataclass
class LineRecording:
    """A planned and executed path: the node's answer and the joint states while it played."""

    error_code: int = -1
    message: str = ''
    fraction: float = 0.0
    points: int = 0
    duration: float = 0.0
    times: List[float] = field(default_factory=list)
    positions: List[np.ndarray] = field(default_factory=list)


class StraightLineRun:
    """Asks the node for a path with ``execute`` and records the joint states as it plays."""

    def __init__(self, node: Node, joint_names: Sequence[str], *,
                 ik_node: str = NODE_NAME) -> None:
        """
        Add the path client and a joint state recorder to ``node``.

        :param node: The demo's node (spun by the demo's executor).
        :param joint_names: The chain's joints, base to tip.
        :param ik_node: Name of the IK node, in the root namespace.
        """
        self._joint_names = list(joint_names)
        self._lock = threading.Lock()
        self._recording: LineRecording = LineRecording()
        self._recording_on = False
        self._client = node.create_client(CartesianPath, of_node(CARTESIAN_PATH_SERVICE,
                                                                 ik_node))
        node.create_subscription(JointState, JOINT_STATES_TOPIC, self._on_joint_state, 100)

    def run(self, waypoints: Sequence[np.ndarray], *, max_step: float,
            timeout: float) -> LineRecording:
        """
        Plan and execute a path through ``waypoints`` (base frame), then record it to rest.

        :param waypoints: 4x4 tip poses.
        :param max_step: m between path points.
        :param timeout: Longest wait for the answer, s; the playing gets its duration on top.
        :returns: The recording.
        :raises IKError: No answer within ``timeout``.
        """
        request = CartesianPath.Request()
        request.waypoints = [_stamped(pose) for pose in waypoints]
        request.max_step = float(max_step)
        request.execute = True
        # A loaded machine slows the solves down, never makes the line unreachable: the whole
        # answer may take up to the wait for it.
        request.timeout = float(min(timeout, 10.0))
        with self._lock:
            self._recording = LineRecording()
            self._recording_on = True
        started = time.monotonic()
        done = threading.Event()
        future = self._client.call_async(request)
        future.add_done_callback(lambda _: done.set())
        if not done.wait(timeout):
            self._client.remove_pending_request(future)
            raise IKError('no answer from %s within %.1f s' % (self._client.srv_name, timeout))
        response = future.result()
        recording = self._recording
        recording.error_code = response.error_code
        recording.message = response.message
        recording.fraction = response.fraction
        recording.points = len(response.trajectory.points)
        if response.trajectory.points:
            last = response.trajectory.points[-1].time_from_start
            recording.duration = last.sec + 1e-9 * last.nanosec
        if response.commanded:
            # Played from when the command was sent: wait out its duration, with some margin
            # for the executor's start, on an observable end: the arm at the last point.
            end = np.array(response.trajectory.points[-1].positions)
            deadline = started + timeout + recording.duration
            while time.monotonic() < deadline:
                with self._lock:
                    latest = recording.positions[-1] if recording.positions else None
                if latest is not None and np.max(np.abs(latest - end)) < 1e-6:
                    break
                time.sleep(0.01)
        with self._lock:
            self._recording_on = False
        return recording

    def _on_joint_state(self, message: JointState) -> None:
        positions = dict(zip(message.name, message.position))
        if any(name not in positions for name in self._joint_names):
            return
        with self._lock:
            if self._recording_on:
                self._recording.times.append(time.monotonic())
                self._recording.positions.append(
                    np.array([positions[name] for name in self._joint_names]))


def _stamped(pose: np.ndarray) -> PoseStamped:
    message = PoseStamped()
    message.pose = matrix_to_pose(pose)
    return message


def plot_square(recording: LineRecording, chain: Chain, corners: np.ndarray, path: Path, *,
                title: str) -> Path:
    """
    Draw the tool's path against the ideal square, and its distance from the square over time.

    :param recording: The executed path's joint states.
    :param chain: The chain, for forward kinematics.
    :param corners: (W + 1, 3) the square's corners from the start, m.
    :param path: The PNG to write; its folder is created.
    :param title: The figure's title.
    :returns: ``path``.
    """
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot
    tips = (chain.fk_batch(np.array(recording.positions))[:, :3, 3]
            if recording.positions else np.zeros((0, 3)))
    figure, (square, errors) = pyplot.subplots(1, 2, figsize=(11, 4.8))
    square.plot(corners[:, 1], corners[:, 2], color='0.6', linewidth=4, label='ideal lines')
    square.plot(tips[:, 1], tips[:, 2], color='tab:blue', linewidth=1.2,
                label='tool (FK of the played joint states)')
    square.set_xlabel('base y (m)')
    square.set_ylabel('base z (m)')
    square.set_aspect('equal', adjustable='datalim')
    square.legend(loc='best', fontsize='small')
    if recording.times:
        elapsed = np.array(recording.times) - recording.times[0]
        deviation = np.maximum(deviations_from_polyline(tips, corners), 1e-9)
        errors.semilogy(elapsed, 1e3 * deviation, color='tab:red')
    errors.set_xlabel('time (s)')
    errors.set_ylabel('distance from the ideal lines (mm)')
    figure.suptitle(title)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path
