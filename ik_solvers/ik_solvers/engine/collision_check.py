# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What a request's answer reports of collisions, and how an obstacle is placed in the scene.

Whether a request checks collisions at all is decided with its other inputs
(:func:`.request_checks.collision_check_asked`); the model it is checked with is read with
where the robot is (:meth:`.robot_state.RobotState.placement`).
"""

import dataclasses
from typing import Callable, Mapping, Optional, Tuple

import numpy as np

from .candidate import Candidate
from .collision_scene import CollisionScene
from .frames import ExternalLookup, frame_to_base
from .outcome import CollisionVerdict
from ..collision import Obstacle, ObstacleSet, REMOVE
from ..exceptions import IKError, InvalidObstacleError
from ..kinematics import Chain, RobotModel

__all__ = ['collision_verdict', 'place_obstacle']


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


def place_obstacle(scene: CollisionScene, obstacle: Obstacle, frame_id: str,
                   chain_and_model: Callable[[], Tuple[Chain, RobotModel]],
                   joint_positions: Mapping[str, float],
                   external_lookup: Optional[ExternalLookup]) -> ObstacleSet:
    """
    Pose an obstacle in the description's root frame and add, move or remove it.

    Obstacles stay where they were put in the robot's root frame, as a planning scene keeps
    them in its planning frame: when a joint above the chain's base moves (a torso, a lift, a
    mobile base in the description), or the chain changes, they keep their place in the cell.

    :param scene: The node's collision inputs.
    :param obstacle: The obstacle, its pose in ``frame_id``.
    :param frame_id: Empty for the chain's base, a link of the description (posed at
        ``joint_positions``) or a frame of ``external_lookup`` (not waited for).
    :param chain_and_model: Gives the chain in use and its description.
    :param joint_positions: The latest joint states by name, rad or m.
    :param external_lookup: TF, where installed.
    :returns: The obstacles in place afterwards.
    :raises InvalidObstacleError: If it is refused, an unknown frame or a missing robot
        description included; every obstacle in place stays, and the scene remembers why.
    """
    try:
        chain, model = chain_and_model()
        if obstacle.operation != REMOVE:
            # An empty frame is the chain's base, as for a target.
            frame = frame_id.strip().lstrip('/') or chain.base_link
            root_from_frame = frame_to_base(model, model.root_link, frame, joint_positions,
                                            external_lookup=external_lookup,
                                            lookup_timeout=0.0)
            with np.errstate(invalid='ignore', over='ignore'):
                pose = root_from_frame @ np.asarray(obstacle.pose, dtype=float)
            obstacle = dataclasses.replace(obstacle, pose=pose)
        return scene.apply_obstacle(obstacle, model.link_names)
    except IKError as error:
        reason = str(error)
        if not reason.startswith("obstacle '%s'" % obstacle.id):
            reason = "obstacle '%s': %s" % (obstacle.id, reason)
        scene.refused(reason)
        raise InvalidObstacleError(reason) from None
