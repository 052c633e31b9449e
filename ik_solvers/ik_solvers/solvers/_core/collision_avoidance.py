# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Solutions checked for collisions: a colliding one is rejected and the search reseeded.

:func:`ik_solvers.solve` takes any object with the small interface :class:`CollisionCheck`
(the collision package's ``CollisionModel`` is one), so that the solvers need not know how
collisions are computed. Every success is checked by it exactly; a colliding success is
rejected, and single starts from random configurations follow until one gives a
collision-free success or the deadline comes. Restarts drawn from the whole joint range reach
the other branches of the inverse kinematics (elbow up or down, wrist flipped), which is where
a collision-free solution of a colliding target lies; docs/DECISIONS.md has the measurements.
"""

from typing import Any, Dict, Optional, Protocol, runtime_checkable, Sequence, Tuple

import numpy as np

from .layout import (DEADLINE, MAX_ATTEMPTS, REPORT_ATTEMPTS, REPORT_POLISH_ITERATIONS,
                     REPORT_HEURISTIC_ITERATIONS, REPORT_MET)
from .nearest_turn import nearest_turn
from .search_entry import search_entry
from ...kinematics.jit import monotonic_seconds
from ...kinematics.kernels import ChainArrays

__all__ = ['CollisionCheck', 'CollisionFinding', 'avoid_collisions']

# Seed of the generator of the reseeds: the same inputs give the same answer, run after run.
RESEED_SEED = 20260121
# The first reseeds of each chain are drawn once and kept: making the generator alone costs
# about 35 us, as much as a reseeded start. Entries keep the arrays they are keyed by alive.
_KEPT_RESEEDS = 32
_RESEEDS: Dict[int, Tuple[ChainArrays, np.ndarray]] = {}
_RESEEDS_CAPACITY = 64


@runtime_checkable
class CollisionFinding(Protocol):
    """What a collision check reports (e.g. ``ik_solvers.collision.CollisionReport``)."""

    colliding: bool
    pairs: Sequence[Tuple[str, str]]
    unchecked_links: Sequence[str]


@runtime_checkable
class CollisionCheck(Protocol):
    """An exact collision check of a chain's configurations."""

    def check(self, q: np.ndarray, stop_at_first: bool = False) -> CollisionFinding:
        """
        Check one configuration (N,), rad or m.

        :param stop_at_first: the caller needs only whether it collides and one pair.
        """


def avoid_collisions(implementation: Any, chain, target: np.ndarray, settings: np.ndarray,
                     options: np.ndarray, q: np.ndarray, report: np.ndarray,
                     collision: CollisionCheck, seed: np.ndarray
                     ) -> Tuple[np.ndarray, CollisionFinding, int, int]:
    """
    Check the search's answer; while a success collides, reseed until the deadline.

    :param implementation: the solver class whose ``search`` ran.
    :param chain: the chain.
    :param target: (4, 4) target in the base frame, m: a writeable C-contiguous float64
        array (the reseeds call the compiled search directly, see :mod:`.search_entry`).
    :param settings: the search's settings (its deadline and attempt cap are kept).
    :param options: the heuristic's packed options.
    :param q: (N,) the search's answer; ``report`` its report (updated in place when a
        reseed gives the answer).
    :param collision: the check.
    :param seed: (N,) the caller's seed: a reseeded answer is put on the turn nearest it.
    :returns: ``(q, finding, reseeds, iterations)``: the answer (collision-free if any success
        was), the check of it, how many reseeded starts ran and their iterations.
    """
    finding = collision.check(q, stop_at_first=True)
    if not finding.colliding or report[REPORT_MET] == 0.0:
        return q, finding, 0, 0
    one_start = settings.copy()
    one_start[MAX_ATTEMPTS] = 1.0
    most_starts = settings[MAX_ATTEMPTS] - report[REPORT_ATTEMPTS]
    trial_report = np.empty_like(report)
    generator: Optional[np.random.Generator] = None
    reseeds = 0
    iterations = 0
    arrays = chain.arrays
    search = search_entry(implementation.search, arrays)
    kept = _kept_reseeds(chain)
    while monotonic_seconds() < settings[DEADLINE] and reseeds < most_starts:
        if reseeds < _KEPT_RESEEDS:
            candidate = kept[reseeds].copy()
        else:
            if generator is None:  # the kept draws' own generator, where they stopped
                generator = np.random.default_rng(RESEED_SEED)
                generator.random((_KEPT_RESEEDS, chain.num_joints))
            candidate = chain.random_configuration(generator)
        search(arrays, target, one_start, options, candidate, trial_report)
        reseeds += 1
        iterations += int(trial_report[REPORT_HEURISTIC_ITERATIONS]
                          + trial_report[REPORT_POLISH_ITERATIONS])
        if trial_report[REPORT_MET] == 0.0:
            continue
        nearest_turn(candidate, seed, arrays)
        trial_finding = collision.check(candidate, stop_at_first=True)
        if not trial_finding.colliding:
            report[:] = trial_report
            return candidate, trial_finding, reseeds, iterations
    return q, finding, reseeds, iterations


def _kept_reseeds(chain) -> np.ndarray:
    """Return the chain's first reseeds, (_KEPT_RESEEDS, N), as its generator draws them."""
    arrays = chain.arrays
    found = _RESEEDS.get(id(arrays))
    if found is not None and found[0] is arrays:
        return found[1]
    generator = np.random.default_rng(RESEED_SEED)
    kept = np.array([chain.random_configuration(generator) for _ in range(_KEPT_RESEEDS)])
    if len(_RESEEDS) >= _RESEEDS_CAPACITY:
        _RESEEDS.clear()
    _RESEEDS[id(arrays)] = (arrays, kept)
    return kept
