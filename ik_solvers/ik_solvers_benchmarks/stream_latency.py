# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The stream scenario of ``node_stress``: targets at a fixed rate, each timed to its first command.

Targets go round a 5 cm circle; a command is paired with the status the node publishes right
after it (the target it solved), and only a target's first command is timed. The node's RSS is
sampled every second (its slope in MB/min), with its CPU use and the time its threads waited for
a CPU. With ``follow`` the client's joint states report each command's end as it arrives.
"""

import gc
import math
import os
import threading
import time
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from .stress_client import IKNodeProcess, runnable_wait_seconds, StressClient
from .stress_requests import pose_fields, StressSetup, xyzw_quaternion

__all__ = ['run_stream']


def _rss_slope(samples: Sequence[tuple]) -> float:
    """MB per minute of a least-squares line through ``(s, MB)`` samples after the first sixth."""
    kept = samples[len(samples) // 6:]
    if len(kept) < 3:
        return math.nan
    times, megabytes = np.array(kept, dtype=float).T
    return float(np.polyfit(times - times[0], megabytes, 1)[0] * 60.0)


def run_stream(setup: StressSetup, client: StressClient, seconds: float, rate: float,
               node: Optional[IKNodeProcess] = None, *, follow: bool = False
               ) -> Dict[str, Any]:
    """
    Stream targets at ``rate`` Hz; return target-to-command latencies of the commands.

    With ``node``, its resident memory is sampled every second while the stream runs and the
    slope of a line through the samples (the first sixth left out: start-up allocations) is
    returned: a flat RSS has a slope near 0 MB/min. With ``follow`` the client's joint states
    report each command's end as it arrives (they are set back to the start afterwards).
    """
    samples: List[tuple] = []
    stop = threading.Event()

    def sample() -> None:
        while node is not None and not stop.is_set():
            samples.append((time.monotonic(), node.rss_megabytes()))
            stop.wait(1.0)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu = node.cpu_seconds() if node is not None else 0.0
    waits = (node.runnable_wait_seconds() if node is not None else 0.0,
             runnable_wait_seconds(os.getpid()))
    # The client keeps every command and status it receives: its full garbage collections
    # over that growing heap paused the thread that stamps the arrivals for up to 0.5 s (80,
    # 190 and 470 ms in one 60 s run) and put the client's pauses into the node's latency.
    # Nothing it allocates meanwhile needs the cycle collector.
    collecting = gc.isenabled()
    gc.disable()
    client.follow = follow
    try:
        result = _stream(setup, client, seconds, rate)
        result['follow'] = follow
    finally:
        client.follow = False
        client.report_joint_positions(setup.home)
        if collecting:
            gc.enable()
        stop.set()
        sampler.join(timeout=5.0)
    if node is not None:
        # CPU used, and time the threads were ready but waited for a CPU (other processes on
        # the machine, or this client): per second of the stream.
        result['node_cpu_percent'] = round(100.0 * (node.cpu_seconds() - cpu) / (seconds + 1.0),
                                           1)
        result['node_cpu_wait_percent'] = round(100.0 * (node.runnable_wait_seconds() - waits[0])
                                                / (seconds + 1.0), 1)
    result['client_cpu_wait_percent'] = round(
        100.0 * (runnable_wait_seconds(os.getpid()) - waits[1]) / (seconds + 1.0), 1)
    if node is not None and samples:
        result.update(rss_mb_first=round(samples[0][1], 1), rss_mb_last=round(samples[-1][1], 1),
                      rss_mb_max=round(max(mb for _, mb in samples), 1),
                      rss_slope_mb_per_min=round(_rss_slope(samples), 3))
    return result


def _stream(setup: StressSetup, client: StressClient, seconds: float, rate: float
            ) -> Dict[str, Any]:
    centre = setup.chain.fk(setup.home)
    sent: Dict[tuple, float] = {}
    first_command, first_status = len(client.commands), len(client.statuses)
    period = 1.0 / rate
    started = time.monotonic()
    count = int(seconds * rate)
    for index in range(count):
        due = started + index * period
        delay = due - time.monotonic()
        if delay > 0.0:
            time.sleep(delay)
        goal = centre.copy()
        angle = 2.0 * math.pi * index / count
        goal[:3, 3] += 0.05 * np.array([math.cos(angle) - 1.0, math.sin(angle), 0.0])
        message = client.message('PoseStamped')
        pose_fields(message.pose, goal[:3, 3], xyzw_quaternion(goal))
        key = (message.pose.position.x, message.pose.position.y, message.pose.position.z)
        sent[key] = time.monotonic()
        client.targets.publish(message)
    time.sleep(1.0)
    # The node publishes each command, then its status (with the target it solved): the k-th
    # command goes with the k-th commanded status. Matching by the solution alone was wrong:
    # targets micrometres apart are mostly solved to the very same configuration (the last
    # command already meets them), and such commands were timed from a later target.
    statuses = [status for _, status in client.statuses[first_status:] if status.commanded]
    commands = client.commands[first_command:]
    latencies = []
    timed = set()
    at = 0
    for arrival, command in commands:
        positions = tuple(command.points[-1].positions)
        # A status the client missed (or one more command) is skipped, not mismatched.
        ahead = next((index for index in range(at, min(at + 5, len(statuses)))
                      if tuple(statuses[index].solution.position) == positions), None)
        if ahead is None:
            continue
        target = statuses[ahead].target.position
        at = ahead + 1
        key = (target.x, target.y, target.z)
        # Only a target's first command: the last target is driven on after the stream.
        if key in sent and key not in timed:
            timed.add(key)
            latencies.append(arrival - sent[key])
    latencies_ms = 1e3 * np.array(latencies) if latencies else np.array([math.nan])
    return {'rate_hz': rate, 'targets': count, 'commands_matched': len(latencies),
            'p50_ms': round(float(np.percentile(latencies_ms, 50)), 2),
            'p99_ms': round(float(np.percentile(latencies_ms, 99)), 2),
            'max_ms': round(float(np.max(latencies_ms)), 2)}
