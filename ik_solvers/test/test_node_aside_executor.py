# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The AsideExecutor over DDS: a group put aside runs on its own thread, the rest keeps going.

A CartesianPath service in a group put aside blocks in its callback until released (as rclpy's
conversion of a huge request holds that thread); a SolveIK service and a subscription in the
node's default group must still be served meanwhile, by the spinning thread.
"""

import threading

from ik_solvers.ros.aside_executor import AsideExecutor
from ik_solvers_interfaces.srv import CartesianPath, SolveIK
import pytest
import rclpy
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from std_msgs.msg import String
from test_node_support import unique_namespace, wait_until, WAIT


class _Served:
    """A node with one blocking service aside and one service and topic on the spinning thread."""

    def __init__(self, context, namespace: str) -> None:
        self.node = rclpy.create_node('aside_served', namespace=namespace, context=context)
        self.release = threading.Event()
        self.blocked = threading.Event()
        self.threads = {}
        self.heard = []
        self.aside = MutuallyExclusiveCallbackGroup()
        self.node.create_service(CartesianPath, 'slow', self._slow, callback_group=self.aside)
        self.node.create_service(SolveIK, 'quick', self._quick)
        self.node.create_subscription(String, 'chatter', self._heard, 10)

    def _slow(self, request, response):
        self.threads['slow'] = threading.current_thread()
        self.blocked.set()
        self.release.wait(WAIT)
        if request.solver == 'raise':
            raise RuntimeError('an aside callback failed')
        response.success = True
        return response

    def _quick(self, request, response):
        self.threads['quick'] = threading.current_thread()
        response.success = True
        return response

    def _heard(self, message):
        self.threads['topic'] = threading.current_thread()
        self.heard.append(message.data)


@pytest.fixture
def setup():
    context = rclpy.Context()
    rclpy.init(context=context)
    namespace = unique_namespace()
    served = _Served(context, namespace)
    executor = AsideExecutor(context=context)
    executor.add_node(served.node)
    executor.run_aside(served.aside, name='test_aside')
    errors = []
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            try:
                executor.spin_once(timeout_sec=0.05)
            except RuntimeError as error:
                errors.append(error)

    spinner = threading.Thread(target=spin, name='test_spinner', daemon=True)
    spinner.start()
    client_node = rclpy.create_node('aside_client', namespace=namespace, context=context)
    client_executor = rclpy.executors.SingleThreadedExecutor(context=context)
    client_executor.add_node(client_node)
    client_spinner = threading.Thread(target=client_executor.spin, daemon=True)
    client_spinner.start()
    try:
        yield served, client_node, errors
    finally:
        served.release.set()
        stop.set()
        spinner.join(WAIT)
        executor.shutdown()
        client_executor.shutdown()
        client_spinner.join(WAIT)
        client_node.destroy_node()
        served.node.destroy_node()
        rclpy.try_shutdown(context=context)


def _clients(client_node):
    slow = client_node.create_client(CartesianPath, 'slow')
    quick = client_node.create_client(SolveIK, 'quick')
    assert slow.wait_for_service(WAIT) and quick.wait_for_service(WAIT)
    return slow, quick


def test_the_spinning_thread_serves_while_an_aside_callback_is_busy(setup):
    served, client_node, errors = setup
    slow, quick = _clients(client_node)
    chatter = client_node.create_publisher(String, 'chatter', 10)
    slow_answer = slow.call_async(CartesianPath.Request())
    assert served.blocked.wait(WAIT), 'the aside service never ran'
    quick_answer = quick.call_async(SolveIK.Request())
    assert wait_until(quick_answer.done), 'the other service waited for the aside callback'
    assert wait_until(lambda: chatter.publish(String(data='hello')) or served.heard)
    assert not slow_answer.done()  # still blocked: the others were served meanwhile
    served.release.set()
    assert wait_until(slow_answer.done)
    assert slow_answer.result().success and quick_answer.result().success
    assert served.threads['slow'].name == 'test_aside'
    assert served.threads['quick'].name == 'test_spinner'
    assert served.threads['topic'].name == 'test_spinner'
    assert not errors


def test_an_aside_callback_failure_surfaces_on_the_spinning_thread(setup):
    served, client_node, errors = setup
    slow, quick = _clients(client_node)
    served.release.set()
    slow.call_async(CartesianPath.Request(solver='raise'))
    assert wait_until(lambda: errors), 'the failure of the aside callback was lost'
    assert 'an aside callback failed' in str(errors[0])
    # The executor goes on serving both groups.
    assert wait_until(quick.call_async(SolveIK.Request()).done)
    answer = slow.call_async(CartesianPath.Request())
    assert wait_until(answer.done) and answer.result().success
