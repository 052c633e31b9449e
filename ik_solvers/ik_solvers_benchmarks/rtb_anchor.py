# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The Robotics Toolbox for Python's ``ik_LM`` as a reference for the benchmark."""

import tempfile
import xml.etree.ElementTree as ElementTree

import numpy as np

from .anchor_interface import Anchor, AnchorAnswer, AnchorUnavailableError, parse_description
from ik_solvers.kinematics import Chain

__all__ = ['LevenbergMarquardtAnchor']


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
        root = parse_description(urdf_xml)
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
        # Half the squared bound on each part keeps both parts within it.
        self._tolerance = 0.5 * tolerance * tolerance
        self._position_mask = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
        # The chain's ETS, built once: naming the links on every call made the toolbox look
        # them up and wrap the target in an SE3 each time, some 13 us of a 50 us solve on a UR5
        # (2026-12-07). The robot has no tool transform, so the target is the same.
        self._ets = self._robot.ets(start=base_link, end=tip_link)
        probe = self._ets.ik_LM(chain.fk(chain.mid_configuration()),
                                q0=chain.mid_configuration(), ilimit=1, slimit=1)
        if np.asarray(probe.q).shape != (chain.num_joints,):
            raise AnchorUnavailableError('the toolbox sees %d joints between %s and %s, '
                                         'ik_solvers sees %d'
                                         % (np.asarray(probe.q).size, base_link, tip_link,
                                            chain.num_joints))

    def solve(self, seed: np.ndarray, target: np.ndarray, *, position_only: bool,
              timeout: float) -> AnchorAnswer:
        """Solve one target, searching as long as ``timeout`` allows; see :meth:`Anchor.solve`."""
        answer = self._ets.ik_LM(
            np.asarray(target, dtype=float), q0=np.asarray(seed, dtype=float),
            ilimit=self._ITERATIONS,
            slimit=max(1, int(round(timeout * self._SEARCHES_PER_SECOND))),
            tol=self._tolerance, mask=self._position_mask if position_only else None)
        return bool(answer.success), np.asarray(answer.q, dtype=float), int(answer.iterations)
