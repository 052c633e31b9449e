# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The node's logic with a preference: a streamed loop on a redundant arm comes back."""

from pathlib import Path

from ik_solvers.demo.scripted_drag import figure_eight
from ik_solvers.engine.error_codes import ErrorCode
from ik_solvers.engine.outcome import IKRequest
from ik_solvers.engine.pipeline import IKEngine
from ik_solvers.engine.settings import NodeSettings
import numpy as np
import transforms3d

PANDA = (Path(__file__).resolve().parents[1] / 'urdf' / 'panda_like.urdf').read_text()


def _request(matrix: np.ndarray, **fields) -> IKRequest:
    w, x, y, z = transforms3d.quaternions.mat2quat(matrix[:3, :3])
    return IKRequest(position=tuple(matrix[:3, 3]), orientation=(x, y, z, w), **fields)


def _loop(preference: str):
    engine = IKEngine()
    chain = engine.robot.load_description(PANDA, 'panda_link0', 'panda_hand_tcp')
    start = chain.mid_configuration()
    engine.robot.joint_states.update(chain.joint_names, start)
    settings = NodeSettings(base_link='panda_link0', tip_link='panda_hand_tcp',
                            joint_state_timeout=0.0, approximate_tracking=False,
                            preference=preference, timeout=0.05)
    commanded = []
    lap = figure_eight(chain.fk(start), count=150)
    for goal in lap * 2:
        outcome = engine.handle(_request(goal, streamed=True), settings)
        if outcome.error_code != ErrorCode.SUCCESS:
            continue
        q = np.array(outcome.command.positions)
        reached = chain.fk(q)
        assert np.linalg.norm(reached[:3, 3] - goal[:3, 3]) <= settings.position_tolerance
        assert chain.within_limits(q)
        if commanded:
            assert np.max(np.abs(q - commanded[-1])) <= settings.max_joint_jump + 1e-12
        commanded.append(q)
        engine.robot.joint_states.update(chain.joint_names, q)  # the arm follows its command
    return start, commanded


def test_a_streamed_loop_with_rest_posture_comes_back_closer_than_nearest():
    start, rest = _loop('rest_posture')
    _, nearest = _loop('nearest')
    assert len(rest) >= 290 and len(nearest) >= 290
    rest_drift = np.max(np.abs(rest[-1] - start))
    nearest_drift = np.max(np.abs(nearest[-1] - start))
    assert rest_drift <= 0.02
    assert rest_drift < nearest_drift
