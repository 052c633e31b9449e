# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Prefer configurations where the tip moves freely: Yoshikawa's manipulability."""

import numpy as np

from ..kinematics.manipulability import manipulability
from .preference import Preference

__all__ = ['Manipulability']

# Yoshikawa's measure of the whole Jacobian needs at least six variables; below that it is 0
# everywhere, so the linear rows alone count.
_FULL_ROWS = 6
_LINEAR_ROWS = 3
# Step of the central differences, rad or m (as the base class's).
_DIFFERENCE_STEP = 1e-6


class Manipulability(Preference):
    """``sqrt(det(J J^T))`` of the geometric Jacobian at the tip (Yoshikawa, 1985)."""

    name = 'manipulability'
    turn_invariant = True

    def __init__(self, chain, **keywords) -> None:
        super().__init__(chain, **keywords)
        self._rows = _FULL_ROWS if chain.num_joints >= _FULL_ROWS else _LINEAR_ROWS
        self._batch = np.empty((1, chain.num_joints))

    def score(self, q: np.ndarray) -> float:
        """Return Yoshikawa's manipulability, >= 0 (0 at a singularity)."""
        self._batch[0] = q
        return float(manipulability(self.chain.arrays, self._batch, self._rows)[0])

    def gradient(self, q: np.ndarray) -> np.ndarray:
        """Return the central differences of :meth:`score`, all 2N probes in one batch."""
        q = np.asarray(q, dtype=float)
        offsets = _DIFFERENCE_STEP * np.eye(q.shape[0])
        probes = np.concatenate((q + offsets, q - offsets))
        values = manipulability(self.chain.arrays, probes, self._rows)
        size = q.shape[0]
        return (values[:size] - values[size:]) / (2.0 * _DIFFERENCE_STEP)
