# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The orientation fallback: the position met, the orientation as close as the arm gets."""

from typing import Callable, Optional, Tuple

import numpy as np

from .layout import REPORT_ORIENTATION_ERROR, REPORT_POSITION_ERROR, REPORT_STATUS, \
    STATUS_SUCCESS
from .pack import new_report, position_only
from .closest_orientation import closest_orientation
from .full_turns import settle_turns

__all__ = ['closest_orientation_answer']


def closest_orientation_answer(search: Callable, arrays, pose: np.ndarray,
                               settings: np.ndarray, options: np.ndarray, best: np.ndarray,
                               seed: np.ndarray) -> Optional[Tuple[np.ndarray, float, float]]:
    """
    Return the configuration that meets the position with the closest orientation, or None.

    It starts from the search's best configuration; if the position cannot be met from there,
    a position-only search from it comes first.

    :param search: the heuristic's compiled search.
    :param arrays: the arrays the search runs on (:func:`.full_turns.search_arrays`).
    :param pose: (4, 4) target, base frame, m.
    :param settings: the search's settings (their deadline bounds the fallback).
    :param options: the heuristic's packed options.
    :param best: (N,) the search's answer.
    :param seed: (N,) the caller's seed: the answer is put on the turn nearest it.
    :returns: ``(q, position_error m, orientation_error rad)`` or None.
    """
    report = new_report()
    q = best.copy()
    closest_orientation(arrays, pose, settings, q, report)
    if report[REPORT_STATUS] != STATUS_SUCCESS:
        q = best.copy()
        search(arrays, pose, position_only(settings), options, q, report)
        closest_orientation(arrays, pose, settings, q, report)
        if report[REPORT_STATUS] != STATUS_SUCCESS:
            return None
    settle_turns(q, seed, arrays)  # back within the limits of whole-turn joints too
    return q, float(report[REPORT_POSITION_ERROR]), float(report[REPORT_ORIENTATION_ERROR])
