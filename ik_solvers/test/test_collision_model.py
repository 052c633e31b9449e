# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The collision model agrees with an independent check, on bundled and vendor arms."""

from pathlib import Path

from collision_oracle import contacts
import numpy as np
import pytest

from ik_solvers import InvalidSeedError, RobotModel
from ik_solvers.reach.named_robots import load_robot, vendor_robot_names
from ik_solvers.collision import (
    Box,
    CollisionModel,
    load_robot_geometry,
    Obstacle,
    ObstacleSet,
    parse_srdf,
    Primitive,
)

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
ARMS = {'ur5_like': ('base_link', 'tool0'), 'panda_like': ('panda_link0', 'panda_hand_tcp'),
        'so101_like': ('base_link', 'gripper_frame_link')}


def _bundled(name):
    urdf = (URDF_DIRECTORY / (name + '.urdf')).read_text(encoding='utf-8')
    robot = RobotModel.from_urdf(urdf)
    return robot, robot.chain(*ARMS[name]), load_robot_geometry(urdf)


@pytest.mark.parametrize('name', sorted(ARMS))
@pytest.mark.parametrize('padding', [0.0, 0.02])
def test_every_check_agrees_with_the_independent_check(name, padding):
    robot, chain, geometry = _bundled(name)
    model = CollisionModel(robot, chain, geometry, padding=padding)
    rng = np.random.default_rng(21)
    colliding = 0
    for _ in range(60):
        q = chain.random_configuration(rng)
        report = model.check(q)
        expected = contacts(robot, chain, geometry, q, model.checked_pairs, padding=padding)
        assert report.pairs == expected
        assert report.colliding == bool(expected)
        colliding += report.colliding
    assert 0 < colliding < 60  # both outcomes were exercised


@pytest.mark.skipif('vendor_ur5' not in vendor_robot_names(),
                    reason='example-robot-data is not installed')
@pytest.mark.parametrize('name, srdf', [('vendor_ur5', 'ur_description/srdf/ur5.srdf'),
                                        ('vendor_panda', 'panda_description/srdf/panda.srdf')])
def test_the_vendor_meshes_and_srdf_agree_with_the_independent_check(name, srdf):
    robot_description = load_robot(name)
    robots_folder = Path(robot_description.source).parents[2]
    robot = RobotModel.from_urdf(robot_description.urdf_xml)
    chain = robot.chain(robot_description.base_link, robot_description.tip_link)
    geometry = load_robot_geometry(robot_description.urdf_xml,
                                   search_roots=[str(robots_folder.parents[1])])
    assert geometry.unchecked_links == () and len(geometry.elements) >= 7
    disabled = parse_srdf((robots_folder / srdf).read_text(encoding='utf-8'))
    model = CollisionModel(robot, chain, geometry, disabled=disabled)
    rng = np.random.default_rng(5)
    for _ in range(25):
        q = chain.random_configuration(rng)
        assert model.check(q).pairs == contacts(robot, chain, geometry, q, model.checked_pairs)


def test_without_an_srdf_the_pairs_touching_at_zero_are_allowed_and_named():
    robot, chain, geometry = _bundled('panda_like')
    model = CollisionModel(robot, chain, geometry)
    assert ('panda_leftfinger', 'panda_rightfinger') in model.zero_contacts
    assert not model.check(np.zeros(chain.num_joints)).colliding
    assert any('zero configuration' in warning and 'panda_leftfinger-panda_rightfinger'
               in warning for warning in model.warnings)


@pytest.mark.parametrize('srdf', ['<robot name="p"/>', '<robot name="p"><disable_collisions '
                                  'link1="panda_link1" link2="panda_link3" reason="Never"/>'
                                  '</robot>'])
def test_an_srdf_that_misses_pairs_touching_at_zero_has_them_checked_and_says_so(srdf):
    robot, chain, geometry = _bundled('panda_like')
    model = CollisionModel(robot, chain, geometry, disabled=parse_srdf(srdf))
    # As MoveIt: the SRDF decides; what it does not disable is checked, touching or not.
    assert model.zero_contacts == ()
    assert any('SRDF does not disable' in warning and 'panda_leftfinger-panda_rightfinger'
               in warning for warning in model.warnings)
    # The fingers touch wherever the arm is: every configuration collides, and says why.
    for q in (np.zeros(chain.num_joints), chain.mid_configuration()):
        assert ('panda_leftfinger', 'panda_rightfinger') in model.check(q).pairs


