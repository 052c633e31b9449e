# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Collision inputs: URDF geometry, mesh files, the SRDF and obstacles, each bad one refused."""

import math
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial import ConvexHull
import trimesh

from ik_solvers import CollisionGeometryError, InvalidObstacleError, RobotModel, SrdfError
from ik_solvers.collision import (
    Box,
    CollisionModel,
    Cylinder,
    load_robot_geometry,
    MOVE,
    Obstacle,
    ObstacleSet,
    parse_srdf,
    Primitive,
    REMOVE,
    resolve_mesh_path,
    Sphere,
    TriangleMesh,
)

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'


def _two_links(collision_xml: str) -> str:
    return ('<robot name="r"><link name="base">%s</link><link name="arm"/>'
            '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            '</robot>' % collision_xml)


def test_every_primitive_and_its_origin_are_read():
    geometry = load_robot_geometry(_two_links(
        '<collision><origin xyz="0.1 0 0" rpy="0 0 1.5707963267948966"/>'
        '<geometry><box size="1 2 3"/></geometry></collision>'
        '<collision><geometry><sphere radius="0.5"/></geometry></collision>'
        '<collision><geometry><cylinder radius="0.2" length="0.7"/></geometry></collision>'))
    elements = geometry.elements
    expected = [Box((1.0, 2.0, 3.0)), Sphere(0.5), Cylinder(0.2, 0.7)]
    assert [element.shape for element in elements] == expected
    assert all(element.link == 'base' for element in elements)
    assert geometry.warnings == () and geometry.unchecked_links == ()
    np.testing.assert_allclose(elements[0].origin[:3, 3], (0.1, 0.0, 0.0))
    np.testing.assert_allclose(elements[0].origin[:3, 0], (0.0, 1.0, 0.0), atol=1e-12)


@pytest.mark.parametrize('collision, reason', [
    ('<collision/>', 'no <geometry>'),
    ('<collision><geometry/></collision>', 'holds no shape'),
    ('<collision><geometry><cone radius="1"/></geometry></collision>', 'unknown'),
    ('<collision><geometry><box/></geometry></collision>', 'size'),
])
def test_a_malformed_collision_is_dropped_as_urdfdom_drops_it_with_a_warning(collision, reason):
    geometry = load_robot_geometry(_two_links(
        '<collision><geometry><sphere radius="0.1"/></geometry></collision>' + collision
        + '<collision><geometry><sphere radius="0.2"/></geometry></collision>'))
    # urdfdom keeps the collisions before the malformed one and drops the rest of the link's.
    assert [element.shape for element in geometry.elements] == [Sphere(0.1)]
    assert len(geometry.warnings) == 1
    assert "'base'" in geometry.warnings[0] and reason in geometry.warnings[0]


def test_package_file_and_plain_paths_resolve(tmp_path):
    (tmp_path / 'my_robot' / 'meshes').mkdir(parents=True)
    expected = tmp_path / 'my_robot' / 'meshes' / 'a.stl'
    assert resolve_mesh_path('package://my_robot/meshes/a.stl', [str(tmp_path)]) == expected
    assert resolve_mesh_path('file://%s' % expected) == expected
    assert resolve_mesh_path(str(expected)) == expected


@pytest.mark.parametrize('suffix', ['stl', 'obj', 'dae'])
def test_stl_obj_and_collada_meshes_load_scaled(tmp_path, suffix):
    path = tmp_path / ('cube.' + suffix)
    trimesh.creation.box((1.0, 1.0, 1.0)).export(str(path))
    geometry = load_robot_geometry(_two_links(
        '<collision><geometry><mesh filename="file://%s" scale="0.1 0.2 0.3"/></geometry>'
        '</collision>' % path))
    assert geometry.unchecked_links == () and geometry.warnings == ()
    mesh = geometry.elements[0].shape
    assert isinstance(mesh, TriangleMesh) and len(mesh.faces) == 12
    np.testing.assert_allclose(mesh.vertices.max(axis=0) - mesh.vertices.min(axis=0),
                               (0.1, 0.2, 0.3), atol=1e-9)


@pytest.mark.parametrize('filename', ['package://no_such_package/a.stl', 'file:///no/such.stl',
                                      'http://example.org/a.stl', 'file:///dev/zero',
                                      'NOT_A_MESH'])
def test_a_missing_or_unreadable_mesh_leaves_its_link_unchecked_with_a_warning(
        tmp_path, filename):
    if filename == 'NOT_A_MESH':
        garbage = tmp_path / 'garbage.stl'
        garbage.write_bytes(b'\x00\x01 this is not a mesh')
        filename = str(garbage)
    geometry = load_robot_geometry(_two_links(
        '<collision><geometry><mesh filename="%s"/></geometry></collision>'
        '<collision><geometry><sphere radius="0.1"/></geometry></collision>' % filename))
    assert geometry.unchecked_links == ('base',)
    assert len(geometry.warnings) == 1
    assert "link 'base'" in geometry.warnings[0] and filename in geometry.warnings[0]
    assert [element.shape for element in geometry.elements] == [Sphere(0.1)]


def test_a_huge_mesh_is_reduced_to_its_convex_hull(tmp_path):
    path = tmp_path / 'huge.stl'
    sphere = trimesh.creation.icosphere(subdivisions=6)  # 81,920 triangles
    sphere.export(str(path))
    geometry = load_robot_geometry(_two_links(
        '<collision><geometry><mesh filename="%s"/></geometry></collision>' % path),
        max_triangles=20_000)
    mesh = geometry.elements[0].shape
    assert mesh.convex and len(mesh.faces) < 20_000
    # The reduced hull holds every vertex of the mesh: each is inside every face's plane.
    planes = ConvexHull(mesh.vertices).equations
    assert (sphere.vertices @ planes[:, :3].T + planes[:, 3]).max() <= 1e-9
    assert 'convex hull' in geometry.warnings[0] and "link 'base'" in geometry.warnings[0]


def test_the_srdf_pairs_are_read_and_a_malformed_srdf_is_refused_with_its_reason():
    disabled = parse_srdf('<robot name="r"><group name="arm"/>'
                          '<disable_collisions link1="a" link2="b" reason="Adjacent"/></robot>')
    assert disabled.pairs == {frozenset(('a', 'b'))}
    assert disabled.reasons == (('a', 'b', 'Adjacent'),)
    for text, reason in [('', 'empty'), ('<robot', 'malformed SRDF XML'),
                         ('<model/>', 'root element is <model>'),
                         ('<robot><disable_collisions link1="a"/></robot>', 'link1 and link2')]:
        with pytest.raises(SrdfError, match=reason):
            parse_srdf(text)


def test_srdf_pairs_naming_unknown_links_are_ignored_with_one_warning():
    urdf = (URDF_DIRECTORY / 'ur5_like.urdf').read_text(encoding='utf-8')
    robot = RobotModel.from_urdf(urdf)
    disabled = parse_srdf('<robot name="ur5">'
                          '<disable_collisions link1="base_link" link2="ghost"/>'
                          '<disable_collisions link1="phantom" link2="tool0"/>'
                          '<disable_collisions link1="forearm_link" link2="wrist_3_link"/>'
                          '</robot>')
    model = CollisionModel(robot, robot.chain('base_link', 'tool0'), load_robot_geometry(urdf),
                           disabled=disabled)
    ignored = [warning for warning in model.warnings if 'ignored' in warning]
    assert len(ignored) == 1 and 'ghost' in ignored[0] and 'phantom' in ignored[0]
    assert ('forearm_link', 'wrist_3_link') not in model.checked_pairs
    assert ('base_link', 'forearm_link') in model.checked_pairs


def _box(size=(0.1, 0.1, 0.1)):
    return (Primitive(Box(size)),)


def _pose(x=0.0):
    pose = np.eye(4)
    pose[0, 3] = x
    return pose


def test_obstacles_are_added_moved_and_removed_with_moveit_semantics():
    obstacles = ObstacleSet().apply(Obstacle('crate', _pose(0.5), _box()))
    assert obstacles.ids == ('crate',)
    moved = obstacles.apply(Obstacle('crate', _pose(0.7), operation=MOVE))
    assert moved.get('crate').pose[0, 3] == 0.7
    assert moved.get('crate').primitives[0].shape == Box((0.1, 0.1, 0.1))
    assert obstacles.get('crate').pose[0, 3] == 0.5  # the old set is untouched
    replaced = moved.apply(Obstacle('crate', _pose(0.1), (Primitive(Sphere(0.2)),)))
    assert len(replaced) == 1 and replaced.get('crate').primitives[0].shape == Sphere(0.2)
    assert len(replaced.apply(Obstacle('crate', operation=REMOVE))) == 0


@pytest.mark.parametrize('obstacle, reason', [
    (Obstacle('nan', _pose(math.nan), _box()), 'non-finite'),
    (Obstacle('skew', np.diag([2.0, 1.0, 1.0, 1.0]), _box()), 'not a rotation'),
    (Obstacle('flat', _pose(), _box((0.1, 0.0, 0.1))), 'finite positive'),
    (Obstacle('negative', _pose(), (Primitive(Sphere(-1.0)),)), 'finite positive'),
    (Obstacle('bad_part', _pose(), (Primitive(Cylinder(0.1, 0.2), _pose(math.inf)),)),
     'primitive 0 has non-finite'),
    (Obstacle('empty', _pose(), ()), 'no primitives'),
    (Obstacle('', _pose(), _box()), 'non-empty id'),
    (Obstacle('odd', _pose(), _box(), operation='append'), 'unknown operation'),
    (Obstacle('ghost', _pose(), operation=MOVE), "no obstacle 'ghost' to move"),
    (Obstacle('ghost', operation=REMOVE), "no obstacle 'ghost' to remove"),
])
def test_a_bad_obstacle_is_refused_with_its_reason_and_nothing_is_lost(obstacle, reason):
    in_place = ObstacleSet().apply(Obstacle('crate', _pose(0.5), _box()))
    with pytest.raises(InvalidObstacleError) as error:
        in_place.apply(obstacle)
    assert reason in str(error.value).replace("'bad_part': the pose of ", '')
    assert in_place.ids == ('crate',) and in_place.get('crate').pose[0, 3] == 0.5


def test_too_many_obstacles_are_refused_and_replacing_one_still_works():
    obstacles = ObstacleSet(max_obstacles=2)
    obstacles = obstacles.apply(Obstacle('a', _pose(), _box())).apply(
        Obstacle('b', _pose(), _box()))
    with pytest.raises(InvalidObstacleError, match='2 obstacles are in place'):
        obstacles.apply(Obstacle('c', _pose(), _box()))
    assert obstacles.apply(Obstacle('b', _pose(0.3), _box())).get('b').pose[0, 3] == 0.3


def test_an_obstacle_named_like_a_link_and_a_negative_padding_are_refused():
    urdf = (URDF_DIRECTORY / 'ur5_like.urdf').read_text(encoding='utf-8')
    robot = RobotModel.from_urdf(urdf)
    model = CollisionModel(robot, robot.chain('base_link', 'tool0'), load_robot_geometry(urdf))
    with pytest.raises(InvalidObstacleError, match="'tool0'"):
        model.with_obstacles(ObstacleSet().apply(Obstacle('tool0', _pose(), _box())))
    with pytest.raises(CollisionGeometryError, match='padding'):
        model.with_padding(-0.01)
