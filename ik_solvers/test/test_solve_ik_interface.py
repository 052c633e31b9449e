# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The SolveIK service type builds and carries every field through a real DDS round trip."""

import threading

import pytest

rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')
SolveIK = pytest.importorskip(
    'ik_solvers_interfaces.srv', reason='ik_solvers_interfaces is not built').SolveIK

from rclpy.executors import MultiThreadedExecutor  # noqa: E402


def test_round_trip_over_dds():
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        server = rclpy.create_node('solve_ik_echo_server', context=context)
        client_node = rclpy.create_node('solve_ik_client', context=context)
        received = {}

        def handle(request, response):
            received['request'] = request
            response.success = False
            response.error_code = 4  # UNKNOWN_FRAME
            response.message = 'frame %r is unknown' % request.target.header.frame_id
            response.solution.name = list(request.seed.name)
            response.solution.position = [2.0 * value for value in request.seed.position]
            response.position_error = request.position_tolerance * 10.0
            response.iterations = 42
            return response

        server.create_service(SolveIK, '/round_trip/solve_ik', handle)
        client = client_node.create_client(SolveIK, '/round_trip/solve_ik')
        executor = MultiThreadedExecutor(context=context)
        executor.add_node(server)
        executor.add_node(client_node)
        spinner = threading.Thread(target=executor.spin, daemon=True)
        spinner.start()
        try:
            # Hang bounds, here and for the answer: discovery and a round trip take milliseconds.
            assert client.wait_for_service(timeout_sec=10.0), 'service never appeared over DDS'
            request = SolveIK.Request()
            request.target.header.frame_id = 'nowhere'
            request.target.pose.position.x = 0.4
            request.target.pose.orientation.w = 1.0
            request.seed.name = ['a', 'b']
            request.seed.position = [0.25, -0.5]
            request.solver = 'ccd'
            request.position_only = True
            request.position_tolerance = 1e-4
            request.timeout.nanosec = 5_000_000
            request.execute = True
            future = client.call_async(request)
            done = threading.Event()
            future.add_done_callback(lambda _: done.set())
            assert done.wait(10.0), 'no response within 10 s'
            response = future.result()
        finally:
            executor.shutdown()
            spinner.join(timeout=5.0)
        got = received['request']
        assert got.solver == 'ccd' and got.position_only and got.execute
        assert got.timeout.nanosec == 5_000_000
        assert got.target.pose.position.x == pytest.approx(0.4)
        assert response.error_code == 4  # UNKNOWN_FRAME
        assert response.message == "frame 'nowhere' is unknown"
        assert list(response.solution.name) == ['a', 'b']
        assert list(response.solution.position) == pytest.approx([0.5, -1.0])
        assert response.position_error == pytest.approx(1e-3)
        assert response.iterations == 42
    finally:
        rclpy.shutdown(context=context)
