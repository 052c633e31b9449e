# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How a one-shot command gets to its goal: straight when that is free, else around, else not.

A SolveIK ``execute`` (and a goal published once, when the node drives it to its exact
solution) may move the arm far. The straight joint-space line from where the arm is to the
solution is swept-checked (:class:`ik_solvers.collision.sweep.SweptCheck`); when free it is the
single-point command it always was. When it collides, OMPL plans a route
(:func:`.routing.route`) within :data:`ROUTING_BUDGET`, the route is timed within the velocity
and acceleration limits by the Cartesian paths' timing (:func:`ik_solvers.paths.time_parametrize`)
and the timed points are swept-checked again as the controller plays them, from where the arm
is; the command is then that multi-point trajectory. Otherwise nothing is commanded and the
refusal names the pair in contact.
"""

import dataclasses
from dataclasses import dataclass
import math
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from .candidate import Candidate
from .error_codes import ErrorCode
from .outcome import Command
from .path_request import PathCommand
from .refusal import Refusal
from .routing import route
from ..collision.sweep import SweptCheck, SweptContact
from ..exceptions import IKError
from ..paths import time_parametrize, trajectory_limits
from ..paths.controller_spline import ControllerSpline

__all__ = ['MOTION_IN_COLLISION', 'MotionPlan', 'plan_motion', 'plan_one_shot', 'ROUTING_BUDGET']

#: s OMPL may plan a route (its simplifier as long again).
ROUTING_BUDGET = 2.0
#: The log kind of a motion (not its end) in collision.
MOTION_IN_COLLISION = 'motion_in_collision'


@dataclass(frozen=True)
class MotionPlan:
    """A single-point command, a multi-point one, or a refusal; and how it was found."""

    command: Optional[Command] = None
    path: Optional[PathCommand] = None
    refusal: Optional[Refusal] = None
    #: Appended to the outcome's message: how the motion was checked or routed.
    note: str = ''


def plan_motion(candidate: Candidate, *, direct: Command,
                routing_budget: float = ROUTING_BUDGET,
                last_command: Optional[np.ndarray] = None,
                route_around: bool = True,
                other_goals: Sequence[np.ndarray] = ()) -> MotionPlan:
    """
    Plan the motion from ``candidate.start`` to ``candidate.q``.

    :param candidate: An accepted, commanding candidate of a one-shot request.
    :param direct: The single-point command straight to ``candidate.q``, timed by the caller.
    :param routing_budget: s for OMPL when the straight motion collides.
    :param last_command: (N,) the node's last command, when it may still be under way: the arm
        is then somewhere between the joint states and it, and the straight motion from there
        is checked too.
    :param route_around: False: refuse a straight motion that collides without asking OMPL
        (the caller tries other solutions first).
    :param other_goals: (N,) each, other accepted solutions of the same pose: a route may end
        at any of them (the path's last point says which).
    :returns: The plan; never raises for a motion it cannot plan (the refusal says why).
    """
    settings, chain = candidate.settings, candidate.chain
    start = np.asarray(candidate.start, dtype=float)
    goal = np.asarray(candidate.q, dtype=float)
    if candidate.collision is None:
        return MotionPlan(command=direct)
    at_start = candidate.collision.check(start)
    if at_start.colliding:
        # No goal or route can help: every motion from here collides where it begins.
        return _refused(
            'the arm is in collision where it starts, at the joint states (%s): nothing '
            'commanded (links that touch by design need a <disable_collisions> pair in the '
            'SRDF; otherwise move the arm, or the obstacle, out of contact first)'
            % at_start.describe(),
            SweptContact(segment=0, fraction=0.0, q=start.copy(), report=at_start))
    sweep = SweptCheck(candidate.collision)
    contact = sweep.check_motion(start, goal)
    under_way = last_command is not None and not np.array_equal(last_command, start)
    if contact is None and under_way:
        contact = sweep.check_motion(last_command, goal)
    if contact is None:
        return MotionPlan(command=direct)
    if not route_around:
        return _refused('%s; not routed around' % contact.describe(), contact)
    refused = ('%s; no collision-free route found within %g s: nothing commanded'
               % (contact.describe(), routing_budget))
    try:
        positions = route(sweep, start, goal, lower=chain.lower, upper=chain.upper,
                          budget=routing_budget, other_goals=other_goals)
    except IKError as error:
        return _refused('%s; planning failed: %s' % (contact.describe(), error), contact)
    if positions is None:
        return _refused(refused, contact)
    try:
        limits = trajectory_limits(
            chain, default_acceleration=settings.acceleration_limit,
            velocity_scale=settings.velocity_scale,
            max_path_duration=settings.max_path_duration or math.inf)
        timed = time_parametrize(positions, limits)
    except IKError as error:
        return MotionPlan(refusal=Refusal(
            ErrorCode.EXECUTION_FAILED, 'the straight motion collides and the route around '
            'it could not be timed: %s' % error))
    # The controller plays the timed points from where the arm is: check exactly that.
    played = np.vstack((start, timed.positions))
    again = sweep.check_path(played)
    if again is not None:
        return _refused('%s; the route as timed: %s' % (refused, again.describe()), contact)
    path = PathCommand(tuple(chain.joint_names), timed.times, timed.positions,
                       timed.velocities, timed.accelerations)
    return MotionPlan(path=path, note=(
        'the straight motion collided (%s); routed around it by OMPL: %d points, %.2f s'
        % (contact.report.describe(), timed.positions.shape[0], timed.duration)))


def _at_start(contact: SweptContact) -> bool:
    # A motion that collides where it begins: no other goal or route starts elsewhere.
    return contact.segment == 0 and contact.fraction == 0.0


def _refused(message: str, contact: SweptContact) -> MotionPlan:
    # The contact of the straight motion: the pair a caller can act on (move the obstacle).
    return MotionPlan(refusal=Refusal(ErrorCode.IN_COLLISION, message,
                                      log_kind=MOTION_IN_COLLISION, contact=contact))


#: ``timed(candidate) -> (command, spline, refusal)``: the single-point command straight to a
#: candidate, timed on the controller's cubic, with its spline; or the refusal of its timing.
Timed = Callable[[Candidate], Tuple[Optional[Command], Optional[ControllerSpline],
                                    Optional[Refusal]]]


def plan_one_shot(candidate: Candidate, *, timed: Timed, last_command: Optional[np.ndarray],
                  others: Callable[[], List[Candidate]]
                  ) -> Tuple[Candidate, MotionPlan, Optional[ControllerSpline]]:
    """
    Plan a one-shot command: straight, else straight to another solution, else around.

    The straight motion to ``candidate`` first. When it collides, the other solutions of the
    same pose (``others()``, nearest first; see :mod:`.other_solutions`): the first whose
    straight motion is free is commanded instead, cheaper and shorter than a route. Otherwise
    OMPL routes to the first solution or any other (the one it reaches is commanded).

    :param candidate: An accepted, commanding one-shot candidate.
    :param timed: Times the straight command to a candidate.
    :param last_command: (N,) the node's last command, when it may still be under way.
    :param others: Gives the other accepted solutions, asked only when needed.
    :returns: ``(candidate commanded, plan, its controller spline)``; the spline is None
        when the plan is a refusal.
    """
    direct, spline, refusal = timed(candidate)
    if refusal is not None:
        return candidate, MotionPlan(refusal=refusal), None
    plan = plan_motion(candidate, direct=direct, last_command=last_command, route_around=False)
    if plan.refusal is None or plan.refusal.contact is None or _at_start(plan.refusal.contact):
        return candidate, plan, spline
    found = others()
    for other in found:
        other_direct, other_spline, other_refusal = timed(other)
        if other_refusal is not None:
            continue
        other_plan = plan_motion(other, direct=other_direct, last_command=last_command,
                                 route_around=False)
        if other_plan.refusal is None:
            note = ("the straight motion to the first solution found collided (%s); another "
                    "solution's is free" % plan.refusal.contact.report.describe())
            return other, dataclasses.replace(other_plan, note=note), other_spline
    plan = plan_motion(candidate, direct=direct, last_command=last_command,
                       other_goals=[other.q for other in found])
    if plan.path is None:
        return candidate, plan, spline
    end = plan.path.positions[-1]
    reached = min([candidate] + found, key=lambda each: float(np.max(np.abs(each.q - end))))
    return reached, plan, ControllerSpline(plan.path.times, plan.path.positions,
                                           plan.path.velocities, plan.path.accelerations)
