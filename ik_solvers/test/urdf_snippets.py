# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""For the model's tests: URDF text made of joint tags, a mimic robot, and rotations."""

import math

import numpy as np

__all__ = ['MIMIC_URDF', 'planar_tip', 'rx', 'ry', 'rz', 'urdf_joint', 'urdf_robot']


def urdf_joint(name, joint_type, parent, child, *, xyz='0 0 0', rpy='0 0 0', axis=None,
               limit='<limit lower="-1" upper="1" effort="1" velocity="1"/>', extra=''):
    """Return one ``<joint>`` tag; a fixed, planar or floating joint gets no limit."""
    axis_tag = '' if axis is None else '<axis xyz="%s"/>' % axis
    if joint_type in ('fixed', 'continuous', 'planar', 'floating'):
        limit = '' if joint_type != 'continuous' else limit
    return ('<joint name="%s" type="%s"><parent link="%s"/><child link="%s"/>'
            '<origin xyz="%s" rpy="%s"/>%s%s%s</joint>'
            % (name, joint_type, parent, child, xyz, rpy, axis_tag, limit, extra))


def urdf_robot(*joints, links=None, root_inertial=''):
    """Return a ``<robot>`` of ``joints``, with one link per child (``links`` overrides)."""
    if links is None:
        links = ['base']
        for joint in joints:
            child = joint.split('<child link="')[1].split('"')[0]
            links.append(child)
    link_tags = ''.join(
        '<link name="%s">%s</link>' % (link, root_inertial if i == 0 else '')
        for i, link in enumerate(links))
    return '<robot name="test_robot">%s%s</robot>' % (link_tags, ''.join(joints))


def rx(angle):
    """Return the rotation about x by ``angle`` (rad)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def ry(angle):
    """Return the rotation about y by ``angle`` (rad)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rz(angle):
    """Return the rotation about z by ``angle`` (rad)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


#: A leader with two chained followers on one branch and a copy on a side branch.
MIMIC_URDF = urdf_robot(
    urdf_joint('leader', 'revolute', 'base', 'a', axis='0 0 1',
               limit='<limit lower="-2" upper="2" effort="1" velocity="3"/>'),
    urdf_joint('follower', 'revolute', 'a', 'b', xyz='1 0 0', axis='0 0 1',
               extra='<mimic joint="leader" multiplier="2" offset="0.1"/>'),
    urdf_joint('second', 'revolute', 'b', 'c', xyz='1 0 0', axis='0 0 1',
               extra='<mimic joint="follower" multiplier="-1"/>'),
    urdf_joint('tool', 'fixed', 'c', 'tip', xyz='1 0 0'),
    urdf_joint('side', 'revolute', 'base', 'side_link', axis='0 1 0'),
    urdf_joint('copy', 'revolute', 'side_link', 'copy_link', axis='0 0 1',
               extra='<mimic joint="leader"/>'),
)


def planar_tip(angles):
    """Return the tip of unit planar links turning about z by the given absolute joint angles."""
    heading = np.cumsum(angles)
    return np.array([np.cos(heading).sum(), np.sin(heading).sum(), 0.0])
