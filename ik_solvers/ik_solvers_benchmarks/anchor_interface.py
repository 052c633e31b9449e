# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What every reference IK library adapter provides, and the error that says one cannot run.

The adapters (:mod:`.trac_ik_anchor`, :mod:`.ikpy_anchor`, :mod:`.rtb_anchor`) and their
registry (:mod:`.anchors`) build on this.
"""

import abc
from typing import Optional, Tuple
import xml.etree.ElementTree as ElementTree

import numpy as np

from ik_solvers.exceptions import AnchorUnavailableError

__all__ = ['Anchor', 'AnchorAnswer', 'AnchorUnavailableError', 'parse_description']

AnchorAnswer = Tuple[bool, np.ndarray, Optional[int]]
"""What an anchor returns: (claimed success, configuration, iterations or None)."""


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


def parse_description(urdf_xml: str) -> ElementTree.Element:
    """
    Parse a robot description for an adapter that reads it itself.

    :param urdf_xml: The URDF text.
    :returns: The ``<robot>`` element.
    :raises AnchorUnavailableError: If the text is not well-formed XML.
    """
    try:
        return ElementTree.fromstring(urdf_xml)
    except ElementTree.ParseError as error:
        raise AnchorUnavailableError('cannot parse the URDF: %s' % error) from error
