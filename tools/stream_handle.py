# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Time ``IKEngine.handle`` on the 1 kHz stream's targets, outside ROS, with two swept checks.

The targets are those of ``node_stress --scenarios stream`` (a 5 cm circle round the panda's
tip at its middle configuration, every ``--step``-th of ``--count``), solved as streamed
targets with the node's defaults and its 50 ms timeout; each outcome then goes through the
publication check (``command_gate.publication``), as the node's worker does. The joint
states stay at the start (every motion runs from there, up to 10 cm: the default) or, with
``--follow``, report each command's end. Two engines take turns on every target, one whose
swept judge checks a line's samples in one compiled call (the default) and one calling the
exact check once per sample (``per_sample``); each keeps its own joint states and last
command. Their verdicts are compared on every target, and the medians printed, in ms:

    python3 tools/stream_handle.py [--follow]   # after sourcing install/local_setup.bash
"""

import argparse
import math
import time
from typing import Dict, List

import numpy as np

from ik_solvers.engine.command_gate import publication
from ik_solvers.engine.judges import DEFAULT_JUDGES
from ik_solvers.engine.judges.swept import CollisionFreeMotion
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
from ik_solvers_benchmarks.stress_requests import NODE_TIMEOUT, StressSetup


def _targets(setup: StressSetup, count: int, step: int) -> List[IKRequest]:
    centre = setup.chain.fk(setup.home)
    requests = []
    for index in range(0, count, step):
        goal = centre.copy()
        angle = 2.0 * math.pi * index / count
        goal[:3, 3] += 0.05 * np.array([math.cos(angle) - 1.0, math.sin(angle), 0.0])
        requests.append(IKRequest(position=tuple(goal[:3, 3]),
                                  orientation=tuple(xyzw_quaternion(goal)), streamed=True))
    return requests


class _Run:
    """One engine, its joint states and its timings."""

    def __init__(self, setup: StressSetup, per_sample: bool) -> None:
        judges = tuple(CollisionFreeMotion(per_sample=True)
                       if per_sample and isinstance(judge, CollisionFreeMotion) else judge
                       for judge in DEFAULT_JUDGES)
        self.engine = IKEngine(judges=judges)
        self.engine.robot.load_description(setup.urdf_xml, setup.base_link, setup.tip_link)
        self.names = list(setup.chain.joint_names)
        self.joints = setup.home.tolist()
        self.handle: List[float] = []
        self.send: List[float] = []
        self.codes: Dict[str, int] = {}

    def take(self, request: IKRequest, settings: NodeSettings, follow: bool):
        # The client publishes joint states at 50 Hz: they are always fresh.
        self.engine.robot.joint_states.update(self.names, self.joints)
        started = time.perf_counter()
        outcome = self.engine.handle(request, settings)
        handled = time.perf_counter()
        with publication(self.engine.robot, self.engine.timing, outcome, settings) as sent:
            outcome = sent  # nothing is published here
        self.handle.append(handled - started)
        self.send.append(time.perf_counter() - handled)
        self.codes[outcome.error_code.name] = self.codes.get(outcome.error_code.name, 0) + 1
        if follow and outcome.command is not None:
            self.joints = list(outcome.command.positions)
        return outcome


def main() -> None:
    """Time both engines on the stream's targets and print their medians."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--follow', action='store_true',
                        help='the joint states report each command end (default: the start)')
    parser.add_argument('--count', type=int, default=60_000, help='targets of the circle')
    parser.add_argument('--step', type=int, default=20, help='every step-th target is solved')
    arguments = parser.parse_args()
    setup = StressSetup()
    settings = NodeSettings(base_link=setup.base_link, tip_link=setup.tip_link,
                            timeout=NODE_TIMEOUT)
    runs = {'compiled lines': _Run(setup, False), 'per sample': _Run(setup, True)}
    requests = _targets(setup, arguments.count, arguments.step)
    for request in requests[:20]:  # numba's first calls, caches
        for run in runs.values():
            run.take(request, settings, arguments.follow)
    for run in runs.values():
        run.handle.clear()
        run.send.clear()
        run.codes.clear()
    differ = 0
    for request in requests:
        outcomes = [run.take(request, settings, arguments.follow) for run in runs.values()]
        first, second = outcomes
        same = first.error_code == second.error_code and (
            (first.command is None) == (second.command is None))
        differ += not same
    print('%d targets, joint states %s, verdicts differing: %d'
          % (len(requests), 'following' if arguments.follow else 'at the start', differ))
    for name, run in runs.items():
        handle, send = 1e3 * np.array(run.handle), 1e3 * np.array(run.send)
        print('%-15s handle median %.3f ms (p90 %.3f), publication median %.3f ms; %s'
              % (name, np.median(handle), np.percentile(handle, 90), np.median(send),
                 run.codes))


if __name__ == '__main__':
    main()
