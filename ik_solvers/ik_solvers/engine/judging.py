# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Stage 3: the judges (:mod:`.judges`) decide on the solution; a fallback may propose another.

The first refusal names the reason. Once the judges refused, each fallback (approximate
tracking of a streamed target, say) may propose another candidate; the first proposal every
judge accepts replaces the refused one. The answer's collision report
(:func:`collision_verdict`) is made here too, from the collision judge's check.
"""

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import numpy as np

from .aim import Aim
from .candidate import Candidate
from .error_codes import ErrorCode
from .fallback import Fallback
from .judges import first_refusal, Judge
from .outcome import CollisionVerdict, IKRequest
from .placement import Placement
from .refusal import Refusal
from .request_checks import CheckedRequest
from .settings import NodeSettings
from .solving import Solved
from ..exceptions import IKError
from ..kinematics import RobotModel
from ..solvers import Status

__all__ = ['collision_verdict', 'Judged', 'judge_solution']


@dataclass(frozen=True)
class Judged:
    """Stage 3: the candidate the judges (and fallbacks) settled on, or the first refusal."""

    candidate: Candidate
    refusal: Optional[Refusal]
    collision: CollisionVerdict


def judge_solution(request: IKRequest, settings: NodeSettings, checked: CheckedRequest,
                   placement: Placement, aim: Aim, solved: Solved, *,
                   judges: Sequence[Judge], fallbacks: Sequence[Fallback],
                   now: float) -> Judged:
    """
    Judge a solution, ask the fallbacks after a refusal, and report its collision check.

    :param request: The request (streamed, execute).
    :param settings: The node's parameters.
    :param checked: The request's checked inputs.
    :param placement: Where the robot is.
    :param aim: The target in the base frame and the continuity reference.
    :param solved: The solution.
    :param judges: Asked in order; the first refusal decides.
    :param fallbacks: Asked in order for another candidate once the judges refused one.
    :param now: s on the clock the placement was read with: the joint states are judged as
        old as they are now.
    :returns: The candidate settled on, the refusal (None when accepted) and the collision
        report.
    """
    result = solved.result
    claim = (ErrorCode.ORIENTATION_UNREACHABLE if result.status == Status.CLOSEST_ORIENTATION
             else ErrorCode.SUCCESS)
    # A closest orientation is no solution of the pose: only the parameter commands it.
    may_command = claim == ErrorCode.SUCCESS or settings.orientation_fallback
    wanted = request.streamed or request.execute
    waited = max(0.0, now - placement.read_at)
    candidate = Candidate(
        chain=placement.chain, model=placement.model, q=result.q, reached=solved.reached,
        target=aim.target, start=placement.start, last_command=aim.last,
        joint_state_ages={name: age + waited for name, age in placement.ages.items()},
        settings=settings, streamed=request.streamed, commanding=wanted and may_command,
        result=result, solver=checked.solver, timeout=checked.timeout, claim=claim,
        collision=placement.collision,
        summary='position error %.3g m, orientation error %.3g rad, %d iterations, %.1f ms'
        % (result.position_error, result.orientation_error, result.iterations,
           1e3 * result.elapsed), approximate=solved.approximate, command_requested=wanted,
        goal=checked.goal)
    refusal = first_refusal(judges, candidate)
    for fallback in fallbacks:
        if refusal is None:
            break
        proposal = fallback.proposal(candidate, refusal)
        if proposal is not None and first_refusal(judges, proposal) is None:
            candidate, refusal = proposal, None
    verdict = collision_verdict(candidate, placement.model, placement.joints,
                                placement.unchecked, placement.collision_summary)
    return Judged(candidate=candidate, refusal=refusal, collision=verdict)


def collision_verdict(candidate: Candidate, robot_model: RobotModel,
                      joint_positions: Mapping[str, float], reason: str,
                      scene: str) -> CollisionVerdict:
    """
    Report the collision check of the answer: every pair in contact, and where each part is.

    :param candidate: The candidate that became the answer.
    :param robot_model: The description the chain was cut from.
    :param joint_positions: The latest joint states by name (the joints off the chain).
    :param reason: Why collisions were not checked, when ``candidate.collision`` is ``None``.
    :param scene: One line on the scene, for the status.
    :returns: The verdict; poses are in the chain's base frame.
    """
    model = candidate.collision
    if model is None:
        return CollisionVerdict(reason=reason, scene=scene)
    try:
        report = candidate.collision_report  # checked once, by the collision judge
    except IKError as error:
        return CollisionVerdict(reason='the collision check failed: %s' % error, scene=scene)
    poses = []
    if report.colliding:
        chain = candidate.chain
        positions = dict(joint_positions)
        positions.update(zip(chain.joint_names, np.asarray(candidate.q, dtype=float).tolist()))
        links = set(robot_model.link_names)
        for name in sorted({name for pair in report.pairs for name in pair}):
            if name in links:
                poses.append((name, np.asarray(robot_model.transform(
                    chain.base_link, name, positions), dtype=float)))
            elif model.obstacles.get(name) is not None:
                poses.append((name, np.asarray(model.obstacles.get(name).pose, dtype=float)))
    return CollisionVerdict(checked=True, pairs=tuple(report.pairs),
                            unchecked_links=tuple(report.unchecked_links), poses=tuple(poses),
                            scene=scene)
