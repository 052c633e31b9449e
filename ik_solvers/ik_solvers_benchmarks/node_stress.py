# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node under hostile input and overload: fuzz, bursts, a 1 kHz stream, description swaps.

Run after the colcon build (about two minutes with the defaults)::

    python -m ik_solvers_benchmarks.node_stress --output output/stress

It starts the ik_node in a process of its own on the bundled panda, publishes joint states at
50 Hz, and runs four scenarios, each bounded in time:

- **fuzz**: bad inputs of every kind (:mod:`.hostile_inputs`), 32 SolveIK calls in flight at a
  time, and a valid call every 100 inputs. Counted: node crashes, calls answered later than
  their timeout + 1 s (hangs), calls never answered, the valid calls that succeeded.
- **burst**: concurrent valid SolveIK calls, all sent at once. Counted: answers by error code.
- **stream**: targets along a small circle at a fixed rate; latency from publishing a target to
  receiving the first command solved from it (paired through the status that follows it), and
  the node's resident memory sampled every second (its slope in MB/min: ``--scenarios stream
  --stream-seconds 60`` measures a flat RSS). The joint states stay at the start unless
  ``--follow`` makes them report each command's end as it arrives, as a controller that keeps
  up would: without it every motion runs from the start, up to 10 cm, and is timed and
  swept-checked as such.
- **surfaces**: the obstacles, the SRDF, Cartesian paths and the parameter services fuzzed,
  interleaved with valid calls and with the description and SRDF changing meanwhile
  (:mod:`.surface_fuzz`).
- **oversized**: valid SolveIK calls while a path of 100,000 waypoints is converted and refused,
  each to be answered within its own timeout + 0.5 s, and a valid path queued behind it
  (:mod:`.oversized_calls`).
- **swap**: valid calls keep coming while a description padded to ~5 MB replaces the model and
  the plain one replaces it back, each published by a process of its own (as
  robot_state_publisher would). Measured: how late each call is beyond its own timeout, and the
  time from starting the publisher to the node's log line about the new model.

