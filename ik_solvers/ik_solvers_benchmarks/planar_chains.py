# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The planar chains of the papers' experiments, and FABRIK as the paper states it, on points.

A planar chain here is a URDF of continuous joints about z, one after another along x: the
setting of Welman's, Aristidou and Lasenby's and Čejka's experiments, where the joint angles
follow exactly from the points. :func:`paper_fabrik` is the reference the FABRIK table
compares the library with: the two reaching passes on the points, nothing else.
"""

import math
from typing import Sequence, Tuple

import numpy as np

from ik_solvers.kinematics import RobotModel

__all__ = ['bending', 'paper_fabrik', 'planar_chain', 'planar_points', 'random_lengths', 'wrap']


def planar_chain(lengths: Sequence[float]):
    """
    Build the chain of ``len(lengths)`` z-axis hinges with the given link lengths.

    :param lengths: link lengths, m; the tip sits one last length beyond the last joint.
    :returns: The :class:`ik_solvers.kinematics.Chain` from ``base_link`` to ``tip``.
    :raises ValueError: no length, or one that is not positive.
    """
    if len(lengths) == 0 or min(lengths) <= 0.0:
        raise ValueError('a planar chain needs positive lengths, got %r' % (lengths,))
    parts = ['<robot name="planar_%d">' % len(lengths), '<link name="base_link"/>']
    parent = 'base_link'
    for index in range(len(lengths)):
        offset = 0.0 if index == 0 else float(lengths[index - 1])
        parts += ['<link name="link_%d"/>' % index,
                  '<joint name="joint_%d" type="continuous"><parent link="%s"/>'
                  '<child link="link_%d"/><origin xyz="%.17g 0 0"/><axis xyz="0 0 1"/></joint>'
                  % (index, parent, index, offset)]
        parent = 'link_%d' % index
    parts += ['<link name="tip"/>',
              '<joint name="tip_joint" type="fixed"><parent link="%s"/><child link="tip"/>'
              '<origin xyz="%.17g 0 0"/></joint>' % (parent, float(lengths[-1])),
              '</robot>']
    return RobotModel.from_urdf('\n'.join(parts)).chain('base_link', 'tip')


def random_lengths(rng: np.random.Generator, count: int) -> np.ndarray:
    """Return ``count`` link lengths drawn uniformly from [0.5, 1.5] m."""
    return rng.uniform(0.5, 1.5, count)


def planar_points(lengths: Sequence[float], angles: np.ndarray) -> np.ndarray:
    """Return the (N + 1, 2) joint points and tip of a planar chain at ``angles`` (rad), m."""
    headings = np.cumsum(angles)
    steps = np.asarray(lengths)[:, None] * np.column_stack((np.cos(headings),
                                                            np.sin(headings)))
    return np.vstack((np.zeros((1, 2)), np.cumsum(steps, axis=0)))


def paper_fabrik(lengths: Sequence[float], angles: np.ndarray, target: np.ndarray,
                 tolerance: float, cap: int = 10000) -> Tuple[int, np.ndarray]:
    """
    Run FABRIK (Aristidou and Lasenby 2011, reachable case) on the points of a planar chain.

    :param lengths: link lengths, m.
    :param angles: (N,) start angles, rad.
    :param target: (2,) tip target, m.
    :param tolerance: distance of the tip to the target at which it stops, m.
    :param cap: most iterations.
    :returns: ``(iterations, angles)``: the iterations run and the final angles (rad, each in
        (-pi, pi]), read from the points.
    """
    points = planar_points(lengths, angles)
    base = points[0].copy()
    count = len(lengths)
    iterations = 0
    while np.linalg.norm(points[-1] - target) > tolerance and iterations < cap:
        points[-1] = target
        for i in range(count - 1, -1, -1):
            step = points[i] - points[i + 1]
            points[i] = points[i + 1] + lengths[i] * step / np.linalg.norm(step)
        points[0] = base
        for i in range(count):
            step = points[i + 1] - points[i]
            points[i + 1] = points[i] + lengths[i] * step / np.linalg.norm(step)
        iterations += 1
    steps = np.diff(points, axis=0)
    headings = np.arctan2(steps[:, 1], steps[:, 0])
    return iterations, wrap(np.diff(np.concatenate(([0.0], headings))))


def wrap(angles: np.ndarray) -> np.ndarray:
    """Return the angles (rad) on the turn (-pi, pi]."""
    return -((-np.asarray(angles) + math.pi) % (2.0 * math.pi) - math.pi)


def bending(angles: np.ndarray) -> float:
    """Return the sum of the squared joint angles, each taken on (-pi, pi], rad^2."""
    return float(np.sum(wrap(angles) ** 2))
