# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Goals published once: the arm gets there, and never through a collision on the way.

Run ``python -m ik_solvers_benchmarks.goals_once``. Per arm it starts the installed ik_node
(default parameters) and the simulated executor (publishing the played joint states every
1 ms) as processes in a namespace of their own, then publishes random reachable, collision-free
goals (FK of random collision-free configurations) on ``target_pose``, each once, from rest,
as ``ros2 topic pub --once`` does. After each goal it waits for the arm to come to rest and
sorts the goal:

- **exact**: FK of the final joint states within the node's tolerances (1e-4 m, 1e-3 rad);
- **approach**: not exact, and the node's final status says ``closest collision-free
  approach``;
- **other**: anything else (a goal given up, a status missing).

Every joint state played (1 kHz) is checked by an exact collision check built here from the
same URDF and SRDF, apart from the node's: the count of states in collision must be 0.

Every command the node sends is replayed as joint_trajectory_controller splices it: a cubic
from the arm's state when it arrives (the latest joint state, with its velocity, run on to the
arrival), sampled every 1 ms until the next arrives; the worst velocity and acceleration, as
shares of the node's limits (``velocity_scale`` 0.5 of the URDF's, ``acceleration_limit``
5 rad/s^2), and the commands above 1.0x are printed per arm.
"""

import argparse
from dataclasses import dataclass, field
import math
from pathlib import Path
import subprocess
import sys
import time
from typing import List, Optional, Sequence

import numpy as np

from .goals_once_client import GoalsClient
from ik_solvers.demo.played_limits import (format_limits, PlayedLimits, replay_commands,
                                           replay_limits)
from .node_ready import prepare_arm
from .stress_client import COMMAND_TOPIC, IKNodeProcess, new_namespace
from ik_solvers.collision import CollisionModel, load_robot_geometry, parse_srdf
from ik_solvers.kinematics import RobotModel

__all__ = ['ARMS', 'ArmFigures', 'executor_process', 'main', 'run_arm']

ARMS = ('ur5_like', 'panda_like', 'vendor_ur5', 'vendor_panda')
_POSITION_TOLERANCE = 1e-4
_ORIENTATION_TOLERANCE = 1e-3
# s the joint states must stay still to count as at rest, and the longest wait per goal.
_QUIET = 0.4
_GOAL_TIMEOUT = 60.0
# The node's default limits (config/ik_solvers.yaml), which the benchmark's node runs with.
_VELOCITY_SCALE = 0.5
_ACCELERATION = 5.0
_FINAL_PREFIXES = ('goal reached', 'closest collision-free approach', 'goal given up')


@dataclass
class ArmFigures:
    """What one arm's goals gave."""

    arm: str
    goals: int = 0
    exact: int = 0
    approach: int = 0
    other: int = 0
    states: int = 0
    colliding_states: int = 0
    seconds: List[float] = field(default_factory=list)
    limits: Optional[PlayedLimits] = None
    errors_mm: List[float] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)


def _quaternion_xyzw(rotation: np.ndarray) -> np.ndarray:
    import transforms3d
    w, x, y, z = transforms3d.quaternions.mat2quat(rotation)
    return np.array([x, y, z, w])


def _errors(chain, q: np.ndarray, goal: np.ndarray):
    reached = chain.fk(q)
    cosine = (np.trace(reached[:3, :3].T @ goal[:3, :3]) - 1.0) / 2.0
    return (float(np.linalg.norm(reached[:3, 3] - goal[:3, 3])),
            float(math.acos(min(1.0, max(-1.0, cosine)))))


def executor_process(namespace: str, log_path: Path, environment, *,
                     rate: float = 1000.0) -> subprocess.Popen:
    """Start the simulated executor in ``namespace``, publishing joint states at ``rate`` Hz."""
    arguments = [sys.executable, '-c',
                 'from ik_solvers.visualization.sim_executor import main; main()',
                 '--ros-args', '-r', '__ns:=' + namespace,
                 '-p', 'command_topic:=' + COMMAND_TOPIC, '-p', 'publish_rate:=%.1f' % rate]
    log = open(log_path, 'w')
    return subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT,
                            env=environment)


