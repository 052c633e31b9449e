# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Distance and rotation angle between batches of poses, by forward kinematics' own measure."""

from typing import Tuple

import numpy as np

__all__ = ['pose_errors']


def pose_errors(reached: np.ndarray, targets: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """
    Position distance and rotation angle between pairs of poses.

    :param reached: (K, 4, 4) poses, m.
    :param targets: (K, 4, 4) poses, m.
    :returns: ``(distances m, angles rad)``, each (K,); the angle is that of the rotation
        taking one orientation to the other, in [0, pi].
    """
    distances = np.linalg.norm(reached[:, :3, 3] - targets[:, :3, 3], axis=1)
    # R_target^T R_reached per pair; matmul is twice as fast as the same einsum here.
    relative = np.matmul(targets[:, :3, :3].transpose(0, 2, 1), reached[:, :3, :3])
    # atan2 of the sine and cosine stays accurate for tiny angles, where arccos loses digits.
    sine = 0.5 * np.linalg.norm(np.stack((relative[:, 2, 1] - relative[:, 1, 2],
                                          relative[:, 0, 2] - relative[:, 2, 0],
                                          relative[:, 1, 0] - relative[:, 0, 1]), axis=1),
                                axis=1)
    cosine = 0.5 * (np.trace(relative, axis1=1, axis2=2) - 1.0)
    return distances, np.arctan2(sine, cosine)
