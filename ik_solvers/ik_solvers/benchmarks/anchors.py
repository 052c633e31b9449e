# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Reference IK libraries run on the same targets as ik_solvers.

They are TRAC-IK, the Robotics Toolbox's Levenberg-Marquardt and ikpy.

Both are optional. Each adapter imports its library only when it is built and raises
:class:`AnchorUnavailableError` with an install hint when the library is missing, so that
the benchmark runs without them and says which anchors it left out.
"""

import abc
import contextlib
import math
import os
import tempfile
from typing import Dict, Iterator, List, Optional, Tuple
import xml.etree.ElementTree as ElementTree

import numpy as np
import transforms3d

from ..exceptions import IKError
from ..kinematics import Chain

__all__ = [
    'ANCHORS',
    'Anchor',
    'AnchorAnswer',
    'AnchorUnavailableError',
    'IkpyAnchor',
    'LevenbergMarquardtAnchor',
    'TracIkAnchor',
    'make_anchor',
]

AnchorAnswer = Tuple[bool, np.ndarray, Optional[int]]
"""What an anchor returns: (claimed success, configuration, iterations or None)."""

_DUMMY_ROOT = 'ik_solvers_bench_root'


class AnchorUnavailableError(IKError):
    """A reference library is not installed, or cannot model this robot."""


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    # KDL's URDF parser writes its warnings straight to the C stderr, through the progress bar.
    with tempfile.TemporaryFile(mode='w+') as sink:
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class Anchor(abc.ABC):
    """
    A reference IK library bound to one chain.

    :ivar name: Name shown in the tables.
    :ivar claims_success: Whether it says if it succeeded; when not, only the check counts.
    :ivar supports_position_only: Whether it can ignore the orientation.
    :ivar honours_budget: Whether it stops at the time budget it is given.
    """

    name: str = ''
    claims_success: bool = True
    supports_position_only: bool = False
    honours_budget: bool = True

    @abc.abstractmethod
    def solve(self, seed: np.ndarray, target: np.ndarray, *, position_only: bool,
              timeout: float) -> AnchorAnswer:
        """
        Solve one target.

        :param seed: (N,) start configuration, rad or m, in the chain's joint order.
        :param target: (4, 4) tip pose in the base frame.
        :param position_only: Ignore the orientation; only when ``supports_position_only``.
        :param timeout: Time budget, in s.

        :returns: (claimed success, (N,) configuration, iterations or None).
        """


def _parse(urdf_xml: str) -> ElementTree.Element:
    try:
        return ElementTree.fromstring(urdf_xml)
    except ElementTree.ParseError as error:
        raise AnchorUnavailableError('cannot parse the URDF: %s' % error) from error


def _chain_joints(root: ElementTree.Element, base_link: str,
                  tip_link: str) -> List[ElementTree.Element]:
    """Return the joint elements from base_link to tip_link, fixed ones included."""
    joint_to_child = {}
    for joint in root.findall('joint'):
        joint_to_child[joint.find('child').get('link')] = joint
    joints = []
    link = tip_link
    while link != base_link:
        if link not in joint_to_child:
            raise AnchorUnavailableError('%s is not below %s' % (tip_link, base_link))
        joint = joint_to_child[link]
        joints.append(joint)
        link = joint.find('parent').get('link')
    return joints[::-1]


def _floats(element: Optional[ElementTree.Element], attribute: str,
            default: str) -> np.ndarray:
    text = default if element is None else element.get(attribute, default)
    return np.array([float(value) for value in text.split()])


class TracIkAnchor(Anchor):
    """
    TRAC-IK through the ``pytracik`` package, in its Speed mode.

    It solves full poses only: pytracik exposes no per-axis tolerance, so position-only
    targets are left out. Every answer is checked again with the benchmark's own criterion.
    """

    name = 'trac_ik'
    supports_position_only = False
    honours_budget = True

    def __init__(self, urdf_xml: str, base_link: str, tip_link: str, chain: Chain, *,
                 epsilon: float = 1e-5 / math.sqrt(3.0)):
        """
        Prepare TRAC-IK for one chain; solvers for each budget are built on first use.

        :param urdf_xml: The robot description.
        :param base_link: First link of the chain.
        :param tip_link: Last link of the chain.
        :param chain: ik_solvers' chain between the same links, whose limits TRAC-IK is given.
        :param epsilon: TRAC-IK's bound on each twist component, m and rad. The default makes
            its answers meet the benchmark's 1e-5 bound on the norm of the position
            error and on the rotation angle, so its claims and the check agree.

        :raises AnchorUnavailableError: pytracik is not installed or disagrees on the chain.
        """
        try:
            import pytracik
        except ImportError as error:
            raise AnchorUnavailableError('TRAC-IK needs the pytracik package '
                                         '(pip install pytracik)') from error
        self._pytracik = pytracik
        self._urdf_xml = self._without_inertial_root(urdf_xml)
        self._base_link = base_link
        self._tip_link = tip_link
        self._epsilon = epsilon
        self._solvers: Dict[float, object] = {}
        self._lower = np.asarray(chain.lower, dtype=float)
        self._upper = np.asarray(chain.upper, dtype=float)
        solver = self._solver(0.005)
        if pytracik.get_num_joints(solver) != chain.num_joints:
            raise AnchorUnavailableError(
                'TRAC-IK sees %d joints between %s and %s, ik_solvers sees %d'
                % (pytracik.get_num_joints(solver), base_link, tip_link, chain.num_joints))

    @staticmethod
    def _without_inertial_root(urdf_xml: str) -> str:
        # KDL refuses a tree whose root link has an inertia (the Panda's link0 has one);
        # a massless link above it changes no pose in the chain.
        root = _parse(urdf_xml)
        children = {joint.find('child').get('link') for joint in root.findall('joint')}
        for link in root.findall('link'):
            if link.get('name') not in children and link.find('inertial') is not None:
                ElementTree.SubElement(root, 'link', name=_DUMMY_ROOT)
                joint = ElementTree.SubElement(root, 'joint', name=_DUMMY_ROOT + '_joint',
                                               type='fixed')
                ElementTree.SubElement(joint, 'parent', link=_DUMMY_ROOT)
                ElementTree.SubElement(joint, 'child', link=link.get('name'))
                return ElementTree.tostring(root, encoding='unicode')
        return urdf_xml

    def _solver(self, timeout: float) -> object:
        if timeout not in self._solvers:
            with _quiet_stderr():
                self._solvers[timeout] = self._pytracik.TRAC_IK(
                    self._base_link, self._tip_link, self._urdf_xml, float(timeout),
                    self._epsilon, self._pytracik.SolveType.Speed)
            solver = self._solvers[timeout]
            if self._pytracik.get_num_joints(solver) == len(self._lower):
                # TRAC-IK prefers the safety controller's soft limits, which pytracik reads
                # wrong (all zero on the Panda); both sides must search the same box.
                finite = np.isfinite(self._lower) & np.isfinite(self._upper)
                lower = np.where(finite, self._lower,
                                 self._pytracik.get_joint_lower_bounds(solver))
                upper = np.where(finite, self._upper,
                                 self._pytracik.get_joint_upper_bounds(solver))
                self._pytracik.set_joint_limits(solver, lower.tolist(), upper.tolist())
        return self._solvers[timeout]

    def solve(self, seed: np.ndarray, target: np.ndarray, *, position_only: bool,
              timeout: float) -> AnchorAnswer:
        """Solve one full-pose target; see :meth:`Anchor.solve`."""
        if position_only:
            raise AnchorUnavailableError('pytracik cannot solve position-only targets')
        solver = self._solver(timeout)
        w, x, y, z = transforms3d.quaternions.mat2quat(target[:3, :3])
        answer = self._pytracik.ik(solver, np.asarray(seed, dtype=float),
                                   target[0, 3], target[1, 3], target[2, 3], x, y, z, w)
        return bool(answer[0] > 0), np.asarray(answer[1:], dtype=float), None


class IkpyAnchor(Anchor):
    """
    ikpy's least-squares IK, one local optimization from the seed.

    It has no time budget, so its times can exceed the benchmark's budgets; its rows carry
    no budget. Its success is the benchmark's own check, as ikpy claims none.
    """

    name = 'ikpy'
    claims_success = False
    supports_position_only = True
    honours_budget = False

    def __init__(self, urdf_xml: str, base_link: str, tip_link: str, chain: Chain, *,
                 tolerance: float = 1e-12):
        """
        Build ikpy's chain from the same description.

        :param urdf_xml: The robot description.
        :param base_link: First link of the chain.
        :param tip_link: Last link of the chain.
        :param chain: ik_solvers' chain between the same links, to catch a mismatch.
        :param tolerance: ikpy's convergence tolerance, passed to SciPy's least squares.

        :raises AnchorUnavailableError: ikpy is not installed or cannot model the chain.
        """
        try:
            import ikpy.chain
            import ikpy.link
        except ImportError as error:
            raise AnchorUnavailableError('ikpy needs the ikpy package (pip install ikpy)') \
                from error
        links = [ikpy.link.OriginLink()]
        for joint in _chain_joints(_parse(urdf_xml), base_link, tip_link):
            joint_type = joint.get('type', 'fixed')
            origin = joint.find('origin')
            axis = _floats(joint.find('axis'), 'xyz', '1 0 0')
            limit = joint.find('limit')
            bounds = (None, None)
            if joint_type in ('revolute', 'prismatic') and limit is not None:
                bounds = (float(limit.get('lower', 0)), float(limit.get('upper', 0)))
            if joint_type not in ('revolute', 'continuous', 'prismatic', 'fixed'):
                raise AnchorUnavailableError('ikpy cannot model %s joint %s'
                                             % (joint_type, joint.get('name')))
            links.append(ikpy.link.URDFLink(
                name=joint.get('name'),
                origin_translation=_floats(origin, 'xyz', '0 0 0'),
                origin_orientation=_floats(origin, 'rpy', '0 0 0'),
                rotation=axis if joint_type in ('revolute', 'continuous') else None,
                translation=axis if joint_type == 'prismatic' else None,
                bounds=bounds, joint_type=joint_type))
        self._active = np.array([False] + [link.joint_type != 'fixed' for link in links[1:]])
        if int(self._active.sum()) != chain.num_joints:
            raise AnchorUnavailableError('ikpy sees %d joints, ik_solvers sees %d'
                                         % (int(self._active.sum()), chain.num_joints))
        self._chain = ikpy.chain.Chain(links, active_links_mask=self._active,
                                       name=tip_link, jax_precompile=False)
        self._tolerance = tolerance

    def solve(self, seed: np.ndarray, target: np.ndarray, *, position_only: bool,
              timeout: float) -> AnchorAnswer:
        """Solve one target, ignoring ``timeout``; see :meth:`Anchor.solve`."""
        full_seed = np.zeros(len(self._active))
        full_seed[self._active] = seed
        answer = self._chain.inverse_kinematics_frame(
            target, initial_position=full_seed,
            orientation_mode=None if position_only else 'all', tol=self._tolerance)
        return True, np.asarray(answer, dtype=float)[self._active], None


class LevenbergMarquardtAnchor(Anchor):
    """
    The Robotics Toolbox for Python's compiled Levenberg-Marquardt, ``ik_LM``.

    Its ``tol`` bounds ``0.5 (|dp|^2 + angle^2)``; half the square of the benchmark's bound
    makes every claimed success meet 1e-5 m and 1e-5 rad. It takes no time budget: its search
    limit is scaled to the budget instead, so that an unreachable target costs about as long.
    """

    name = 'rtb_ik_lm'
    supports_position_only = True
    # Not by a clock, but by a search limit scaled to the budget (see below): its rows run
    # every target, like the solvers'.
    honours_budget = True
    # Searches (random restarts of at most _ITERATIONS steps) per second of budget, measured
    # on unreachable targets of ur5_like and panda_like: 100 searches took 14-17 ms.
    _SEARCHES_PER_SECOND = 6500.0
    _ITERATIONS = 30

    def __init__(self, urdf_xml: str, base_link: str, tip_link: str, chain: Chain, *,
                 tolerance: float = 1e-5):
        """
        Build the toolbox's robot from the same description.

        :param urdf_xml: The robot description.
        :param base_link: First link of the chain.
        :param tip_link: Last link of the chain.
        :param chain: ik_solvers' chain between the same links, to catch a mismatch.
        :param tolerance: bound on the position error (m) and the rotation angle (rad).

        :raises AnchorUnavailableError: the toolbox is not installed or cannot model the chain.
        """
        try:
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                import roboticstoolbox
                from roboticstoolbox.models.URDF.URDFRobot import URDF_file
        except ImportError as error:
            raise AnchorUnavailableError('ik_LM needs the roboticstoolbox-python package '
                                         '(pip install roboticstoolbox-python)') from error
        # Meshes are not needed for kinematics, and their package:// paths would send the
        # toolbox's xacro looking for ROS packages.
        root = _parse(urdf_xml)
        for link in root.findall('link'):
            for element in link.findall('visual') + link.findall('collision'):
                link.remove(element)
        with tempfile.NamedTemporaryFile('w', suffix='.urdf') as description:
            description.write(ElementTree.tostring(root, encoding='unicode'))
            description.flush()
            try:
                links, name, _ = URDF_file(description.name)
            except Exception as error:  # the toolbox's parser raises many kinds
                raise AnchorUnavailableError('the toolbox cannot read this description: %s'
                                             % error) from error
        self._robot = roboticstoolbox.Robot(links, name=name)
        self._base_link = base_link
        self._tip_link = tip_link
        # Half the squared bound on each part keeps both parts within it.
        self._tolerance = 0.5 * tolerance * tolerance
        self._position_mask = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
        probe = self._robot.ik_LM(chain.fk(chain.mid_configuration()), end=tip_link,
                                  start=base_link, q0=chain.mid_configuration(), ilimit=1,
                                  slimit=1)
        if np.asarray(probe.q).shape != (chain.num_joints,):
            raise AnchorUnavailableError('the toolbox sees %d joints between %s and %s, '
                                         'ik_solvers sees %d'
                                         % (np.asarray(probe.q).size, base_link, tip_link,
                                            chain.num_joints))

    def solve(self, seed: np.ndarray, target: np.ndarray, *, position_only: bool,
              timeout: float) -> AnchorAnswer:
        """Solve one target, searching as long as ``timeout`` allows; see :meth:`Anchor.solve`."""
        answer = self._robot.ik_LM(
            target, end=self._tip_link, start=self._base_link,
            q0=np.asarray(seed, dtype=float), ilimit=self._ITERATIONS,
            slimit=max(1, int(round(timeout * self._SEARCHES_PER_SECOND))),
            tol=self._tolerance, mask=self._position_mask if position_only else None)
        return bool(answer.success), np.asarray(answer.q, dtype=float), int(answer.iterations)


ANCHORS = {
    'trac_ik': TracIkAnchor,
    'rtb_ik_lm': LevenbergMarquardtAnchor,
    'ikpy': IkpyAnchor,
}


def make_anchor(name: str, urdf_xml: str, base_link: str, tip_link: str,
                chain: Chain) -> Anchor:
    """
    Build an anchor by name.

    :param name: A key of :data:`ANCHORS`.
    :param urdf_xml: The robot description.
    :param base_link: First link of the chain.
    :param tip_link: Last link of the chain.
    :param chain: ik_solvers' chain between the same links.

    :returns: The anchor.

    :raises AnchorUnavailableError: Unknown name, library not installed, or chain not modelled.
    """
    if name not in ANCHORS:
        raise AnchorUnavailableError('unknown anchor %r; known: %s'
                                     % (name, ', '.join(ANCHORS)))
    return ANCHORS[name](urdf_xml, base_link, tip_link, chain)
