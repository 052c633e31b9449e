# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The checks of a request's inputs, each run once per request, before anything is solved.

The request's goal and search options become one :class:`~ik_solvers.solvers.Goal` and one
:class:`~ik_solvers.solvers.SearchOptions` here, whose constructors check them (positive
tolerances, the solver's name, the goal options); ``solve()`` checks the target's position and
the seed. These checks cover only what those cannot know: names too long to quote, a
quaternion that is not a rotation, the node's bounds on a request's overrides, seed joints by
name, and the frame of the target. Each raises an
:class:`~ik_solvers.exceptions.IKError` that :func:`~.refusal.refusal_for` turns into an error
code. A request of several targets (a Cartesian path) checks the request once with
:func:`check_request` and each further target with :meth:`InputChecks.target`.
"""

from dataclasses import dataclass
import math
from typing import Any, Mapping, Optional, Tuple

import numpy as np

from .frames import ExternalLookup, frame_to_base, UnknownFrameError
from .outcome import IKRequest
from .pose_math import rotation_matrix
from .seeds import seed_configuration
from .settings import NodeSettings, SPECS
from ..exceptions import (
    InvalidSolverOptionError,
    InvalidTargetError,
    UnknownSolverError,
)
from ..kinematics import Chain, RobotModel
from ..solvers import Goal, SearchOptions

__all__ = [
    'CheckedRequest',
    'InputChecks',
    'MAX_NAME_LENGTH',
    'check_request',
    'collision_check_asked',
    'request_goal',
]

#: Longest solver name and frame id accepted, in characters. A longer one is refused without
#: being looked up or quoted whole in the answer, the status and the log.
MAX_NAME_LENGTH = 256


@dataclass(frozen=True)
class CheckedRequest:
    """What a request asks for once its inputs passed: the arguments of one ``solve()``."""

    solver: str
    #: Seconds.
    timeout: float
    #: m and rad, as asked (``goal`` holds inf for a tolerance its bounds replace).
    position_tolerance: float
    orientation_tolerance: float
    #: What of the target counts and how closely: mode, tip axis, tolerances, bounds, fallback.
    goal: Goal
    #: The solver and the request's whole timeout (the engine may shorten it, see
    #: :func:`.approximate_tracking.exact_search_budget`).
    options: SearchOptions
    #: (4, 4) target in the request's frame; its position is checked by ``solve()``.
    target_in_frame: np.ndarray
    #: Whether the request is solved and judged with collisions (:func:`collision_check_asked`).
    check_collisions: bool = False
    #: Why not, when ``check_collisions`` is false.
    unchecked: str = ''


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

        A request may ask for less than a parameter's lower bound (a quick solve, a tight
        tolerance), never for more than its upper bound, and 0 means the parameter's value.

        :returns: ``(timeout, position_tolerance, orientation_tolerance)`` in s, m and rad.
        :raises InvalidSolverOptionError: If the timeout is negative, not finite or above its
            parameter's range.
        :raises InvalidTargetError: If a tolerance is.
        """
        values = []
        for name, error in (('timeout', InvalidSolverOptionError),
                            ('position_tolerance', InvalidTargetError),
                            ('orientation_tolerance', InvalidTargetError)):
            requested, configured = getattr(request, name), getattr(settings, name)
            if requested == 0.0:
                values.append(configured)
                continue
            high = SPECS[name].floating_range[1]
            if not (math.isfinite(requested) and 0.0 < requested <= high):
                raise error('%s must be in (0, %g], or 0 for the %s parameter; got %r'
                            % (name, high, name, requested))
            values.append(requested)
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
        Give the pose of the request's frame in the chain's base.

        The frame is looked up by :func:`.frames.frame_to_base`.

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
    check_collisions, unchecked = collision_check_asked(request, settings)
    goal = request_goal(request, settings, position_tolerance=position_tolerance,
                        orientation_tolerance=orientation_tolerance)
    solver = request.solver or settings.solver
    return CheckedRequest(
        solver=solver, timeout=timeout, position_tolerance=position_tolerance,
        orientation_tolerance=orientation_tolerance, goal=goal,
        options=SearchOptions(solver=solver, timeout=timeout), target_in_frame=target,
        check_collisions=check_collisions, unchecked=unchecked)


def collision_check_asked(request: IKRequest, settings: NodeSettings) -> Tuple[bool, str]:
    """
    Tell whether a request is solved and judged with collisions, and if not, why.

    A request checks collisions when it asks to, or, when it does not say, when the
    ``avoid_collisions`` parameter is on. A command is checked whenever the parameter is on,
    even when its request asked for no check: a client can add checking, never remove it from
    a move.

    :param request: The request (``avoid_collisions`` ``None`` follows the parameter).
    :param settings: The node's parameters.
    :returns: ``(True, '')``, or ``(False, why collisions are not checked)``.
    """
    wanted = request.avoid_collisions
    commands = request.streamed or request.execute
    if wanted is None or (commands and settings.avoid_collisions):
        wanted = wanted or settings.avoid_collisions
    if wanted:
        return True, ''
    return False, ('the request asked for no collision check' if request.avoid_collisions
                   is False else 'the avoid_collisions parameter is false')


def request_goal(request: IKRequest, settings: NodeSettings, *, position_tolerance: float,
                 orientation_tolerance: float) -> Goal:
    """
    Return the goal a request asks for, the parameters filling in its empty fields.

    :param request: The request; empty fields mean the node's parameters.
    :param settings: The node's parameters.
    :param position_tolerance: m, and ``orientation_tolerance``, rad: the request's, within
        the node's bounds (see :meth:`InputChecks.overrides`).
    :returns: The goal: mode, tip axis, tolerances, per-axis bounds and orientation fallback.
    :raises InvalidTargetError: If the goal's fields are invalid or contradict each other
        (see :class:`~ik_solvers.solvers.request.Goal`).
    """
    position_only = (settings.position_only if request.position_only is None
                     else request.position_only)
    mode = request.orientation_mode
    if not mode:
        mode, position_only = ('none' if position_only else settings.orientation_mode), False
    position_bounds = tuple(request.position_bounds) or None
    rotation_bounds = tuple(request.rotation_bounds) or None
    fallback = request.orientation_fallback
    if fallback is None:  # the parameter applies where it can
        fallback = (settings.orientation_fallback and mode == 'full' and position_bounds is None
                    and rotation_bounds is None)
    return Goal.of(orientation_mode=mode, position_only=position_only,
                   tip_axis=tuple(request.tip_axis) or settings.tip_axis,
                   position_tolerance=position_tolerance,
                   orientation_tolerance=orientation_tolerance,
                   position_bounds=position_bounds, rotation_bounds=rotation_bounds,
                   orientation_fallback=fallback)
