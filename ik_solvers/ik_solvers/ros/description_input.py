# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Robot descriptions into the ik_node's engine: parsed on a thread of their own, each logged.

Every description handed over is either adopted (logged with its chain), refused (logged with
the reason and the limit it broke), or skipped because a newer one arrived while it waited
(logged too): none disappears silently.
"""

import time
from typing import Callable, Tuple

from .outcome_log import OutcomeLog
from ..engine.description_loader import DescriptionLoader
from ..engine.robot_state import RobotState
from ..exceptions import RobotModelError
from ..kinematics.joint import DEFAULT_VELOCITY_LIMIT

__all__ = ['DescriptionInput', 'LONG_PARSE_CHARACTERS']

#: Descriptions longer than this, in characters, take seconds to parse (about 5 s per MB on a
#: busy machine): the node says when it starts on one, so that a wait is not taken for silence.
LONG_PARSE_CHARACTERS = 1_000_000


class DescriptionInput:
    """Hands descriptions to a loader thread that adopts them in an engine."""

    def __init__(self, robot: RobotState, links: Callable[[], Tuple[str, str]], logger,
                 log: OutcomeLog) -> None:
        """
        Start the loader thread.

        :param robot: The engine's robot state; adopts each description that gives the
            configured chain.
        :param links: Returns ``(base_link, tip_link)`` as configured now; read once a
            description is parsed, since the links may change during a long parse.
        :param logger: The node's logger.
        :param log: The node's throttled log of refusals.
        """
        self._robot = robot
        self._links = links
        self._logger = logger
        self._log = log
        self._loader = DescriptionLoader(self._load, self._failed, on_skip=self._skipped)

    @property
    def handled(self) -> int:
        """Count the descriptions handled so far: loaded, refused, or skipped for newer."""
        return self._loader.handled

    def submit(self, urdf_xml: str, origin: str) -> None:
        """Hand a description over; returns at once (see :class:`DescriptionLoader`)."""
        self._loader.submit(urdf_xml, origin)

    def close(self, timeout: float) -> None:
        """Stop the loader thread, waiting at most ``timeout`` seconds."""
        self._loader.close(timeout=timeout)

    def _load(self, urdf_xml: str, origin: str) -> None:
        # Runs on the loader's thread; the current model serves meanwhile.
        started = time.monotonic()
        if len(urdf_xml) > LONG_PARSE_CHARACTERS:
            self._logger.info('parsing a description of %d characters from %s; the current '
                              'model serves until it is ready' % (len(urdf_xml), origin))
        try:
            chain = self._robot.load_description_for(urdf_xml, self._links)
        except RobotModelError as error:
            keeping = ('keeping the previous robot model' if self._robot.has_model
                       else 'waiting for a valid robot_description')
            self._log.warn('robot_description', 'refused the description from %s: %s; %s'
                           % (origin, error, keeping))
            return
        # The collision model of the chain is built here too, not in the first solve.
        warnings = self._robot.collision_warnings(*self._links())
        self._logger.info('robot model from %s: chain %s -> %s, %d joints (%s), parsed with '
                          'its collision geometry in %.1f s; collisions: %s'
                          % (origin, chain.base_link, chain.tip_link, chain.num_joints,
                             ', '.join(chain.joint_names), time.monotonic() - started,
                             self._robot.collision_summary()))
        for warning in warnings:
            self._logger.warning(warning)
        if chain.joints_without_velocity_limit:
            # Once per description, not throttled: it explains every command's duration.
            self._logger.warning(
                'the description gives no positive velocity limit for %s: commands move them '
                'at most %g rad/s or m/s times velocity_scale' % (
                    ', '.join(chain.joints_without_velocity_limit), DEFAULT_VELOCITY_LIMIT))

    def _failed(self, error: Exception, origin: str) -> None:
        self._logger.error('failed to load the description from %s: %r' % (origin, error))

    def _skipped(self, origin: str, size: int) -> None:
        self._logger.info('skipped the description from %s (%d characters): a newer one '
                          'arrived before it was parsed' % (origin, size))