def run_arm(name: str, count: int, *, seed: int, output: Path,
            progress=None) -> ArmFigures:
    """
    Publish ``count`` goals once each to a fresh node and executor for arm ``name``.

    :raises RuntimeError: The node never answered.
    """
    import os
    arm = prepare_arm(name, seed=seed)
    robot = arm.robot
    model = RobotModel.from_urdf(robot.urdf_xml)
    chain = model.chain(robot.base_link, robot.tip_link)
    roots = [arm.environment['AMENT_PREFIX_PATH'].split(':')[0] + '/share'] \
        if 'AMENT_PREFIX_PATH' in arm.environment else []
    check = CollisionModel(model, chain, load_robot_geometry(robot.urdf_xml, search_roots=roots),
                           disabled=parse_srdf(arm.srdf_xml) if arm.srdf_xml else None)
    rng = np.random.default_rng(seed)
    goals: List[np.ndarray] = []
    while len(goals) < count:
        q = chain.random_configuration(rng)
        if not check.check(q, stop_at_first=True).colliding:
            goals.append(chain.fk(q))
    figures = ArmFigures(arm=name)
    namespace = new_namespace()
    output.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, **arm.environment}
    executor = executor_process(namespace, output / ('%s_executor.log' % name), environment)
    node = IKNodeProcess(base_link=robot.base_link, tip_link=robot.tip_link,
                         log_path=output / ('%s_ik_node.log' % name), namespace=namespace,
                         environment=arm.environment)
    client = GoalsClient(namespace, chain.joint_names)
    try:
        client.publish_description(robot.urdf_xml, arm.srdf_xml)
        start = client.wait_at_rest(_QUIET, 120.0)
        if start is None:
            raise RuntimeError('no joint states from the simulated executor')
        # Joints off the chain (a hand's fingers) stay where the executor holds them; the
        # node places their links there too.
        check = check.with_joint_positions(client.others or {})
        _wait_for_node(client, robot.base_link, chain.fk(start))
        checked_from = client.state_count()
        for index, goal in enumerate(goals):
            _one_goal(client, chain, robot.base_link, goal, figures)
            states = client.states_since(checked_from)
            checked_from += len(states)
            _check_states(check, states, figures, index + 1)
            if progress is not None:
                progress(name, index + 1, count, figures)
        start_states, commands = client.commands.recorded()
        arrivals = client.commands.arrival_states()
        figures.limits = replay_limits(chain, start_states, commands,
                                       velocity_scale=_VELOCITY_SCALE,
                                       acceleration=_ACCELERATION, arrivals=arrivals)
        _note_commands_above(chain, start_states, commands, arrivals, figures)
    finally:
        client.close()
        node.stop()
        executor.send_signal(2)
        try:
            executor.wait(timeout=10.0)
        except subprocess.TimeoutExpired:
            executor.kill()
    return figures


def _note_commands_above(chain, start_states, commands, arrivals, figures: ArmFigures) -> None:
    """Note each command above 1.0x at arrival, with the age of the joint state it met."""
    replay, _ = replay_commands(chain, start_states, commands, arrivals)
    found = replay.excesses(max_velocity=_VELOCITY_SCALE * np.asarray(chain.velocity_limits),
                            max_acceleration=np.full(chain.num_joints, _ACCELERATION))
    kept = [(arrival, state) for (arrival, message), state in zip(commands, arrivals)
            if message.points and set(message.joint_names) <= set(chain.joint_names)]
    for number, (excess, (arrival, state)) in enumerate(zip(found, kept)):
        if excess is not None and max(excess.velocity_ratio, excess.acceleration_ratio) > 1.0:
            _, velocity = state.at(chain.joint_names, arrival)
            figures.notes.append(
                'command %d above the limits at arrival: velocity %.3f, acceleration %.3f; '
                'joint state %.1f ms old, |v| up to %.3f rad/s' % (
                    number, excess.velocity_ratio, excess.acceleration_ratio,
                    1e3 * (arrival - state.received), float(np.max(np.abs(velocity)))))


def _wait_for_node(client: GoalsClient, base_link: str, pose: np.ndarray) -> None:
    deadline = time.monotonic() + 180.0
    while time.monotonic() < deadline:
        first = client.status_count()
        client.publish_goal(base_link, pose[:3, 3], _quaternion_xyzw(pose[:3, :3]))
        time.sleep(2.0)
        if any(status.success for status in client.statuses_since(first)):
            time.sleep(_QUIET)
            return
    raise RuntimeError('the ik_node never answered a goal at the start pose')


