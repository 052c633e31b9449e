# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What a preference is: a score of a configuration (higher is better) and its gradient.

A preference ranks the distinct solutions of one pose, and on a redundant chain it moves the
chosen solution along the null space of the Jacobian, up its gradient (see
:mod:`ik_solvers.solvers.null_space`).
"""

from abc import ABC, abstractmethod
import functools
from typing import ClassVar, List, Optional

import numpy as np

from .turn_copies import combinations, MAX_COMBINATIONS, turn_copies, turn_mask

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
    #: Whether the score depends on the links' poses alone (forward kinematics), so that
    #: every turn copy of a configuration scores the same.
    turn_invariant: ClassVar[bool] = False

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

    def upper_bound(self) -> float:
        """Return a score no configuration exceeds (inf: none known); reaching it ends a search."""
        return float('inf')

    def best_turn(self, q: np.ndarray) -> np.ndarray:
        """
        Return the in-limit turn copy of ``q`` that scores best (see :mod:`.turn_copies`).

        Every copy of every joint that has them is weighed: exactly per joint where the score
        allows (subclasses), else every combination up to
        :data:`.turn_copies.MAX_COMBINATIONS`, else joint by joint. ``q`` itself wins a tie.

        :param q: (N,) a configuration within the limits, rad or m.
        :returns: a new (N,) configuration with the same pose, within the limits.
        """
        q = np.array(q, dtype=float)
        if self.turn_invariant:
            return q
        choices = turn_copies(self.chain, q, self.turn_centre(), mask=self._turn_mask)
        if all(values.size == 1 for values in choices):
            return q
        best = self._best_copy(q, choices)
        return best if self.score(best) >= self.score(q) else q

    @functools.cached_property
    def _turn_mask(self) -> np.ndarray:
        # The chain's joints with turn copies, kept: best_turn runs for every step of a climb.
        return turn_mask(self.chain)

    def turn_centre(self) -> np.ndarray:
        """Return (N,) where a continuous joint's copies are looked for (the middle)."""
        return self.chain.mid_configuration()

    def _best_copy(self, q: np.ndarray, choices: List[np.ndarray]) -> np.ndarray:
        """Return the best combination of ``choices`` by :meth:`score` (generic search)."""
        if int(np.prod([values.size for values in choices])) <= MAX_COMBINATIONS:
            rows = combinations(choices)  # the first row is q itself
            return rows[int(np.argmax([self.score(row) for row in rows]))].copy()
        best, value = q.copy(), self.score(q)
        changed = True
        while changed:  # joint by joint until no copy of any joint scores better
            changed = False
            for index, values in enumerate(choices):
                for candidate in values:
                    probe = best.copy()
                    probe[index] = candidate
                    score = self.score(probe)
                    if score > value:
                        best, value, changed = probe, score, True
        return best

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
