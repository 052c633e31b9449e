# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The checks of a request's inputs, each run once per request, before anything is solved.

``solve()`` checks the numbers it is given (a finite target, a finite seed, positive
tolerances, the solver's name, the goal options); these checks cover only what ``solve()``
cannot know: names too long to quote, a quaternion that is not a rotation, the node's bounds
on a request's overrides, seed joints by name, and the frame of the target. Each raises an
:class:`~ik_solvers.exceptions.IKError` that :func:`~.refusal.refusal_for` turns into an error
code. A request of several targets (a Cartesian path) checks the request once with
:func:`check_request` and each further target with :meth:`InputChecks.target`.
"""

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Tuple

import numpy as np

from .frames import ExternalLookup, frame_to_base, UnknownFrameError
from .goal_request import goal_arguments
from .outcome import IKRequest
from .pose_math import rotation_matrix
from .seeds import seed_configuration
from .settings import NodeSettings, request_value
from ..exceptions import (
    InvalidSolverOptionError,
    InvalidTargetError,
    UnknownSolverError,
)
from ..kinematics import Chain, RobotModel

__all__ = ['CheckedRequest', 'InputChecks', 'MAX_NAME_LENGTH', 'check_request']

#: Longest solver name and frame id accepted, in characters. A longer one is refused without
#: being looked up or quoted whole in the answer, the status and the log.
MAX_NAME_LENGTH = 256


@dataclass(frozen=True)
class CheckedRequest:
    """What a request asks for once its inputs passed: the arguments of one ``solve()``."""

    solver: str
    #: Seconds.
    timeout: float
    #: m and rad.
    position_tolerance: float
    orientation_tolerance: float
    #: ``orientation_mode``, ``tip_axis``, bounds and fallback, as ``solve()`` takes them.
    goal: Mapping[str, Any]
    #: (4, 4) target in the request's frame; its position is checked by ``solve()``.
    target_in_frame: np.ndarray


class InputChecks:
    """The node's input checks; an engine holds one, so tests can count its calls."""

    def names(self, request: IKRequest) -> None:
        """
        Refuse a solver name or frame id too long to look up or quote.

        :raises UnknownSolverError: If the solver name is longer than :data:`MAX_NAME_LENGTH`.
        :raises UnknownFrameError: If the frame id is.
        """
        for name, value, error in (('solver name', request.solver, UnknownSolverError),
                                   ('frame id', request.frame_id, UnknownFrameError)):
            if len(value) > MAX_NAME_LENGTH:
                raise error('the %s has %d characters, more than %d: %r...'
                            % (name, len(value), MAX_NAME_LENGTH, value[:40]))

    def target(self, position: Any, orientation: Any) -> np.ndarray:
        """
        Build a target pose; only the quaternion is checked, ``solve()`` checks the rest.

        :param position: (x, y, z), m.
        :param orientation: (x, y, z, w) quaternion.
        :returns: The (4, 4) pose.
        :raises InvalidTargetError: If the quaternion is not finite or not of unit norm, or
            the position is not three numbers.
        """
        pose = np.eye(4)
        pose[:3, :3] = rotation_matrix(orientation)
        try:
            pose[:3, 3] = np.asarray(position, dtype=float)
        except (TypeError, ValueError):
            raise InvalidTargetError('the position must be 3 numbers') from None
        return pose

    def overrides(self, request: IKRequest,
                  settings: NodeSettings) -> Tuple[float, float, float]:
        """
        Give the timeout and tolerances a request uses, within the node's bounds.

        :returns: ``(timeout, position_tolerance, orientation_tolerance)`` in s, m and rad.
        :raises InvalidSolverOptionError: If the timeout is negative, not finite or above its
            parameter's range.
        :raises InvalidTargetError: If a tolerance is.
        """
        values = []
        for name, error in (('timeout', InvalidSolverOptionError),
                            ('position_tolerance', InvalidTargetError),
                            ('orientation_tolerance', InvalidTargetError)):
            try:
                values.append(request_value(name, getattr(request, name),
                                            getattr(settings, name)))
            except ValueError as problem:
                raise error(str(problem)) from None
        return values[0], values[1], values[2]

    def seed(self, request: IKRequest, chain: Chain, start: np.ndarray) -> np.ndarray:
        """
        Lay the request's seed over where the chain is (see :func:`.seeds.seed_configuration`).

        :raises InvalidSeedError: If the seed's names do not fit the chain.
        """
        return seed_configuration(chain, request.seed_names, request.seed_positions, start)

    def frame(self, request: IKRequest, model: RobotModel, chain: Chain,
              joint_positions: Mapping[str, float], external_lookup: Optional[ExternalLookup],
              lookup_timeout: float) -> np.ndarray:
        """
        Give the pose of the request's frame in the chain's base (see :func:`.frame_to_base`).

        :raises UnknownFrameError: If no source knows the frame.
        """
        return frame_to_base(model, chain.base_link, request.frame_id, joint_positions,
                             external_lookup=external_lookup, lookup_timeout=lookup_timeout)


def check_request(request: IKRequest, settings: NodeSettings,
                  checks: Optional[InputChecks] = None) -> CheckedRequest:
    """
    Run the checks that need no robot model, once each.

    :param request: The request; empty fields mean the node's parameters.
    :param settings: The node's parameters.
    :param checks: The checks to run; the default ones when ``None``.
    :returns: The solve the request asks for.
    :raises IKError: The first check's refusal (see :func:`~.refusal.refusal_for`).
    """
    checks = checks if checks is not None else InputChecks()
    checks.names(request)
    target = checks.target(request.position, request.orientation)
    timeout, position_tolerance, orientation_tolerance = checks.overrides(request, settings)
    return CheckedRequest(
        solver=request.solver or settings.solver, timeout=timeout,
        position_tolerance=position_tolerance, orientation_tolerance=orientation_tolerance,
        goal=goal_arguments(request, settings), target_in_frame=target)
