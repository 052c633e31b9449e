# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""solve(collision=...): colliding answers are avoided or honestly refused."""

from pathlib import Path

from collision_oracle import contacts
from conftest import bundled_oracle
import numpy as np
import pytest

from ik_solvers import InvalidSolverOptionError, RobotModel, solve
from ik_solvers.collision import (
    Box,
    CollisionModel,
    load_robot_geometry,
    MOVE,
    Obstacle,
    ObstacleSet,
    Primitive,
    REMOVE,
)

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
# Generous: the search returns at the first collision-free solution; only an honest failure
# runs to the deadline.
TIMEOUT = 0.5
TOLERANCE = 1e-5
TIP_FIXED_LINKS = {'wrist_3_link', 'panda_link7', 'panda_hand', 'panda_leftfinger',
                   'panda_rightfinger', 'table'}


def _arm(name, base, tip):
    urdf = (URDF_DIRECTORY / name).read_text(encoding='utf-8')
    robot = RobotModel.from_urdf(urdf)
    chain = robot.chain(base, tip)
    geometry = load_robot_geometry(urdf)
    return robot, chain, geometry, CollisionModel(robot, chain, geometry)


@pytest.fixture(scope='module', params=[('ur5_like.urdf', 'base_link', 'tool0'),
                                        ('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')],
                ids=['ur5_like', 'panda_like'])
def arm(request):
    return _arm(*request.param)


def _oracle(chain):
    """Return the tests' own FK and limits of one of the two arms (see conftest.py)."""
    file_name = 'ur5_like.urdf' if chain.base_link == 'base_link' else 'panda_like.urdf'
    return bundled_oracle(file_name, chain.base_link, chain.tip_link)


def _reaches(chain, q, target):
    """Assert, by the oracle, that ``q`` reaches ``target`` within the URDF limits."""
    _oracle(chain).check(q, target, position_tolerance=TOLERANCE,
                         orientation_tolerance=TOLERANCE)
    return True


def test_self_collision_is_avoided_or_honestly_refused(arm):
    robot, chain, geometry, model = arm
    rng = np.random.default_rng(2026)
    cases = []
    while len(cases) < 8:
        q = chain.random_configuration(rng)
        names = {name for pair in model.check(q).pairs for name in pair}
        # Collisions of the arm's middle links only: links that the target pose fixes (the
        # hand, the fingers, the last link) or a table under the hand collide in every
        # solution, and only an honest failure is possible there.
        if names and not names & TIP_FIXED_LINKS:
            cases.append(q)
    avoided = 0
    blind_collisions = 0
    for q in cases:
        target = chain.fk(q)
        # Seeded at the colliding configuration, the nearest solution is that configuration.
        blind = solve(chain, target, seed=q, timeout=TIMEOUT)
        assert not blind.collision_checked and blind.collision_pair is None
        if blind.success:
            assert _reaches(chain, blind.q, target)
        blind_collisions += blind.success and bool(
            contacts(robot, chain, geometry, blind.q, model.checked_pairs))
        result = solve(chain, target, seed=q, timeout=TIMEOUT, collision=model)
        assert result.collision_checked
        if result.success:
            assert _reaches(chain, result.q, target)
            assert contacts(robot, chain, geometry, result.q, model.checked_pairs) == ()
            assert result.collision_pair is None
            avoided += 1
        else:
            assert result.status == 'in_collision'
            assert result.collision_pair in contacts(robot, chain, geometry, result.q,
                                                     model.checked_pairs)
    assert blind_collisions >= 4  # the test is meaningful: without the check, they collide
    assert avoided >= 4


def _box_obstacle(identifier, center, size, operation='add'):
    pose = np.eye(4)
    pose[:3, 3] = center
    return Obstacle(identifier, pose, (Primitive(Box(size)),), operation)


def test_an_obstacle_added_moved_and_removed_changes_the_answer():
    robot, chain, geometry, model = _arm('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')
    seed = chain.mid_configuration()
    q_goal = seed + np.array([0.3, 0.2, -0.2, 0.3, 0.1, 0.2, 0.1])
    target = chain.fk(q_goal)
    free = solve(chain, target, seed=seed, timeout=TIMEOUT, collision=model)
    assert free.success and free.collision_checked
    assert _reaches(chain, free.q, target)
    # A box around the elbow of that answer, far from the hand.
    elbow = robot.transform('panda_link0', 'panda_link4', dict(zip(chain.joint_names, free.q)))
    obstacles = ObstacleSet().apply(_box_obstacle('pillar', elbow[:3, 3], (0.12, 0.12, 0.12)))
    blocked_model = model.with_obstacles(obstacles)
    assert 'pillar' in {name for pair in blocked_model.check(free.q).pairs for name in pair}
    blocked = solve(chain, target, seed=seed, timeout=TIMEOUT, collision=blocked_model)
    box = (('pillar', obstacles.get('pillar').pose, Box((0.12, 0.12, 0.12))),)
    if blocked.success:
        assert _reaches(chain, blocked.q, target)
        assert np.abs(blocked.q - free.q).max() > 1e-3
        assert contacts(robot, chain, geometry, blocked.q,
                        blocked_model.checked_pairs, box) == ()
    else:
        assert blocked.status == 'in_collision' and 'pillar' in blocked.collision_pair
    moved = obstacles.apply(_box_obstacle('pillar', (2.0, 2.0, 2.0), (0.1, 0.1, 0.1), MOVE))
    away = solve(chain, target, seed=seed, timeout=TIMEOUT,
                 collision=model.with_obstacles(moved))
    np.testing.assert_array_equal(away.q, free.q)
    removed = moved.apply(Obstacle('pillar', operation=REMOVE))
    gone = solve(chain, target, seed=seed, timeout=TIMEOUT,
                 collision=model.with_obstacles(removed))
    np.testing.assert_array_equal(gone.q, free.q)


def test_a_target_inside_an_obstacle_is_refused_naming_the_pair():
    robot, chain, geometry, model = _arm('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')
    q_goal = chain.mid_configuration() + 0.2
    target = chain.fk(q_goal)
    crate = ObstacleSet().apply(_box_obstacle('crate', target[:3, 3], (0.1, 0.1, 0.1)))
    result = solve(chain, target, seed=q_goal, timeout=0.05,
                   collision=model.with_obstacles(crate))
    assert not result.success and result.status == 'in_collision'
    assert 'crate' in result.collision_pair
    assert _reaches(chain, result.q, target)  # the pose is met; the collision refuses it


def test_without_a_collision_model_the_answer_is_unchanged(arm):
    _, chain, _, model = arm
    rng = np.random.default_rng(8)
    for _ in range(5):
        target = chain.fk(chain.random_configuration(rng))
        seed = chain.random_configuration(rng)
        plain = solve(chain, target, seed=seed, timeout=TIMEOUT)
        explicit = solve(chain, target, seed=seed, timeout=TIMEOUT, collision=None)
        np.testing.assert_array_equal(plain.q, explicit.q)
        assert not explicit.collision_checked and explicit.unchecked_links == ()


def test_a_collision_argument_without_a_check_is_refused(arm):
    _, chain, _, _ = arm
    with pytest.raises(InvalidSolverOptionError, match='check'):
        solve(chain, chain.fk(chain.mid_configuration()), collision=object())
