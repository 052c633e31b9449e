# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What a preference is: a score of a configuration (higher is better) and its gradient.

A preference ranks the distinct solutions of one pose, and on a redundant chain it moves the
chosen solution along the null space of the Jacobian, up its gradient (see
:mod:`ik_solvers.solvers.null_space`).
"""

from abc import ABC, abstractmethod
from typing import ClassVar, List, Optional

import numpy as np

__all__ = ['Preference']

# Step of the central differences of the default gradient, rad or m: small against the
# curvature of every measure here, large against rounding (about 1e-8 of relative error).
_DIFFERENCE_STEP = 1e-6


class Preference(ABC):
    """
    One secondary goal over the configurations of a chain.

    :param chain: the :class:`ik_solvers.Chain` the configurations belong to.
    :param seed: (N,) the configuration the request started from, rad or m (``nearest``).
    :param rest_posture: (N,) the rest configuration (``rest_posture``), rad or m.
    :param weights: (N,) non-negative weights of the joints (``rest_posture``).
    :param collision: a collision model with ``check(q)`` and ``with_padding(m)``
        (``clearance``).
    """

    #: The name the preference is chosen by.
    name: ClassVar[str] = ''
    #: Whether :meth:`gradient` is worth a null-space step (a smooth measure).
    has_gradient: ClassVar[bool] = True

    def __init__(self, chain, *, seed: Optional[np.ndarray] = None,
                 rest_posture: Optional[np.ndarray] = None,
                 weights: Optional[np.ndarray] = None, collision=None) -> None:
        self.chain = chain
        self.seed = None if seed is None else np.asarray(seed, dtype=float)
        self.rest_posture = (None if rest_posture is None
                             else np.asarray(rest_posture, dtype=float))
        self.weights = None if weights is None else np.asarray(weights, dtype=float)
        self.collision = collision

    def starts(self) -> List[np.ndarray]:
        """Return configurations to start from that lead to well-scored solutions (none)."""
        return []

    @abstractmethod
    def score(self, q: np.ndarray) -> float:
        """Return the figure of merit of ``q`` (higher is better; its unit is the measure's)."""

    def gradient(self, q: np.ndarray) -> np.ndarray:
        """Return d score / d q at ``q`` (central differences unless a subclass knows better)."""
        q = np.asarray(q, dtype=float)
        result = np.empty(q.shape[0])
        probe = q.copy()
        for index in range(q.shape[0]):
            probe[index] = q[index] + _DIFFERENCE_STEP
            upper = self.score(probe)
            probe[index] = q[index] - _DIFFERENCE_STEP
            lower = self.score(probe)
            probe[index] = q[index]
            result[index] = (upper - lower) / (2.0 * _DIFFERENCE_STEP)
        return result
