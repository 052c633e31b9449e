# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A serial chain cut out of a URDF: forward kinematics, Jacobian and joint frames.

Lengths are in metres, angles in radians; poses are 4x4 homogeneous matrices in the frame
of the chain's base link. The chain hands its flat arrays (:attr:`Chain.arrays`) to the
compiled kernels of :mod:`.kernels`, which compute every pose and Jacobian here and in the
solvers' loops.
"""

import math
from typing import Mapping, Optional, Sequence, Tuple

import numpy as np

from .chain_limits import variable_limits
from .joint import assign_variables, fold_fixed_joints, JointDescription, Mimic
from .kernels import ChainArrays, forward_frames, jacobian_from_frames, tip_poses
from .segments import aligned_segments, frame_aligning_z_with
from ..exceptions import InvalidSeedError

__all__ = ['Chain']

# The length scale of a chain whose joints and tip all sit at one point, m.
_SMALLEST_LENGTH_SCALE = 1e-3


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


class Chain:
    """
    The serial chain of joints between a base link and a tip link of a URDF.

    Fixed joints are folded into the neighbouring transforms. Revolute, continuous and
    prismatic joints are the chain's moving joints; mimic joints follow their leader and
    are not variables of their own. Build a chain with :meth:`RobotModel.chain`, the one way
    from a URDF to a chain; the description is read once and never changes.

    Where the URDF is silent or loose:

    - a revolute joint without ``<limit>`` gets ±pi (``DEFAULT_REVOLUTE_LIMIT``); a
      prismatic one without ``<limit>`` is refused, as no range can be guessed;
    - a missing, zero or negative velocity limit becomes 1 rad/s or m/s
      (``DEFAULT_VELOCITY_LIMIT``), and the joint is listed in
      :attr:`joints_without_velocity_limit`;
    - a mimic joint whose leader is off the chain (the second finger of a gripper whose first
      finger hangs on another branch) makes the leader a variable of the chain, placed where
      its first follower is: a configuration sets the leader and the follower moves with it,
      so the command names the leader, as it would for a chain holding both. The frame, axis
      and ``joint_segment`` row of such a variable are those of its first follower, the axis
      reversed when the follower turns against its leader (a negative multiplier);
    - mimic joints of mimic joints resolve to the first leader that mimics nobody.
    """

    def __init__(self, base_link: str, tip_link: str, path: Sequence[JointDescription],
                 mimics: Optional[Mapping[str, Mimic]] = None, *,
                 outside_leaders: Optional[Mapping[str, JointDescription]] = None):
        """
        Build the chain from the joints between base and tip, base first.

        ``mimics`` maps the name of each mimic joint of ``path`` to its resolved leader (see
        :meth:`RobotModel.resolve_mimic`); joints missing from it are independent.
        ``outside_leaders`` describes the leaders that are not on ``path``: each becomes a
        variable, placed where its first follower is. Raises :class:`RobotModelError` for a
        path without moving joints, a planar, floating or unknown joint type, a zero axis,
        unusable limits, or a mimic joint whose leader is neither a moving joint of the chain
        nor given in ``outside_leaders``.
        """
        self._base_link = base_link
        self._tip_link = tip_link
        mimics = dict(mimics or {})
        outside_leaders = dict(outside_leaders or {})
        segment_joints, fixed_before, unit_axes, tip_offset = fold_fixed_joints(
            path, base_link, tip_link)

        leaders, frame_rows, variable_of_joint, multipliers, offsets = assign_variables(
            segment_joints, mimics, outside_leaders, base_link, tip_link)

        self._joint_names = tuple(joint.name for joint in leaders)
        self._num_joints = len(leaders)
        self._num_segments = len(segment_joints)
        self._frame_rows = np.array(frame_rows, dtype=np.int64)
        unit_axes = np.array(unit_axes, dtype=float).reshape(self._num_segments, 3)
        for variable, row in enumerate(frame_rows):
            if leaders[variable].name != segment_joints[row].name and multipliers[row] < 0.0:
                # A leader off the chain stands in its follower's frame; turned against it,
                # the frame is flipped so that a rise of the variable moves along the frame's
                # axis, as the solvers' sweeps assume of every variable's own frame.
                unit_axes[row] = -unit_axes[row]
                multipliers[row], offsets[row] = -multipliers[row], -offsets[row]
        self._axes = _read_only(unit_axes[self._frame_rows].copy())
        self._alignments = np.array([frame_aligning_z_with(axis) for axis in self._axes])
        self._set_limits(leaders, [(joint, mimics[joint.name]) for joint in segment_joints
                                   if joint.name in mimics])
        segments = aligned_segments(fixed_before, unit_axes, tip_offset)
        self._tip_offset = _read_only(segments[-1].copy())
        motion = np.column_stack((multipliers, offsets,
                                  [float(joint.is_prismatic) for joint in segment_joints]))
        limits = np.column_stack((self._lower, self._upper, self._sample_low,
                                  self._sample_width))
        arrays = ChainArrays(
            segments=segments, segment_motion=motion.reshape(-1, 3),
            segment_variable=np.array(variable_of_joint, dtype=np.int64),
            joint_segment=self._frame_rows, joint_limits=limits,
            joint_prismatic=self._is_prismatic.astype(float), length_scale=1.0,
            reach=math.inf, tip_follows_last_joint=bool(
                variable_of_joint[-1] == self._num_joints - 1
                and self._frame_rows[-1] == self._num_segments - 1
                and multipliers[-1] == 1.0))
        origins = self.poses(np.zeros(self._num_joints), arrays)[:, :3, 3]
        self._length_scale = max(
            float(np.sum(np.linalg.norm(np.diff(origins, axis=0), axis=1))),
            _SMALLEST_LENGTH_SCALE)
        self.arrays = arrays._replace(length_scale=self._length_scale,
                                      reach=self._reach_bound(arrays))

    def _reach_bound(self, arrays: ChainArrays) -> float:
        # Each revolute joint keeps the distance between its own origin and every point beyond
        # it, so the chain reaches at most the sum of the distances between consecutive joint
        # origins (and the tip) from the first joint's origin.
        if self._is_prismatic.any() or np.any(arrays.segment_motion[:, 2]):
            return math.inf
        frames = np.empty((self._num_segments + 1, 4, 4))
        forward_frames(arrays, np.zeros(self._num_joints), frames)
        return float(np.sum(np.linalg.norm(np.diff(frames[:, :3, 3], axis=0), axis=1)))

    def _set_limits(self, leaders: Sequence[JointDescription],
                    followers: Sequence[Tuple[JointDescription, Mimic]]) -> None:
        limits = variable_limits(leaders, followers)
        self._lower, self._upper = limits.lower, limits.upper
        self._velocity_limits = limits.velocity
        self._without_velocity_limit = limits.without_velocity_limit
        self._is_prismatic, self._is_continuous = limits.is_prismatic, limits.is_continuous
        self._sample_low, self._sample_width = limits.sample_low, limits.sample_width
        self._mid = limits.mid

    # Description ---------------------------------------------------------------------------

    @property
    def base_link(self) -> str:
        """Return the link whose frame every pose of this chain is expressed in."""
        return self._base_link

    @property
    def tip_link(self) -> str:
        """Return the link whose pose :meth:`fk` returns."""
        return self._tip_link

    @property
    def num_joints(self) -> int:
        """Return the number N of independent joint variables (mimic joints excluded)."""
        return self._num_joints

    @property
    def joint_names(self) -> Tuple[str, ...]:
        """Return the names of the N independent joints, base to tip."""
        return self._joint_names

    @property
    def lower(self) -> np.ndarray:
        """Lower limits (N,), rad or m; -inf for continuous joints."""
        return self._lower

    @property
    def upper(self) -> np.ndarray:
        """Upper limits (N,), rad or m; +inf for continuous joints."""
        return self._upper

    @property
    def velocity_limits(self) -> np.ndarray:
        """
        Velocity limits (N,), rad/s or m/s; always positive.

        1.0 (``DEFAULT_VELOCITY_LIMIT``) where the URDF gives none or one that is not
        positive; see :attr:`joints_without_velocity_limit`.
        """
        return self._velocity_limits

    @property
    def joints_without_velocity_limit(self) -> Tuple[str, ...]:
        """
        Return the independent joints whose URDF gives no positive velocity limit, base to tip.

        Their :attr:`velocity_limits` entry is ``DEFAULT_VELOCITY_LIMIT`` (1 rad/s or m/s):
        a zero or negative ``velocity`` (which urdfdom accepts) or a continuous joint without
        ``<limit>``. The node warns once per description, naming them.
        """
        return self._without_velocity_limit

    @property
    def is_prismatic(self) -> np.ndarray:
        """(N,) bool: True where the joint translates (its variable is in m)."""
        return self._is_prismatic

    @property
    def is_continuous(self) -> np.ndarray:
        """(N,) bool: True where the joint is continuous (no position limits)."""
        return self._is_continuous

    @property
    def axes(self) -> np.ndarray:
        """(N, 3) unit joint axes, each expressed in its own joint frame."""
        return self._axes

    @property
    def length_scale(self) -> float:
        """
        Return a characteristic length of the chain, m.

        The sum of the distances from each independent joint's origin to the next and from
        the last to the tip, at the zero configuration; at least 1 mm. Solvers weigh
        orientation errors against position errors with it.
        """
        return self._length_scale

    @property
    def tip_offset(self) -> np.ndarray:
        """
        Return the constant (4, 4) transform from the last moving joint's aligned frame to the tip.

        The aligned frame is the one :meth:`poses` returns (the joint axis is its z axis).
        When :attr:`tip_offset_is_exact`, it is row N-1 of :meth:`poses`, so
        ``target @ inv(tip_offset)`` is the pose that row must take for the tip to reach
        ``target``. Read-only.
        """
        return self._tip_offset

    @property
    def tip_offset_is_exact(self) -> bool:
        """Whether ``poses(q)[N-1] @ tip_offset == poses(q)[N]`` (no mimic joint moves last)."""
        return self.arrays.tip_follows_last_joint

    # Configurations ------------------------------------------------------------------------

    def _configuration(self, q) -> np.ndarray:
        q = np.asarray(q, dtype=float)
        if q.shape != (self._num_joints,):
            raise InvalidSeedError(
                'a configuration of the chain from %r to %r has %d values (%s), got shape %s'
                % (self._base_link, self._tip_link, self._num_joints,
                   ', '.join(self._joint_names), q.shape))
        return q

    def clip(self, q) -> np.ndarray:
        """Return a copy of ``q`` moved into the limits (continuous joints untouched)."""
        return np.clip(self._configuration(q), self._lower, self._upper)

    def mid_configuration(self) -> np.ndarray:
        """Middle of the limits, (N,); 0 for continuous joints."""
        return self._mid.copy()

    def random_configuration(self, rng: np.random.Generator) -> np.ndarray:
        """Uniform sample within the limits, (N,); continuous joints in [-pi, pi]."""
        # rng.uniform's very draws, without its argument checks (dearer than the sampling).
        return self._sample_low + self._sample_width * rng.random(self._num_joints)

    def within_limits(self, q, tolerance: float = 1e-9) -> bool:
        """Whether every value of ``q`` lies within its limits widened by ``tolerance``."""
        q = self._configuration(q)
        return bool(np.all(q >= self._lower - tolerance) and np.all(q <= self._upper + tolerance))

    # Kinematics ----------------------------------------------------------------------------

    def _frames(self, q, arrays: Optional[ChainArrays] = None) -> np.ndarray:
        frames = np.empty((self._num_segments + 1, 4, 4))
        forward_frames(self.arrays if arrays is None else arrays, self._configuration(q), frames)
        return frames

    def fk(self, q) -> np.ndarray:
        """
        Return the pose (4x4) of the tip link in the base link frame.

        ``q`` holds the N joint values, rad or m. Raises :class:`InvalidSeedError` when its
        length is not N; values are not checked for finiteness.
        """
        return self._frames(q)[-1]

    def fk_batch(self, configurations) -> np.ndarray:
        """
        Return the tip poses (K, 4, 4) for K configurations given as a (K, N) array.

        Raises :class:`InvalidSeedError` when the array is not (K, N).
        """
        configurations = np.asarray(configurations, dtype=float)
        if configurations.ndim != 2 or configurations.shape[1] != self._num_joints:
            raise InvalidSeedError(
                'fk_batch needs a (K, %d) array of configurations, got shape %s'
                % (self._num_joints, configurations.shape))
        return tip_poses(self.arrays, np.ascontiguousarray(configurations))

    def poses(self, q, arrays: Optional[ChainArrays] = None) -> np.ndarray:
        """
        Return the aligned frames of the independent joints and the tip pose, in one pass.

        Returns an (N + 1, 4, 4) array in the base frame: row i < N is the frame of joint i
        after its own motion, turned so that the joint's axis is its z axis (column 2; column 3
        is a point on the axis), row N is the tip pose (:meth:`fk`). Raises
        :class:`InvalidSeedError` when ``q`` does not hold N values.
        """
        frames = self._frames(q, arrays)
        return frames[np.append(self._frame_rows, self._num_segments)]

    def joint_frames(self, q) -> Tuple[np.ndarray, np.ndarray]:
        """
        Return the base-frame poses of the joint frames and of the tip.

        Returns ``(frames, tip)``: ``frames`` (N, 4, 4) holds each independent joint's frame
        after its own motion (its axis in the base frame is ``frames[i, :3, :3] @ axes[i]``
        and passes through ``frames[i, :3, 3]``), ``tip`` (4, 4) equals :meth:`fk`. Raises
        :class:`InvalidSeedError` when ``q`` does not hold N values.
        """
        poses = self.poses(q)
        frames = poses[:-1].copy()
        # The URDF joint frames are the aligned ones turned back by a constant rotation.
        frames[:, :3, :3] = np.matmul(poses[:-1, :3, :3],
                                      np.transpose(self._alignments, (0, 2, 1)))
        return frames, poses[-1]

    def jacobian(self, q) -> np.ndarray:
        """
        Return the geometric Jacobian (6, N) of the tip in the base frame, linear rows first.

        Column j maps the velocity of joint j (rad/s or m/s) to the tip's linear velocity
        (m/s, of the tip origin) and angular velocity (rad/s), both in the base frame.
        Mimic joints add their multiplier times their own column to their leader's. Raises
        :class:`InvalidSeedError` when ``q`` does not hold N values.
        """
        columns = np.empty((6, self._num_joints))
        jacobian_from_frames(self.arrays, self._frames(q), columns)
        return columns

    def fk_and_jacobian(self, q) -> Tuple[np.ndarray, np.ndarray]:
        """
        Return :meth:`fk` and :meth:`jacobian` of one configuration from one pass over the frames.

        A step that needs both (a null-space climb measures every candidate, then steps from
        it) pays for the frames once. Raises :class:`InvalidSeedError` when ``q`` does not hold
        N values.
        """
        frames = self._frames(q)
        columns = np.empty((6, self._num_joints))
        jacobian_from_frames(self.arrays, frames, columns)
        return frames[-1], columns

    def __repr__(self) -> str:
        """Name the chain's links and joints."""
        return 'Chain(%r -> %r, %d joints: %s)' % (
            self._base_link, self._tip_link, self._num_joints, ', '.join(self._joint_names))
