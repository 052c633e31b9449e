# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
How an obstacle posed in any frame is placed in the collision scene.

Whether a request checks collisions is decided with its other inputs
(:func:`.request_checks.collision_check_asked`); the model it is checked with is read with
where the robot is (:meth:`.robot_state.RobotState.placement`); its answer's report is made
by the judging stage (:func:`.judging.collision_verdict`).
"""

import dataclasses
from typing import Callable, Mapping, Optional, Tuple

import numpy as np

from .collision_scene import CollisionScene
from .frames import ExternalLookup, frame_to_base
from ..collision import Obstacle, ObstacleSet, REMOVE
from ..exceptions import IKError, InvalidObstacleError
from ..kinematics import Chain, RobotModel

__all__ = ['place_obstacle']


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
