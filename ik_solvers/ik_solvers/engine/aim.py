# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Stage 1, the end of the inputs: what is asked of the chain, in its base frame, from which seed.

Runs after :mod:`.request_checks` and :meth:`.robot_state.RobotState.placement`, on their
values alone: the target is put in the chain's base frame (frames that move with the joints
are placed where the chain is now), the seed is chosen, and a target beyond any reach is
refused before a search spends its budget on it.
"""

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .frames import ExternalLookup
from .goal_distance import check_goal_distance
from .outcome import IKRequest
from .placement import Placement
from .request_checks import CheckedRequest, InputChecks
from .settings import NodeSettings

__all__ = ['Aim', 'aim_at']


@dataclass(frozen=True)
class Aim:
    """Stage 1, what is asked of the chain: the target in its base frame and the seed."""

    #: The last command, the reference of a streamed target's continuity; None otherwise.
    last: Optional[np.ndarray]
    #: (N,) where the search starts, rad or m.
    seed: np.ndarray
    #: (4, 4) in the chain's base frame, m.
    target: np.ndarray


def aim_at(request: IKRequest, settings: NodeSettings, checked: CheckedRequest,
           placement: Placement, checks: InputChecks,
           external_lookup: Optional[ExternalLookup]) -> Aim:
    """
    Put the checked target in the chain's base frame and choose the seed.

    :param request: The request (its frame, its seed, whether it is streamed).
    :param settings: The node's parameters (the frame lookup's timeout).
    :param checked: The request's checked inputs.
    :param placement: Where the robot is.
    :param checks: The input checks (seed and frame).
    :param external_lookup: Resolves frames that are not links of the description, or None.
    :returns: The aim.
    :raises IKError: An unknown frame, a seed that does not fit the chain, or a target beyond
        any reach (:func:`.goal_distance.check_goal_distance`).
    """
    chain, start = placement.chain, placement.start
    last = placement.drag_reference if request.streamed else None
    if request.streamed:
        # Seeding at the last command keeps consecutive solutions of a drag on one branch.
        seed = start if last is None else last
    else:
        seed = checks.seed(request, chain, start)
    # Frames that move with the joints are placed where the chain is now.
    joints = dict(placement.joints)
    joints.update(zip(chain.joint_names, start.tolist()))
    base_from_frame = checks.frame(request, placement.model, chain, joints, external_lookup,
                                   settings.tf_timeout)
    # A position that is not finite is refused by solve(); until then NaN is no error.
    with np.errstate(invalid='ignore', over='ignore'):
        target = base_from_frame @ checked.target_in_frame
    check_goal_distance(chain, target)
    return Aim(last=last, seed=seed, target=target)
