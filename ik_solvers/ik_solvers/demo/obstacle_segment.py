# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's goal across an obstacle: one goal published once, a box in the straight way.

The arm starts at its home configuration; the goal is the tip pose with the first joint turned
by up to a radian, and a box stands where the hand passes halfway along the straight joint
motion (both ends clear of it). The goal is published once, as ``ros2 topic pub --once``
does. The node must drive the arm to the goal (routing around the box) or stop at the closest
collision-free approach, never through the box: every joint state the simulated executor plays
is recorded, filled in every millisecond between two recorded states (the executor
interpolates linearly), and checked by an exact collision check built here, apart from the
node's.
"""

from __future__ import annotations

from dataclasses import dataclass
import threading
import time
from typing import Dict, List, Optional, Tuple

from geometry_msgs.msg import Pose, PoseStamped
from ik_solvers_interfaces.msg import CollisionObject, IKStatus
import numpy as np
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from shape_msgs.msg import SolidPrimitive

from ..collision import Box, CollisionModel, load_robot_geometry, Obstacle, ObstacleSet, Primitive
from ..kinematics import Chain, RobotModel
from ..ros.conversions import matrix_to_pose
from ..ros.names import JOINT_STATES_TOPIC, OBSTACLES_TOPIC, of_node, STATUS_TOPIC, \
    TARGET_POSE_TOPIC

__all__ = ['ObstacleSummary', 'format_obstacle_summary', 'goal_across_obstacle',
           'played_collisions']

BOX_ID = 'demo_box'
BOX_SIZE = (0.12, 0.12, 0.12)
# Turns of the first joint tried, rad: the first whose straight motion crosses the box.
_TURNS = (1.0, 0.8, -1.0, -0.8, 1.2)
_SAMPLE = 0.001
_FINAL = ('goal reached', 'closest collision-free approach', 'goal given up')


@dataclass(frozen=True)
class ObstacleSummary:
    """What the goal across the obstacle gave."""

    final_status: str
    position_error_mm: float
    played_states: int
    samples: int
    colliding_samples: int
    first_contact: str
    seconds: float


def _scene(urdf_xml: str, chain_links: Tuple[str, str], box: Optional[np.ndarray]):
    robot = RobotModel.from_urdf(urdf_xml)
    chain = robot.chain(*chain_links)
    obstacles = ObstacleSet()
    if box is not None:
        obstacles = obstacles.apply(Obstacle(BOX_ID, box, (Primitive(Box(size=BOX_SIZE)),)))
    return chain, CollisionModel(robot, chain, load_robot_geometry(robot), obstacles=obstacles)


def _layout(urdf_xml: str, chain: Chain, home: np.ndarray):
    """Pick the turn and the box: the straight motion crosses it, both ends are clear."""
    for turn in _TURNS:
        goal_q = home.copy()
        goal_q[0] += turn
        if not chain.within_limits(goal_q):
            continue
        middle = home.copy()
        middle[0] += turn / 2.0
        box = np.eye(4)
        box[:3, 3] = chain.fk(middle)[:3, 3]
        _, model = _scene(urdf_xml, (chain.base_link, chain.tip_link), box)
        line = [home + (goal_q - home) * t for t in np.linspace(0.0, 1.0, 101)]
        if (not model.check(home).colliding and not model.check(goal_q).colliding
                and any(model.check(q, stop_at_first=True).colliding for q in line)):
            return goal_q, box, model
    return None


def goal_across_obstacle(driver: Node, urdf_xml: str, chain: Chain, home: np.ndarray, *,
                         timeout: float = 60.0) -> Optional[ObstacleSummary]:
    """
    Run the segment with the demo's driver node (its arm at ``home``, the node's last command).

    :returns: The figures, or ``None`` when no box layout fits this arm.
    """
    layout = _layout(urdf_xml, chain, home)
    if layout is None:
        return None
    goal_q, box, model = layout
    goal = chain.fk(goal_q)
    lock = threading.Lock()
    states: List[Tuple[float, np.ndarray]] = []
    statuses: List[IKStatus] = []
    # Joints off the chain (a hand's fingers) as the executor holds them: the node's check
    # places their links there, so does this one.
    others: Dict[str, float] = {}

    recording = threading.Event()
    recording.set()

    def on_state(message: JointState) -> None:
        if not recording.is_set():
            return
        by_name = dict(zip(message.name, message.position))
        if not others:
            others.update((name, value) for name, value in by_name.items()
                          if name not in chain.joint_names)
        if all(name in by_name for name in chain.joint_names):
            stamp = message.header.stamp.sec + 1e-9 * message.header.stamp.nanosec
            with lock:
                states.append((stamp, np.array([by_name[n] for n in chain.joint_names])))

    def on_status(message: IKStatus) -> None:
        if not recording.is_set():
            return
        with lock:
            statuses.append(message)

    deep = QoSProfile(depth=5000, reliability=ReliabilityPolicy.RELIABLE)
    # Kept until the driver is destroyed: destroying an entity while another thread spins the
    # node can end that thread's executor.
    driver.create_subscription(JointState, JOINT_STATES_TOPIC, on_state, deep)
    driver.create_subscription(IKStatus, of_node(STATUS_TOPIC), on_status, deep)
    obstacles = driver.create_publisher(CollisionObject, of_node(OBSTACLES_TOPIC), deep)
    targets = driver.create_publisher(PoseStamped, TARGET_POSE_TOPIC, 10)
    started = time.monotonic()
    try:
        _wait(lambda: obstacles.get_subscription_count() > 0, 10.0)
        obstacles.publish(_box_message(chain.base_link, box, CollisionObject.ADD))
        time.sleep(1.0)  # applied on the node's executor thread, in order with the goal
        message = PoseStamped()
        message.header.frame_id = chain.base_link
        message.pose = matrix_to_pose(goal)
        targets.publish(message)
        final = _wait(lambda: next((s for s in _copy(lock, statuses) if s.success
                                    and s.commanded or s.message.startswith(_FINAL)), None),
                      timeout)
        _wait(lambda: _at_rest(lock, states), timeout)
        obstacles.publish(_box_message(chain.base_link, box, CollisionObject.REMOVE))
    finally:
        recording.clear()
    played = _copy(lock, states)
    samples, colliding, first = _check_played(model.with_joint_positions(others), played)
    error = float('nan')
    if played:
        error = 1e3 * float(np.linalg.norm(chain.fk(played[-1][1])[:3, 3] - goal[:3, 3]))
    status = 'none' if final is None else final.message.splitlines()[0]
    return ObstacleSummary(status, error, len(played), samples, colliding, first,
                           time.monotonic() - started)


def _copy(lock, items):
    with lock:
        return list(items)


def _at_rest(lock, states) -> bool:
    with lock:
        recent = states[-25:]
    return len(recent) == 25 and all(np.array_equal(q, recent[0][1]) for _, q in recent)


def _wait(condition, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    return None


def _box_message(frame_id: str, pose: np.ndarray, operation: int) -> CollisionObject:
    message = CollisionObject()
    message.header.frame_id = frame_id
    message.id = BOX_ID
    message.operation = operation
    message.pose = matrix_to_pose(pose)
    if operation == CollisionObject.ADD:
        primitive = SolidPrimitive(type=SolidPrimitive.BOX)
        primitive.dimensions = [float(value) for value in BOX_SIZE]
        message.primitives = [primitive]
        identity = Pose()
        identity.orientation.w = 1.0
        message.primitive_poses = [identity]
    return message


def played_collisions(urdf_xml: str, chain: Chain, states) -> Tuple[int, int, str]:
    """
    Check a recorded motion (:meth:`DragDriver.recorded_states`) every millisecond.

    :param states: ``(stamp s, {joint: position})`` of each joint state played.
    :returns: Samples checked, samples in collision, the first contact (or '').
    """
    if not states:
        return 0, 0, ''
    _, model = _scene(urdf_xml, (chain.base_link, chain.tip_link), None)
    others = {name: value for name, value in states[0][1].items()
              if name not in chain.joint_names}
    played = [(stamp, np.array([positions[name] for name in chain.joint_names]))
              for stamp, positions in states
              if all(name in positions for name in chain.joint_names)]
    return _check_played(model.with_joint_positions(others), played)


def _check_played(model: CollisionModel, played) -> Tuple[int, int, str]:
    """Check the played motion every millisecond; return samples, colliding, first contact."""
    samples = colliding = 0
    first = ''
    for (t0, a), (t1, b) in zip(played[:-1], played[1:]):
        if np.array_equal(a, b):
            continue
        pieces = max(1, int(round((t1 - t0) / _SAMPLE)))
        for k in range(pieces):
            q = a + (b - a) * (k / pieces)
            samples += 1
            report = model.check(q, stop_at_first=True)
            if report.colliding:
                colliding += 1
                first = first or report.describe()
    return samples, colliding, first


def _short(status: str) -> str:
    """Keep how the goal ended and how the motion was made, not the solver's numbers."""
    head = status.split(':')[0]
    how = status[status.find('; commanded'):] if '; commanded' in status else ''
    return head + how


def format_obstacle_summary(summary: Optional[ObstacleSummary], solver: str) -> str:
    """Lay out the segment's figures."""
    if summary is None:
        return 'Goal across an obstacle: no box layout fits this arm; skipped'
    return '\n'.join([
        'Goal across an obstacle (%s): one goal published once, a %.0f cm box in the straight '
        'way' % (solver, 100 * BOX_SIZE[0]),
        'final status: %s' % _short(summary.final_status),
        'final position error mm  played states  swept samples (1 ms)  in collision  seconds',
        '%-24.3f %-14d %-21d %-13d %.1f' % (
            summary.position_error_mm, summary.played_states, summary.samples,
            summary.colliding_samples, summary.seconds)]
        + (['first contact: %s' % summary.first_contact] if summary.first_contact else []))
