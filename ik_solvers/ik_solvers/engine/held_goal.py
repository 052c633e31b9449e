# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A goal stays a goal until it is reached, replaced, or shown unreachable.

A streamed target is answered at once as a drag needs it: the exact solution when it lies
within ``max_joint_jump``, else one approximate step. A target that is not followed by a newer
one within :data:`HOLD_PERIOD` (a goal published once, or the end of a drag) is then driven on,
with no further input:

1. **exact**: solved as a one-shot request (with :data:`EXACT_TIMEOUT`, or the ``timeout``
   parameter if longer) and commanded from where the arm is, swept-checked and routed around
   obstacles (:mod:`.motion_plan`); when that succeeds the goal is reached. When no solution
   was found, or the motion to it could not be planned, it is tried again from another seed
   (another branch of the arm's solutions), :data:`EXACT_ATTEMPTS` times in all;
2. **approach** otherwise: the streamed step again at :data:`STEP_PERIOD` (each step within
   ``max_joint_jump`` and swept-checked), until a step reaches the goal exactly, moves no joint
   more than :data:`SETTLED_STEP`, or is refused: the arm is then at the closest collision-free
   approach, and the final status says so.

A newer target replaces the goal at once, and a SolveIK or Cartesian path command cancels it.
This class only keeps the time and the state; the node's worker asks it what to do next.
"""

import dataclasses
import threading
from typing import Generic, Optional, Tuple, TypeVar

import numpy as np

from .error_codes import ErrorCode
from .outcome import IKOutcome
from ..solvers import Status

__all__ = ['APPROACH', 'EXACT', 'EXACT_ATTEMPTS', 'EXACT_TIMEOUT', 'HOLD_PERIOD', 'HeldGoal',
           'MAX_APPROACH_STEPS', 'SETTLED_STEP', 'STEP_PERIOD', 'final_outcome']

#: s without a newer target before a target counts as a goal published once. A drag streams
#: at 10 Hz or more (the demo at 50 Hz, RViz's marker while it moves at 30 Hz).
HOLD_PERIOD = 0.25
#: s between two approach steps: the node's default ``min_duration``, the shortest command,
#: so that the arm nearly finishes one step before the next.
STEP_PERIOD = 0.1
#: rad or m: an approach step that moves no joint more than this has converged.
SETTLED_STEP = 1e-4
#: Approach steps at most (a minute at :data:`STEP_PERIOD`).
MAX_APPROACH_STEPS = 600
#: s of the exact stage's search at least: a goal published once can wait for it.
EXACT_TIMEOUT = 0.5
#: Exact stages at most, each from another seed.
EXACT_ATTEMPTS = 4
#: The first stage, then the second.
EXACT = 'exact'
APPROACH = 'approach'

# Answers after which there is nothing more to do for a target: it was reached, or it is
# refused for what it is (its frame, its numbers, no model), not for where the arm is.
_FINAL_CODES = frozenset((ErrorCode.SUCCESS, ErrorCode.INVALID_TARGET,
                          ErrorCode.UNKNOWN_FRAME, ErrorCode.NO_ROBOT_MODEL,
                          ErrorCode.CHAIN_REFUSED,
                          ErrorCode.INVALID_SEED, ErrorCode.UNKNOWN_SOLVER,
                          ErrorCode.INVALID_TIMEOUT, ErrorCode.INTERNAL_ERROR))

Target = TypeVar('Target')


def final_outcome(outcome: IKOutcome, stage: str) -> IKOutcome:
    """
    Mark the last answer of a held goal, so that the status says how the goal ended.

    :param outcome: The last answer.
    :param stage: :data:`EXACT` or :data:`APPROACH`.
    :returns: The outcome with its message prefixed by ``goal reached``, ``closest
        collision-free approach`` or ``goal given up``.
    """
    if outcome.success:
        prefix = 'goal reached (%s)' % ('exact solution commanded' if stage == EXACT
                                        else 'by approach steps')
    elif outcome.error_code == ErrorCode.APPROXIMATE or stage == APPROACH:
        prefix = 'closest collision-free approach, goal not reached'
    else:
        prefix = 'goal given up'
    return dataclasses.replace(outcome, message='%s: %s' % (prefix, outcome.message))


def _duration(outcome: IKOutcome) -> float:
    """Return s the outcome's command lasts (0 without one)."""
    if outcome.command is not None:
        return outcome.command.duration
    if outcome.path_command is not None:
        return float(outcome.path_command.times[-1])
    return 0.0


class HeldGoal(Generic[Target]):
    """The goal the node keeps driving, its stage and when it is due; thread-safe."""

    def __init__(self) -> None:
        """Start without a goal."""
        self._lock = threading.Lock()
        self._target: Optional[Target] = None
        self._stage = EXACT
        self._due = 0.0
        self._steps = 0
        self._tries = 0
        self._last: Optional[np.ndarray] = None

    def streamed(self, target: Target, outcome: IKOutcome, now: float) -> None:
        """
        Note a streamed target's answer: it becomes the held goal unless it is final.

        :param target: The target (the message).
        :param outcome: Its answer.
        :param now: s, monotonic.
        """
        with self._lock:
            if outcome.error_code in _FINAL_CODES or outcome.log_kind == 'joint_states_stale':
                self._target = None
                return
            self._target, self._stage = target, EXACT
            self._due = now + max(HOLD_PERIOD, _duration(outcome))
            self._steps, self._tries, self._last = 0, 0, None

    def cancel(self) -> None:
        """Drop the goal (another command was sent)."""
        with self._lock:
            self._target = None

    def wait(self, now: float, longest: float) -> float:
        """
        Give how long the worker may wait for a newer target, s.

        :param now: s, monotonic.
        :param longest: s, the wait without a goal.
        """
        with self._lock:
            if self._target is None:
                return longest
            return min(longest, max(0.0, self._due - now))

    def due(self, now: float) -> Optional[Tuple[Target, str, int]]:
        """
        Give the goal and its stage when the next stage is due.

        :param now: s, monotonic.
        :returns: ``(target, stage, attempt)`` (attempt 0 first, seeded where the arm is; a
            later exact attempt wants another seed), or ``None``.
        """
        with self._lock:
            if self._target is None or now < self._due:
                return None
            return self._target, self._stage, self._tries

    def done(self, target: Target, stage: str, outcome: IKOutcome, now: float) -> bool:
        """
        Note a stage's answer; tell whether it is the goal's last.

        :param target: The goal the stage worked on (ignored if replaced meanwhile).
        :param stage: The stage.
        :param outcome: Its answer.
        :param now: s, monotonic.
        :returns: True when the goal is finished (reached, at its closest approach, or given
            up): its answer is then the final status.
        """
        with self._lock:
            if self._target is not target:
                return False  # replaced while the stage ran: the newer goal decides
            finished = self._finished(stage, outcome)
            if finished:
                self._target = None
            elif stage == EXACT and self._tries + 1 < EXACT_ATTEMPTS:
                self._tries += 1
                self._due = now  # again at once, from another seed
            else:
                # The next step once this one has (nominally) been played.
                self._stage, self._due = APPROACH, now + max(STEP_PERIOD, _duration(outcome))
            return finished

    def _finished(self, stage: str, outcome: IKOutcome) -> bool:
        if outcome.success or outcome.error_code in _FINAL_CODES:
            return True
        if stage == EXACT:
            # Every solution collides: there is no collision-free approach to drive to.
            return (outcome.error_code == ErrorCode.IN_COLLISION
                    and outcome.result is not None
                    and outcome.result.status == Status.IN_COLLISION)
        if outcome.command is None:
            return True  # held (a contact on the way, a jump): the closest approach so far
        q = np.asarray(outcome.command.positions, dtype=float)
        self._steps += 1
        settled = self._last is not None and float(np.max(np.abs(q - self._last))) \
            <= SETTLED_STEP
        self._last = q
        return settled or self._steps >= MAX_APPROACH_STEPS
