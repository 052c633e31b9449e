# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Fixtures every test module shares, and an independent forward-kinematics oracle.

The oracle reads the URDF text with the standard library's XML parser and multiplies the
joint transforms one by one with numpy. It shares no code with the package (neither its
parser nor its kinematics kernels), so a success that the package reports is confirmed by a
second, plainly written computation.
"""

import functools
import math
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest

from ik_solvers import RobotModel, warm_up

URDF_DIRECTORY = Path(__file__).resolve().parents[1] / 'urdf'
#: The package's default tolerances of ``solve()``: metres and radians.
SOLVE_POSITION_TOLERANCE = 1e-5
SOLVE_ORIENTATION_TOLERANCE = 1e-5
#: Rounding slack of the oracle's own sums: far below every tolerance the tests use.
ORACLE_SLACK = 1e-9


class CountedName(str):
    """
    A name that counts every hash and comparison of itself: work measured without a clock.

    Reset :attr:`operations` before the code under test runs; a check linear in the number
    of names does a few operations per name, a quadratic one about as many as there are names.
    """

    operations = 0

    def __hash__(self) -> int:
        CountedName.operations += 1
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        CountedName.operations += 1
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        CountedName.operations += 1
        return str.__ne__(self, other)


@pytest.fixture(scope='session', autouse=True)
def compiled_solvers():
    """
    Compile, or load from the disk cache, every solver before the first test runs.

    A solver is otherwise compiled on its first solve, which takes seconds after a fresh
    build: long enough to age the joint states a test has just sent, or to run past the
    timeouts of tests that start nodes.
    """
    warm_up()


def bundled_chain(file_name: str, base_link: str, tip_link: str):
    """
    Cut a chain out of one of the package's bundled URDFs.

    :param file_name: A file of ``urdf/``.
    :param base_link: Base of the chain.
    :param tip_link: Tip of the chain.
    :returns: The chain.
    """
    return RobotModel.from_urdf((URDF_DIRECTORY / file_name).read_text(encoding='utf-8')).chain(
        base_link, tip_link)


@pytest.fixture(scope='session')
def ur5():
    """Return the bundled UR5-like arm, ``base_link`` to ``tool0``."""
    return bundled_chain('ur5_like.urdf', 'base_link', 'tool0')


@pytest.fixture(scope='session')
def panda():
    """Return the bundled Panda-like arm, ``panda_link0`` to ``panda_hand_tcp``."""
    return bundled_chain('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')


@pytest.fixture
def ros():
    """
    Yield a ROS context with helpers to start nodes in it; everything is shut down after.

    Imported here, not at the top: the core's tests run without ROS.
    """
    from test_node_support import Ros
    harness = Ros()
    try:
        yield harness
    finally:
        harness.close()


# The independent oracle ---------------------------------------------------------------------


def _numbers(text: Optional[str], default: Sequence[float]) -> np.ndarray:
    return np.array([float(part) for part in text.split()]) if text else np.array(default)


def _rotation_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Rotate by roll, pitch, yaw about the parent's fixed x, y, z axes, as URDF defines it."""
    cr, sr, cp, sp, cy, sy = (math.cos(roll), math.sin(roll), math.cos(pitch),
                              math.sin(pitch), math.cos(yaw), math.sin(yaw))
    about_x = np.array([[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]])
    about_y = np.array([[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]])
    about_z = np.array([[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]])
    return about_z @ about_y @ about_x


