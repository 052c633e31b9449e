# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How soon the ik_node answers with collisions checked: from its process start to that answer.

Run after the colcon build, with the numba cache warm (``ik_solvers_setup`` warms it)::

    python -m ik_solvers_benchmarks.node_ready --runs 5

For each arm (the bundled ``panda_like`` and ``ur5_like``, and the vendor Panda and UR5 of
example-robot-data with their SRDFs when that package is installed), each run sets up a
client first: it publishes ``robot_description`` (transient local, as robot_state_publisher
does), for vendor arms ``robot_description_semantic`` too, and joint states at 50 Hz. Then it
starts ``python -m ik_solvers.ros.ik_node`` as a process with the arm's base and tip links and
calls SolveIK for a reachable, collision-free target (the forward kinematics of a
configuration near the middle of the joint ranges) as soon as the service is discovered, again
and again, until an answer says ``collision_checked``. The time from just before the process
is started to that answer is the arm's figure; the table gives min / median / max over the
runs, beside when the service was first discovered (the node's own start, before any
description) and, for vendor arms, when the node logged the SRDF. Node logs go to
``--output``.
"""

import argparse
from dataclasses import dataclass
import math
import os
from pathlib import Path
import statistics
import sys
import time
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .collision_free_bench import SRDF_FILES
from ik_solvers.reach.named_robots import BenchRobot, load_robot, vendor_robot_names
from .stress_client import IKNodeProcess, new_namespace, StressClient
from .stress_requests import valid_request
from ik_solvers.collision import CollisionModel, load_robot_geometry, parse_srdf
from ik_solvers.kinematics import RobotModel

__all__ = ['ARMS', 'ReadyArm', 'RunTimes', 'build_parser', 'format_table', 'main',
           'prepare_arm', 'time_run']

#: The arms timed by default, bundled first.
ARMS = ('panda_like', 'ur5_like', 'vendor_panda', 'vendor_ur5')
#: Seconds a run may take before it counts as never ready: a hang bound, not a target.
READY_BOUND = 120.0
#: Seconds between a refused answer (no model yet, collisions not yet loaded) and the next call.
#: It bounds the resolution of the figure; calls any faster would slow the node they time.
RETRY_PAUSE = 0.01
#: Seconds to wait for one answer before the call is sent again (a request sent while the
#: service was still being matched may be lost).
ANSWER_WAIT = 2.0


@dataclass(frozen=True)
class ReadyArm:
    """
    One arm of the benchmark, with what the client publishes and asks.

    :ivar robot: The description and its chain's links.
    :ivar srdf_xml: The SRDF published for it, or ``None``.
    :ivar joint_names: The chain's joints, as published on joint_states.
    :ivar home: Their positions on joint_states, rad or m.
    :ivar target: The (4, 4) tip pose asked for, in the base frame, m.
    :ivar environment: Variables for the node's process (the ament prefix of the vendor
        package, so that its ``package://`` meshes resolve).
    """

    robot: BenchRobot
    srdf_xml: Optional[str]
    joint_names: Sequence[str]
    home: np.ndarray
    target: np.ndarray
    environment: Dict[str, str]


@dataclass(frozen=True)
class RunTimes:
    """
    Times of one run, in s from just before the node's process was started.

    :ivar ready: The first answer with ``collision_checked``; ``None`` when none came.
    :ivar service: The SolveIK service first discovered.
    :ivar srdf: The node's log line about the SRDF (node clock), or ``None``.
    :ivar solved: The ready answer was a success.
    :ivar unchecked_links: Links the ready answer named unchecked (a mesh not found).
    """

    ready: Optional[float]
    service: Optional[float]
    srdf: Optional[float]
    solved: bool
    unchecked_links: Sequence[str]


def prepare_arm(name: str, *, seed: int = 0) -> ReadyArm:
    """
    Load an arm and pick its joint states and a collision-free target.

    :param name: One of :data:`ARMS`, or any name :func:`ik_solvers.reach.named_robots.load_robot` knows (without
        an SRDF unless it is a vendor arm of :data:`.collision_free_bench.SRDF_FILES`).
    :param seed: Seed of the random offsets tried around the middle configuration.
    :returns: The arm.
    :raises RobotModelError: The arm cannot be loaded (see :func:`ik_solvers.reach.named_robots.load_robot`).
    :raises RuntimeError: No collision-free configuration was found near the middle one.
    """
    robot = load_robot(name)
    environment: Dict[str, str] = {}
    search_roots: List[str] = []
    srdf_xml = None
    if name in SRDF_FILES:
        # .../<prefix>/share/example-robot-data/robots/<arm>/urdf/<file>.urdf
        robots_folder = Path(robot.source).parents[2]
        share = robots_folder.parents[1]
        search_roots = [str(share)]
        srdf_xml = (robots_folder / SRDF_FILES[name]).read_text(encoding='utf-8')
        prefixes = [str(share.parent)] + [path for path in
                                          os.environ.get('AMENT_PREFIX_PATH', '').split(':')
                                          if path]
        environment['AMENT_PREFIX_PATH'] = ':'.join(prefixes)
    model = RobotModel.from_urdf(robot.urdf_xml)
    chain = model.chain(robot.base_link, robot.tip_link)
    geometry = load_robot_geometry(robot.urdf_xml, search_roots=search_roots)
    disabled = parse_srdf(srdf_xml) if srdf_xml is not None else None
    collision = CollisionModel(model, chain, geometry, disabled=disabled)
    home = chain.mid_configuration()
    rng = np.random.default_rng(seed)
    width = np.where(chain.is_continuous, 2.0 * math.pi, chain.upper - chain.lower)
    for _ in range(200):
        goal_q = chain.clip(home + 0.1 * width * rng.uniform(-1.0, 1.0, chain.num_joints))
        if not (collision.check(goal_q, stop_at_first=True).colliding
                or collision.check(home, stop_at_first=True).colliding):
            return ReadyArm(robot, srdf_xml, list(chain.joint_names), home,
                            chain.fk(goal_q), environment)
    raise RuntimeError('no collision-free target found near the middle configuration of %s'
                       % name)


def _log_seconds(message: Any, started_wall: float) -> float:
    stamp = message.stamp
    return stamp.sec + 1e-9 * stamp.nanosec - started_wall


def time_run(arm: ReadyArm, log_path: Path, *, bound: float = READY_BOUND) -> RunTimes:
    """
    Start the ik_node for ``arm`` once and time it until it answers with collisions checked.

    :param arm: The arm (see :func:`prepare_arm`).
    :param log_path: File that receives the node's output.
    :param bound: Seconds after which the run gives up (``ready`` is then ``None``).
    :returns: The run's times.
    :raises RuntimeError: The node's process exited before it was ready.
    """
    namespace = new_namespace()
    client = StressClient(namespace, arm.joint_names, arm.home)
    node: Optional[IKNodeProcess] = None
    try:
        description = client.message('String')
        description.data = arm.robot.urdf_xml
        client.description.publish(description)
        if arm.srdf_xml is not None:
            semantic = client.message('String')
            semantic.data = arm.srdf_xml
            client.semantic_description.publish(semantic)
        request = valid_request(client, arm.target)
        started_wall = time.time()
        started = time.monotonic()
        node = IKNodeProcess(base_link=arm.robot.base_link, tip_link=arm.robot.tip_link,
                             log_path=log_path, namespace=namespace,
                             environment=arm.environment)
        service: Optional[float] = None
        while time.monotonic() - started < bound:
            if not node.alive:
                raise RuntimeError('the ik_node exited with status %s; see %s'
                                   % (node.returncode, log_path))
            if not client.solve_ik.service_is_ready():
                time.sleep(0.002)
                continue
            if service is None:
                service = time.monotonic() - started
            call = client.call(request, started + bound)
            if not call.wait(min(ANSWER_WAIT, started + bound - time.monotonic())):
                continue
            response = call.response
            if response.collision_checked:
                srdf = None
                if arm.srdf_xml is not None:
                    # The log line may trail the answer: it travels on another topic.
                    deadline = time.monotonic() + 5.0
                    while srdf is None and time.monotonic() < deadline:
                        srdf = next((_log_seconds(log, started_wall) for log in client.logs
                                     if log.msg.startswith('SRDF from')), None)
                        time.sleep(0.01)
                return RunTimes(call.answered - started, service, srdf, bool(response.success),
                                list(response.unchecked_links))
            time.sleep(RETRY_PAUSE)
        return RunTimes(None, service, None, False, [])
    finally:
        client.close()
        if node is not None:
            node.stop()


def _seconds(values: Sequence[Optional[float]]) -> str:
    known = [value for value in values if value is not None]
    if not known:
        return '-'
    return '%.2f / %.2f / %.2f' % (min(known), statistics.median(known), max(known))


def format_table(results: Dict[str, List[RunTimes]]) -> str:
    """
    Render the runs as a markdown table: min / median / max per arm, in s.

    :param results: Runs of each arm, by arm name.
    :returns: The table, one line per arm after the header.
    """
    lines = ['| arm | runs | ready: process start -> first checked answer (s) '
             '| service discovered (s) | SRDF logged (s) | solved | never ready |',
             '|---|---|---|---|---|---|---|']
    for name, runs in results.items():
        lines.append('| %s | %d | %s | %s | %s | %d | %d |' % (
            name, len(runs), _seconds([run.ready for run in runs]),
            _seconds([run.service for run in runs]), _seconds([run.srdf for run in runs]),
            sum(run.solved for run in runs), sum(run.ready is None for run in runs)))
    return '\n'.join(lines)


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    parser = argparse.ArgumentParser(
        prog='python -m ik_solvers_benchmarks.node_ready', description=__doc__.split('\n')[1],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--runs', type=int, default=5, help='node starts per arm')
    parser.add_argument('--arms', default=','.join(ARMS),
                        help='comma-separated; vendor arms need example-robot-data')
    parser.add_argument('--output', type=Path, default=Path('output/node_ready'),
                        help='folder of the node logs')
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Time the arms; print the table; return 1 when a run was never ready."""
    arguments = build_parser().parse_args(argv)
    if arguments.runs < 1:
        raise SystemExit('--runs must be at least 1')
    installed_vendors = set(vendor_robot_names())
    results: Dict[str, List[RunTimes]] = {}
    for name in [name.strip() for name in arguments.arms.split(',') if name.strip()]:
        if name.startswith('vendor_') and name not in installed_vendors:
            print('skipping %s: example-robot-data is not installed' % name, file=sys.stderr)
            continue
        arm = prepare_arm(name)
        results[name] = []
        for index in range(arguments.runs):
            run = time_run(arm, arguments.output / ('%s_%d.log' % (name, index)))
            if run.unchecked_links:
                print('%s: unchecked links %s' % (name, ', '.join(run.unchecked_links)),
                      file=sys.stderr)
            results[name].append(run)
            print('%s run %d: ready %s s, service %s s' % (
                name, index + 1, 'never' if run.ready is None else '%.3f' % run.ready,
                '-' if run.service is None else '%.3f' % run.service), flush=True)
    print(format_table(results))
    return 1 if any(run.ready is None for runs in results.values() for run in runs) else 0


if __name__ == '__main__':
    sys.exit(main())
