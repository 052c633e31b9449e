# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The swept check: every configuration a controller passes through on its way, not only the end.

A controller moves the joints along the straight line (in joint space) from where they are to
each point of a command. :class:`SweptCheck` checks such a line with the exact check of a
:class:`~.model.CollisionModel` at configurations close enough that no point of any robot shape
moves more than :attr:`SweptCheck.step` (m) between two checks.

How far a point moves: a point carried by joint frame ``r`` moves, when joint ``j <= r`` turns
by ``dq``, along an arc no longer than ``|dq|`` times its distance from the joint's origin; that
distance is at most the lengths between the joint origins from ``j`` to ``r`` (rigid, the same in
every configuration) plus the shape's bounding sphere seen from frame ``r``. A prismatic joint
moves it by ``|dq|``. Summed over the joints (mimic multipliers included) this gives one radius
per joint, :attr:`SweptCheck.radii`, and the bound ``sum_i radii[i] |dq_i|`` on how far any point
of the robot moves between two configurations of the line: a bound valid everywhere, with no
configuration-dependent guess.

The step: with a padding ``p`` the samples are at most ``min(p, MAX_STEP)`` apart, so every
configuration in between lies within half of that, ``p / 2``, of a checked one: a collision-free
sample with padding ``p`` certifies the stretch around it. Without padding a contact between
two samples can only be shallower than ``MAX_STEP / 2`` (1 mm).
"""

from dataclasses import dataclass
import math
from typing import Optional, Sequence
import weakref

import numpy as np

from .model import CollisionModel
from .collision_report import CollisionReport
from ..kinematics.kernels import forward_frames

__all__ = ['MAX_STEP', 'MIN_STEP', 'SweptCheck', 'SweptContact']

#: m, the farthest any point of the robot moves between two checks without padding.
MAX_STEP = 0.002
#: m, the closest two checks are ever placed (a tiny padding must not cost millions of checks).
MIN_STEP = 0.0005


@dataclass(frozen=True)
class SweptContact:
    """Where a motion first collides."""

    #: Index of the segment (0: from the start to the first point) and the fraction along it.
    segment: int
    fraction: float
    #: (N,) the colliding configuration, rad or m.
    q: np.ndarray
    #: The exact check of that configuration (every pair in contact).
    report: CollisionReport

    def describe(self) -> str:
        """Say in words where the motion collides and what touches."""
        return ('the motion collides %s%.0f %% of the way to point %d: %s'
                % ('' if self.segment == 0 else 'after point %d, ' % self.segment,
                   100.0 * self.fraction, self.segment + 1, self.report.describe()))


class SweptCheck:
    """Checks the straight joint-space motions of a chain with one collision model."""

    def __init__(self, model: CollisionModel, *, step: Optional[float] = None,
                 per_sample: bool = False) -> None:
        """
        Take the joint radii of the model's chain (see the module's notes).

        :param model: The exact check; its chain is the one moved.
        :param step: m between two checks instead of the one the padding gives (a planner's
            coarser first look; the motion it keeps is checked again at the full resolution).
        :param per_sample: Call :meth:`CollisionModel.check` once per sample, as before the
            samples of a line went through one compiled call
            (:meth:`CollisionModel.first_colliding_sample`); the same samples and verdicts,
            kept to compare the two.
        """
        self._model = model
        self._per_sample = per_sample
        self._radii = _joint_radii(model)
        padding = model.padding
        self._step = MAX_STEP if padding <= 0.0 else max(MIN_STEP, min(padding, MAX_STEP))
        if step is not None:
            self._step = max(MIN_STEP, float(step))

    @property
    def model(self) -> CollisionModel:
        """Return the exact check the samples go through."""
        return self._model

    @property
    def radii(self) -> np.ndarray:
        """Return (N,) m per rad (1 for a prismatic joint): the motion bound of each joint."""
        return self._radii.copy()

    @property
    def step(self) -> float:
        """Return m, the farthest any point of the robot moves between two checks."""
        return self._step

    def sweep_length(self, q_from: Sequence[float], q_to: Sequence[float]) -> float:
        """
        Bound how far any point of the robot moves on the straight line between two configurations.

        :returns: m.
        """
        delta = np.abs(np.asarray(q_to, dtype=float) - np.asarray(q_from, dtype=float))
        return float(np.dot(self._radii, delta))

    def check_motion(self, q_from: Sequence[float], q_to: Sequence[float], *,
                     include_ends: bool = False) -> Optional[SweptContact]:
        """
        Check the straight line between two configurations.

        :param q_from: (N,) start, rad or m.
        :param q_to: (N,) end.
        :param include_ends: Check the two ends too (they are usually checked on their own).
        :returns: The first contact from the start, or ``None`` when every sample is free.
        :raises InvalidSeedError: A configuration of the wrong length or not finite.
        """
        return self.check_path([q_from, q_to], include_ends=include_ends)

    def check_path(self, points: Sequence[Sequence[float]], *,
                   include_ends: bool = False) -> Optional[SweptContact]:
        """
        Check the polyline through ``points`` (the start first), segment by segment.

        :param points: (K, N) configurations, rad or m, K >= 1.
        :param include_ends: Check the first and the last point too; the points in between are
            always checked.
        :returns: A contact along the way (the first of a coarse-to-fine order), or ``None``.
        :raises InvalidSeedError: A configuration of the wrong length or not finite.
        """
        array = np.asarray(points, dtype=float)
        check = self._model.check
        last = array.shape[0] - 1
        if include_ends:
            report = check(array[0], stop_at_first=True)
            if report.colliding:
                return SweptContact(0, 0.0, array[0].copy(), check(array[0]))
        for k in range(last):
            start, end = array[k], array[k + 1]
            count = max(1, int(math.ceil(self.sweep_length(start, end) / self._step)))
            final = count if include_ends or k + 1 < last else count - 1
            # Coarse to fine (every 64th sample first, then the ones halfway, ...): a motion
            # through a contact is usually refused after a few checks, not hundreds. Every
            # sample is checked before a segment is called free.
            if self._per_sample:
                hit = next((i for i in _coarse_to_fine(final)
                            if check(start + (end - start) * (i / count),
                                     stop_at_first=True).colliding), 0)
            else:
                hit = self._model.first_colliding_sample(start, end, count, final)
            if hit:
                q = start + (end - start) * (hit / count)
                return SweptContact(k, hit / count, q, check(q))
        return None


def _coarse_to_fine(count: int):
    """Yield 1..count, every 64th first, then every 32nd not yet given, and so on."""
    stride = 64
    while stride >= 1:
        for i in range(stride, count + 1, stride):
            if stride == 64 or i % (2 * stride):
                yield i
        stride //= 2


# The joint radii of each model: a streamed command is swept-checked once per target, and the
# radii (forward kinematics and a loop over the shapes) cost more than a short line's samples.
_RADII: 'weakref.WeakKeyDictionary[CollisionModel, np.ndarray]' = weakref.WeakKeyDictionary()


def _joint_radii(model: CollisionModel) -> np.ndarray:
    """Return (N,) m per rad (1 for a prismatic joint), the motion bound of each joint."""
    radii = _RADII.get(model)
    if radii is not None:
        return radii
    chain = model.chain
    arrays = chain.arrays
    count = arrays.segment_variable.shape[0]
    frames = np.empty((arrays.segments.shape[0], 4, 4))
    forward_frames(arrays, np.zeros(chain.num_joints), frames)
    origins = frames[:count, :3, 3]
    # Length from each joint origin to the next one's: rigid, whatever the configuration.
    gaps = np.linalg.norm(np.diff(origins, axis=0), axis=1) if count > 1 else np.zeros(0)
    reach_to = np.concatenate(([0.0], np.cumsum(gaps)))  # origin 0 -> origin r
    rows, centres, sphere_radii = model.moving_spheres
    extent = np.linalg.norm(centres, axis=1) + sphere_radii if len(rows) else np.zeros(0)
    # reach[j]: farthest point of any shape carried by frame j or beyond, from origin j.
    reach = np.zeros(count)
    for j in range(count):
        beyond = rows >= j
        if np.any(beyond):
            reach[j] = float(np.max(reach_to[rows[beyond]] - reach_to[j] + extent[beyond]))
    motion = arrays.segment_motion
    radii = np.zeros(chain.num_joints)
    for j in range(count):
        lever = 1.0 if motion[j, 2] > 0.5 else reach[j]
        radii[arrays.segment_variable[j]] += abs(motion[j, 0]) * lever
    radii.flags.writeable = False
    _RADII[model] = radii
    return radii