def test_an_srdf_that_disables_the_pairs_touching_at_zero_leaves_nothing_to_name():
    robot, chain, geometry = _bundled('panda_like')
    plain = CollisionModel(robot, chain, geometry)
    pairs = ''.join('<disable_collisions link1="%s" link2="%s" reason="Default"/>' % pair
                    for pair in plain.zero_contacts)
    model = CollisionModel(robot, chain, geometry,
                           disabled=parse_srdf('<robot name="p">%s</robot>' % pairs))
    assert model.zero_contacts == ()
    assert not any('zero configuration' in warning for warning in model.warnings)


def test_links_off_the_chain_follow_the_joint_states():
    robot, chain, geometry = _bundled('panda_like')
    model = CollisionModel(robot, chain, geometry)
    q = chain.mid_configuration()
    hand = robot.transform('panda_link0', 'panda_hand', dict(zip(chain.joint_names, q)))
    # A thin plate just beyond where the left finger reaches when the gripper is open.
    plate = hand.copy()
    plate[:3, 3] = hand[:3, :3] @ (0.0, 0.065, 0.085) + hand[:3, 3]
    plate_shape = (Primitive(Box((0.05, 0.01, 0.05))),)
    obstacles = ObstacleSet().apply(Obstacle('plate', plate, plate_shape))
    closed = model.with_obstacles(obstacles)
    opened = closed.with_joint_positions({'panda_finger_joint1': 0.04})
    assert ('panda_leftfinger', 'plate') not in closed.check(q).pairs
    assert ('panda_leftfinger', 'plate') in opened.check(q).pairs


def test_a_model_placed_at_each_position_of_the_other_arm_agrees_with_the_independent_check():
    # Two arms on a waist: the left arm's model is placed anew at every position of the
    # right arm (as a tree's check does), keeping its shapes, pairs and coal tests.
    urdf = (URDF_DIRECTORY / 'trees' / 'dual_arm_waist.urdf').read_text(encoding='utf-8')
    robot = RobotModel.from_urdf(urdf)
    left, right = robot.chain('base_link', 'left_tool'), robot.chain('base_link', 'right_tool')
    geometry = load_robot_geometry(urdf)
    model = CollisionModel(robot, left, geometry)
    rng = np.random.default_rng(8)
    between_arms = 0
    for _ in range(120):
        q = left.random_configuration(rng)
        others = {name: value for name, value in
                  zip(right.joint_names, right.random_configuration(rng))
                  if name not in left.joint_names}
        placed = model.with_joint_positions(others)
        expected = contacts(robot, left, geometry, q, model.checked_pairs, others=others)
        assert placed.check(q).pairs == expected
        between_arms += any(a.startswith('right') or b.startswith('right') for a, b in expected)
    assert between_arms > 0  # the right arm's placement decided some verdicts
    # The model it was placed from still answers for its own positions (all zero).
    q = left.random_configuration(rng)
    assert model.check(q).pairs == contacts(robot, left, geometry, q, model.checked_pairs)


def test_a_check_names_every_pair_or_stops_at_the_first():
    robot, chain, geometry = _bundled('ur5_like')
    model = CollisionModel(robot, chain, geometry)
    rng = np.random.default_rng(3)
    reports = [model.check(chain.random_configuration(rng)) for _ in range(200)]
    several = next(report for report in reports if len(report.pairs) > 1)
    assert "collision between '" in several.describe()
    rng = np.random.default_rng(3)
    for report in reports:
        first = model.check(chain.random_configuration(rng), stop_at_first=True)
        assert first.colliding == report.colliding
        assert set(first.pairs) <= set(report.pairs) and len(first.pairs) <= 1


def test_a_bad_configuration_is_refused():
    robot, chain, geometry = _bundled('ur5_like')
    model = CollisionModel(robot, chain, geometry)
    for q in (np.zeros(5), np.full(6, np.nan)):
        with pytest.raises(InvalidSeedError, match='6 finite joint positions'):
            model.check(q)


def test_every_layout_of_a_configuration_gets_the_same_verdict():
    robot, chain, geometry = _bundled('ur5_like')
    model = CollisionModel(robot, chain, geometry)
    rng = np.random.default_rng(4)
    configurations = [chain.random_configuration(rng) for _ in range(40)]
    verdicts = [model.check(q).pairs for q in configurations]
    assert any(verdicts) and not all(verdicts)
    for q, pairs in zip(configurations, verdicts):
        read_only = q.copy()
        read_only.setflags(write=False)
        strided = np.repeat(q, 2)[::2]
        for layout in (read_only, strided, q.tolist()):
            assert model.check(layout).pairs == pairs
