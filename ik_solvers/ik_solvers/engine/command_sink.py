# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The interface of the place a planned command leaves the node."""

import abc

from .outcome import Command
from .path_request import PathCommand

__all__ = ['CommandSink']


class CommandSink(abc.ABC):
    """Sends commands to the robot (:mod:`ik_solvers.ros.trajectory_publisher`: a topic)."""

    @property
    @abc.abstractmethod
    def destination(self) -> str:
        """Return where the commands go, for the log (a topic or action name)."""

    @abc.abstractmethod
    def send(self, command: Command) -> None:
        """
        Send one command.

        :param command: Joint names, goal positions (rad or m) and duration (s).
        :raises ValueError: If the command has no joints or its sizes disagree.
        """

    @abc.abstractmethod
    def send_path(self, command: PathCommand) -> None:
        """
        Send one timed multi-point move (an executed Cartesian path).

        :param command: Joint names and, per point, the time (s), positions, velocities and
            accelerations.
        :raises ValueError: If the command has no joints or fewer than two points.
        """
