# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
One attempt at one target, and the statistics of many attempts.

Times are wall-clock seconds measured around the call. They are given twice: over the
successful attempts only, and over all attempts (a failure counts with the time it took,
usually the whole budget), because each alone flatters one kind of solver.
"""

from dataclasses import dataclass
import math
from typing import Dict, List, Mapping, Optional, Sequence

import numpy as np

from .protocol import SolutionCheck

__all__ = [
    'add_anchor_ratios',
    'ANCHOR_RATIOS',
    'Attempt',
    'claimed_rate',
    'FAR_FROM_SEED',
    'heuristic_share',
    'summarize',
]

# rad: a warm-started solution farther than this from its seed is a jump, not a small motion.
FAR_FROM_SEED = 0.1

#: Anchor name -> row key of an ik_solvers row's median time (all attempts) over that
#: anchor's median in the same case.
ANCHOR_RATIOS: Mapping[str, str] = {'trac_ik': 'trac_ik_ratio', 'rtb_ik_lm': 'ik_lm_ratio'}


@dataclass(frozen=True)
class Attempt:
    """
    One solver call on one target.

    :ivar q: The configuration returned, rad or m (the seed when the call raised).
    :ivar claimed_success: What the solver said.
    :ivar check: The independent check of the configuration it returned.
    :ivar elapsed: Wall-clock time of the call, in s.
    :ivar iterations: Iterations the solver reports, or None when it reports none.
    :ivar seed_distance_max: Largest joint motion from the seed, in rad or m.
    :ivar seed_distance_l2: Euclidean norm of the joint motion from the seed.
    :ivar error: The message of an exception the call raised, or None.
    :ivar share: The heuristic's share of the log-error reduction in the successful start
        (see :func:`heuristic_share`), or None (a failure, an anchor, a seed already solved).
    """

    q: np.ndarray
    claimed_success: bool
    check: SolutionCheck
    elapsed: float
    iterations: Optional[int]
    seed_distance_max: float
    seed_distance_l2: float
    error: Optional[str] = None
    share: Optional[float] = None

    @property
    def success(self) -> bool:
        """Claimed by the solver and confirmed by the independent check."""
        return self.claimed_success and self.check.ok

    @property
    def discrepancy(self) -> bool:
        """Claimed by the solver but refuted by the independent check."""
        return self.claimed_success and not self.check.ok


def heuristic_share(costs: Optional[Sequence[float]]) -> Optional[float]:
    """
    Return the heuristic's share of the log-error reduction of one start.

    :param costs: ``(e0, e_h, e_final)``, the search's own cost (m) at the start, at the
        hand-over to the polish and at the end (``IKResult.costs``).
    :returns: ``log(e0 / e_h) / log(e0 / e_final)``: 1 when the heuristic did all of it, 0
        when the polish did; None when there was nothing to reduce or a cost is not
        finite and positive.
    """
    if costs is None:
        return None
    start, handoff, final = (float(cost) for cost in costs)
    if not all(math.isfinite(cost) and cost > 0.0 for cost in (start, handoff, final)):
        return None
    if final >= start:
        return None
    return math.log(start / handoff) / math.log(start / final)


def _times(values: Sequence[float]) -> Optional[Dict[str, float]]:
    if not len(values):
        return None
    array = np.asarray(values, dtype=float)
    return {
        'median': float(np.median(array)),
        'mean': float(np.mean(array)),
        'p95': float(np.percentile(array, 95)),
    }


def _median(values: Sequence[float]) -> Optional[float]:
    return float(np.median(values)) if len(values) else None


def summarize(attempts: Sequence[Attempt]) -> Dict[str, object]:
    """
    Reduce attempts to the figures of one table row.

    :param attempts: The attempts of one solver configuration on one set of targets.

    :returns: A JSON-ready dictionary: ``attempts``, ``successes``, ``success_rate`` (%),
        ``time_all`` and ``time_success`` (each ``{median, mean, p95}`` in s, or None),
        ``iterations`` (``{median, mean}`` or None), ``seed_distance`` over successes
        (``max_median``, ``max_p95``, ``max_max``, ``l2_median`` in rad or m,
        ``far_rate``: % farther than :data:`FAR_FROM_SEED`), ``discrepancies`` (claimed
        but refuted), ``unclaimed`` (reached without a claim), ``limit_violations``
        (returned configurations outside the limits, not counting calls that raised) and
        ``errors`` (calls that raised) with ``first_error``, the first one's message, and
        ``share`` (``{median, p25, count}`` of :attr:`Attempt.share` over successes, or None).
    """
    successes = [attempt for attempt in attempts if attempt.success]
    iterations = [attempt.iterations for attempt in attempts if attempt.iterations is not None]
    distances_max = [attempt.seed_distance_max for attempt in successes]
    distances_l2 = [attempt.seed_distance_l2 for attempt in successes]
    shares = [attempt.share for attempt in successes if attempt.share is not None]
    count = len(attempts)
    seed_distance = None
    if successes:
        seed_distance = {
            'max_median': _median(distances_max),
            'max_p95': float(np.percentile(distances_max, 95)),
            'max_max': float(np.max(distances_max)),
            'l2_median': _median(distances_l2),
            'far_rate': 100.0 * sum(d > FAR_FROM_SEED for d in distances_max) / len(successes),
        }
    return {
        'attempts': count,
        'successes': len(successes),
        'success_rate': 100.0 * len(successes) / count if count else math.nan,
        'time_all': _times([attempt.elapsed for attempt in attempts]),
        'time_success': _times([attempt.elapsed for attempt in successes]),
        'iterations': None if not iterations else {
            'median': float(np.median(iterations)),
            'mean': float(np.mean(iterations)),
        },
        'seed_distance': seed_distance,
        'discrepancies': sum(attempt.discrepancy for attempt in attempts),
        'unclaimed': sum(attempt.check.ok and not attempt.claimed_success
                         for attempt in attempts),
        'limit_violations': sum(attempt.error is None and not attempt.check.within_limits
                                for attempt in attempts),
        'errors': sum(attempt.error is not None for attempt in attempts),
        'first_error': next((attempt.error for attempt in attempts if attempt.error), None),
        'share': None if not shares else {
            'median': float(np.median(shares)),
            'p25': float(np.percentile(shares, 25)),
            'count': len(shares),
        },
    }


def claimed_rate(row: Mapping[str, object]) -> Optional[float]:
    """
    Return the % of attempts the method claimed to solve, refuted claims included.

    Beside ``success_rate`` (claimed and confirmed by the check) it shows how far a method's
    own word can be trusted.

    :param row: A row with ``attempts``, ``successes`` and ``discrepancies``, and
        ``claims_success`` (True when absent).

    :returns: The rate in %, or None for a method that does not say whether it succeeded
        (its every answer counts as claimed, so the figure would mean nothing) or ran no
        attempt.
    """
    if not row.get('claims_success', True) or not row['attempts']:
        return None
    return 100.0 * (row['successes'] + row['discrepancies']) / row['attempts']


def add_anchor_ratios(rows: List[Dict[str, object]]) -> None:
    """
    Give each ik_solvers row its median time relative to each anchor of :data:`ANCHOR_RATIOS`.

    The ratio is the median time over all attempts divided by the anchor's, in the same
    (robot, mode, seed kind, budget) case of the same run; None when that anchor did not run
    there. Anchor rows get no ratio.

    :param rows: Benchmark rows, changed in place.
    """
    for anchor_name, key in ANCHOR_RATIOS.items():
        reference = {(row['robot'], row['mode'], row['seed'], row['budget']): row
                     for row in rows if row['anchor'] == anchor_name}
        for row in rows:
            if row['anchor'] is not None:
                continue
            anchor = reference.get((row['robot'], row['mode'], row['seed'], row['budget']))
            ratio = None
            if anchor is not None and anchor['time_all'] and row['time_all']:
                ratio = row['time_all']['median'] / anchor['time_all']['median']
            row[key] = ratio
