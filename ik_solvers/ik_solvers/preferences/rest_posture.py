# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Prefer the configuration nearest a rest posture, by a weighted Euclidean distance."""

import numpy as np

from ..exceptions import InvalidSolverOptionError
from .preference import Preference

__all__ = ['RestPosture']


class RestPosture(Preference):
    """
    Minus ``sqrt(sum w_i (q_i - r_i)^2)``, r the rest posture (rad or m), w the weights.

    Without a rest posture the middle of the limits is the rest; without weights every joint
    weighs 1.

    :raises InvalidSolverOptionError: the rest posture or the weights have the wrong length,
        non-finite values, or a negative weight.
    """

    name = 'rest_posture'

    def __init__(self, chain, **keywords) -> None:
        super().__init__(chain, **keywords)
        size = chain.num_joints
        if self.rest_posture is None:
            self.rest_posture = chain.mid_configuration()
        if self.weights is None:
            self.weights = np.ones(size)
        for label, values in (('rest_posture', self.rest_posture), ('weights', self.weights)):
            if values.shape != (size,) or not np.all(np.isfinite(values)):
                raise InvalidSolverOptionError('%s needs %d finite values, got %r'
                                               % (label, size, values.tolist()))
        if np.any(self.weights < 0.0):
            raise InvalidSolverOptionError('weights must not be negative, got %r'
                                           % (self.weights.tolist(),))

    def starts(self) -> list:
        """Return the rest posture itself: the search from it ends on the nearest branch."""
        return [self.rest_posture.copy()]

    def upper_bound(self) -> float:
        """Return 0: no configuration is nearer the rest than the rest itself."""
        return 0.0

    def turn_centre(self) -> np.ndarray:
        """Return the rest posture: a continuous joint's copies are looked for around it."""
        return self.rest_posture

    def _best_copy(self, q: np.ndarray, choices: list) -> np.ndarray:
        """Return each joint's copy nearest the rest (the sum is smallest term by term)."""
        best = q.copy()
        for index, values in enumerate(choices):
            if values.size > 1 and self.weights[index] > 0.0:
                best[index] = values[int(np.argmin(np.abs(values - self.rest_posture[index])))]
        return best

    def score(self, q: np.ndarray) -> float:
        """Return minus the weighted distance to the rest posture, rad or m."""
        difference = np.asarray(q, dtype=float) - self.rest_posture
        return -float(np.sqrt(np.sum(self.weights * difference * difference)))

    def gradient(self, q: np.ndarray) -> np.ndarray:
        """Return the exact gradient of :meth:`score` (zero at the rest posture)."""
        difference = np.asarray(q, dtype=float) - self.rest_posture
        distance = float(np.sqrt(np.sum(self.weights * difference * difference)))
        if distance == 0.0:
            return np.zeros_like(difference)
        return -self.weights * difference / distance
