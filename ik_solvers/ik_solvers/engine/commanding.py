# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Stage 4: plan the command an accepted candidate asks for, and give the request's outcome.

A streamed target gets a single-point command timed from the controller's motion
(:meth:`.command_timing.CommandTiming.plan`); a one-shot request with ``execute`` gets a
straight, swept-checked or routed motion (:meth:`.command_timing.CommandTiming.plan_motion`).
A planned command is remembered as the last command. The outcome carries the command ready
to be sent through :func:`.command_gate.publication`; nothing is sent here.
"""

from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

from .candidate import Candidate
from .command_timing import CommandTiming
from .error_codes import ErrorCode
from .judges import Judge
from .judging import Judged
from .motion_plan import MotionPlan
from .other_solutions import other_solutions
from .outcome import IKOutcome
from .placement import OPEN_LOOP_NOTE, Placement
from .refusal import Refusal
from .request_checks import CheckedRequest
from .solving import SolveFunction, Solved

__all__ = ['command_outcome', 'Reached']


@dataclass(frozen=True)
class Reached:
    """The stages' values so far: a refusal reports what was reached before it."""

    checked: Optional[CheckedRequest] = None
    placement: Optional[Placement] = None
    solved: Optional[Solved] = None
    judged: Optional[Judged] = None

    def outcome_fields(self) -> Dict[str, Any]:
        """Return the :class:`~.outcome.IKOutcome` fields these stages give."""
        fields: Dict[str, Any] = {}
        if self.checked is not None:
            fields['solver'] = self.checked.solver
        if self.placement is not None:
            fields.update(chain=self.placement.chain, start=self.placement.start,
                          notes=self.placement.notes)
        if self.solved is not None:
            fields.update(solutions=self.solved.solutions, target=self.solved.target,
                          result=self.solved.result, reached=self.solved.reached)
        if self.judged is not None:
            fields.update(collision=self.judged.collision)
        return fields


def command_outcome(reached: Reached, timing: CommandTiming, *,
                    solve_function: SolveFunction, judges: Sequence[Judge]) -> IKOutcome:
    """
    Plan the command of a judged request (when it asks for one) and give its outcome.

    :param reached: Every stage's value; ``reached.judged`` is set.
    :param timing: Times the command and remembers it as the last command.
    :param solve_function: Solves the pose's other solutions, asked only when a one-shot
        motion to the first is refused (:func:`.other_solutions.other_solutions`).
    :param judges: Judge those other solutions.
    :returns: The outcome; its command, if any, is ready for
        :func:`.command_gate.publication`.
    """
    candidate, refusal = reached.judged.candidate, reached.judged.refusal
    plan = MotionPlan()
    if refusal is None and candidate.commanding:
        if candidate.streamed:
            command, refusal = timing.plan(candidate)
            plan = MotionPlan(command=command)
        else:
            first = candidate
            candidate, plan = timing.plan_motion(
                candidate, others=lambda: other_solutions(first, solve_function, judges))
            refusal = plan.refusal
    fields = dict(reached.outcome_fields(), result=candidate.result, reached=candidate.reached)
    return _outcome(candidate, refusal, plan, fields)


def _accepted_message(candidate: Candidate) -> str:
    if candidate.claim == ErrorCode.APPROXIMATE:
        return candidate.summary  # the fallback's account of what it commands and why
    if candidate.claim == ErrorCode.ORIENTATION_UNREACHABLE:
        return ('%s: no configuration takes this orientation; the position is met and the '
                'orientation is the closest found: %s' % (candidate.solver, candidate.summary))
    return '%s reached the target: %s' % (candidate.solver, candidate.summary)


def _outcome(candidate: Candidate, refusal: Optional[Refusal], plan: MotionPlan,
             fields: Dict[str, Any]) -> IKOutcome:
    """Give the outcome of a judged (and perhaps commanded) candidate."""
    accepted = _accepted_message(candidate)
    if refusal is None:
        message = accepted
        if (plan.command is not None or plan.path is not None) and not candidate.streamed:
            message += '; commanded' + ('' if not plan.note else ' (%s)' % plan.note)
            if OPEN_LOOP_NOTE in fields.get('notes', ()):
                message += '; ' + OPEN_LOOP_NOTE
        return IKOutcome(candidate.claim, message, command=plan.command,
                         path_command=plan.path, **fields)
    if refusal.code == ErrorCode.EXECUTION_FAILED:
        # The solution itself was fine: the answer says so, and why it was not sent.
        return IKOutcome(refusal.code, '%s; but %s' % (accepted, refusal.message),
                         log_kind=refusal.log_kind, motion_contact=refusal.contact, **fields)
    return IKOutcome(refusal.code, refusal.message, log_kind=refusal.log_kind,
                     motion_contact=refusal.contact, **fields)
