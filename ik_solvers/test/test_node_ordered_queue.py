# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The obstacles' queue: in order, every item handled or refused with a count, none dropped."""

import threading

from ik_solvers.ros.ordered_queue import OrderedQueue


def test_items_are_handled_in_order_and_a_full_queue_refuses_and_counts():
    gate = threading.Event()
    handled, refused, errors = [], [], []

    def handle(item):
        gate.wait(10.0)
        if item == 3:
            raise RuntimeError('bad item')
        handled.append(item)

    queue = OrderedQueue(handle, capacity=4, name='test_queue',
                         on_refused=lambda item, count: refused.append((item, count)),
                         on_error=lambda item, error: errors.append((item, str(error))))
    try:
        results = [queue.put(item) for item in range(10)]
        # One is being handled (taken off the queue) or not yet: 4 or 5 accepted.
        accepted = sum(results)
        assert accepted in (4, 5)
        assert [item for item, _ in refused] == list(range(accepted, 10))
        assert [count for _, count in refused] == list(range(1, 11 - accepted))
        gate.set()
        assert queue.wait_idle(10.0)
        assert handled == [item for item in range(accepted) if item != 3]
        assert errors == [(3, 'bad item')]
        assert queue.received == 10 and queue.refused == 10 - accepted
        assert queue.handled == accepted
    finally:
        queue.close(timeout=1.0)
