# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How soon a servo command shows in the ik_node's output, over DDS, from the send to the arrival.

Run ``python -m ik_solvers_benchmarks.servo_latency`` after the colcon build. It starts the
installed ik_node as a process of its own in a namespace of its own (the middleware the
environment selects, FastDDS by default, on the loopback with
``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST``) with the ``ur5_like`` arm, and one client process
that publishes the description, joint states at 50 Hz (the arm held at a well-conditioned,
collision-free configuration), the servo commands, and records the node's servo output. Send
and arrival are both read from the client's ``time.monotonic``: at the publish call, and on
entry to the subscription's callback (so the client's own executor is part of the figure).

Each case is one input, one output, one ``servo_rate`` and one start:

- input ``twist``: a ``geometry_msgs/TwistStamped`` of 0.02 m/s in the base frame on
  ``~/delta_twist_cmds``; ``joint``: a ``sensor_msgs/JointState`` velocity of 0.1 rad/s on
  ``~/delta_joint_cmds``;
- output ``trajectory`` (``JointTrajectory`` on the command topic) or ``position_array``
  (``Float64MultiArray`` on ``servo_position_topic``), set with ``servo_output``;
- ``servo_rate`` 100 or 500 Hz, set at runtime like ``servo_output``;
- start ``rest``: servoing is idle; the latency runs to the first output. Then a zero command
  brings the arm to rest and the loop stops (its ``~/servo_status`` says not moving).
  ``moving``: servoing runs; every 40 ms plus a random share of a period (the commands fall at
  every phase of the node's cycle) the command turns by 90 degrees (+x, +y, -x, -y for twists;
  the chain's first joint forward, its second forward, the first back, the second back for
  joint commands). The latency runs to the first output whose step from the output before it
  goes along the new direction: more than 1e-6 m of the tip for a twist (the first cycle of a
  turn moves it about 3e-6 m that way at 500 Hz, ten times that at 100 Hz, within the default
  5 rad/s^2), any motion of the newly commanded joint for a joint command. Before a turn the
  arm moves along the old direction and at most backward along the new one (the one before
  it), so such a step comes only from the new command.

