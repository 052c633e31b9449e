# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The outcome of one solve, from :func:`ik_solvers.solve` or a prepared solver."""

from dataclasses import dataclass, field
from typing import Optional, Tuple

import numpy as np

from .status import Status

__all__ = ['IKResult']


@dataclass(frozen=True, init=False)
class IKResult:
    """
    A configuration and how well it reaches the target, measured by forward kinematics.

    :ivar q: joint configuration, (N,), rad or m, always within the joint limits; the closest
        configuration found when ``success`` is false.
    :ivar success: true only when the forward kinematics of ``q`` meets every tolerance (or
        per-axis bound) of the goal.
    :ivar position_error: distance from the reached tip position to the target's, m.
    :ivar orientation_error: rad, by the orientation mode: the angle of the rotation between
        the reached tip orientation and the target's (``'full'``), the angle between the tip
        axis and the target direction (``'axis'``), 0 (``'none'``).
    :ivar iterations: iterations of the heuristic and of the polish, summed over attempts.
    :ivar elapsed: wall-clock time spent in :func:`ik_solvers.solve`, s.
    :ivar status: a :class:`Status`: ``SUCCESS``, ``NO_SOLUTION``, ``TIMED_OUT``, with the
        orientation fallback ``CLOSEST_ORIENTATION``, with a collision check ``IN_COLLISION``,
        or from :func:`ik_solvers.approach` ``APPROXIMATE`` (each also equal to its lower-case
        name).
    :ivar solver: name of the heuristic that ran.
    :ivar attempts: number of starting configurations tried (the seed counts as the first).
    :ivar polished: whether the local polish ran after the heuristic.
    :ivar collision_checked: whether ``q`` was checked for collisions (``collision=`` given);
        a success is then collision-free.
    :ivar collision_pair: the first pair of links (or link and obstacle id) in contact at
        ``q``, or None.
    :ivar unchecked_links: links whose collision geometry could not be loaded, so never
        checked.
    :ivar costs: the search's own cost (m: position error plus weighted orientation error) in
        its last start (the one that succeeded, on success): ``(start, hand-over, end)``; the
        hand-over is where the heuristic stopped and the polish, if on, took over. The
        heuristic's share of the work is ``log(start / hand-over) / log(start / end)``. None
        when the search did not run.
    """

    q: np.ndarray = field(repr=False)
    success: bool
    position_error: float
    orientation_error: float
    iterations: int
    elapsed: float
    status: Status
    solver: str = ''
    attempts: int = 1
    polished: bool = False
    collision_checked: bool = False
    collision_pair: Optional[Tuple[str, str]] = None
    unchecked_links: Tuple[str, ...] = ()
    costs: Optional[Tuple[float, float, float]] = None

    def __init__(self, q: np.ndarray, success: bool, position_error: float,
                 orientation_error: float, iterations: int, elapsed: float, status: Status,
                 solver: str = '', attempts: int = 1, polished: bool = False,
                 collision_checked: bool = False,
                 collision_pair: Optional[Tuple[str, str]] = None,
                 unchecked_links: Tuple[str, ...] = (),
                 costs: Optional[Tuple[float, float, float]] = None):
        """Set the fields (see the class); the instance is frozen afterwards."""
        # One dictionary update instead of the generated frozen __init__'s thirteen
        # object.__setattr__ calls: 3 us less in every solve(), about 3 % of a typical one.
        self.__dict__.update(
            q=q, success=success, position_error=position_error,
            orientation_error=orientation_error, iterations=iterations, elapsed=elapsed,
            status=status, solver=solver, attempts=attempts, polished=polished,
            collision_checked=collision_checked, collision_pair=collision_pair,
            unchecked_links=unchecked_links, costs=costs)
