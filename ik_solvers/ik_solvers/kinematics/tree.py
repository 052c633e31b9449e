# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A tree cut out of a URDF: one base link, several tip links, every joint one variable.

Each tip's path from the base is cut as a :class:`.chain.Chain` (fixed joints folded, mimic,
prismatic and continuous joints as on chains); the tree then names each joint once, so a
joint shared by several tips (a waist under two arms) is one variable. Forward kinematics and
the Jacobians of every tip come from one compiled pass (:mod:`.tree_kernels`). Lengths in
metres, angles in radians, poses 4x4 in the base link's frame.
"""

from typing import Dict, List, Sequence, Tuple

import numpy as np

from .chain import Chain
from .tree_kernels import tree_frames, tree_jacobians, TreeArrays
from .urdf_model import RobotModel
from ..exceptions import InvalidSeedError, RobotModelError

__all__ = ['KinematicTree']


class KinematicTree:
    """
    The joints between one base link and several tip links of a URDF.

    A tip may lie on another tip's path (an elbow and the hand of one arm). The variables are
    ordered as met walking the tips' paths in the given order, base first.
    """

    def __init__(self, model: RobotModel, base_link: str, tip_links: Sequence[str]):
        """
        Cut the tree.

        :param model: the robot.
        :param base_link: the link every pose is expressed in.
        :param tip_links: the tips, at least one, each once.
        :raises RobotModelError: for no tip, a tip named twice, an unknown link, a tip that
            is not below the base, a tip whose path has no moving joint, and all that
            :meth:`RobotModel.chain` refuses.
        """
        tip_links = tuple(tip_links)
        if not tip_links:
            raise RobotModelError('a tree needs at least one tip link')
        twice = sorted({tip for tip in tip_links if tip_links.count(tip) > 1})
        if twice:
            raise RobotModelError('tip link(s) listed twice: %s' % ', '.join(twice))
        self._base_link, self._tip_links = base_link, tip_links
        self._chains: Tuple[Chain, ...] = tuple(model.chain(base_link, tip) for tip in tip_links)
        names: List[str] = []
        index: Dict[str, int] = {}
        for chain in self._chains:
            for name in chain.joint_names:
                if name not in index:
                    index[name] = len(names)
                    names.append(name)
        self._joint_names = tuple(names)
        self._variables = tuple(np.array([index[name] for name in chain.joint_names],
                                         dtype=np.int64) for chain in self._chains)
        self._gather_limits(index)
        self.arrays = self._flat_arrays(index)
        self._point_tree()
        self._length_scale = max(chain.length_scale for chain in self._chains)

    def _gather_limits(self, index: Dict[str, int]) -> None:
        n = len(self._joint_names)
        self._lower, self._upper = np.empty(n), np.empty(n)
        self._sample_low, self._sample_width = np.empty(n), np.empty(n)
        self._is_prismatic = np.zeros(n, dtype=bool)
        self._is_continuous = np.zeros(n, dtype=bool)
        for chain in self._chains:
            for i, name in enumerate(chain.joint_names):
                v = index[name]
                self._lower[v], self._upper[v] = chain.lower[i], chain.upper[i]
                self._is_prismatic[v] = chain.is_prismatic[i]
                self._is_continuous[v] = chain.is_continuous[i]
                limits = chain.arrays.joint_limits
                self._sample_low[v], self._sample_width[v] = limits[i, 2], limits[i, 3]
        finite = ~self._is_continuous
        self._mid = np.zeros(n)
        self._mid[finite] = 0.5 * (self._lower[finite] + self._upper[finite])
        self._sampling = np.vstack((self._sample_low, self._sample_width))
        for array in (self._lower, self._upper, self._is_prismatic, self._is_continuous):
            array.setflags(write=False)

    def _flat_arrays(self, index: Dict[str, int]) -> TreeArrays:
        segments, motion, variable, starts = [], [], [], [0]
        joint_row = np.full(len(self._joint_names), -1, dtype=np.int64)
        gain = np.ones(len(self._joint_names))
        for chain, tree_variables in zip(self._chains, self._variables):
            arrays = chain.arrays
            rows = arrays.segments.shape[0]
            segments.append(arrays.segments)
            motion.append(np.vstack((arrays.segment_motion, np.zeros((1, 3)))))
            variable.append(np.append(tree_variables[arrays.segment_variable], 0))
            for i, row in enumerate(arrays.joint_segment):
                v = tree_variables[i]
                if joint_row[v] < 0:
                    joint_row[v] = starts[-1] + row
                    gain[v] = arrays.segment_motion[row, 0]
            starts.append(starts[-1] + rows)
        self._joint_gain = gain
        return TreeArrays(np.ascontiguousarray(np.concatenate(segments)),
                          np.ascontiguousarray(np.concatenate(motion)),
                          np.concatenate(variable).astype(np.int64),
                          np.array(starts, dtype=np.int64), joint_row)

    def _point_tree(self) -> None:
        # Nodes: the N joint origins, then the T tips, then the root (the base origin).
        n, t = len(self._joint_names), len(self._tip_links)
        parent = np.full(n + t + 1, -1, dtype=np.int64)
        for tip, tree_variables in enumerate(self._variables):
            previous = n + t
            for v in tree_variables:
                if parent[v] < 0:
                    parent[v] = previous
                previous = v
            parent[n + tip] = previous
        depth = np.zeros(n + t + 1, dtype=np.int64)
        for node in range(n + t):
            walk = node
            while parent[walk] >= 0:
                depth[node] += 1
                walk = parent[walk]
        self.node_parent = parent
        self.node_order = np.argsort(depth, kind='stable').astype(np.int64)
        below = np.zeros((n, n + t + 1), dtype=np.bool_)
        for node in range(n + t):
            walk = parent[node]
            while walk >= 0 and walk < n:
                below[walk, node] = True
                walk = parent[walk]
        self.node_below = below

    # Description ---------------------------------------------------------------------------

    @property
    def base_link(self) -> str:
        """Return the link every pose of the tree is expressed in."""
        return self._base_link

    @property
    def tip_links(self) -> Tuple[str, ...]:
        """Return the T tip links, in the order of every per-tip array."""
        return self._tip_links

    @property
    def chains(self) -> Tuple[Chain, ...]:
        """Return each tip's path as a chain (its own variable order)."""
        return self._chains

    @property
    def tip_variables(self) -> Tuple[np.ndarray, ...]:
        """Return, per tip, the tree index of each variable of its chain."""
        return self._variables

    @property
    def num_joints(self) -> int:
        """Return the number N of independent variables of the whole tree."""
        return len(self._joint_names)

    @property
    def joint_names(self) -> Tuple[str, ...]:
        """Return the N variables' joint names."""
        return self._joint_names

    @property
    def joint_gain(self) -> np.ndarray:
        """(N,) the multiplier of each variable's own frame (1, or a mimic's where it leads)."""
        return self._joint_gain

    @property
    def lower(self) -> np.ndarray:
        """Lower limits (N,), rad or m; -inf for continuous joints."""
        return self._lower

    @property
    def upper(self) -> np.ndarray:
        """Upper limits (N,), rad or m; +inf for continuous joints."""
        return self._upper

    @property
    def is_prismatic(self) -> np.ndarray:
        """(N,) bool: True where the joint translates."""
        return self._is_prismatic

    @property
    def is_continuous(self) -> np.ndarray:
        """(N,) bool: True where the joint has no position limits."""
        return self._is_continuous

    @property
    def sampling(self) -> np.ndarray:
        """
        (2, N) low end and width of each variable's range of random configurations.

        Continuous joints sample [-pi, pi]. Shared, not to be written.
        """
        return self._sampling

    @property
    def length_scale(self) -> float:
        """Return the largest of the tips' chain length scales, m (weighs rotation errors)."""
        return self._length_scale

    # Configurations ------------------------------------------------------------------------

    def configuration(self, q) -> np.ndarray:
        """
        Return ``q`` as a float array of the N values.

        :raises InvalidSeedError: when it does not hold N finite values.
        """
        q = np.asarray(q, dtype=float)
        if q.shape != (self.num_joints,) or not np.isfinite(q).all():
            raise InvalidSeedError('a configuration of the tree has %d finite values (%s), got '
                                   'shape %s' % (self.num_joints, ', '.join(self._joint_names),
                                                 q.shape))
        return q

    def clip_into_limits(self, q) -> np.ndarray:
        """Return a copy of ``q`` moved into the limits (continuous joints untouched)."""
        # minimum(maximum()) rather than np.clip: the same values, a few microseconds less
        # per call, and a tree solve calls it once.
        return np.minimum(np.maximum(self.configuration(q), self._lower), self._upper)

    def mid_configuration(self) -> np.ndarray:
        """Middle of the limits, (N,); 0 for continuous joints."""
        return self._mid.copy()

    def random_configuration(self, rng: np.random.Generator) -> np.ndarray:
        """Uniform sample within the limits, (N,); continuous joints in [-pi, pi]."""
        return self._sample_low + self._sample_width * rng.random(self.num_joints)

    def within_limits(self, q, tolerance: float = 1e-9) -> bool:
        """Whether every value of ``q`` lies within its limits widened by ``tolerance``."""
        q = self.configuration(q)
        return bool(np.all(q >= self._lower - tolerance) and np.all(q <= self._upper + tolerance))

    # Kinematics ----------------------------------------------------------------------------

    def frames(self, q) -> np.ndarray:
        """Return every path frame, (K, 4, 4), as :func:`.tree_kernels.tree_frames` writes it."""
        frames = np.empty((self.arrays.segments.shape[0], 4, 4))
        tree_frames(self.arrays, self.configuration(q), frames)
        return frames

    def fk(self, q) -> np.ndarray:
        """
        Return the pose of every tip, (T, 4, 4), in the base frame.

        :raises InvalidSeedError: when ``q`` does not hold N finite values.
        """
        return self.frames(q)[self.arrays.starts[1:] - 1]

    def jacobians(self, q) -> np.ndarray:
        """
        Return every tip's geometric Jacobian, (T, 6, N), linear rows first.

        :raises InvalidSeedError: when ``q`` does not hold N finite values.
        """
        out = np.empty((len(self._tip_links), 6, self.num_joints))
        tree_jacobians(self.arrays, self.frames(q), out)
        return out

    def __repr__(self) -> str:
        return 'KinematicTree(%r -> %s, %d joints)' % (
            self._base_link, ', '.join(self._tip_links), self.num_joints)
