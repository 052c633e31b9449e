# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The samples of a swept line in one compiled call give the verdicts of one check per sample."""

from pathlib import Path

from ik_solvers import RobotModel
from ik_solvers.collision import Box, CollisionModel, Cylinder, load_robot_geometry, Obstacle, \
    ObstacleSet, Primitive, Sphere
from ik_solvers.collision.sweep import SweptCheck
from ik_solvers.exceptions import InvalidSeedError
import numpy as np
import pytest

URDF = Path(__file__).resolve().parents[1] / 'urdf'
ARMS = {'panda_like': ('panda_link0', 'panda_hand_tcp'), 'ur5_like': ('base_link', 'tool0')}


def _arm(name):
    urdf = (URDF / ('%s.urdf' % name)).read_text()
    robot = RobotModel.from_urdf(urdf)
    return robot, robot.chain(*ARMS[name]), load_robot_geometry(urdf)


def _scene(chain, rng, count):
    """Random boxes, spheres and cylinders where the arm's tip goes, some in its way."""
    obstacles = ObstacleSet()
    for index in range(count):
        pose = np.eye(4)
        pose[:3, 3] = chain.fk(chain.random_configuration(rng))[:3, 3]
        angle = rng.uniform(0.0, np.pi)
        pose[:2, :2] = [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]
        size = rng.uniform(0.02, 0.12)
        shape = [Box(size=(size, 0.5 * size, 2.0 * size)), Sphere(radius=0.5 * size),
                 Cylinder(radius=0.4 * size, length=size)][index % 3]
        obstacles = obstacles.apply(Obstacle('obstacle%d' % index, pose, (Primitive(shape),)))
    return obstacles


def _same(first, second):
    if first is None or second is None:
        return first is None and second is None
    return (first.segment == second.segment and first.fraction == second.fraction
            and np.array_equal(first.q, second.q) and first.report == second.report)


@pytest.mark.parametrize('name', sorted(ARMS))
@pytest.mark.parametrize('padding', [0.0, 0.01])
def test_every_line_gets_the_contact_of_one_check_per_sample(name, padding):
    robot, chain, geometry = _arm(name)
    rng = np.random.default_rng(17 if name == 'panda_like' else 18)
    found = {'free': 0, 'contact': 0}
    for scene in range(6):
        model = CollisionModel(robot, chain, geometry, obstacles=_scene(chain, rng, scene),
                               padding=padding)
        compiled, per_sample = SweptCheck(model), SweptCheck(model, per_sample=True)
        for _ in range(25):
            start = chain.random_configuration(rng)
            # Short motions (a drag) and long ones (across the workspace), and polylines.
            spread = rng.choice([0.05, 0.5, 2.0])
            points = [start] + [chain.clip(start + rng.uniform(-spread, spread, chain.num_joints))
                                for _ in range(int(rng.integers(1, 4)))]
            include_ends = bool(rng.integers(2))
            expected = per_sample.check_path(points, include_ends=include_ends)
            contact = compiled.check_path(points, include_ends=include_ends)
            assert _same(contact, expected), (scene, points, contact, expected)
            found['free' if contact is None else 'contact'] += 1
    # Both verdicts were exercised, many times each.
    assert found['free'] >= 20 and found['contact'] >= 20, found


def test_the_first_colliding_sample_is_the_first_in_coarse_to_fine_order_that_check_calls_so():
    robot, chain, geometry = _arm('panda_like')
    rng = np.random.default_rng(5)
    model = CollisionModel(robot, chain, geometry, obstacles=_scene(chain, rng, 5))
    seen = 0
    for _ in range(60):
        start = chain.random_configuration(rng)
        end = chain.clip(start + rng.uniform(-1.0, 1.0, chain.num_joints))
        count = int(rng.integers(1, 400))
        last = count - int(rng.integers(2))
        order = [i for stride in (64, 32, 16, 8, 4, 2, 1)
                 for i in range(stride, last + 1, stride) if stride == 64 or i % (2 * stride)]
        assert sorted(order) == list(range(1, last + 1))
        expected = next((i for i in order
                         if model.check(start + (end - start) * (i / count)).colliding), 0)
        assert model.first_colliding_sample(start, end, count, last) == expected
        seen += expected > 0
    assert seen >= 10


def test_a_line_that_cannot_be_checked_is_refused_as_a_single_check_would_be():
    robot, chain, geometry = _arm('ur5_like')
    model = CollisionModel(robot, chain, geometry)
    start = chain.mid_configuration()
    with pytest.raises(InvalidSeedError):
        model.first_colliding_sample(start, start[:-1], 10, 10)
    end = start.copy()
    end[2] = np.nan
    with pytest.raises(InvalidSeedError):
        model.first_colliding_sample(start, end, 10, 10)
