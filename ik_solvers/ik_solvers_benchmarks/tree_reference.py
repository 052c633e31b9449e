# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The tree benchmark's independent kinematics and its Levenberg–Marquardt anchor.

:class:`TreeReference` computes every tip's pose and Jacobian with Pinocchio (PyPI ``pin``)
from the URDF text when it is installed, otherwise from each tip's own chain (the project's
chain kinematics, a separate code path from the tree's compiled pass). :func:`lm_anchor`
solves the stacked problem of every tip with ``scipy.optimize.least_squares(method='lm')`` on
that kinematics, from random configurations within the limits until the answer meets every
tip's tolerances within the limits, or the deadline. Lengths in metres, angles in radians.
"""

import time
from typing import List, Optional, Sequence, Tuple

import numpy as np
from scipy.optimize import least_squares
from scipy.spatial.transform import Rotation

from ik_solvers.kinematics.tree import KinematicTree

try:
    import pinocchio
except ImportError:  # the chains' kinematics stand in
    pinocchio = None

__all__ = ['TreeReference', 'lm_anchor', 'reference_name', 'tip_errors']


def reference_name() -> str:
    """Return which kinematics checks the answers: Pinocchio, or each tip's chain."""
    return 'Pinocchio %s' % pinocchio.__version__ if pinocchio is not None else 'chain FK'


class TreeReference:
    """Every tip's pose (4x4, base frame) and Jacobian (6xN, base-aligned) by Pinocchio."""

    def __init__(self, urdf_xml: str, tree: KinematicTree):
        """
        Read the URDF with Pinocchio, or keep the tree's chains.

        The chains are kept when Pinocchio is missing or reads a tree joint otherwise than as
        one coordinate (a continuous or mimic joint). Joints of the description off the tree
        (a humanoid's legs and head) stay at Pinocchio's neutral configuration: they move no
        tip in the base's frame.
        """
        self.tree = tree
        self.pinocchio = False
        if pinocchio is None:
            return
        self.model = pinocchio.buildModelFromXML(urdf_xml)
        self.data = self.model.createData()
        self.base = self.model.getFrameId(tree.base_link)
        self.tips = [self.model.getFrameId(tip) for tip in tree.tip_links]
        joints = [self.model.joints[self.model.getJointId(name)] for name in tree.joint_names]
        if any(joint.nq != 1 or joint.idx_q < 0 for joint in joints):
            return
        # Every joint between the base and a tip must be a tree joint: Pinocchio reads a mimic
        # joint as a joint of its own, which would stay at its neutral value here.
        tree_joints = {self.model.getJointId(name) for name in tree.joint_names}
        above_base = set(self._ancestors(self.model.frames[self.base].parentJoint))
        for tip in self.tips:
            if any(joint not in tree_joints
                   for joint in self._ancestors(self.model.frames[tip].parentJoint)
                   if joint not in above_base):
                return
        self.q_index = [joint.idx_q for joint in joints]
        self.v_index = [joint.idx_v for joint in joints]
        self.pinocchio = True

    def _ancestors(self, joint: int) -> List[int]:
        """Return the joint and every joint above it, the universe (0) left out."""
        found = []
        while joint > 0:
            found.append(joint)
            joint = self.model.parents[joint]
        return found

    @property
    def name(self) -> str:
        """Return which kinematics checks this tree: Pinocchio or each tip's chain."""
        return 'Pinocchio' if self.pinocchio else 'chain FK'

    def _configuration(self, q: np.ndarray) -> np.ndarray:
        full = pinocchio.neutral(self.model)
        full[self.q_index] = q
        return full

    def poses(self, q: np.ndarray) -> np.ndarray:
        """Return every tip's pose, (T, 4, 4)."""
        if not self.pinocchio:
            return np.array([chain.fk(q[variables]) for chain, variables
                             in zip(self.tree.chains, self.tree.tip_variables)])
        pinocchio.framesForwardKinematics(self.model, self.data, self._configuration(q))
        base = self.data.oMf[self.base].inverse()
        return np.array([(base * self.data.oMf[tip]).homogeneous for tip in self.tips])

    def jacobians(self, q: np.ndarray) -> np.ndarray:
        """Return every tip's geometric Jacobian in the base frame, (T, 6, N)."""
        if not self.pinocchio:
            out = np.zeros((len(self.tree.tip_links), 6, self.tree.num_joints))
            for t, (chain, variables) in enumerate(zip(self.tree.chains,
                                                       self.tree.tip_variables)):
                out[t][:, variables] = chain.jacobian(q[variables])
            return out
        full = self._configuration(q)
        pinocchio.computeJointJacobians(self.model, self.data, full)
        pinocchio.updateFramePlacements(self.model, self.data)
        rotation = self.data.oMf[self.base].rotation.T
        out = []
        for tip in self.tips:
            j = pinocchio.getFrameJacobian(self.model, self.data, tip,
                                           pinocchio.LOCAL_WORLD_ALIGNED)[:, self.v_index]
            out.append(np.vstack((rotation @ j[:3], rotation @ j[3:])))
        return np.array(out)


