# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Configuration jumps along a joint path: an absolute and a relative test.

The absolute test (``jump_threshold``) bounds the change of each single joint between two
consecutive points, in rad or m; it is checked as each point is solved. The relative test is
MoveIt's: a step whose joint-space distance (the Euclidean norm over all joints) exceeds
``relative_jump_threshold`` times the mean step of the path is a jump; like MoveIt, it needs a
few steps to make a mean worth comparing to, and it runs once on the path reached.
"""

import math
from typing import Any, Optional

import numpy as np

from ..exceptions import InvalidStepError

__all__ = ['MIN_STEPS_FOR_RELATIVE_TEST', 'check_jump_options', 'relative_jump_index']

#: The relative test is skipped on paths of fewer steps: their mean says little.
MIN_STEPS_FOR_RELATIVE_TEST = 10


def check_jump_options(jump_threshold: Any, relative_jump_threshold: Any) -> None:
    """
    Check the two thresholds.

    :param jump_threshold: > 0 (``math.inf``: off), rad or m.
    :param relative_jump_threshold: >= 0 (0: off), a factor of the mean step.
    :raises InvalidStepError: Either is not a number in its range.
    """
    for name, value, allow_zero in (('jump_threshold', jump_threshold, False),
                                    ('relative_jump_threshold', relative_jump_threshold, True)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or (
                math.isnan(value) or value < 0.0 or (value == 0.0 and not allow_zero)):
            raise InvalidStepError('%s must be a %s number, got %r' % (
                name, 'non-negative' if allow_zero else 'positive', value))
    if math.isinf(relative_jump_threshold):
        raise InvalidStepError('relative_jump_threshold must be finite (0 turns it off)')


def relative_jump_index(positions: np.ndarray, factor: float) -> Optional[int]:
    """
    Find the first point whose step from the previous one is a relative jump.

    :param positions: (K, N) joint path.
    :param factor: The relative threshold; 0 means off.
    :returns: The index k of the first point whose step exceeds ``factor`` times the mean step,
        or None when none does, the test is off, or the path has fewer than
        :data:`MIN_STEPS_FOR_RELATIVE_TEST` steps.
    """
    if factor == 0.0 or positions.shape[0] - 1 < MIN_STEPS_FOR_RELATIVE_TEST:
        return None
    distances = np.linalg.norm(np.diff(positions, axis=0), axis=1)
    over = np.flatnonzero(distances > factor * distances.mean())
    return int(over[0]) + 1 if over.size else None