def _rotation_about(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rodrigues' formula for a unit ``axis``."""
    x, y, z = axis
    cross = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    return np.eye(3) + math.sin(angle) * cross + (1.0 - math.cos(angle)) * cross @ cross


def rotation_angle(a: np.ndarray, b: np.ndarray) -> float:
    """Return the angle (rad) of the rotation between the rotations of two poses."""
    relative = a[:3, :3].T @ b[:3, :3]
    # Sine and cosine together: the arc cosine alone rounds angles below about 2e-8 rad.
    axis_times_sine = np.array([relative[2, 1] - relative[1, 2],
                                relative[0, 2] - relative[2, 0],
                                relative[1, 0] - relative[0, 1]])
    sine = 0.5 * float(np.linalg.norm(axis_times_sine))
    return math.atan2(sine, (float(np.trace(relative)) - 1.0) / 2.0)


def axis_angle(reached: np.ndarray, target: np.ndarray, tip_axis: Sequence[float]) -> float:
    """Return the angle (rad) between ``tip_axis`` of the tip in both poses."""
    axis = np.asarray(tip_axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    first, second = reached[:3, :3] @ axis, target[:3, :3] @ axis
    return math.atan2(float(np.linalg.norm(np.cross(first, second))), float(first @ second))


#: The joint types urdfdom reads; it refuses a description with any other.
_JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar')
#: The joint types of one degree of freedom: the ones a serial chain can move.
_MOVING_TYPES = ('revolute', 'continuous', 'prismatic')


class _Joint:
    """One URDF joint as the oracle reads it."""

    def __init__(self, element: ElementTree.Element) -> None:
        self.name = element.get('name')
        self.type = element.get('type')
        if self.type not in _JOINT_TYPES:
            raise ValueError('the oracle has no %s joints' % self.type)
        self.parent = element.find('parent').get('link')
        self.child = element.find('child').get('link')
        origin = element.find('origin')
        xyz = _numbers(origin.get('xyz') if origin is not None else None, (0.0, 0.0, 0.0))
        rpy = _numbers(origin.get('rpy') if origin is not None else None, (0.0, 0.0, 0.0))
        self.origin = np.eye(4)
        self.origin[:3, :3] = _rotation_rpy(*rpy)
        self.origin[:3, 3] = xyz
        axis_element = element.find('axis')
        axis = _numbers(axis_element.get('xyz') if axis_element is not None else None,
                        (1.0, 0.0, 0.0))
        self.axis = axis / np.linalg.norm(axis) if self.type in _MOVING_TYPES else axis
        limit = element.find('limit')
        if self.type in ('revolute', 'prismatic'):
            self.lower = float(limit.get('lower', 0.0))
            self.upper = float(limit.get('upper', 0.0))
        else:
            self.lower, self.upper = -math.inf, math.inf
        mimic = element.find('mimic')
        self.mimic: Optional[Tuple[str, float, float]] = None
        if mimic is not None:
            self.mimic = (mimic.get('joint'), float(mimic.get('multiplier', 1.0)),
                          float(mimic.get('offset', 0.0)))

    def motion(self, value: float) -> np.ndarray:
        transform = np.eye(4)
        if self.type in ('revolute', 'continuous'):
            transform[:3, :3] = _rotation_about(self.axis, value)
        elif self.type == 'prismatic':
            transform[:3, 3] = self.axis * value
        return transform


class UrdfOracle:
    """
    Forward kinematics and joint limits of one chain, read from URDF text joint by joint.

    The moving joints that mimic no other are the chain's variables, base to tip, as the
    package orders them; a mimic joint takes ``multiplier * leader + offset`` of its leader.
    As urdfdom reads a description:

    - a ``<mimic>`` naming a joint the robot lacks is ignored, the joint moves by itself;
    - a leader off the chain (a gripper's first finger, when the chain ends at the second)
      is a variable too, placed where its first follower is;
    - floating and planar joints anywhere off the chain do not matter to it; a chain across
      one is refused, as the package refuses it, since its motion is not one number.
    """

    def __init__(self, urdf_xml: str, base_link: Optional[str], tip_link: str) -> None:
        root = ElementTree.fromstring(urdf_xml)
        # Only the robot's own joints: <transmission> elements hold <joint> elements too.
        self._all: Dict[str, _Joint] = {
            joint.name: joint for joint in map(_Joint, root.findall('joint'))}
        by_child = {joint.child: joint for joint in self._all.values()}
        path: List[_Joint] = []
        link = tip_link
        # No base link: the chain starts at the root, the link that is no joint's child.
        while link != base_link and not (base_link is None and link not in by_child):
            if link not in by_child:
                raise ValueError('%r is not above %r' % (base_link, tip_link))
            path.append(by_child[link])
            link = by_child[link].parent
        self.base_link, self.tip_link = link, tip_link
        self.path = path[::-1]
        crossed = [joint.name for joint in self.path if joint.type in ('floating', 'planar')]
        if crossed:
            raise ValueError('the chain crosses %s, a joint of more than one degree of freedom'
                             % ', '.join(crossed))
        moving = [joint.name for joint in self.path if joint.type in _MOVING_TYPES]
        own = {name for name in moving if self._driver(name) == name}
        self.joint_names: List[str] = []
        for name in moving:
            driver = self._driver(name)
            if driver in self.joint_names or (driver != name and driver in own):
                continue
            if self._all[driver].type not in _MOVING_TYPES:
                raise ValueError('%r mimics %r, which does not move' % (name, driver))
            self.joint_names.append(driver)
        self.num_joints = len(self.joint_names)

    def _leader(self, name: str) -> Optional[str]:
        """Return the joint that ``name`` mimics; None if none, or if the robot lacks it."""
        mimic = self._all[name].mimic
        return mimic[0] if mimic is not None and mimic[0] in self._all else None

    def _driver(self, name: str) -> str:
        """Return the joint at the top of the ``<mimic>`` links from ``name``."""
        seen = [name]
        while self._leader(seen[-1]) is not None:
            seen.append(self._leader(seen[-1]))
            if seen[-1] in seen[:-1]:
                raise ValueError('the <mimic> tags form a cycle: %s' % ' -> '.join(seen))
        return seen[-1]

    def joint_values(self, positions: Sequence[float]) -> Dict[str, float]:
        """
        Return the value of every joint that ``positions`` set.

        Those are the moving joints of the chain, mimic joints included, the leaders off the
        chain, and the joints between a follower and its leader.
        """
        positions = np.asarray(positions, dtype=float)
        assert positions.shape == (self.num_joints,), positions.shape
        values = dict(zip(self.joint_names, positions.tolist()))

        def value(name: str) -> float:
            if name not in values:
                leader, multiplier, offset = self._all[name].mimic
                values[name] = multiplier * value(leader) + offset
            return values[name]

        for joint in self.path:
            if joint.type in _MOVING_TYPES:
                value(joint.name)
        return values

    def fk(self, positions: Sequence[float]) -> np.ndarray:
        """Return the (4, 4) pose of the tip in the base frame (m)."""
        values = self.joint_values(positions)
        pose = np.eye(4)
        for joint in self.path:
            pose = pose @ joint.origin @ joint.motion(values.get(joint.name, 0.0))
        return pose

    def limit_violations(self, positions: Sequence[float],
                         slack: float = ORACLE_SLACK) -> List[str]:
        """Return a line for every joint (mimic joints too) outside its URDF limits."""
        return ['%s = %r outside [%r, %r]' % (name, value, self._all[name].lower,
                                              self._all[name].upper)
                for name, value in self.joint_values(positions).items()
                if not (self._all[name].lower - slack <= value <= self._all[name].upper + slack)]

    def check(self, positions: Sequence[float], target: np.ndarray, *,
              position_tolerance: float = SOLVE_POSITION_TOLERANCE,
              orientation_tolerance: float = SOLVE_ORIENTATION_TOLERANCE,
              orientation_mode: str = 'full', tip_axis: Sequence[float] = (0.0, 0.0, 1.0),
              position_bounds: Optional[Sequence[float]] = None) -> np.ndarray:
        """
        Assert that ``positions`` reach ``target`` within the tolerances and the URDF limits.

        :param positions: Joint positions of the chain's variables (rad or m).
        :param target: (4, 4) pose of the tip in the base frame.
        :param position_tolerance: Largest distance (m) between the reached and target origins.
        :param orientation_tolerance: Largest angle (rad): the whole rotation in ``'full'``
            mode, the angle between the tip axes in ``'axis'`` mode; unchecked in ``'none'``.
        :param orientation_mode: ``'full'``, ``'axis'`` or ``'none'``.
        :param tip_axis: The aimed axis of ``'axis'`` mode, in the tip frame.
        :param position_bounds: Largest error per base axis (m), replacing the tolerance.
        :returns: The reached pose.
        :raises AssertionError: What was missed, with the numbers.
        """
        reached = self.fk(positions)
        offset = reached[:3, 3] - np.asarray(target)[:3, 3]
        if position_bounds is None:
            distance = float(np.linalg.norm(offset))
            assert distance <= position_tolerance + ORACLE_SLACK, (
                'oracle: position error %.3g m > %.3g m' % (distance, position_tolerance))
        else:
            assert np.all(np.abs(offset) <= np.asarray(position_bounds) + ORACLE_SLACK), (
                'oracle: position errors %s m beyond bounds %s' % (offset, position_bounds))
        if orientation_mode == 'full':
            angle = rotation_angle(reached, target)
        elif orientation_mode == 'axis':
            angle = axis_angle(reached, target, tip_axis)
        else:
            angle = 0.0
        assert angle <= orientation_tolerance + ORACLE_SLACK, (
            'oracle: orientation error %.3g rad > %.3g rad' % (angle, orientation_tolerance))
        violations = self.limit_violations(positions)
        assert not violations, 'oracle: beyond the URDF limits: ' + '; '.join(violations)
        return reached


@functools.lru_cache(maxsize=None)
def bundled_oracle(file_name: str, base_link: str, tip_link: str) -> UrdfOracle:
    """Return the oracle of a chain of one of the bundled URDFs (``urdf/<file_name>``)."""
    return UrdfOracle((URDF_DIRECTORY / file_name).read_text(encoding='utf-8'),
                      base_link, tip_link)


@pytest.fixture(scope='session')
def ur5_oracle() -> UrdfOracle:
    """Return the oracle of the bundled UR5-like arm, ``base_link`` to ``tool0``."""
    return bundled_oracle('ur5_like.urdf', 'base_link', 'tool0')


@pytest.fixture(scope='session')
def panda_oracle() -> UrdfOracle:
    """Return the oracle of the bundled Panda-like arm, ``panda_link0`` to ``panda_hand_tcp``."""
    return bundled_oracle('panda_like.urdf', 'panda_link0', 'panda_hand_tcp')
