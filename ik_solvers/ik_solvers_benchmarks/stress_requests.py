# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What the stress run of :mod:`.node_stress` sends: its robot, and the requests and messages.

Messages are built through :meth:`~.stress_client.StressClient.message`, so this module imports
no message package itself.
"""

import math
from typing import Any, Dict, List, Sequence

import numpy as np

from .hostile_inputs import HostileInput
from ik_solvers.reach.named_robots import load_robot
from .stress_client import StressClient
from ik_solvers.kinematics import RobotModel

__all__ = ['NODE_TIMEOUT', 'ROBOT', 'StressSetup', 'effective_timeout', 'hostile_request',
           'pose_fields', 'publish_input', 'valid_request', 'xyzw_quaternion']

ROBOT = 'panda_like'
#: The node's solve timeout in this run, seconds.
NODE_TIMEOUT = 0.05


class StressSetup:
    """The robot, its chain, a home configuration and helpers to build requests."""

    def __init__(self) -> None:
        robot = load_robot(ROBOT)
        self.urdf_xml = robot.urdf_xml
        self.base_link, self.tip_link = robot.base_link, robot.tip_link
        self.chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
        self.home = self.chain.mid_configuration()
        self.rng = np.random.default_rng(10)

    def goal(self, spread: float = 0.3) -> np.ndarray:
        """Return the tip pose (4, 4) of a configuration near home."""
        q = self.home + self.rng.uniform(-spread, spread, self.chain.num_joints)
        return self.chain.fk(self.chain.clip(q))


def pose_fields(message: Any, position: Sequence[float], quaternion: Sequence[float]) -> None:
    """Fill a Pose message from a position (m) and an (x, y, z, w) quaternion."""
    message.position.x, message.position.y, message.position.z = (float(v) for v in position)
    orientation = message.orientation
    orientation.x, orientation.y, orientation.z, orientation.w = (float(v) for v in quaternion)


def xyzw_quaternion(matrix: np.ndarray) -> List[float]:
    """Return the (x, y, z, w) quaternion of the rotation of a (4, 4) pose."""
    import transforms3d
    w, x, y, z = transforms3d.quaternions.mat2quat(matrix[:3, :3])
    return [x, y, z, w]


def valid_request(client: StressClient, goal: np.ndarray, timeout: float = 0.0) -> Any:
    """Build a SolveIK request for ``goal`` (4, 4) with ``timeout`` in s (0: the node's)."""
    request = client.message('Request')
    pose_fields(request.target.pose, goal[:3, 3], xyzw_quaternion(goal))
    nanoseconds = int(round(timeout * 1e9))
    request.timeout.sec, request.timeout.nanosec = divmod(nanoseconds, 1_000_000_000)
    return request


def hostile_request(client: StressClient, fields: Dict[str, Any]) -> Any:
    """Build a SolveIK request from the fields of a hostile input (see :mod:`.hostile_inputs`)."""
    request = client.message('Request')
    pose_fields(request.target.pose, fields['position'], fields['orientation'])
    request.target.header.frame_id = fields.get('frame_id', '')
    request.seed.name = list(fields.get('seed_names', []))
    request.seed.position = [float(v) for v in fields.get('seed_positions', [])]
    request.solver = fields.get('solver', '')
    request.position_tolerance = float(fields.get('position_tolerance', 0.0))
    request.orientation_tolerance = float(fields.get('orientation_tolerance', 0.0))
    seconds = float(fields.get('timeout', 0.0))
    request.timeout.sec = int(math.floor(seconds))
    request.timeout.nanosec = int(round((seconds - math.floor(seconds)) * 1e9)) % 1_000_000_000
    return request


def effective_timeout(fields: Dict[str, Any]) -> float:
    """Return the timeout in s the node applies to a request with these fields."""
    seconds = float(fields.get('timeout', 0.0))
    return seconds if 0.0 < seconds <= 10.0 else NODE_TIMEOUT


def publish_input(client: StressClient, item: HostileInput, cache: Dict[int, Any]) -> None:
    """Publish one hostile topic input; ``cache`` keeps each large message built once."""
    # Large messages are built once: the client's own cost must not set the pace.
    message = cache.get(id(item.payload))
    if message is None:
        if item.kind == 'joint_states':
            message = client.message('JointState')
            message.name, message.position = list(item.payload[0]), list(item.payload[1])
        elif item.kind == 'target':
            message = client.message('PoseStamped')
            pose_fields(message.pose, item.payload[0], item.payload[1])
            message.header.frame_id = item.payload[2]
        else:
            message = client.message('String')
            message.data = item.payload
        cache[id(item.payload)] = message
    {'joint_states': client.joint_states, 'target': client.targets,
     'description': client.description}[item.kind].publish(message)
