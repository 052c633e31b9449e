# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""ikpy's least-squares IK as a reference for the benchmark."""

from typing import List, Optional
import xml.etree.ElementTree as ElementTree

import numpy as np

from .anchor_interface import Anchor, AnchorAnswer, AnchorUnavailableError, parse_description
from ik_solvers.kinematics import Chain

__all__ = ['IkpyAnchor']


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
        for joint in _chain_joints(parse_description(urdf_xml), base_link, tip_link):
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
