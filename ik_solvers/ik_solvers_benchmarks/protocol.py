# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The benchmark protocol: targets, seeds and the independent check of every answer.

It follows the protocol of the TRAC-IK benchmark: a fixed random generator draws joint
vectors uniformly within the limits and forward kinematics turns them into targets, so every
target is reachable. Seeds are the middle of the limits, a random configuration, or a warm
start near the configuration the target came from, as when a goal is dragged. Answers are
graded by :class:`~ik_solvers.kinematics.RobotModel` (a joint-by-joint walk of the URDF tree,
sharing no code with the chain's forward kinematics that the solvers use) against the limits
of every joint the URDF names, mimic joints included.
"""

from dataclasses import dataclass
import math
from typing import Optional, Tuple

import numpy as np

from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.kinematics.joint import position_limits

__all__ = [
    'SEED_KINDS',
    'SolutionCheck',
    'TargetSet',
    'WARM_SEED_RADIUS',
    'check_solution',
    'draw_seeds',
    'draw_targets',
    'orientation_distance',
]

SEED_KINDS: Tuple[str, ...] = ('mid', 'random', 'warm')

# rad: a warm seed differs from the configuration that made the target by at most this much
# per joint, which is what a goal dragged between two solver cycles looks like.
WARM_SEED_RADIUS = 0.05

# Targets and seeds draw from separate streams so that adding a seed kind never changes the
# targets, and the targets of one run are the targets of every other run with that seed.
_TARGET_STREAM = 0
_SEED_STREAMS = {'mid': 1, 'random': 2, 'warm': 3}


@dataclass(frozen=True)
class TargetSet:
    """
    Reachable targets and the configurations they came from.

    :ivar configurations: (K, N) joint positions, rad or m, drawn uniformly within the limits.
    :ivar poses: (K, 4, 4) tip poses in the base frame, forward kinematics of each row.
    """

    configurations: np.ndarray
    poses: np.ndarray

    def __len__(self) -> int:
        """Return the number of targets."""
        return len(self.poses)


@dataclass(frozen=True)
class SolutionCheck:
    """
    What an independent forward kinematics check says about one returned configuration.

    :ivar position_error: Distance from the tip to the target position, in m.
    :ivar orientation_error: Rotation angle from the tip to the target orientation, in rad;
        0 for a position-only check.
    :ivar within_limits: Whether every joint is within its limits.
    :ivar reached: Whether both errors are within their tolerances.
    """

    position_error: float
    orientation_error: float
    within_limits: bool
    reached: bool

    @property
    def ok(self) -> bool:
        """Whether the configuration reaches the target and keeps every limit."""
        return self.reached and self.within_limits


def _generator(seed: int, stream: int) -> np.random.Generator:
    return np.random.default_rng([int(seed), stream])


def draw_targets(chain: Chain, count: int, *, seed: int = 0) -> TargetSet:
    """
    Draw reachable targets with a fixed random generator.

    :param chain: The kinematic chain.
    :param count: Number of targets, at least 1.
    :param seed: Seed of the generator; the same seed gives the same targets.

    :returns: The targets and the configurations they came from.

    :raises ValueError: ``count`` < 1.
    """
    if count < 1:
        raise ValueError('count must be at least 1, got %d' % count)
    rng = _generator(seed, _TARGET_STREAM)
    configurations = np.array([chain.random_configuration(rng) for _ in range(count)])
    poses = np.asarray(chain.fk_batch(configurations), dtype=float)
    return TargetSet(configurations=configurations, poses=poses)


def draw_seeds(chain: Chain, targets: TargetSet, kind: str, *, seed: int = 0) -> np.ndarray:
    """
    Draw one seed configuration per target.

    :param chain: The kinematic chain.
    :param targets: The targets the seeds are for.
    :param kind: ``mid`` (middle of the limits), ``random`` (uniform within the limits) or
        ``warm`` (each joint of the target's source configuration moved by at most
        :data:`WARM_SEED_RADIUS` rad or m, kept within the limits).
    :param seed: Seed of the generator; the same seed gives the same seeds.

    :returns: (K, N) seeds.

    :raises ValueError: Unknown ``kind``.
    """
    if kind not in _SEED_STREAMS:
        raise ValueError('unknown seed kind %r; expected one of %s'
                         % (kind, ', '.join(SEED_KINDS)))
    rng = _generator(seed, _SEED_STREAMS[kind])
    count = len(targets)
    if kind == 'mid':
        return np.tile(np.asarray(chain.mid_configuration(), dtype=float), (count, 1))
    if kind == 'random':
        return np.array([chain.random_configuration(rng) for _ in range(count)])
    offsets = rng.uniform(-WARM_SEED_RADIUS, WARM_SEED_RADIUS, size=targets.configurations.shape)
    return np.array([chain.clip(row) for row in targets.configurations + offsets])


def orientation_distance(rotation_a: np.ndarray, rotation_b: np.ndarray) -> float:
    """
    Angle of the rotation that takes one orientation to the other.

    :param rotation_a: (3, 3) rotation matrix.
    :param rotation_b: (3, 3) rotation matrix.

    :returns: The angle in [0, pi], in rad.
    """
    relative = rotation_a.T @ rotation_b
    # atan2 keeps full precision near 0, where arccos of the trace loses half the digits.
    sine = 0.5 * math.sqrt((relative[2, 1] - relative[1, 2]) ** 2
                           + (relative[0, 2] - relative[2, 0]) ** 2
                           + (relative[1, 0] - relative[0, 1]) ** 2)
    cosine = 0.5 * (relative[0, 0] + relative[1, 1] + relative[2, 2] - 1.0)
    return math.atan2(sine, cosine)


def check_solution(chain: Chain, q: np.ndarray, target: np.ndarray, *, model: RobotModel,
                   position_only: bool, position_tolerance: float = 1e-5,
                   orientation_tolerance: float = 1e-5, limit_tolerance: float = 1e-9,
                   orientation_mode: Optional[str] = None) -> SolutionCheck:
    """
    Check a configuration against a target with forward kinematics the solvers do not use.

    This ignores whatever the solver claims, so that a solver cannot grade itself: the pose
    comes from :meth:`RobotModel.transform` and the limits from each URDF joint between the
    chain's base and tip (mimic joints at their leaders' values), not from ``chain``.

    :param chain: The kinematic chain; only its names and joint count are used.
    :param q: (N,) joint positions, rad or m.
    :param target: (4, 4) target pose in the base frame.
    :param model: The robot model parsed from the URDF that ``chain`` was cut from.
    :param position_only: Ignore the orientation.
    :param position_tolerance: Largest accepted position error, in m.
    :param orientation_tolerance: Largest accepted orientation error, in rad.
    :param limit_tolerance: Largest accepted excursion beyond a joint limit, in rad or m.
    :param orientation_mode: ``'full'``, ``'axis'`` (the angle between the tip z axes is the
        orientation error) or ``'none'``; when given it replaces ``position_only``.

    :returns: The errors and verdicts; a configuration of the wrong shape or with non-finite
        values fails with infinite errors.
    """
    q = np.asarray(q, dtype=float)
    if q.shape != (chain.num_joints,) or not np.all(np.isfinite(q)):
        return SolutionCheck(math.inf, math.inf, False, False)
    positions = dict(zip(chain.joint_names, q.tolist()))
    pose = model.transform(chain.base_link, chain.tip_link, positions)
    position_error = float(np.linalg.norm(pose[:3, 3] - target[:3, 3]))
    if orientation_mode is None:
        orientation_mode = 'none' if position_only else 'full'
    if orientation_mode == 'none':
        orientation_error = 0.0
    elif orientation_mode == 'axis':
        reached_axis, target_axis = pose[:3, 2], target[:3, 2]
        orientation_error = math.atan2(float(np.linalg.norm(np.cross(reached_axis, target_axis))),
                                       float(reached_axis @ target_axis))
    else:
        orientation_error = orientation_distance(pose[:3, :3], target[:3, :3])
    reached = (position_error <= position_tolerance
               and orientation_error <= orientation_tolerance)
    within_limits = True
    for joint in model.path(chain.base_link, chain.tip_link):
        if joint.is_moving:
            lower, upper = position_limits(joint)
            value = model.joint_value(joint.name, positions)
            within_limits &= lower - limit_tolerance <= value <= upper + limit_tolerance
    return SolutionCheck(position_error, orientation_error, bool(within_limits), reached)
