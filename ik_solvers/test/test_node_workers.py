# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The ik_node's helpers off the executor thread: request pool, description loader, models."""

import gc
from pathlib import Path
import threading
import time

from ik_solvers.exceptions import RobotModelError
from ik_solvers.engine.description_loader import (
    DescriptionLoader,
    description_size_problem,
    MAX_DESCRIPTION_BYTES,
    paused_garbage_collection,
)
from ik_solvers.engine.model_holder import ModelHolder
from ik_solvers.ros.request_pool import RequestPool
import numpy as np
import pytest

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
UR5 = (URDF_DIR / 'ur5_like.urdf').read_text()
PLANAR = (URDF_DIR / 'planar_3link.urdf').read_text()
# Hang bound, s, on every wait for a worker: the work takes milliseconds.
WAIT = 30.0


def test_the_pool_holds_at_most_its_limit_and_frees_a_place_when_work_ends():
    pool = RequestPool(2)
    release = threading.Event()
    finished = []
    try:
        first = pool.try_submit(lambda: release.wait(WAIT) and 'first', 2,
                                on_done=lambda: finished.append(1))
        second = pool.try_submit(lambda: release.wait(WAIT) and 'second', 2)
        assert first is not None and second is not None
        assert pool.pending == 2
        assert pool.try_submit(lambda: 'third', 2) is None  # full: the caller answers BUSY
        assert pool.try_submit(lambda: 'third', 3) is not None  # a larger limit applies at once
        release.set()
        assert first.result(WAIT) == 'first' and second.result(WAIT) == 'second'
        assert finished == [1]
    finally:
        pool.close(WAIT)
    assert pool.pending == 0
    assert pool.try_submit(lambda: 'late', 10) is None  # closed


def test_closing_the_pool_drops_waiting_work_and_waits_for_running_work():
    pool = RequestPool(1)
    started, release = threading.Event(), threading.Event()

    def running():
        started.set()
        release.wait(WAIT)
        return 'ran'

    first = pool.try_submit(running, 5)
    waiting = pool.try_submit(lambda: 'never', 5)
    assert started.wait(WAIT)
    closer = threading.Thread(target=pool.close, args=(WAIT,))
    closer.start()
    release.set()
    closer.join(WAIT)
    assert first.result(WAIT) == 'ran'
    assert waiting.cancelled()
    with pytest.raises(ValueError):
        RequestPool(0)


def _wait_until(predicate):
    deadline = time.monotonic() + WAIT
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)
    return predicate()


def test_the_loader_loads_the_newest_description_and_counts_the_skipped_ones():
    loaded, errors = [], []
    first_started, gate = threading.Event(), threading.Event()

    def load(text, origin):
        if text == 'first':
            first_started.set()
            gate.wait(WAIT)
        if text == 'bad':
            raise RuntimeError('broken loader')
        loaded.append((text, origin))

    loader = DescriptionLoader(load, lambda error, origin: errors.append((str(error), origin)))
    try:
        loader.submit('first', 'topic')
        assert first_started.wait(WAIT)
        # While the first one loads, three more arrive: only the newest is worth loading.
        for text in ('second', 'bad', 'newest'):
            loader.submit(text, 'topic')
        gate.set()
        assert _wait_until(lambda: loader.handled == 4)
        assert loaded == [('first', 'topic'), ('newest', 'topic')]
        # A loader that raises is reported, and the worker goes on.
        loader.submit('bad', 'parameter')
        assert _wait_until(lambda: loader.handled == 5)
        assert errors == [('broken loader', 'parameter')]
        loader.submit('after', 'topic')
        assert _wait_until(lambda: loader.handled == 6)
        assert loaded[-1] == ('after', 'topic')
    finally:
        loader.close(WAIT)


def test_the_description_size_bound_counts_bytes_not_characters():
    assert description_size_problem('<robot/>') is None
    assert 'characters' in description_size_problem('x' * (MAX_DESCRIPTION_BYTES + 1))
    # Four-byte characters: few enough characters, too many bytes.
    wide = '\U0001F916' * (MAX_DESCRIPTION_BYTES // 4 + 1)
    assert len(wide) < MAX_DESCRIPTION_BYTES
    assert '%d bytes' % (4 * len(wide)) in description_size_problem(wide)


def test_a_model_a_solve_still_holds_outlives_its_replacement():
    holder = ModelHolder()
    holder.load(UR5, lambda: ('', 'tool0'))
    chain, model = holder.chain_and_model('', 'tool0')
    holder.load(PLANAR, lambda: ('', 'tip'))
    # The solve that took the old model finishes with it intact.
    pose = model.transform('base_link', 'tool0', dict(zip(chain.joint_names, np.zeros(6))))
    assert np.allclose(pose, chain.fk(np.zeros(6)))
    assert holder.chain_and_model('', 'tip')[0].num_joints == 3
    with pytest.raises(RobotModelError):
        holder.chain_and_model('', 'tool0')


def test_full_collections_wait_while_a_description_is_parsed():
    before = gc.get_threshold()
    with paused_garbage_collection():
        during = gc.get_threshold()
        assert gc.isenabled()  # young garbage of other threads is still collected
        assert during[:2] == before[:2] and during[2] > 1_000_000
    assert gc.get_threshold() == before
