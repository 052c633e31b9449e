# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Everything the ik_node decides, without ROS: one pipeline from a request to an outcome.

:meth:`IKEngine.handle` takes every request, streamed or one-shot, through the same four
stages, each a function of its own module that returns a frozen value:

1. inputs: each checked once (:func:`.request_checks.check_request`), where the robot is, read
   once (:meth:`.robot_state.RobotState.placement`), and what is asked of the chain
   (:func:`.aim.aim_at`);
2. solve (:func:`.solving.solve_aim`);
3. judge, with the ordered judges and the fallbacks (:func:`.judging.judge_solution`);
4. command: plan the command when the request asks for one, giving the
   :class:`~.outcome.IKOutcome` (:func:`.commanding.command_outcome`).

The engine sends nothing and is handed no callables. The node sends the outcome's command
inside :func:`.command_gate.publication`, which checks it against the scene and times it once
more as it leaves. Every exception becomes an error code in one place
(:func:`~.refusal.refusal_for`). The engine is thread-safe: the streaming worker, the service
workers and the subscriptions call it from different threads. It never raises on bad input.
"""

import dataclasses
import time
import traceback
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple

from .aim import aim_at
from .approximate_tracking import ApproximateTracking
from .collision_scene import CollisionScene
from .command_timing import CommandTiming
from .commanding import command_outcome, Reached
from .error_codes import ErrorCode
from .fallback import Fallback
from .frames import ExternalLookup
from .judges import DEFAULT_JUDGES, Judge
from .judging import judge_solution
from .outcome import IKOutcome, IKRequest
from .path_pipeline import handle_path
from .path_request import PathOutcome, PathRequest
from .refusal import refusal_for
from .request_checks import check_request, InputChecks
from .robot_state import RobotState
from .settings import NodeSettings
from .solving import solve_aim, SolveFunction
from .tree_outcome import TreeOutcome
from .tree_pipeline import handle_tree
from .tree_tips import TreeCache
from ..collision import CollisionModel
from ..exceptions import IKError
from ..solvers import solve

__all__ = ['DEFAULT_FALLBACKS', 'IKEngine']

#: Asked after a refusal, in order; approximate tracking answers only requests that accept it.
DEFAULT_FALLBACKS: Tuple[Fallback, ...] = (ApproximateTracking(),)


class IKEngine:
    """The path from request to command; it has a :class:`.robot_state.RobotState`."""

    def __init__(self, *, external_lookup: Optional[ExternalLookup] = None,
                 clock: Callable[[], float] = time.monotonic,
                 judges: Sequence[Judge] = DEFAULT_JUDGES,
                 fallbacks: Sequence[Fallback] = DEFAULT_FALLBACKS,
                 checks: Optional[InputChecks] = None,
                 solve_function: SolveFunction = solve,
                 collisions: Optional[CollisionScene] = None) -> None:
        """
        Create an engine without a robot model.

        :param external_lookup: Resolves target frames that are not links of the description
            (the node passes a tf2 lookup where tf2_ros is installed).
        :param clock: Seconds on a monotonic clock, for the age of joint states.
        :param judges: Asked in order of every solution; the first refusal decides.
        :param fallbacks: Asked in order for another candidate once the judges refused one.
        :param checks: The input checks (a subclass may count or extend them).
        :param solve_function: Solves one target; :func:`ik_solvers.solve` unless a test
            feeds given solutions.
        :param collisions: The collision inputs (geometry, SRDF, obstacles); a new, empty
            scene when ``None``.
        """
        #: What the engine knows of the robot: model, collision scene, joint states, last
        #: command.
        self.robot = RobotState(external_lookup=external_lookup, clock=clock,
                                collisions=collisions)
        #: The commands' timing, from the controller's motion after the last one; the node
        #: times a command again as it sends it (:func:`.command_gate.publication`).
        self.timing = CommandTiming(self.robot, clock)
        self._judges = tuple(judges)
        self._fallbacks = tuple(fallbacks)
        self._checks = checks if checks is not None else InputChecks()
        self._solve = solve_function
        self._clock = clock
        self._external_lookup = external_lookup
        self._trees = TreeCache()

    def handle(self, request: IKRequest, settings: NodeSettings) -> IKOutcome:
        """
        Check, solve, judge and plan one request; never raises, publishes nothing.

        :param request: The request; zero tolerances and timeout mean those of ``settings``.
            ``request.streamed`` holds it to continuity and commands every accepted solution;
            ``request.execute`` commands a one-shot request's accepted solution.
        :param settings: The node's parameters.
        :returns: The outcome: either the command, ready to be sent through
            :func:`.command_gate.publication`, or the refusal with its code. ``SUCCESS`` only
            for solutions within tolerance by FK that every judge accepted. A planned command
            is remembered as the last command.
        """
        # Each stage gives one typed value; what the stages reached before a refusal goes into
        # the outcome (the chain and the target let the node still draw the markers).
        reached = Reached()
        try:
            # 1. Inputs, each checked once; where the robot is; the target in the base frame.
            checked = check_request(request, settings, self._checks)
            reached = Reached(checked=checked)
            placement = self.robot.placement(settings, check_collisions=checked.check_collisions,
                                             unchecked=checked.unchecked)
            reached = dataclasses.replace(reached, placement=placement)
            aim = aim_at(request, settings, checked, placement, self._checks,
                         self._external_lookup)
            # 2. Solve.
            solved = solve_aim(request, settings, checked, placement, aim, self._solve)
            reached = dataclasses.replace(reached, solved=solved)
            # 3. Judge.
            judged = judge_solution(request, settings, checked, placement, aim, solved,
                                    judges=self._judges, fallbacks=self._fallbacks,
                                    now=self._clock())
            # 4. Command.
            return command_outcome(dataclasses.replace(reached, judged=judged), self.timing,
                                   solve_function=self._solve, judges=self._judges)
        except IKError as error:
            refusal = refusal_for(error)
            return IKOutcome(refusal.code, refusal.message, **reached.outcome_fields())
        except Exception as error:  # noqa: B902 - a bug must not take the node down
            return IKOutcome(ErrorCode.INTERNAL_ERROR, 'internal error: %r\n%s'
                             % (error, traceback.format_exc()), **reached.outcome_fields())

    def handle_tree(self, request: IKRequest, settings: NodeSettings) -> TreeOutcome:
        """
        Check, solve, judge and time a request of several tips (:mod:`.tree_pipeline`).

        :param request: ``tip_targets`` for some of the node's tips (the others hold), or its
            own target for the first tip. :param settings: The node's parameters.
        :returns: The outcome; never raises, publishes nothing.
        """
        return handle_tree(self.robot, self._trees, request, settings, self._checks)

    # Cartesian paths -------------------------------------------------------------------------

    def handle_path(self, request: PathRequest, settings: NodeSettings, *,
                    joint_limits: Optional[Mapping[str, Any]] = None,
                    collision: Optional[CollisionModel] = None) -> PathOutcome:
        """
        Check, solve, time, judge and plan a Cartesian path request; never raises.

        The same input checks, frames and judges as :meth:`handle` (see
        :mod:`.path_pipeline`).

        :param request: The request; zeros mean the node's parameters.
        :param settings: The node's parameters.
        :param joint_limits: Parsed joint_limits.yaml entries, or None.
        :param collision: A collision model, or None (``avoid_collisions`` is then refused).
        :returns: The outcome; with ``execute`` it carries the command, which is then
            remembered as the last command.
        """
        return handle_path(self.robot, self.timing, request, settings, checks=self._checks,
                           judges=self._judges, external_lookup=self.robot.external_lookup,
                           joint_limits=joint_limits, collision=collision)
