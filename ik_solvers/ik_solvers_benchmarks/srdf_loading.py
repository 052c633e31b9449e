# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
SolveIK latency while SRDFs of megabytes arrive on ``robot_description_semantic``.

Run after the colcon build::

    python -m ik_solvers_benchmarks.srdf_loading [--sizes 1,15,15.5,17.5]

The ik_node runs in a process of its own on the bundled panda (solve timeout 0.05 s), with
joint states at 50 Hz. For each size, an SRDF of that many megabytes is published, latched,
by a process of its own (as ``move_group`` would), while four SolveIK calls are kept in flight
from before it is published until the node's log says it was handled (adopted or refused).
Each SRDF writes the panda's parent-child pairs again and again, in both orders: valid, as
MoveIt's loader reads it, with 11 distinct pairs; one over the node's 16 MB limit is refused for
its size. Printed per size: whether it was adopted, how long it took, the calls made, and the
worst and median latency against the target of the solve timeout + 0.5 s; beside them the same
figures over a quiet window just before (5 s of the same calls, nothing loading), and the
seconds per second that the node's threads waited for a CPU in each (``/proc`` schedstat): on
a shared machine, latencies that grow with that wait come from the CPUs, not from the node.
"""

import argparse
from pathlib import Path
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .stress_client import DescriptionPublisher, IKNodeProcess, StressClient, TimedCall
from .stress_requests import NODE_TIMEOUT, StressSetup, valid_request

__all__ = ['main', 'measure_size', 'repeated_srdf']

#: Seconds a call may take beyond its timeout (the target).
ALLOWANCE = 0.5
#: Seconds of calls with nothing loading, before each SRDF, as the baseline.
QUIET = 5.0
_PAIRS = [('panda_link%d' % k, 'panda_link%d' % (k + 1)) for k in range(7)] + [
    ('panda_link0', 'table'), ('panda_link7', 'panda_hand'),
    ('panda_hand', 'panda_leftfinger'), ('panda_hand', 'panda_rightfinger')]
_ENTRY = '<disable_collisions link1="%s" link2="%s" reason="Adjacent"/>\n'


def repeated_srdf(megabytes: float) -> str:
    """Return a valid SRDF of about ``megabytes`` MB whose 11 pairs are written many times."""
    block = ''.join(_ENTRY % pair + _ENTRY % pair[::-1] for pair in _PAIRS)
    count = max(1, int(megabytes * 1e6 / len(block)))
    return '<?xml version="1.0"?>\n<robot name="panda_like">\n%s</robot>\n' % (block * count)


def _latencies(calls: List[TimedCall]) -> Dict[str, Any]:
    values = [call.latency for call in calls if call.latency is not None]
    return {
        'calls': len(calls),
        'unanswered': len(calls) - len(values),
        'late': sum(1 for value in values if value > NODE_TIMEOUT + ALLOWANCE),
        'worst_latency_s': round(max(values), 3) if values else None,
        'median_latency_s': round(float(np.median(values)), 4) if values else None,
    }


def measure_size(setup: StressSetup, client: StressClient, node: IKNodeProcess,
                 megabytes: float, directory: Path) -> Dict[str, Any]:
    """
    Publish one SRDF of ``megabytes`` MB and keep SolveIK calls coming until it is handled.

    :returns: The SRDF's size, whether it was adopted, the node's log line, seconds from
        publishing to that line, the calls' latencies (worst, median, count, late ones) while
        it loaded and over a quiet window before, and the node's CPU wait in each.
    """
    text = repeated_srdf(megabytes)
    calls: List[TimedCall] = []

    def keep_calling() -> None:
        active = [call for call in calls[-8:] if call.answered is None]
        while len(active) < 4:
            call = client.call(valid_request(client, setup.goal(), NODE_TIMEOUT),
                               time.monotonic() + NODE_TIMEOUT + ALLOWANCE, 'srdf')
            calls.append(call)
            active.append(call)
        time.sleep(0.001)

    quiet_start, quiet_wait = time.monotonic(), node.runnable_wait_seconds()
    while time.monotonic() < quiet_start + QUIET:
        keep_calling()
    quiet = list(calls)
    quiet_wait = (node.runnable_wait_seconds() - quiet_wait) / (time.monotonic() - quiet_start)
    logs = len(client.logs)
    load_wait = node.runnable_wait_seconds()
    published = time.monotonic()
    publisher = DescriptionPublisher(client.namespace, text, directory,
                                     topic='robot_description_semantic')
    try:
        deadline = published + 180.0
        while not client.logged_since(logs, 'SRDF from') and time.monotonic() < deadline:
            keep_calling()
        handled = time.monotonic()
        load_wait = (node.runnable_wait_seconds() - load_wait) / (handled - published)
        end = handled + 0.5
        while time.monotonic() < end:
            keep_calling()
    finally:
        publisher.stop()
    for call in calls:
        call.wait(call.deadline + 30.0 - time.monotonic())
    line = next((str(message.msg) for message in client.logs[logs:]
                 if 'SRDF from' in str(message.msg)), '')
    result = _latencies(calls[len(quiet):])
    result.update({
        'megabytes': round(len(text) / 1e6, 2),
        'adopted': bool(line) and 'refused' not in line,
        'log': line[:160],
        'handled_after_s': round(handled - published, 2),
        'cpu_wait_per_s': round(load_wait, 2),
        'quiet': dict(_latencies(quiet), cpu_wait_per_s=round(quiet_wait, 2)),
    })
    return result


def _wait_until_solving(setup: StressSetup, client: StressClient) -> None:
    # The first start after an install compiles the solver kernels: minutes on a busy machine.
    deadline = time.monotonic() + 900.0
    while time.monotonic() < deadline:
        call = client.call(valid_request(client, setup.goal(), NODE_TIMEOUT), 0.0)
        if call.wait(30.0) and call.response.success:
            return
        time.sleep(0.5)
    raise RuntimeError('the ik_node never solved a request')


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Measure each size; print one line per size; exit 1 when a call was late or lost."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--sizes', default='1,15,15.5,17.5',
                        help='SRDF sizes in MB, comma-separated')
    arguments = parser.parse_args(argv)
    sizes = [float(size) for size in arguments.sizes.split(',') if size.strip()]
    setup = StressSetup()
    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        node = IKNodeProcess(base_link=setup.base_link, tip_link=setup.tip_link,
                             log_path=directory / 'ik_node.log',
                             parameters={'timeout': str(NODE_TIMEOUT)})
        client = StressClient(node.namespace, setup.chain.joint_names, setup.home)
        rows = []
        try:
            if not client.wait_for_node(60.0):
                raise RuntimeError('the ik_node did not come up')
            message = client.message('String')
            message.data = setup.urdf_xml
            client.description.publish(message)
            _wait_until_solving(setup, client)
            for megabytes in sizes:
                row = measure_size(setup, client, node, megabytes, directory)
                rows.append(row)
                print('SRDF %5.2f MB: %s in %.2f s' % (
                    row['megabytes'], 'adopted' if row['adopted'] else 'refused',
                    row['handled_after_s']), flush=True)
                for label, part in (('loading', row), ('quiet before', row['quiet'])):
                    print('    %-12s %4d SolveIK calls (timeout %.2f s): worst %.3f s, median '
                          '%.4f s, %d over timeout + %.1f s, %d unanswered; node waited '
                          '%.2f s/s for a CPU' % (
                              label, part['calls'], NODE_TIMEOUT, part['worst_latency_s'] or 0,
                              part['median_latency_s'] or 0, part['late'], ALLOWANCE,
                              part['unanswered'], part['cpu_wait_per_s']), flush=True)
                print('    node: %s' % row['log'], flush=True)
        finally:
            client.close()
            node.stop()
    return 1 if any(row['late'] or row['unanswered'] for row in rows) else 0


if __name__ == '__main__':
    sys.exit(main())
