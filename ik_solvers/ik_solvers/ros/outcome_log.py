# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The ik_node's log of outcomes and refused inputs, throttled per kind of problem."""

from typing import Dict

from ..engine.error_codes import ErrorCode
from ..engine.outcome import IKOutcome

__all__ = ['LOG_THROTTLE_PERIOD', 'OutcomeLog']

#: Seconds between two log lines about the same kind of problem.
LOG_THROTTLE_PERIOD = 5.0


class OutcomeLog:
    """Logs on child loggers per kind, so that a burst of one kind hides no other kind."""

    def __init__(self, logger) -> None:
        """
        Log on ``logger`` (an rclpy ``RcutilsLogger``) and its children.

        :param logger: The node's logger.
        """
        self._logger = logger
        self._children: Dict[str, object] = {}

    def warn(self, kind: str, message: str) -> None:
        """
        Log a warning, at most once per :data:`LOG_THROTTLE_PERIOD` for each ``kind``.

        :param kind: Names the child logger, e.g. ``'robot_description'``.
        :param message: The warning.
        """
        # rclpy throttles per logger and call site: a child logger per kind keeps one kind
        # from hiding the first occurrence of another.
        if kind not in self._children:
            self._children[kind] = self._logger.get_child(kind)
        self._children[kind].warning(message, throttle_duration_sec=LOG_THROTTLE_PERIOD)

    def outcome(self, outcome: IKOutcome, origin: str) -> None:
        """
        Log one outcome: internal errors always, refusals throttled, successes at debug level.

        :param outcome: The outcome.
        :param origin: Where the request came from, e.g. ``'target_pose'``.
        """
        if outcome.error_code == ErrorCode.INTERNAL_ERROR:
            self._logger.error('%s: %s' % (origin, outcome.message))
            return
        for note in outcome.notes:
            self.warn('joint_states', note)
        if outcome.success:
            self._logger.debug('%s: %s' % (origin, outcome.message))
            return
        # A child logger per code (e.g. 'invalid_target') keeps one kind from hiding another.
        self.warn(outcome.log_kind or outcome.error_code.name.lower(),
                  '%s: %s' % (origin, outcome.message))
