# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Yoshikawa's manipulability of many configurations, compiled.

Yoshikawa (1985) measures how freely the tip can move at a configuration by
``w = sqrt(det(J J^T))``, J the geometric Jacobian: the volume of the velocity ellipsoid, 0 at a
singularity. A chain of fewer than six variables has ``det(J J^T) = 0`` everywhere, so for it
(and on request) only the three linear rows are used.
"""

import math

import numpy as np

from .jit import compiled
from .kernels import ChainArrays, forward_frames, jacobian_from_frames

__all__ = ['manipulability']


@compiled
def manipulability(chain: ChainArrays, configurations: np.ndarray, rows: int) -> np.ndarray:
    """
    Return Yoshikawa's manipulability of each configuration.

    :param chain: the chain's arrays.
    :param configurations: (K, N) configurations, rad or m.
    :param rows: 6 for the whole Jacobian (m/s and rad/s mixed, as Yoshikawa's), 3 for its
        linear rows only (m/s).
    :returns: (K,) values, >= 0 (m^3/s^3 per unit joint speed for 3 rows).
    """
    count, joints = configurations.shape
    frames = np.empty((chain.segments.shape[0], 4, 4))
    jacobian = np.empty((6, joints))
    values = np.empty(count)
    for k in range(count):
        forward_frames(chain, configurations[k], frames)
        jacobian_from_frames(chain, frames, jacobian)
        part = jacobian[:rows]
        product = part @ part.T
        values[k] = math.sqrt(max(np.linalg.det(product), 0.0))
    return values
