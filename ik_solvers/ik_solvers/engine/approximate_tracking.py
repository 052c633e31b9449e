# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Approximate tracking: the closest configuration near the arm when no exact one is accepted.

From a singular start (a UR arm stretched out or pointing straight up) no exact solution of a
dragged goal lies within ``max_joint_jump`` of the last command, and toward a goal out of reach
none exists. This fallback then proposes the configuration within ``max_joint_jump`` of the
last command and within the limits that brings the tip closest to the goal
(:func:`ik_solvers.approach`), as ``APPROXIMATE``: never a success, with its errors. Goal after
goal the arm moves continuously toward the goal; exact solutions resume as soon as one is
within the bound.

It runs for streamed targets while ``approximate_tracking`` is on, and for SolveIK requests
that ask for an approximate answer; the engine judges its proposal with the same judges.
"""

import dataclasses
import math
from typing import Any, Dict, Optional

import numpy as np

from .candidate import Candidate
from .error_codes import ErrorCode
from .fallback import Fallback
from .judges.continuity import moved_away
from .outcome import IKRequest
from .refusal import Refusal
from .settings import NodeSettings
from ..exceptions import IKError
from ..solvers import approach
from ..solvers.approximate import STREAMED_EXACT_ATTEMPTS, STREAMED_EXACT_BUDGET

__all__ = ['ApproximateTracking', 'UNBOUNDED_STEP', 'accepts_approximate',
           'exact_search_budget']

#: Largest joint motion of an approximate answer while ``max_joint_jump`` is 0 (no bound), rad
#: or m: half a turn.
UNBOUNDED_STEP = math.pi
# The approximate step's own deadline, s: it needs a few tenths of a millisecond.
_STEP_TIMEOUT = 0.002
_ROUNDING = 1e-9
# Share of the lag allowed (see judges.continuity.moved_away) that the box may use.
_LAG_SHARE = 0.9
# Smallest box half-width, rad or m: a joint whose joint state lags almost as far as allowed.
_SMALLEST_STEP = 1e-9


def accepts_approximate(request: IKRequest, settings: NodeSettings) -> bool:
    """
    Tell whether a request accepts an approximate answer.

    :param request: The request.
    :param settings: The node's parameters.
    :returns: ``approximate_tracking`` for a streamed target, the request's own
        ``approximate`` for a one-shot request.
    """
    return settings.approximate_tracking if request.streamed else request.approximate


def exact_search_budget(request: IKRequest, approximate: bool,
                        timeout: float) -> Dict[str, Any]:
    """
    Give the deadline and starts of the exact search for a request, as SearchOptions fields.

    A streamed target that approximate tracking follows gets the short budget of
    :data:`ik_solvers.solvers.approximate.STREAMED_EXACT_BUDGET` (a goal with no exact solution
    near must not cost the whole timeout: the drag goes on at 50 Hz); any other request the
    whole ``timeout``.

    :param request: The request.
    :param approximate: Whether it accepts an approximate answer.
    :param timeout: The request's timeout, s.
    :returns: ``timeout`` and, with the budget, ``max_attempts``.
    """
    if request.streamed and approximate:
        return {'timeout': min(timeout, STREAMED_EXACT_BUDGET),
                'max_attempts': STREAMED_EXACT_ATTEMPTS}
    return {'timeout': timeout}


class ApproximateTracking(Fallback):
    """Proposes the closest configuration within ``max_joint_jump`` when none was accepted."""

    def proposal(self, refused: Candidate, refusal: Refusal) -> Optional[Candidate]:
        """
        Propose the closest configuration near where the arm is, as ``APPROXIMATE``.

        The box is centred on the last command, the reference of the continuity judge (on the
        start, without one), and kept within 90 % of the lag allowed from the joint states
        (see :func:`.judges.continuity.moved_away`): the arm's commands never run so far ahead
        of it that the last command would no longer count.

        :param refused: The candidate the judges refused.
        :param refusal: Why; a refusal for stale joint states gets no proposal.
        :returns: The proposal, or ``None`` when the request accepts no approximate answer.
        """
        if not refused.approximate or refusal.log_kind == 'joint_states_stale':
            return None
        bound = refused.settings.max_joint_jump
        if bound <= 0.0:
            bound = UNBOUNDED_STEP
        start = np.asarray(refused.start, dtype=float)
        last = start if refused.last_command is None else np.asarray(refused.last_command,
                                                                     dtype=float)
        # The box stays within the bound of the last command and within most of the lag
        # allowed of the joint states: its centre is the last command, drawn back within that
        # share of the lag on joints that lag more.
        lag = _LAG_SHARE * moved_away(refused.settings)
        centre = np.clip(last, start - lag, start + lag)
        room = np.minimum(bound - np.abs(centre - last), lag - np.abs(centre - start))
        # A hair inside: q0 + bound - q0 may round to a little more than bound.
        steps = np.clip(room * (1.0 - _ROUNDING), _SMALLEST_STEP, bound)
        try:
            result = approach(refused.chain, refused.target, start=centre, max_joint_step=steps,
                              timeout=_STEP_TIMEOUT, goal=refused.goal)
        except IKError:  # the solve stage accepted these inputs; nothing better to offer
            return None
        # The time of the goal is that of both searches.
        result = dataclasses.replace(result, elapsed=refused.result.elapsed + result.elapsed)
        q = np.asarray(result.q, dtype=float)
        reached = np.asarray(refused.chain.fk(q), dtype=float).copy()
        claim = ErrorCode.SUCCESS if result.success else ErrorCode.APPROXIMATE
        summary = ('position error %.3g m, orientation error %.3g rad, %d steps, %.1f ms'
                   % (result.position_error, result.orientation_error, result.iterations,
                      1e3 * result.elapsed))
        if claim == ErrorCode.APPROXIMATE:
            summary = ('approximate, the closest configuration within %.3g (rad or m) of where '
                       'the arm is: %s; exact: %s'
                       % (bound, summary, refusal.message.split(';')[0]))
        return Candidate(
            chain=refused.chain, model=refused.model, q=q, reached=reached,
            target=refused.target, start=refused.start, last_command=refused.last_command,
            joint_state_ages=refused.joint_state_ages, settings=refused.settings,
            streamed=refused.streamed, commanding=refused.command_requested,
            result=result, solver=refused.solver, timeout=refused.timeout, claim=claim,
            summary=summary, approximate=True, goal=refused.goal,
            command_requested=refused.command_requested,
            # Judged by the same collision model: the arm stops short of a contact.
            collision=refused.collision)