def tip_errors(poses: np.ndarray, targets: np.ndarray, modes: Sequence[str]) -> np.ndarray:
    """Return each tip's position (m) and orientation (rad) error, (T, 2); 0 rad unless full."""
    out = np.zeros((len(modes), 2))
    for t, mode in enumerate(modes):
        out[t, 0] = np.linalg.norm(poses[t, :3, 3] - targets[t, :3, 3])
        if mode == 'full':
            out[t, 1] = Rotation.from_matrix(targets[t, :3, :3].T @ poses[t, :3, :3]).magnitude()
    return out


def _residual(reference: TreeReference, targets: np.ndarray, modes: Sequence[str],
              q: np.ndarray, rows: int) -> np.ndarray:
    poses = reference.poses(q)
    out = np.zeros(rows)
    for t, mode in enumerate(modes):
        out[6 * t:6 * t + 3] = poses[t, :3, 3] - targets[t, :3, 3]
        if mode == 'full':
            out[6 * t + 3:6 * t + 6] = Rotation.from_matrix(
                poses[t, :3, :3] @ targets[t, :3, :3].T).as_rotvec()
    return out


def _jacobian(reference: TreeReference, targets: np.ndarray, modes: Sequence[str],
              q: np.ndarray, rows: int) -> np.ndarray:
    jacobians, poses = reference.jacobians(q), reference.poses(q)
    out = np.zeros((rows, q.shape[0]))
    for t, mode in enumerate(modes):
        out[6 * t:6 * t + 3] = jacobians[t, :3]
        if mode == 'full':
            # d log(R R_t^T) = Jr^-1 (R R_t^T)^T w: the rotation log's right Jacobian inverse.
            relative = poses[t, :3, :3] @ targets[t, :3, :3].T
            out[6 * t + 3:6 * t + 6] = _log_jacobian(relative) @ relative.T @ jacobians[t, 3:]
    return out


def _log_jacobian(rotation: np.ndarray) -> np.ndarray:
    """Return the right Jacobian inverse of SO(3)'s log at ``rotation``, (3, 3)."""
    vector = Rotation.from_matrix(rotation).as_rotvec()
    angle = np.linalg.norm(vector)
    skew = np.array([[0, -vector[2], vector[1]], [vector[2], 0, -vector[0]],
                     [-vector[1], vector[0], 0]])
    if angle < 1e-8:
        return np.eye(3) + 0.5 * skew
    gain = (1.0 / angle ** 2) - (1 + np.cos(angle)) / (2 * angle * np.sin(angle))
    return np.eye(3) + 0.5 * skew + gain * skew @ skew


def lm_anchor(reference: TreeReference, targets: np.ndarray, modes: Sequence[str],
              tolerances: Tuple[float, float], timeout: float,
              rng: np.random.Generator) -> Tuple[bool, Optional[np.ndarray], float, int]:
    """
    Solve every tip's goal by Levenberg–Marquardt with random restarts.

    MINPACK's LM has no bounds, so it runs on ``z`` with ``q = mid + half sin(z)`` (every answer
    within the limits); the first start is the middle of the limits, later ones random within
    them; an answer counts when every tip meets ``tolerances`` (m, rad).

    :returns: (success, the answer or None, seconds, starts).
    """
    tree = reference.tree
    rows = max(6 * len(modes), tree.num_joints)   # 'lm' needs as many residuals as variables
    mid, half = 0.5 * (tree.lower + tree.upper), 0.5 * (tree.upper - tree.lower)
    started, starts = time.perf_counter(), 0
    q = tree.mid_configuration()
    while time.perf_counter() - started < timeout:
        starts += 1
        fit = least_squares(
            lambda z: _residual(reference, targets, modes, mid + half * np.sin(z), rows),
            np.arcsin(np.clip((q - mid) / half, -1, 1)),
            jac=lambda z: _jacobian(reference, targets, modes, mid + half * np.sin(z), rows)
            * (half * np.cos(z)),
            method='lm', xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=100)
        q = mid + half * np.sin(fit.x)
        errors = tip_errors(reference.poses(q), targets, modes)
        if np.all(errors[:, 0] <= tolerances[0]) and np.all(errors[:, 1] <= tolerances[1]):
            return True, q, time.perf_counter() - started, starts
        q = tree.random_configuration(rng)
    return False, None, time.perf_counter() - started, starts