Each scenario prints a line; ``--output`` also gets ``stress.json`` and the node's log.
The exit status is 1 when the node crashed or a call went unanswered.
"""

import argparse
import json
from pathlib import Path
import sys
import time
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .hostile_inputs import fuzz_inputs, KINDS, padded_description
from .oversized_calls import run_oversized
from .stream_latency import run_stream
from .stress_client import DescriptionPublisher, IKNodeProcess, StressClient, TimedCall
from .surface_fuzz import run_surfaces
from .stress_requests import (effective_timeout, hostile_request, NODE_TIMEOUT, publish_input,
                              StressSetup, valid_request, xyzw_quaternion)

__all__ = ['build_parser', 'main']

#: Seconds a call may take beyond its timeout before it counts as a hang.
HANG_MARGIN = 1.0
_IN_FLIGHT = 32
#: Share of each kind of input in the fuzz.
_FUZZ_SHARES = {'request': 0.4, 'joint_states': 0.25, 'target': 0.25, 'description': 0.1}


def _settle(calls: List[TimedCall], grace: float) -> Dict[str, int]:
    deadline = time.monotonic() + grace
    for call in calls:
        call.wait(max(call.deadline, deadline) - time.monotonic())
    answered = [call for call in calls if call.answered is not None]
    return {'calls': len(calls), 'answered': len(answered),
            'unanswered': len(calls) - len(answered),
            'hangs': sum(1 for call in calls
                         if call.answered is None or call.answered > call.deadline)}


def run_fuzz(setup: StressSetup, client: StressClient, node: IKNodeProcess, count: int,
             seed: int, kinds: Sequence[str] = KINDS) -> Dict[str, Any]:
    """Send ``count`` bad inputs of ``kinds``; return crashes, hangs and unanswered calls."""
    goal = setup.goal(0.0)
    weights = {kind: share for kind, share in _FUZZ_SHARES.items() if kind in kinds}
    inputs = fuzz_inputs(count, seed=seed, urdf_xml=setup.urdf_xml,
                         joint_names=setup.chain.joint_names, position=tuple(goal[:3, 3]),
                         orientation=tuple(xyzw_quaternion(goal)), weights=weights,
                         oversized='description' in kinds)
    rss_before = node.rss_megabytes()
    calls: List[TimedCall] = []
    canaries: List[TimedCall] = []
    cache: Dict[int, Any] = {}
    started = time.monotonic()
    for index, item in enumerate(inputs):
        in_flight = [call for call in calls[-4 * _IN_FLIGHT:] if call.answered is None]
        if len(in_flight) >= _IN_FLIGHT:
            in_flight[0].wait(in_flight[0].deadline - time.monotonic())
        if item.kind == 'request':
            calls.append(client.call(hostile_request(client, item.payload), time.monotonic()
                                     + effective_timeout(item.payload) + HANG_MARGIN,
                                     item.label))
        else:
            publish_input(client, item, cache)
        if index % 100 == 99:
            canaries.append(client.call(valid_request(client, setup.goal()), time.monotonic()
                                        + NODE_TIMEOUT + HANG_MARGIN, 'valid'))
    result: Dict[str, Any] = _settle(calls + canaries, grace=5.0)
    late: Dict[str, int] = {}
    for call in calls + canaries:
        if call.answered is None or call.answered > call.deadline:
            late[call.label] = late.get(call.label, 0) + 1
    result['late_by_kind'] = late
    codes: Dict[int, int] = {}
    for call in calls:
        if call.response is not None:
            codes[call.response.error_code] = codes.get(call.response.error_code, 0) + 1
    result.update({
        'inputs': count, 'seconds': round(time.monotonic() - started, 1),
        'crashed': not node.alive, 'error_codes': codes,
        'valid_calls': len(canaries),
        'valid_solved': sum(1 for call in canaries
                            if call.response is not None and call.response.success),
        'rss_mb_before': round(rss_before, 1), 'rss_mb_after': round(node.rss_megabytes(), 1)})
    return result


def run_burst(setup: StressSetup, client: StressClient, size: int) -> Dict[str, Any]:
    """Send ``size`` valid calls at once; return how they were answered."""
    requests = [valid_request(client, setup.goal()) for _ in range(size)]
    started = time.monotonic()
    calls = [client.call(request, started + 30.0, 'burst') for request in requests]
    result: Dict[str, Any] = _settle(calls, grace=30.0)
    codes: Dict[int, int] = {}
    for call in calls:
        if call.response is not None:
            codes[call.response.error_code] = codes.get(call.response.error_code, 0) + 1
    latencies = [call.latency for call in calls if call.latency is not None]
    result.update({'size': size, 'error_codes': codes,
                   'max_latency_ms': round(1e3 * max(latencies), 1) if latencies else None})
    return result


def run_swap(setup: StressSetup, client: StressClient, extra_links: int, directory: Path
             ) -> Dict[str, Any]:
    """Swap to a padded description and back while valid calls keep coming."""
    padded = padded_description(setup.urdf_xml, extra_links, setup.base_link)
    timeout = NODE_TIMEOUT
    calls: List[TimedCall] = []
    phases: Dict[str, float] = {}

    def publish_and_wait(text: str, label: str) -> None:
        logs = len(client.logs)
        phases[label + '_published'] = time.monotonic()
        publisher = DescriptionPublisher(client.namespace, text, directory)
        try:
            deadline = time.monotonic() + 120.0
            while (not client.logged_since(logs, 'robot model from')
                   and time.monotonic() < deadline):
                _keep_calling()
            phases[label + '_adopted'] = time.monotonic()
        finally:
            publisher.stop()

    def _keep_calling() -> None:
        # Four calls in flight at any time, each sent as the previous one is answered.
        active = [call for call in calls[-8:] if call.answered is None]
        while len(active) < 4:
            call = client.call(valid_request(client, setup.goal(), timeout),
                               time.monotonic() + timeout + HANG_MARGIN, 'swap')
            calls.append(call)
            active.append(call)
        time.sleep(0.001)

    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        _keep_calling()
    publish_and_wait(padded, 'padded')
    publish_and_wait(setup.urdf_xml, 'plain')
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        _keep_calling()
    result: Dict[str, Any] = _settle(calls, grace=5.0)
    late = [call.latency - timeout for call in calls if call.latency is not None]
    before = [call.latency for call in calls
              if call.latency is not None and call.sent < phases['padded_published']]
    if before:
        result['p99_latency_before_swap_ms'] = round(1e3 * float(np.percentile(before, 99)), 1)
    worst = sorted((call for call in calls if call.latency is not None),
                   key=lambda call: call.latency, reverse=True)[:5]
    result['worst_calls'] = [
        {'sent_after_padded_s': round(call.sent - phases['padded_published'], 3),
         'latency_ms': round(1e3 * call.latency, 1)} for call in worst]
    result.update({
        'description_mb': round(len(padded.encode()) / 1e6, 2),
        'padded_swap_s': round(phases['padded_adopted'] - phases['padded_published'], 2),
        'plain_swap_s': round(phases['plain_adopted'] - phases['plain_published'], 2),
        'solved': sum(1 for call in calls if call.response is not None
                      and call.response.success),
        'max_beyond_timeout_ms': round(1e3 * max(late), 1) if late else None,
        'p99_latency_ms': round(float(np.percentile(
            [call.latency for call in calls if call.latency is not None], 99)) * 1e3, 1)})
    return result


def _wait_for_model(client: StressClient, setup: StressSetup) -> None:
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        call = client.call(valid_request(client, setup.goal()), 0.0)
        # Code 5 is NO_ROBOT_MODEL: the description is not loaded yet.
        if call.wait(5.0) and call.response.error_code != 5:
            return
        time.sleep(0.1)
    raise RuntimeError('the ik_node never loaded the robot description')


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    parser = argparse.ArgumentParser(
        prog='python -m ik_solvers_benchmarks.node_stress', description=__doc__.split('\n')[1],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--scenarios', default='fuzz,burst,stream,swap',
                        help='comma-separated: fuzz, burst, stream, swap, surfaces, oversized')
    parser.add_argument('--surface-inputs', type=int, default=2000,
                        help='surfaces: fuzzed inputs per surface (obstacle, srdf, path, '
                        'parameter)')
    parser.add_argument('--fuzz-inputs', type=int, default=10_000)
    parser.add_argument('--fuzz-kinds', default=','.join(KINDS),
                        help='comma-separated kinds of bad input: ' + ', '.join(KINDS))
    parser.add_argument('--burst', type=int, default=100, help='concurrent calls')
    parser.add_argument('--stream-seconds', type=float, default=5.0)
    parser.add_argument('--rate', type=float, default=1000.0, help='stream rate, Hz')
    parser.add_argument('--follow', action='store_true',
                        help="stream: the joint states follow the commands (default: they "
                             "stay at the start)")
    parser.add_argument('--swap-links', type=int, default=43_000,
                        help='fixed links added to the swapped description')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--output', type=Path, default=Path('output/stress'))
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run the scenarios; print and save the results; return the exit status."""
    arguments = build_parser().parse_args(argv)
    scenarios = [name.strip() for name in arguments.scenarios.split(',') if name.strip()]
    setup = StressSetup()
    node = IKNodeProcess(base_link=setup.base_link, tip_link=setup.tip_link,
                         log_path=arguments.output / 'ik_node.log',
                         parameters={'timeout': str(NODE_TIMEOUT)})
    client = StressClient(node.namespace, setup.chain.joint_names, setup.home)
    results: Dict[str, Any] = {}
    try:
        if not client.wait_for_node(60.0):
            raise RuntimeError('the ik_node did not come up; see %s'
                               % (arguments.output / 'ik_node.log'))
        message = client.message('String')
        message.data = setup.urdf_xml
        client.description.publish(message)
        _wait_for_model(client, setup)
        for name in scenarios:
            if name == 'fuzz':
                results[name] = run_fuzz(setup, client, node, arguments.fuzz_inputs,
                                         arguments.seed, arguments.fuzz_kinds.split(','))
            elif name == 'burst':
                results[name] = run_burst(setup, client, arguments.burst)
            elif name == 'stream':
                results[name] = run_stream(setup, client, arguments.stream_seconds,
                                           arguments.rate, node, follow=arguments.follow)
            elif name == 'surfaces':
                results[name] = run_surfaces(setup, client, node, arguments.surface_inputs,
                                             arguments.seed, arguments.output)
            elif name == 'oversized':
                results[name] = run_oversized(setup, client)
            elif name == 'swap':
                results[name] = run_swap(setup, client, arguments.swap_links,
                                         arguments.output)
            else:
                raise SystemExit('unknown scenario %r' % name)
            print('%-6s %s' % (name, json.dumps(results[name])), flush=True)
    finally:
        client.close()
        stopping = time.monotonic()
        results['node_exit_status'] = node.stop()
        # From Ctrl-C to the exit; the shutdown test only bounds it generously.
        results['node_exit_seconds'] = round(time.monotonic() - stopping, 3)
    arguments.output.mkdir(parents=True, exist_ok=True)
    (arguments.output / 'stress.json').write_text(json.dumps(results, indent=2) + '\n')
    failed = any(isinstance(value, dict) and any(value.get(key) for key in (
        'crashed', 'unanswered', 'invalid_commands', 'bad_input_commanded_or_accepted',
        'commands_into_accepted_obstacles', 'obstacles_silently_dropped'))
        for value in results.values())
    return 1 if failed or results['node_exit_status'] != 0 else 0


if __name__ == '__main__':
    sys.exit(main())
