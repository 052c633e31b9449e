# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Prefer configurations far from collisions, where a collision model is given."""

from typing import Dict

import numpy as np

from .preference import Preference

__all__ = ['CLEARANCE_LEVELS', 'Clearance']

#: Paddings (m) the clearance is measured against: the exact check answers "in contact" or
#: not, so the clearance is the largest of these at which the configuration is still free.
CLEARANCE_LEVELS = (0.0, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16)


class Clearance(Preference):
    """
    The smallest distance to a collision, m, to the step of :data:`CLEARANCE_LEVELS`.

    The collision model's exact check is run with growing paddings; the score is the largest
    padding still free (-1 in collision, 0 without a model). It is a step function: it ranks
    solutions but has no gradient, so it makes no null-space step.
    """

    name = 'clearance'
    has_gradient = False
    turn_invariant = True

    def __init__(self, chain, **keywords) -> None:
        super().__init__(chain, **keywords)
        self._models: Dict[float, object] = {}

    def _model(self, padding: float):
        model = self._models.get(padding)
        if model is None:
            model = self.collision.with_padding(padding) if padding else self.collision
            self._models[padding] = model
        return model

    def upper_bound(self) -> float:
        """Return the largest padding measured (0 without a collision model: all score 0)."""
        return CLEARANCE_LEVELS[-1] if self.collision is not None else 0.0

    def score(self, q: np.ndarray) -> float:
        """Return the largest padding of :data:`CLEARANCE_LEVELS` at which ``q`` is free, m."""
        if self.collision is None:
            return 0.0
        best = -1.0
        for padding in CLEARANCE_LEVELS:
            if self._model(padding).check(q, stop_at_first=True).colliding:
                break
            best = padding
        return best
