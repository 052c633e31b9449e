# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The one-slot mailbox keeps only the newest value and wakes its taker."""

import sys
import threading
import time

from ik_solvers.engine.latest_target import LatestSlot


def _blocked_in_take(thread: threading.Thread) -> bool:
    """Tell whether ``thread`` is inside ``LatestSlot.take``, waiting on its condition."""
    frame = sys._current_frames().get(thread.ident)
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    # Innermost first: the condition's wait, called from take.
    return 'take' in names and 'wait' in names[:names.index('take')]


# Hang bound: the other thread reaches take() within milliseconds; only a hang waits 30 s.
def _wait_until(predicate, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def test_newest_value_wins_and_older_ones_are_counted_as_dropped():
    slot = LatestSlot()
    for value in range(1000):
        slot.put(value)
    assert slot.take(timeout=0.0) == 999
    assert slot.take(timeout=0.0) is None
    assert slot.received == 1000
    assert slot.dropped == 999


def test_take_waits_for_a_value_from_another_thread():
    slot = LatestSlot()
    taken = []
    # Hang bound: the value is put within milliseconds; 30 s only ends a take() never woken.
    taker = threading.Thread(target=lambda: taken.append(slot.take(timeout=30.0)))
    taker.start()
    # The value is put only once the taker is seen waiting inside take(), with nothing taken.
    assert _wait_until(lambda: _blocked_in_take(taker)), 'take() did not wait for a value'
    assert taken == []
    slot.put('target')
    taker.join(timeout=30.0)
    assert taken == ['target']


def test_close_wakes_the_taker_and_discards_what_is_left():
    slot = LatestSlot()
    slot.put('last')
    slot.close()
    assert slot.closed
    assert slot.take() is None and slot.received == 1
    slot.put('after close')
    assert slot.take(timeout=0.0) is None
    waiting = []
    taker = threading.Thread(target=lambda: waiting.append(slot.take()))
    taker.start()
    taker.join(timeout=30.0)
    assert not taker.is_alive() and waiting == [None]


def test_a_concurrent_burst_ends_on_the_last_value():
    slot = LatestSlot()
    seen = []
    done = threading.Event()

    def consume():
        while not (done.is_set() and seen and seen[-1] == 4999):
            value = slot.take(timeout=0.1)
            if value is not None:
                seen.append(value)

    consumer = threading.Thread(target=consume)
    consumer.start()
    for value in range(5000):
        slot.put(value)
    done.set()
    consumer.join(timeout=30.0)
    assert seen[-1] == 4999
    assert seen == sorted(seen)
    assert len(seen) + slot.dropped == 5000
