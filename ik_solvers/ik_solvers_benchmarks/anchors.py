# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Reference IK libraries run on the same targets as ik_solvers.

They are TRAC-IK, the Robotics Toolbox's Levenberg-Marquardt and ikpy.

One adapter per file (:mod:`.trac_ik_anchor`, :mod:`.ikpy_anchor`, :mod:`.rtb_anchor`)
implements :class:`~.anchor_interface.Anchor`; this module names them. All are optional: each
adapter imports its library only when it is built and raises :class:`AnchorUnavailableError`
with an install hint when the library is missing, so that the benchmark runs without them and
says which anchors it left out.
"""

from .anchor_interface import Anchor, AnchorAnswer, AnchorUnavailableError
from .ikpy_anchor import IkpyAnchor
from .rtb_anchor import LevenbergMarquardtAnchor
from .trac_ik_anchor import TracIkAnchor
from ik_solvers.kinematics import Chain

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
