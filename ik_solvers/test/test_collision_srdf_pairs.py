# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""With an SRDF every pair it does not disable is checked, pairs touching at zero included."""

from collision_oracle import contacts
import numpy as np
import pytest

from ik_solvers import RobotModel
from ik_solvers.collision import CollisionModel, load_robot_geometry, parse_srdf

# A three-joint arm beside a fixed "thigh": at the zero configuration the hand's box overlaps
# the thigh's (as a humanoid's wrist touches its thigh), and no other pair touches.
URDF = """<?xml version="1.0"?>
<robot name="touching">
  <link name="base_link">
    <collision><origin xyz="0 0 0.05"/><geometry><box size="0.2 0.2 0.1"/></geometry></collision>
  </link>
  <link name="thigh">
    <collision><origin xyz="0.37 0 0.15"/><geometry><box size="0.1 0.1 0.3"/></geometry>
    </collision>
  </link>
  <link name="link1">
    <collision><origin xyz="0 0 0.1"/><geometry><cylinder radius="0.05" length="0.2"/>
    </geometry></collision>
  </link>
  <link name="link2">
    <collision><origin xyz="0.15 0 0"/><geometry><box size="0.3 0.05 0.05"/></geometry>
    </collision>
  </link>
  <link name="hand">
    <collision><origin xyz="0.05 0 0"/><geometry><box size="0.1 0.06 0.06"/></geometry>
    </collision>
  </link>
  <joint name="thigh_joint" type="fixed">
    <parent link="base_link"/><child link="thigh"/>
  </joint>
  <joint name="joint1" type="revolute">
    <parent link="base_link"/><child link="link1"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit lower="-3.1" upper="3.1" effort="10" velocity="1"/>
  </joint>
  <joint name="joint2" type="revolute">
    <parent link="link1"/><child link="link2"/><origin xyz="0 0 0.2"/><axis xyz="0 1 0"/>
    <limit lower="-2.0" upper="2.0" effort="10" velocity="1"/>
  </joint>
  <joint name="joint3" type="revolute">
    <parent link="link2"/><child link="hand"/><origin xyz="0.3 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2.5" upper="2.5" effort="10" velocity="1"/>
  </joint>
</robot>
"""
#: Disables the parent-child pairs only (as MoveIt Setup Assistant's "Adjacent"); hand-thigh
#: is kept.
DISABLED = (('base_link', 'link1'), ('link1', 'link2'), ('link2', 'hand'),
            ('base_link', 'thigh'))
SRDF = '<?xml version="1.0"?><robot name="touching">%s</robot>' % ''.join(
    '<disable_collisions link1="%s" link2="%s" reason="Adjacent"/>' % pair
    for pair in DISABLED)
CONFIGURATIONS = 2000


def _robot():
    robot = RobotModel.from_urdf(URDF)
    return robot, robot.chain('base_link', 'hand'), load_robot_geometry(URDF)


def test_a_pair_the_srdf_keeps_is_checked_though_it_touches_at_zero():
    robot, chain, geometry = _robot()
    model = CollisionModel(robot, chain, geometry, disabled=parse_srdf(SRDF))
    assert model.zero_contacts == ()
    assert ('hand', 'thigh') in model.checked_pairs
    report = model.check(np.zeros(chain.num_joints))
    assert report.pairs == (('hand', 'thigh'),)
    assert any('hand-thigh' in warning and 'checked' in warning for warning in model.warnings)
    # Lifting the arm (joint2 negative about y raises the tip) frees it.
    assert not model.check(np.array([0.0, -1.0, 0.0])).colliding


def test_without_an_srdf_the_zero_contacts_are_named_and_can_be_checked():
    robot, chain, geometry = _robot()
    lenient = CollisionModel(robot, chain, geometry)
    assert lenient.zero_contacts == (('hand', 'thigh'),)
    assert not lenient.check(np.zeros(chain.num_joints)).colliding
    assert any('hand-thigh' in warning and 'allow_zero_contacts' in warning
               for warning in lenient.warnings)
    strict = CollisionModel(robot, chain, geometry, allow_zero_contacts=False)
    assert strict.zero_contacts == ()
    assert strict.check(np.zeros(chain.num_joints)).pairs == (('hand', 'thigh'),)


def _pinocchio_contacts(chain):
    """Return a function giving the sorted link pairs Pinocchio + coal find in contact."""
    pinocchio = pytest.importorskip('pinocchio')
    model = pinocchio.buildModelFromXML(URDF)
    geometry = pinocchio.buildGeomFromUrdfString(model, URDF, pinocchio.GeometryType.COLLISION)
    geometry.addAllCollisionPairs()
    pinocchio.removeCollisionPairsFromXML(model, geometry, SRDF, False)
    data, geometry_data = model.createData(), pinocchio.GeometryData(geometry)
    slots = [model.joints[model.getJointId(name)].idx_q for name in chain.joint_names]
    links = [model.frames[item.parentFrame].name for item in geometry.geometryObjects]

    def found(q):
        configuration = pinocchio.neutral(model)
        configuration[slots] = q
        pinocchio.computeCollisions(model, data, geometry, geometry_data, configuration, False)
        pairs = set()
        for index, pair in enumerate(geometry.collisionPairs):
            if geometry_data.collisionResults[index].isCollision():
                pairs.add(tuple(sorted((links[pair.first], links[pair.second]))))
        return tuple(sorted(pairs))
    return found


def _coal_contacts(robot, chain, geometry):
    """Return a function giving the pairs a direct coal check finds among the SRDF's kept."""
    moving = set(robot.link_names) - {'base_link', 'thigh'}
    links = sorted(set(geometry.links))
    kept = [(a, b) for i, a in enumerate(links) for b in links[i + 1:]
            if (a in moving or b in moving) and (a, b) not in DISABLED
            and (b, a) not in DISABLED]
    return lambda q: contacts(robot, chain, geometry, q, kept)


@pytest.mark.parametrize('oracle', ['pinocchio', 'coal'])
def test_every_collision_an_independent_check_finds_is_found(oracle):
    robot, chain, geometry = _robot()
    model = CollisionModel(robot, chain, geometry, disabled=parse_srdf(SRDF))
    expected = (_pinocchio_contacts(chain) if oracle == 'pinocchio'
                else _coal_contacts(robot, chain, geometry))
    rng = np.random.default_rng(44)
    missed, colliding, at_thigh = [], 0, 0
    for _ in range(CONFIGURATIONS):
        q = chain.random_configuration(rng)
        truth = expected(q)
        found = model.check(q).pairs
        if set(truth) - set(found):
            missed.append((q.round(4).tolist(), truth, found))
        colliding += bool(truth)
        at_thigh += ('hand', 'thigh') in truth
    assert not missed, '%d of %d missed, e.g. %s' % (len(missed), CONFIGURATIONS, missed[:3])
    assert colliding > 0 and at_thigh > 0  # collisions, hand-thigh ones too, were exercised
