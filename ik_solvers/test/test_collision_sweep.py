# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The swept check: its motion bound holds, and a line through a box is never called free."""

from pathlib import Path

from ik_solvers import RobotModel
from ik_solvers.collision import Box, CollisionModel, load_robot_geometry, Obstacle, \
    ObstacleSet, Primitive
from ik_solvers.collision.sweep import SweptCheck
import numpy as np
import pytest

URDF = Path(__file__).resolve().parents[1] / 'urdf'
ARMS = {'panda_like': ('panda_link0', 'panda_hand_tcp'), 'ur5_like': ('base_link', 'tool0')}


def _model(name, obstacles=ObstacleSet()):
    urdf = (URDF / ('%s.urdf' % name)).read_text()
    robot = RobotModel.from_urdf(urdf)
    chain = robot.chain(*ARMS[name])
    return robot, chain, CollisionModel(robot, chain, load_robot_geometry(urdf),
                                        obstacles=obstacles)


@pytest.mark.parametrize('name', sorted(ARMS))
def test_no_link_origin_moves_farther_than_the_bound(name):
    robot, chain, model = _model(name)
    sweep = SweptCheck(model)
    links = [link for link in robot.link_names if robot.collisions(link)]
    rng = np.random.default_rng(4)
    for _ in range(50):
        a = chain.random_configuration(rng)
        b = chain.clip(a + rng.uniform(-0.3, 0.3, chain.num_joints))
        bound = sweep.sweep_length(a, b)
        for link in links:
            moved = np.linalg.norm(
                robot.transform(chain.base_link, link, dict(zip(chain.joint_names, b)))[:3, 3]
                - robot.transform(chain.base_link, link, dict(zip(chain.joint_names, a)))[:3, 3])
            assert moved <= bound + 1e-12, (link, moved, bound)


def test_a_line_through_a_box_with_both_ends_clear_is_refused_and_a_clear_one_passes():
    robot, chain, bare = _model('panda_like')
    start = chain.mid_configuration()
    goal, middle = start.copy(), start.copy()
    goal[0] += 1.0
    middle[0] += 0.5
    box = np.eye(4)
    box[:3, 3] = chain.fk(middle)[:3, 3]
    _, _, model = _model('panda_like', ObstacleSet().apply(
        Obstacle('box', box, (Primitive(Box(size=(0.05, 0.05, 0.05))),))))
    assert not model.check(start).colliding and not model.check(goal).colliding
    contact = SweptCheck(model).check_motion(start, goal)
    assert contact is not None and ('box' in contact.report.pairs[0])
    assert 0.0 < contact.fraction < 1.0
    assert model.check(contact.q).colliding
    assert SweptCheck(bare).check_motion(start, goal) is None
