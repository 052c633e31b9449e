# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The default preference: the solution nearest the seed (today's behaviour of ``solve()``)."""

import numpy as np

from .preference import Preference
from .turn_copies import nearest_copy

__all__ = ['Nearest']


class Nearest(Preference):
    """Minus the largest joint distance from the seed (the middle of the limits without one)."""

    name = 'nearest'
    # The seed is the search's own start: a null-space step toward it would only undo the
    # continuity a streamed path already has.
    has_gradient = False

    def upper_bound(self) -> float:
        """Return 0: the seed itself."""
        return 0.0

    def turn_centre(self) -> np.ndarray:
        """Return the seed (the middle of the limits without one)."""
        return self.seed if self.seed is not None else self.chain.mid_configuration()

    def best_turn(self, q: np.ndarray) -> np.ndarray:
        """
        Return each joint's in-limit turn copy nearest the seed.

        What the generic search of :meth:`Preference.best_turn` finds for this score (the
        largest change is smallest when each joint's is), without listing the copies: solve_many
        asks it of every solution found.
        """
        return nearest_copy(self.chain, q, self.turn_centre(), self._turn_mask)

    def score(self, q: np.ndarray) -> float:
        """Return minus the largest absolute joint change from the seed, rad or m."""
        return -float(np.max(np.abs(np.asarray(q, dtype=float) - self.turn_centre())))