The target (issue 43) is one period plus 2 ms at p99. Samples without a matching output within
``LOST_AFTER`` (2 s) are counted as lost, not timed; "silent" ones of them got no output at all
(the node or the client stalled for 2 s or more, the command was lost, or it expired before a
cycle took it up). A sample lost while moving starts the loop again from rest before the next.
"""

import argparse
from contextlib import contextmanager
from dataclasses import dataclass, replace
import gc
import itertools
import math
import os
from pathlib import Path
import sys
import time
from typing import Iterator, List, Optional, Sequence

import numpy as np

from .node_ready import prepare_arm
from .servo_latency_client import POSITION_TOPIC, ServoProbe
from .stress_client import IKNodeProcess, new_namespace, StressClient
from ik_solvers.collision import CollisionModel, load_robot_geometry
from ik_solvers.kinematics import RobotModel

__all__ = ['Case', 'CaseFigures', 'build_parser', 'cases', 'format_table', 'main', 'measure',
           'servo_session']

#: s between two turns while moving (plus a random share of a period).
TURN_EVERY = 0.04
_TYPE_DOUBLE, _TYPE_STRING = 3, 4


@dataclass(frozen=True)
class Case:
    """One measured case: ``source`` twist or joint, ``output``, ``rate`` Hz, ``start``."""

    source: str
    output: str
    rate: float
    start: str

    @property
    def target_ms(self) -> float:
        """Return the target: one period plus 2 ms, in ms."""
        return 1e3 / self.rate + 2.0


@dataclass(frozen=True)
class CaseFigures:
    """
    A case's latencies (ms), its lost samples, and those of them without any output.

    ``node_cpu`` and ``node_waited`` are the shares (%) of the case's wall time the node's
    process ran and its threads waited, ready, for a CPU (other processes had them).
    """

    case: Case
    latencies_ms: Sequence[float]
    lost: int
    silent: int = 0
    node_cpu: float = math.nan
    node_waited: float = math.nan


def cases(rates: Sequence[float] = (100.0, 500.0)) -> List[Case]:
    """Return every case, grouped by rate and output (the node's parameters change per group)."""
    return [Case(source, output, rate, start) for rate, output, source, start in
            itertools.product(rates, ('trajectory', 'position_array'), ('twist', 'joint'),
                              ('rest', 'moving'))]


def measure(probe: ServoProbe, case: Case, samples: int, *, seed: int = 0) -> CaseFigures:
    """
    Time ``samples`` commands of ``case``; the node's servo_rate and servo_output are set.

    :raises RuntimeError: The servo loop never came to rest after a zero command.
    """
    rng = np.random.default_rng(seed)
    period = 1.0 / case.rate
    latencies: List[float] = []
    lost = silent = 0
    # A full collection over the client's growing lists would pause the thread that stamps
    # the arrivals; nothing allocated here needs the cycle collector.
    collecting = gc.isenabled()
    gc.disable()
    try:
        moving, status_mark = False, 0
        for index in range(samples):
            direction = index % 4
            if moving and not all(probe.statuses[status_mark:]):
                moving = False  # the loop stopped (a command expired on a stalled machine)
            if case.start == 'rest' or not moving:
                _rest(probe)
                if case.start == 'moving':  # under way along the direction before this one
                    _under_way(probe, case.source, (direction + 3) % 4)
                    moving = True
            time.sleep((TURN_EVERY if case.start == 'moving' else 0.0)
                       + rng.uniform(0.0, period))
            mark, status_mark = len(probe.outputs), len(probe.statuses)
            before = probe.start if case.start == 'rest' else probe.outputs[mark - 1][1]
            sent = probe.send(case.source, direction)
            arrival = probe.first_effect(case.source, direction, mark, before)
            if arrival is None:
                lost += 1
                silent += len(probe.outputs) == mark
                moving = False  # the command may have timed out meanwhile: start again
            else:
                latencies.append(1e3 * (arrival - sent))
        _rest(probe)
    finally:
        if collecting:
            gc.enable()
    return CaseFigures(case, latencies, lost, silent)


def _rest(probe: ServoProbe) -> None:
    if not probe.wait_at_rest():
        raise RuntimeError('the servo loop never reported rest after zero commands')


def _under_way(probe: ServoProbe, source: str, direction: int) -> None:
    mark = len(probe.outputs)
    probe.send(source, direction)
    probe.first_effect(source, direction, mark, probe.start)
    time.sleep(TURN_EVERY)


def _start_configuration(model: RobotModel, chain, urdf_xml: str, roots: List[str],
                         seed: int) -> np.ndarray:
    """Return the best-conditioned of 200 random collision-free configurations near the middle."""
    check = CollisionModel(model, chain, load_robot_geometry(urdf_xml, search_roots=roots))
    rng = np.random.default_rng(seed)
    middle = chain.mid_configuration()
    width = np.where(chain.is_continuous, 2.0 * np.pi, chain.upper - chain.lower)
    best, best_ratio = middle, -1.0
    for _ in range(200):
        q = chain.clip(middle + 0.25 * width * rng.uniform(-1.0, 1.0, chain.num_joints))
        values = np.linalg.svd(chain.jacobian(q), compute_uv=False)
        ratio = float(values[-1] / values[0])
        if ratio > best_ratio and not check.check(q, stop_at_first=True).colliding:
            best, best_ratio = q, ratio
    return best


@contextmanager
def servo_session(arm_name: str, log_path: Path, *, seed: int = 0) -> Iterator[ServoProbe]:
    """
    Start the ik_node and the client for ``arm_name``; yield the probe once servoing answers.

    :raises RuntimeError: The node exited, or never answered a twist within 180 s.
    """
    from std_msgs.msg import String

    arm = prepare_arm(arm_name, seed=seed)
    model = RobotModel.from_urdf(arm.robot.urdf_xml)
    chain = model.chain(arm.robot.base_link, arm.robot.tip_link)
    roots = [arm.environment['AMENT_PREFIX_PATH'].split(':')[0] + '/share'] \
        if 'AMENT_PREFIX_PATH' in arm.environment else []
    start = _start_configuration(model, chain, arm.robot.urdf_xml, roots, seed)
    namespace = new_namespace()
    client = StressClient(namespace, chain.joint_names, start)
    node: Optional[IKNodeProcess] = None
    try:
        probe = ServoProbe(client, chain, start)
        client.description.publish(String(data=arm.robot.urdf_xml))
        if arm.srdf_xml is not None:
            client.semantic_description.publish(String(data=arm.srdf_xml))
        node = IKNodeProcess(base_link=arm.robot.base_link, tip_link=arm.robot.tip_link,
                             log_path=log_path, namespace=namespace,
                             parameters={'servo_position_topic': POSITION_TOPIC},
                             environment=arm.environment)
        probe.node = node
        deadline = time.monotonic() + 180.0
        while True:
            if not node.alive:
                raise RuntimeError('the ik_node exited with status %s; see %s'
                                   % (node.returncode, log_path))
            if time.monotonic() > deadline:
                raise RuntimeError('the ik_node never answered a twist; see %s' % log_path)
            mark = len(probe.outputs)
            probe.send('twist', 0)
            if probe.first_effect('twist', 0, mark, start) is not None:
                break
        _rest(probe)
        yield probe
    finally:
        client.close()
        if node is not None:
            node.stop()


def configure(probe: ServoProbe, rate: float, output: str) -> None:
    """
    Set the node's ``servo_rate`` (Hz) and ``servo_output``, with the loop at rest.

    :raises RuntimeError: The node did not answer or refused a value.
    """
    from rclpy.parameter import Parameter

    client = probe.client
    request = client.message('SetParameters')
    request.parameters = [Parameter('servo_rate', value=float(rate)).to_parameter_msg(),
                          Parameter('servo_output', value=output).to_parameter_msg()]
    call = client.call(request, time.monotonic() + 10.0, client=client.set_parameters)
    if not call.wait(10.0) or not all(result.successful for result in call.response.results):
        raise RuntimeError('the ik_node did not take servo_rate %s, servo_output %s'
                           % (rate, output))
    _rest(probe)


def format_table(results: Sequence[CaseFigures]) -> str:
    """Lay the cases out as a markdown table, latencies in ms."""
    lines = ['| servo_rate Hz | input | output | start | samples | lost | median | p95 | p99 '
             '| max | target (1 cycle + 2 ms) | p99 met | node CPU % | node waited for a CPU % |',
             '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for figures in results:
        case = figures.case
        values = np.asarray(figures.latencies_ms, dtype=float)
        if values.size:
            median, p95, p99 = np.percentile(values, [50.0, 95.0, 99.0])
            numbers = '%.2f | %.2f | %.2f | %.2f' % (median, p95, p99, values.max())
            met = 'met' if p99 <= case.target_ms else 'not met'
        else:
            numbers, met = '- | - | - | -', 'not met'
        lost = '%d (%d silent)' % (figures.lost, figures.silent) if figures.silent \
            else str(figures.lost)
        lines.append('| %g | %s | %s | %s | %d | %s | %s | %.1f | %s | %.0f | %.0f |' % (
            case.rate, case.source, case.output, case.start, values.size, lost, numbers,
            case.target_ms, met, figures.node_cpu, figures.node_waited))
    return '\n'.join(lines)


def build_parser() -> argparse.ArgumentParser:
    """Return the command line parser."""
    parser = argparse.ArgumentParser(
        prog='python -m ik_solvers_benchmarks.servo_latency',
        description=__doc__.strip().split('\n')[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--samples', type=int, default=250, help='timed commands per case')
    parser.add_argument('--warm-up', type=int, default=5,
                        help='commands per case sent first and not timed')
    parser.add_argument('--rates', default='100,500', help='comma-separated servo_rate, Hz')
    parser.add_argument('--arm', default='ur5_like', help='a bundled or vendor arm')
    parser.add_argument('--seed', type=int, default=0, help='random seed')
    parser.add_argument('--output', type=Path, default=Path('output/servo_latency'),
                        help='folder of the node log')
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Measure every case; print the table. Returns 1 when a command never showed."""
    arguments = build_parser().parse_args(argv)
    if arguments.samples < 1:
        raise SystemExit('--samples must be at least 1')
    rates = [float(rate) for rate in arguments.rates.split(',') if rate.strip()]
    print('load average before: %.2f %.2f %.2f' % os.getloadavg(), flush=True)
    results: List[CaseFigures] = []
    with servo_session(arguments.arm, arguments.output / 'ik_node.log',
                       seed=arguments.seed) as probe:
        configured = None
        for number, case in enumerate(cases(rates)):
            if configured != (case.rate, case.output):
                configure(probe, case.rate, case.output)
                configured = (case.rate, case.output)
            measure(probe, case, arguments.warm_up, seed=arguments.seed + 1000 + number)
            node = probe.node
            before = (time.monotonic(), node.cpu_seconds(), node.runnable_wait_seconds())
            figures = measure(probe, case, arguments.samples, seed=arguments.seed + number)
            seconds = time.monotonic() - before[0]
            results.append(replace(figures, node_cpu=100.0 * (node.cpu_seconds() - before[1])
                                   / seconds,
                                   node_waited=100.0 * (node.runnable_wait_seconds()
                                                        - before[2]) / seconds))
            print(format_table(results[-1:]).splitlines()[-1], flush=True)
    print('load average after: %.2f %.2f %.2f' % os.getloadavg())
    print(format_table(results))
    return 1 if any(figures.lost for figures in results) else 0


if __name__ == '__main__':
    sys.exit(main())
