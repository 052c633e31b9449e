# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Several end effectors through the real node: goals published once to both hands, and a drag.

Run ``python -m ik_solvers_benchmarks.tree_node`` after the colcon build. It starts the
installed ik_node with ``tip_links`` set to both hands of the bundled two-armed robot on a
waist (``dual_arm_waist``, 15 joints) and the simulated executor (joint states every 1 ms), as
processes in a namespace of their own (joint states at 100 Hz), and one client that publishes
the description and the targets on the tip topics ``target_pose/<tip>``:

- **goals once**: random reachable goal sets (forward kinematics of random in-limit
  configurations whose arms collide neither with themselves nor with each other), each tip's
  target published once; after each set the benchmark waits for the arms to come to rest and
  counts the set *exact* when both hands are within the node's tolerances (1e-4 m, 1e-3 rad)
  by forward kinematics of the final joint states;
- **drag**: both hands trace figure-eights (mirrored, in the base x-z plane) through their
  start poses, a target per tip streamed at 50 Hz; the largest change of one joint between two
  consecutive commands is compared with ``max_joint_jump`` (0.087 rad), and the answers that
  met every tip are counted.

Every played joint state is checked for collisions (each arm's chain, with the rest of the
robot posed as played, by the library's exact check; sampled every 10 ms).
"""

import argparse
from collections import Counter
from dataclasses import dataclass, field
import os
import re
from pathlib import Path
import sys
import time
from typing import List, Optional, Sequence

import numpy as np
from transforms3d.quaternions import mat2quat

from .goals_once import executor_process
from .goals_once_client import GoalsClient
from .stress_client import IKNodeProcess, new_namespace
from ik_solvers.collision import load_robot_geometry, TreeCollisionCheck
from ik_solvers.demo.scripted_drag import figure_eight
from ik_solvers.kinematics import RobotModel
from ik_solvers.kinematics.tree import KinematicTree
from ik_solvers.reach.named_robots import bundled_urdf_directory

__all__ = ['main', 'run', 'TreeNodeFigures']

BASE_LINK = 'base_link'
TIPS = ('left_tool', 'right_tool')
_POSITION_TOLERANCE = 1e-4
_ORIENTATION_TOLERANCE = 1e-3
_MAX_JOINT_JUMP = 0.087
# s the joint states must stay still to count as at rest; the longest wait per goal set.
_QUIET = 0.5
_GOAL_TIMEOUT = 30.0
# A goal set is done once the arms rest with both hands on it, or, when they are not, once the
# arms rest, no status came for _IDLE s and at least _SETTLE s passed (the node drives a goal
# published once after 0.25 s without a newer one, with at least 0.5 s to search, and checks
# the motion, which for a long one takes seconds).
_SETTLE = 1.5
_IDLE = 4.0
# Played states are checked for collisions this far apart, s; joint states come at _STATE_RATE
# Hz (joint_state_broadcaster's usual 100 Hz is the node's input on a real robot).
_CHECK_EVERY = 0.01
_STATE_RATE = 100.0
# Where the drag starts: both elbows bent, away from singularities (rad, by joint).
_DRAG_START = {'left_joint2': 0.6, 'left_joint4': -1.6, 'left_joint6': 1.6,
               'right_joint2': 0.6, 'right_joint4': -1.6, 'right_joint6': 1.6}


@dataclass
class TreeNodeFigures:
    """What the goal sets and the drag gave."""

    goal_sets: int = 0
    exact: int = 0
    worst_position_error: float = 0.0
    worst_orientation_error: float = 0.0
    seconds: List[float] = field(default_factory=list)
    drag_goals: int = 0
    drag_met: int = 0
    drag_commands: int = 0
    drag_max_jump: float = 0.0
    checked_states: int = 0
    colliding_states: int = 0
    notes: List[str] = field(default_factory=list)


class _Check:
    """Each hand's pose by the description's own kinematics; collisions of each arm's chain."""

    def __init__(self, model: RobotModel, urdf_xml: str, tree: KinematicTree) -> None:
        self._model, self._tree = model, tree
        self._collisions = TreeCollisionCheck(model, tree, load_robot_geometry(urdf_xml))

    def errors(self, q: np.ndarray, goals: np.ndarray) -> np.ndarray:
        """Return (tips, 2): position error m and orientation error rad of each hand."""
        named = dict(zip(self._tree.joint_names, q.tolist()))
        rows = []
        for tip, goal in zip(TIPS, goals):
            reached = self._model.transform(BASE_LINK, tip, named)
            cosine = (np.trace(goal[:3, :3].T @ reached[:3, :3]) - 1.0) / 2.0
            rows.append((float(np.linalg.norm(reached[:3, 3] - goal[:3, 3])),
                         float(np.arccos(np.clip(cosine, -1.0, 1.0)))))
        return np.array(rows)

    def collides(self, q: np.ndarray) -> bool:
        return self._collisions.colliding(q)


def _publish(publishers, poses: np.ndarray) -> None:
    from geometry_msgs.msg import PoseStamped  # ROS messages only where a run needs them
    for publisher, pose in zip(publishers, poses):
        message = PoseStamped()
        message.header.frame_id = BASE_LINK
        message.pose.position.x, message.pose.position.y, message.pose.position.z = (
            float(value) for value in pose[:3, 3])
        w, x, y, z = mat2quat(pose[:3, :3])
        orientation = message.pose.orientation
        orientation.x, orientation.y, orientation.z, orientation.w = (
            float(x), float(y), float(z), float(w))
        publisher.publish(message)


def _check_played(check: _Check, states, figures: TreeNodeFigures) -> None:
    last_time = -1.0
    for arrival, q in states:
        if arrival - last_time < _CHECK_EVERY:
            continue
        last_time = arrival
        figures.checked_states += 1
        if check.collides(q):
            figures.colliding_states += 1


def _goal_sets(tree: KinematicTree, check: _Check, count: int, seed: int) -> List[np.ndarray]:
    rng = np.random.default_rng(seed)
    sets: List[np.ndarray] = []
    while len(sets) < count:
        q = tree.random_configuration(rng)
        if not check.collides(q):
            sets.append(tree.fk(q))
    return sets


def run(goal_sets: int, drag_goals: int, *, seed: int, output: Path,
        progress=None) -> TreeNodeFigures:
    """
    Run both parts on a fresh node and executor.

    :raises RuntimeError: The executor or the node never answered.
    """
    urdf_xml = (bundled_urdf_directory() / 'trees' / 'dual_arm_waist.urdf').read_text()
    model = RobotModel.from_urdf(urdf_xml)
    tree = KinematicTree(model, BASE_LINK, TIPS)
    check = _Check(model, urdf_xml, tree)
    goals = _goal_sets(tree, check, goal_sets, seed)
    figures = TreeNodeFigures()
    namespace = new_namespace()
    output.mkdir(parents=True, exist_ok=True)
    executor = executor_process(namespace, output / 'tree_executor.log', dict(os.environ),
                                rate=_STATE_RATE)
    node = IKNodeProcess(base_link=BASE_LINK, tip_link=TIPS[0],
                         log_path=output / 'tree_ik_node.log', namespace=namespace,
                         parameters={'tip_links': '[%s]' % ', '.join(TIPS)})
    client = GoalsClient(namespace, tree.joint_names)
    from geometry_msgs.msg import PoseStamped
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    reliable = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
    publishers = [client.node.create_publisher(PoseStamped, 'target_pose/' + tip, reliable)
                  for tip in TIPS]
    try:
        client.publish_description(urdf_xml, None)
        if client.wait_at_rest(_QUIET, 120.0) is None:
            raise RuntimeError('no joint states from the simulated executor')
        _wait_for_node(client, publishers, tree)
        checked_from = client.state_count()
        _drag(client, publishers, check, tree, drag_goals, figures)
        for index, target in enumerate(goals):
            _one_set(client, publishers, check, target, figures)
            if progress is not None:
                progress(index + 1, len(goals), figures)
        _check_played(check, client.states_since(checked_from), figures)
    finally:
        client.close()
        node.stop()
        executor.send_signal(2)
        try:
            executor.wait(timeout=10.0)
        except Exception:  # noqa: B902 - a stuck executor is killed
            executor.kill()
    return figures


def _wait_for_node(client: GoalsClient, publishers, tree: KinematicTree) -> None:
    """Publish where the hands are until the node answers (it has the model and the states)."""
    deadline = time.monotonic() + 180.0
    while time.monotonic() < deadline:
        q = client.latest()
        first = client.status_count()
        _publish(publishers, tree.fk(q))
        time.sleep(2.0)
        if any(status.success for status in client.statuses_since(first)):
            return
    raise RuntimeError('the ik_node never answered the hands\' own poses')


def _settled(client: GoalsClient, check: '_Check', target: np.ndarray, started: float,
             first_status: int) -> Optional[np.ndarray]:
    """Wait until the node is done with the goal published at ``started``; the arms' rest."""
    count, heard = first_status, started
    while time.monotonic() - started < _GOAL_TIMEOUT:
        time.sleep(0.05)
        now = client.status_count()
        if now != count:
            count, heard = now, time.monotonic()
        if time.monotonic() - started < _SETTLE:
            continue
        q = client.wait_at_rest(_QUIET, _GOAL_TIMEOUT)
        if q is not None and _met(check.errors(q, target)):
            return q
        if time.monotonic() - heard >= _IDLE and client.status_count() == count:
            return q  # nothing new while the arms came to rest: the node is done
    return None


def _met(errors: np.ndarray) -> bool:
    return bool(np.all(errors[:, 0] <= _POSITION_TOLERANCE)
                and np.all(errors[:, 1] <= _ORIENTATION_TOLERANCE))


def _one_set(client: GoalsClient, publishers, check: _Check, target: np.ndarray,
             figures: TreeNodeFigures) -> None:
    figures.goal_sets += 1
    started, first = time.monotonic(), client.status_count()
    _publish(publishers, target)
    q = _settled(client, check, target, started, first)
    figures.seconds.append(time.monotonic() - started)
    if q is None:
        figures.notes.append('goal set %d: the arms never came to rest' % figures.goal_sets)
        return
    errors = check.errors(q, target)
    figures.worst_position_error = max(figures.worst_position_error, float(errors[:, 0].max()))
    figures.worst_orientation_error = max(figures.worst_orientation_error,
                                          float(errors[:, 1].max()))
    if _met(errors):
        figures.exact += 1
    else:
        statuses = client.statuses_since(first)
        figures.notes.append('goal set %d: errors %s (m, rad); last status: %s' % (
            figures.goal_sets, np.round(errors, 5).tolist(),
            statuses[-1].message.splitlines()[0][:160] if statuses else 'none'))


def _drag(client: GoalsClient, publishers, check: _Check, tree: KinematicTree, count: int,
          figures: TreeNodeFigures) -> None:
    """Stream both hands along mirrored figure-eights at 50 Hz from the robot's home."""
    home = tree.mid_configuration()
    for name, value in _DRAG_START.items():
        home[tree.joint_names.index(name)] = value
    start_poses = tree.fk(tree.clip_into_limits(home))
    started, first = time.monotonic(), client.status_count()
    _publish(publishers, start_poses)
    q = _settled(client, check, start_poses, started, first)
    if q is None or not _met(check.errors(q, start_poses)):
        figures.notes.append('drag: the hands did not reach their start poses; not run')
        return
    paths = [figure_eight(start_poses[0], count=count, width=0.12, height=0.08, depth=0.0,
                          tilt=0.0),
             figure_eight(start_poses[1], count=count, width=-0.12, height=0.08, depth=0.0,
                          tilt=0.0)]
    first_command = len(client.commands.recorded()[1])
    first_status = client.status_count()
    previous = client.latest()
    period, next_send = 1.0 / 50.0, time.monotonic()
    for k in range(count):
        _publish(publishers, np.array([paths[0][k], paths[1][k]]))
        next_send += period
        time.sleep(max(0.0, next_send - time.monotonic()))
    client.wait_at_rest(_QUIET, _GOAL_TIMEOUT)
    commands = client.commands.recorded()[1][first_command:]
    statuses = client.statuses_since(first_status)
    figures.drag_goals = count
    figures.drag_met = sum(1 for status in statuses if status.success)
    reasons = Counter(re.sub(r'[0-9.e+-]+', '#', status.message.splitlines()[0])[:90]
                      for status in statuses if not status.success)
    figures.notes.extend('drag: %d answers: %s' % (count_, reason)
                         for reason, count_ in reasons.most_common(4))
    names = list(tree.joint_names)
    for _, message in commands:
        if not message.points:
            continue
        final = dict(zip(message.joint_names, message.points[-1].positions))
        q = np.array([final.get(name, previous[index]) for index, name in enumerate(names)])
        figures.drag_max_jump = max(figures.drag_max_jump, float(np.max(np.abs(q - previous))))
        previous = q
        figures.drag_commands += 1


def format_report(figures: TreeNodeFigures) -> str:
    """Lay out the figures."""
    share = 100.0 * figures.exact / figures.goal_sets if figures.goal_sets else 0.0
    return '\n'.join([
        'goals published once (dual_arm_waist, both hands, full poses): %d of %d goal sets '
        'exact (%.1f %%); worst hand error %.2e m, %.2e rad; median %.2f s, max %.2f s to rest'
        % (figures.exact, figures.goal_sets, share, figures.worst_position_error,
           figures.worst_orientation_error,
           float(np.median(figures.seconds)) if figures.seconds else 0.0,
           max(figures.seconds) if figures.seconds else 0.0),
        'drag at 50 Hz (both hands, figure-eights): %d goals, %d answers met every tip, %d '
        'commands, largest joint change between commands %.4f rad (max_joint_jump %.3f)'
        % (figures.drag_goals, figures.drag_met, figures.drag_commands, figures.drag_max_jump,
           _MAX_JOINT_JUMP),
        'played states checked for collisions (every 10 ms): %d, in collision %d'
        % (figures.checked_states, figures.colliding_states)])


def build_parser() -> argparse.ArgumentParser:
    """Return the command line parser."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--goal-sets', type=int, default=50, help='(%(default)s)')
    parser.add_argument('--drag-goals', type=int, default=150, help='(%(default)s)')
    parser.add_argument('--seed', type=int, default=0, help='(%(default)s)')
    parser.add_argument('--output', type=Path, default=Path('output/tree_node'),
                        help='folder of the node and executor logs (%(default)s)')
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the benchmark; print the figures. Returns 1 when a played state collides."""
    arguments = build_parser().parse_args(argv)

    def progress(done, total, figures):
        if done % 10 == 0 or done == total:
            print('%d/%d goal sets, %d exact' % (done, total, figures.exact), flush=True)

    figures = run(arguments.goal_sets, arguments.drag_goals, seed=arguments.seed,
                  output=arguments.output, progress=progress)
    for note in figures.notes:
        print('  ' + note)
    print(format_report(figures))
    return 1 if figures.colliding_states else 0


if __name__ == '__main__':
    sys.exit(main())
