# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Large and late robot descriptions: adopted, or refused naming the limit, never lost unseen."""

from pathlib import Path
import threading

from conftest import UrdfOracle
from ik_solvers.engine.description_loader import DescriptionLoader, MAX_DESCRIPTION_BYTES
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.pose_math import xyzw_quaternion
from ik_solvers.engine.settings import NodeSettings
from ik_solvers.exceptions import RobotModelError
import numpy as np
import pytest
from test_node_support import (
    oracle_confirms,
    start_ur5_node,
    UR5,
    UR5_CHAIN,
    UR5_HOME,
    UR5_ORACLE,
)

URDF_DIR = Path(__file__).resolve().parents[1] / 'urdf'
PANDA = (URDF_DIR / 'panda_like.urdf').read_text()
SETTINGS = NodeSettings(base_link='panda_link0', tip_link='panda_hand_tcp', timeout=0.5)
# Generous bound on waits for the loader thread; only a hang reaches it.
HANG_BOUND = 30.0


def test_a_five_megabyte_link_name_is_adopted_and_solved_with():
    name = 'n' * 5_000_000
    engine = IKEngine()
    engine.robot.load_description(PANDA, 'panda_link0', 'panda_hand_tcp')
    renamed = PANDA.replace('"panda_rightfinger"', '"%s"' % name)
    chain = engine.robot.load_description(renamed, 'panda_link0', 'panda_hand_tcp')
    assert chain.num_joints == 7
    goal = chain.fk(np.array([0.3, -0.5, 0.2, -1.8, 0.1, 1.5, 0.4]))
    outcome = engine.handle(IKRequest(position=tuple(goal[:3, 3]),
                                      orientation=tuple(xyzw_quaternion(goal))), SETTINGS)
    assert outcome.error_code == ErrorCode.SUCCESS, outcome.message
    UrdfOracle(renamed, 'panda_link0', 'panda_hand_tcp').check(
        outcome.result.q, goal, position_tolerance=SETTINGS.position_tolerance,
        orientation_tolerance=SETTINGS.orientation_tolerance)


def test_a_description_over_the_size_limit_is_refused_naming_the_limit():
    engine = IKEngine()
    engine.robot.load_description(PANDA, 'panda_link0', 'panda_hand_tcp')
    oversized = PANDA.replace('</robot>', '<!--%s--></robot>' % ('x' * MAX_DESCRIPTION_BYTES))
    with pytest.raises(RobotModelError, match='at most %d' % MAX_DESCRIPTION_BYTES):
        engine.robot.load_description(oversized, 'panda_link0', 'panda_hand_tcp')
    assert engine.robot.chain('panda_link0', 'panda_hand_tcp').num_joints == 7


def test_a_description_replaced_before_it_was_parsed_is_reported():
    parsing = threading.Event()
    release = threading.Event()
    loaded, skipped = [], []

    def load(text, origin):
        parsing.set()
        assert release.wait(HANG_BOUND)
        loaded.append(origin)

    loader = DescriptionLoader(load, lambda error, origin: None,
                               on_skip=lambda origin, size: skipped.append((origin, size)))
    try:
        loader.submit('first', 'one')
        assert parsing.wait(HANG_BOUND)
        loader.submit('second', 'two')  # waits while the first is parsed...
        loader.submit('third!', 'three')  # ...and is replaced by this one
        assert skipped == [('two', len('second'))]
        release.set()
        finished = threading.Event()
        for _ in range(int(HANG_BOUND * 10)):
            if loader.handled == 3:
                finished.set()
                break
            finished.wait(0.1)
        assert finished.is_set()
        assert loaded == ['one', 'three']
    finally:
        release.set()
        loader.close(timeout=HANG_BOUND)


def test_over_dds_a_five_megabyte_link_name_is_parsed_adopted_and_both_are_logged(ros):
    node, probe = start_ur5_node(ros)
    name = 'n' * 5_000_000
    text = UR5.replace('</robot>', '<link name="%s"/><joint name="long_name_joint" '
                       'type="fixed"><parent link="tool0"/><child link="%s"/></joint></robot>'
                       % (name, name))
    logs = probe.logs.count()
    probe.publish_description(text)
    started = probe.logs.wait_for(
        lambda log: 'parsing a description of %d characters' % len(text) in log.msg,
        start=logs)
    assert 'the robot_description topic' in started.msg
    # Generous: the parse takes seconds on a busy machine; only a hang exceeds this.
    adopted = probe.logs.wait_for(lambda log: 'robot model from' in log.msg, start=logs,
                                  timeout=120.0)
    assert 'chain base_link -> tool0' in adopted.msg, adopted.msg
    goal = UR5_CHAIN.fk(np.asarray(UR5_HOME) + 0.1)
    response = probe.call(probe.target_request(goal))
    assert response.success, response.message
    oracle_confirms(UR5_ORACLE, response.solution.name, response.solution.position, goal)
