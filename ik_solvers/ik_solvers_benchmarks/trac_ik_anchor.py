# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""TRAC-IK as a reference for the benchmark, through the ``pytracik`` package."""

import contextlib
import math
import os
import tempfile
from typing import Dict, Iterator
import xml.etree.ElementTree as ElementTree

import numpy as np
import transforms3d

from .anchor_interface import Anchor, AnchorAnswer, AnchorUnavailableError, parse_description
from ik_solvers.kinematics import Chain

__all__ = ['TracIkAnchor']

_DUMMY_ROOT = 'ik_solvers_bench_root'


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
        root = parse_description(urdf_xml)
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
