# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A mirrored collision mesh (a negative scale) is loaded and checked, as urdfdom loads it.

The arm's last link carries an asymmetric, non-convex mesh with ``scale="1 -1 1"``. The
independent judge (``collision_oracle``, coal on every pair) sees a second description of the
same arm whose mesh file holds the mirror image already, written by trimesh with a positive
scale: it never goes through the package's mirroring. Every contact the judge finds, the
package's exact check finds too, and the mirror matters: the unmirrored mesh disagrees.
"""

from collision_oracle import contacts
import numpy as np
import trimesh

from ik_solvers import RobotModel
from ik_solvers.collision import CollisionModel, load_robot_geometry

_URDF = """<robot name="mirrored_limb">
  <link name="base_link">
    <collision><origin xyz="0 0 -0.05"/><geometry><box size="0.8 0.8 0.1"/></geometry></collision>
  </link>
  <link name="upper">
    <collision><geometry><sphere radius="0.02"/></geometry></collision>
  </link>
  <link name="right_limb">
    <collision><geometry><mesh filename="file://{mesh}" scale="{scale}"/></geometry></collision>
  </link>
  <joint name="yaw" type="revolute">
    <parent link="base_link"/><child link="upper"/><origin xyz="0 0 0.3"/><axis xyz="0 0 1"/>
    <limit lower="-3.1" upper="3.1" effort="1" velocity="1"/>
  </joint>
  <joint name="pitch" type="revolute">
    <parent link="upper"/><child link="right_limb"/><axis xyz="1 0 0"/>
    <limit lower="-3.1" upper="3.1" effort="1" velocity="1"/>
  </joint>
</robot>
"""


def _limb_mesh():
    # An L of two bars on the +y side: its mirror image lies on the -y side.
    bar = trimesh.creation.box(extents=(0.05, 0.3, 0.05))
    bar.apply_translation((0.0, 0.2, 0.0))
    foot = trimesh.creation.box(extents=(0.05, 0.05, 0.2))
    foot.apply_translation((0.0, 0.33, -0.1))
    return trimesh.util.concatenate([bar, foot])


def _model(tmp_path, name, mesh, scale):
    path = tmp_path / name
    mesh.export(str(path))
    urdf = _URDF.format(mesh=path, scale=scale)
    robot = RobotModel.from_urdf(urdf)
    chain = robot.chain('base_link', 'right_limb')
    geometry = load_robot_geometry(urdf)
    return robot, chain, geometry, CollisionModel(robot, chain, geometry)


def test_mirrored_mesh_collisions_are_found(tmp_path):
    limb = _limb_mesh()
    robot, chain, geometry, model = _model(tmp_path, 'limb.stl', limb, '1 -1 1')
    assert not geometry.unchecked_links and not model.unchecked_links
    assert model.checked_pairs == (('base_link', 'right_limb'),)
    mirror = limb.copy()
    mirror.apply_transform(np.diag([1.0, -1.0, 1.0, 1.0]))  # trimesh re-winds the faces
    reference = _model(tmp_path, 'mirror.stl', mirror, '1 1 1')
    unmirrored = _model(tmp_path, 'plain.stl', limb, '1 1 1')
    rng = np.random.default_rng(3004)
    found, differs = 0, 0
    for _ in range(400):
        q = chain.random_configuration(rng)
        truth = contacts(*reference[:3], q, model.checked_pairs)
        report = model.check(q)
        assert set(truth) <= set(report.pairs), q
        assert report.colliding == bool(truth), q
        found += bool(truth)
        differs += bool(truth) != bool(contacts(*unmirrored[:3], q, model.checked_pairs))
    assert found >= 20  # collisions were exercised
    assert differs >= 5  # and the mirror image is not the mesh itself


def test_zero_scale_is_still_refused(tmp_path):
    _, _, geometry, _ = _model(tmp_path, 'flat.stl', _limb_mesh(), '1 0 1')
    assert geometry.unchecked_links == ('right_limb',)
    assert any('non-zero' in warning for warning in geometry.warnings)
