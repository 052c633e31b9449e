# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ``oversized`` scenario of :mod:`.node_stress`: valid calls while a huge path is refused.

A CartesianPath request of 100,000 waypoints (refused TOO_MANY_POINTS) is sent, right after it
a valid one-waypoint CartesianPath call, and valid SolveIK calls every 0.1 s until the huge one
is answered, each with its own timeout. rclpy turns the huge request into Python objects for
seconds before the node sees it; the SolveIK calls must be answered within their timeout +
0.5 s meanwhile. The path call waits behind the huge one in the same service queue (rclpy takes
a service's requests in order, converting each), so its latency is reported, as is whether it
met the same bound. Reported per round: the latencies, and whether the calls were in time; and
once, how long turning the huge request from its wire form into Python objects takes in this
process (``rclpy.serialization.deserialize_message``: the conversion every rclpy server of the
service does before it can take the next request), against the queued path's deadline.
"""

import time
from typing import Any, Dict, List

from .stress_client import StressClient, TimedCall
from .stress_requests import NODE_TIMEOUT, StressSetup, valid_request, xyzw_quaternion
from .surface_fuzz import _path_request, PATH_TIMEOUT

__all__ = ['OVERSIZED_WAYPOINTS', 'run_oversized']

#: Waypoints of the refused request (the node's cartesian_max_points is 10,000 by default).
OVERSIZED_WAYPOINTS = 100_000
#: Seconds a valid call may take beyond its own timeout while the huge one is refused.
ALLOWANCE = 0.5


def run_oversized(setup: StressSetup, client: StressClient, rounds: int = 3) -> Dict[str, Any]:
    """
    Send the huge path ``rounds`` times, each followed at once by the two valid calls.

    :returns: Per-round latencies in s, the worst beyond-timeout lateness of each valid call,
        and whether every valid call came within its timeout + :data:`ALLOWANCE`.
    """
    goal = setup.goal(0.0)
    point = tuple(goal[:3, 3]) + tuple(xyzw_quaternion(goal)) + ('',)
    # Built once: converting 100,000 waypoints takes the client seconds too.
    huge = _path_request(client, {'waypoints': [point] * OVERSIZED_WAYPOINTS})
    conversion_s = _conversion_seconds(huge)
    per_round: List[Dict[str, Any]] = []
    for _ in range(rounds):
        big = client.call(huge, time.monotonic() + 60.0, 'oversized', client.cartesian_path)
        # Queued behind the huge one in the same service: answered after it is converted.
        path = client.call(_path_request(client, {'waypoints': [point],
                                                  'timeout': PATH_TIMEOUT}),
                           time.monotonic() + PATH_TIMEOUT + ALLOWANCE, 'path',
                           client.cartesian_path)
        # SolveIK calls every 0.1 s until the huge one is answered: some meet it in transit,
        # some while the node converts it.
        solves: List[TimedCall] = []
        while not big.wait(0.1) and time.monotonic() < big.deadline:
            solves.append(client.call(valid_request(client, setup.goal(), NODE_TIMEOUT),
                                      time.monotonic() + NODE_TIMEOUT + ALLOWANCE, 'solve_ik'))
        for call in [path] + solves:
            call.wait(call.deadline + 30.0 - time.monotonic())
        latencies = [call.latency for call in solves if call.latency is not None]
        per_round.append({
            'oversized_s': _seconds(big.latency),
            'oversized_code': None if big.response is None else big.response.error_code,
            'solve_ik_calls': len(solves),
            'solve_ik_worst_s': _seconds(max(latencies)) if latencies else None,
            'solve_ik_in_time': all(_in_time(call) for call in solves),
            'path_s': _seconds(path.latency), 'path_in_time': _in_time(path)})
        time.sleep(1.0)
    return {
        'rounds': per_round,
        'solve_ik_worst_s': max((entry['solve_ik_worst_s'] or 0.0) for entry in per_round),
        'solve_ik_all_in_time': all(entry['solve_ik_in_time'] for entry in per_round),
        'path_worst_s': max((entry['path_s'] or 1e9) for entry in per_round),
        'path_all_in_time': all(entry['path_in_time'] for entry in per_round),
        'conversion_s': round(conversion_s, 3), 'path_bound_s': PATH_TIMEOUT + ALLOWANCE}


def _conversion_seconds(request: Any) -> float:
    """Return the seconds this process takes to turn ``request``'s wire form into Python."""
    from rclpy.serialization import deserialize_message, serialize_message

    wire = serialize_message(request)
    start = time.perf_counter()
    deserialize_message(wire, type(request))
    return time.perf_counter() - start


def _seconds(latency: Any) -> Any:
    return None if latency is None else round(latency, 3)


def _in_time(call: Any) -> bool:
    return call.answered is not None and call.answered <= call.deadline
