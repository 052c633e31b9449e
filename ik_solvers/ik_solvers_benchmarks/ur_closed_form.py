# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Closed-form inverse kinematics of a Universal Robots arm: the benchmark's oracle of all solutions.

A UR arm is a 6R chain with three parallel middle axes; with the standard Denavit-Hartenberg
parameters (d1, a2, a3, d4, d5, d6; alpha = pi/2, 0, 0, pi/2, -pi/2, 0) a generic pose has
eight solutions modulo a turn: two shoulders (theta1), two wrists (theta5 = +-), and for each
two elbows (theta3 = +-). The derivation is the usual geometric one (Hawkins, "Analytic Inverse
Kinematics for the Universal Robots UR-5/UR-10 Arms", 2013): theta1 from the wrist centre's
distance to the base axis against d4, theta5 from the tool axis' height in the shoulder plane,
theta6 from the base axes seen from the tool, then a planar two-link problem for theta2 and
theta3 and the remainder theta4. Each candidate is checked by the URDF chain's own forward
kinematics, so a wrong frame or sign shows as a missing solution, never as a wrong one.

The URDF's base and tool frames may differ from the DH frames by a turn about the base axis and
a constant tool rotation (the vendor description's ``base_link`` faces the other way);
:class:`URClosedForm` finds that rotation among the quarter turns and the tool transform at
q = 0, and checks the fit on random configurations.
"""

import math
from typing import List, Sequence

import numpy as np

__all__ = ['UR5_DH', 'URClosedForm']

#: The published UR5 parameters, m: d1, a2, a3, d4, d5, d6.
UR5_DH = (0.089159, -0.425, -0.39225, 0.10915, 0.09465, 0.0823)
_ALPHA = (math.pi / 2, 0.0, 0.0, math.pi / 2, -math.pi / 2, 0.0)
# A pose error below this (m, and rad) counts as met by a candidate.
_MET = 1e-7
# Below this |sin(theta5)| the wrist is singular: theta6 is free and we take 0.
_SINGULAR = 1e-9


def _dh(theta: float, d: float, a: float, alpha: float) -> np.ndarray:
    ct, st, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


class URClosedForm:
    """
    All closed-form solutions of a UR chain given as a URDF chain.

    :param chain: the :class:`ik_solvers.Chain` from the base link to the tool (6 joints).
    :param dh: (d1, a2, a3, d4, d5, d6), m.
    :raises ValueError: the chain does not match the DH geometry up to base and tool frames.
    """

    def __init__(self, chain, dh: Sequence[float] = UR5_DH) -> None:
        self.chain = chain
        d1, a2, a3, d4, d5, d6 = (float(value) for value in dh)
        self._d = (d1, 0.0, 0.0, d4, d5, d6)
        self._a = (0.0, a2, a3, 0.0, 0.0, 0.0)
        rng = np.random.default_rng(7)
        probes = [rng.uniform(-math.pi, math.pi, 6) for _ in range(5)]
        at_zero = chain.fk(np.zeros(6))
        for quarter in range(4):
            base = np.eye(4)
            angle = quarter * math.pi / 2
            base[:2, :2] = [[math.cos(angle), -math.sin(angle)],
                            [math.sin(angle), math.cos(angle)]]
            tool = np.linalg.inv(self.dh_fk(np.zeros(6))) @ np.linalg.inv(base) @ at_zero
            if all(np.allclose(base @ self.dh_fk(q) @ tool, chain.fk(q), atol=1e-9)
                   for q in probes):
                self._base_inverse = np.linalg.inv(base)
                self._tool_inverse = np.linalg.inv(tool)
                return
        raise ValueError('the chain is not a UR arm with these DH parameters')

    def dh_fk(self, q: Sequence[float]) -> np.ndarray:
        """Return the DH flange pose of ``q`` (rad) in the DH base frame."""
        pose = np.eye(4)
        for index in range(6):
            pose = pose @ _dh(q[index], self._d[index], self._a[index], _ALPHA[index])
        return pose

    def solutions(self, target: np.ndarray) -> List[np.ndarray]:
        """
        Return every solution of ``target`` (URDF base and tool frames) in (-pi, pi], rad.

        Each is checked by the chain's forward kinematics; up to eight.
        """
        pose = self._base_inverse @ np.asarray(target, dtype=float) @ self._tool_inverse
        d1, _, _, d4, d5, d6 = self._d
        a2, a3 = self._a[1], self._a[2]
        found: List[np.ndarray] = []
        wrist = pose[:3, 3] - d6 * pose[:3, 2]
        radius = math.hypot(wrist[0], wrist[1])
        if radius < abs(d4):
            return found
        psi = math.atan2(wrist[1], wrist[0])
        phi = math.acos(max(-1.0, min(1.0, d4 / radius)))
        for theta1 in (psi + phi + math.pi / 2, psi - phi + math.pi / 2):
            s1, c1 = math.sin(theta1), math.cos(theta1)
            cosine5 = (pose[0, 3] * s1 - pose[1, 3] * c1 - d4) / d6
            if abs(cosine5) > 1.0 + 1e-12:
                continue
            base5 = math.acos(max(-1.0, min(1.0, cosine5)))
            for theta5 in (base5, -base5):
                s5 = math.sin(theta5)
                if abs(s5) < _SINGULAR:
                    theta6 = 0.0
                else:
                    theta6 = math.atan2((-pose[0, 1] * s1 + pose[1, 1] * c1) / s5,
                                        (pose[0, 0] * s1 - pose[1, 0] * c1) / s5)
                first = _dh(theta1, d1, 0.0, _ALPHA[0])
                last = (_dh(theta5, d5, 0.0, _ALPHA[4]) @ _dh(theta6, d6, 0.0, _ALPHA[5]))
                middle = np.linalg.inv(first) @ pose @ np.linalg.inv(last)
                # Frame 3's origin seen from frame 1, in the plane of the parallel axes.
                point = middle @ np.array([0.0, -d4, 0.0, 1.0])
                distance_sq = point[0] ** 2 + point[1] ** 2
                cosine3 = (distance_sq - a2 * a2 - a3 * a3) / (2.0 * a2 * a3)
                if abs(cosine3) > 1.0 + 1e-12:
                    continue
                base3 = math.acos(max(-1.0, min(1.0, cosine3)))
                for theta3 in (base3, -base3):
                    theta2 = (-math.atan2(point[1], -point[0])
                              + math.asin(max(-1.0, min(1.0, a3 * math.sin(theta3)
                                                        / math.sqrt(distance_sq)))))
                    upper = (np.linalg.inv(_dh(theta2, 0.0, a2, _ALPHA[1])
                                           @ _dh(theta3, 0.0, a3, _ALPHA[2])) @ middle)
                    theta4 = math.atan2(upper[1, 0], upper[0, 0])
                    q = np.array([theta1, theta2, theta3, theta4, theta5, theta6])
                    q = (q + math.pi) % (2.0 * math.pi) - math.pi
                    reached = self.chain.fk(q)
                    if (np.linalg.norm(reached[:3, 3] - target[:3, 3]) < _MET
                            and np.linalg.norm(reached[:3, :3] - target[:3, :3]) < _MET):
                        found.append(q)
        return found
