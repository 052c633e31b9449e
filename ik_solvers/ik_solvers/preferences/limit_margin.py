# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Prefer configurations far from the joint limits."""

import numpy as np

from .preference import Preference

__all__ = ['LimitMargin']

# Score of a chain whose every joint is continuous: no limit to keep away from.
_NO_LIMITS = 0.5


class LimitMargin(Preference):
    """
    The smallest distance of any joint to its nearer limit, divided by that joint's range.

    0 at a limit, 0.5 in the middle of every range; joints without finite limits (continuous
    ones) do not count. Its gradient is that of the smallest margin (the joint that has it).
    """

    name = 'limit_margin'

    def __init__(self, chain, **keywords) -> None:
        super().__init__(chain, **keywords)
        lower = np.asarray(chain.lower, dtype=float)
        upper = np.asarray(chain.upper, dtype=float)
        self._limited = np.isfinite(lower) & np.isfinite(upper) & (upper > lower)
        self._lower = lower[self._limited]
        self._range = (upper - lower)[self._limited]

    def starts(self) -> list:
        """Return the middle of the limits, where every margin is largest."""
        return [self.chain.mid_configuration()]

    def upper_bound(self) -> float:
        """Return 0.5: every limited joint in the middle of its range."""
        return _NO_LIMITS

    def _best_copy(self, q: np.ndarray, choices: list) -> np.ndarray:
        """Return each limited joint's copy farthest from its limits (smallest margin largest)."""
        best = q.copy()
        lower = np.asarray(self.chain.lower, dtype=float)
        upper = np.asarray(self.chain.upper, dtype=float)
        for index, values in enumerate(choices):
            if values.size > 1 and self._limited[index]:
                low = (values - lower[index]) / (upper[index] - lower[index])
                best[index] = values[int(np.argmax(np.minimum(low, 1.0 - low)))]
        return best

    def margins(self, q: np.ndarray) -> np.ndarray:
        """Return each limited joint's normalised margin (0 at a limit, 0.5 mid-range)."""
        value = np.asarray(q, dtype=float)[self._limited]
        low = (value - self._lower) / self._range
        return np.minimum(low, 1.0 - low)

    def score(self, q: np.ndarray) -> float:
        """Return the smallest normalised margin, a fraction of a range."""
        if not self._range.size:
            return _NO_LIMITS
        return float(np.min(self.margins(q)))

    def gradient(self, q: np.ndarray) -> np.ndarray:
        """Return the gradient of the smallest margin: toward the middle of its joint."""
        result = np.zeros(self.chain.num_joints)
        if not self._range.size:
            return result
        value = np.asarray(q, dtype=float)[self._limited]
        low = (value - self._lower) / self._range
        margins = np.minimum(low, 1.0 - low)
        worst = int(np.argmin(margins))
        sign = 1.0 if low[worst] < 0.5 else -1.0
        result[np.flatnonzero(self._limited)[worst]] = sign / self._range[worst]
        return result