def _one_goal(client: GoalsClient, chain, base_link: str, goal: np.ndarray,
              figures: ArmFigures) -> None:
    figures.goals += 1
    first = client.status_count()
    started = time.monotonic()
    client.publish_goal(base_link, goal[:3, 3], _quaternion_xyzw(goal[:3, :3]))
    final = None
    while time.monotonic() - started < _GOAL_TIMEOUT:
        time.sleep(0.02)
        statuses = client.statuses_since(first)
        if statuses and statuses[0].success:
            final = statuses[0]  # reached within one step: nothing held
            break
        final = next((s for s in statuses if s.message.startswith(_FINAL_PREFIXES)), None)
        if final is not None:
            break
    q = client.wait_at_rest(_QUIET, _GOAL_TIMEOUT, arrived=final is not None and
                            final.commanded)
    if q is None:  # the last command was overtaken: judge where the arm stopped
        q = client.wait_at_rest(_QUIET, _GOAL_TIMEOUT)
    figures.seconds.append(time.monotonic() - started - _QUIET)
    if q is None:
        figures.other += 1
        figures.notes.append('goal %d: the arm never came to rest' % figures.goals)
        return
    position_error, orientation_error = _errors(chain, q, goal)
    if position_error <= _POSITION_TOLERANCE and orientation_error <= _ORIENTATION_TOLERANCE:
        figures.exact += 1
    elif final is not None and final.message.startswith('closest collision-free approach'):
        figures.approach += 1
        figures.errors_mm.append(1e3 * position_error)
    else:
        figures.other += 1
        figures.errors_mm.append(1e3 * position_error)
        figures.notes.append('goal %d: %.1f mm, %.3f rad; final status: %s' % (
            figures.goals, 1e3 * position_error, orientation_error,
            'none' if final is None else final.message.splitlines()[0][:200]))


def _check_states(check: CollisionModel, states, figures: ArmFigures, goal: int) -> None:
    last = None
    colliding, first = 0, ''
    for _, q in states:
        if last is not None and np.array_equal(q, last):
            continue  # at rest: the same state again
        last = q
        figures.states += 1
        if check.check(q, stop_at_first=True).colliding:
            colliding += 1
            first = first or '%s at %s' % (check.check(q).describe(),
                                           np.round(q, 4).tolist())
    if colliding:
        figures.colliding_states += colliding
        figures.notes.append('goal %d: %d played states in collision, the first: %s'
                             % (goal, colliding, first))


def format_table(results: Sequence[ArmFigures]) -> str:
    """Lay out one row per arm."""
    lines = ['arm            goals  exact  %exact  approach  other  played states  in '
             'collision  median s  max s  commands  max v/limit  max a/limit  above 1.0x',
             '-' * 143]
    for figures in results:
        share = 100.0 * figures.exact / figures.goals if figures.goals else 0.0
        lines.append('%-14s %-6d %-6d %-7.1f %-9d %-6d %-14d %-13d %-9.2f %.2f' % (
            figures.arm, figures.goals, figures.exact, share, figures.approach, figures.other,
            figures.states, figures.colliding_states,
            float(np.median(figures.seconds)) if figures.seconds else 0.0,
            max(figures.seconds) if figures.seconds else 0.0) + _limits_columns(figures.limits))
    return '\n'.join(lines)


def _limits_columns(limits: Optional[PlayedLimits]) -> str:
    if limits is None:
        return '  -'
    return '  %-9d %-12.3f %-12.3f %d' % (
        limits.judged, limits.velocity_ratio, limits.acceleration_ratio, limits.above)


def build_parser() -> argparse.ArgumentParser:
    """Return the command line parser."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--arms', default=','.join(ARMS),
                        help='comma-separated arms (default: %(default)s)')
    parser.add_argument('--goals', type=int, default=200, help='goals per arm (%(default)s)')
    parser.add_argument('--seed', type=int, default=0, help='random seed (%(default)s)')
    parser.add_argument('--output', type=Path, default=Path('output/goals_once'),
                        help='folder of the node and executor logs (%(default)s)')
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark; print the table. Returns 1 when a played state collides."""
    arguments = build_parser().parse_args(argv)

    def progress(name, done, total, figures):
        if done % 10 == 0 or done == total:
            print('%s: %d/%d goals, %d exact, %d colliding states'
                  % (name, done, total, figures.exact, figures.colliding_states), flush=True)

    results = []
    for name in [arm for arm in arguments.arms.split(',') if arm]:
        results.append(run_arm(name, arguments.goals, seed=arguments.seed,
                               output=arguments.output, progress=progress))
        for note in results[-1].notes:
            print('  %s: %s' % (name, note))
        if results[-1].limits is not None:
            print('%s: %s' % (name, format_limits(results[-1].limits,
                                                  "the arm's measured state at arrival")),
                  flush=True)
    print(format_table(results))
    played = [figures.limits for figures in results if figures.limits is not None]
    if played:
        print('worst ratio at arrival (cubic from the measured state, every 1 ms): velocity '
              '%.3f, acceleration %.3f; commands above 1.0x: %d of %d' % (
                  max(limits.velocity_ratio for limits in played),
                  max(limits.acceleration_ratio for limits in played),
                  sum(limits.above for limits in played), sum(limits.judged for limits in played)))
    return 1 if any(figures.colliding_states for figures in results) else 0


if __name__ == '__main__':
    sys.exit(main())
