# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The newest position of every joint the ik_node heard of, when it arrived, and a size bound.

joint_states comes from outside: a message may be of any size, and its names may change from
one message to the next. The store refuses a message larger than a bound tied to the robot
description before looking at its names, keeps only the joints of the description once there
is one, and remembers when each position arrived so that old ones are not taken for where the
robot is now.
"""

import math
import threading
import time
from typing import Callable, Collection, Dict, List, NamedTuple, Optional, Sequence

from .joint_positions import finite_joint_positions
from ..exceptions import InvalidSeedError

__all__ = [
    'JOINT_STATE_NAMES_PER_JOINT',
    'JOINT_STATE_NAME_MARGIN',
    'JointReadings',
    'JointStateStore',
    'MAX_JOINT_STATE_NAMES_WITHOUT_MODEL',
    'max_joint_state_names',
]

#: A joint_states message may name up to this many joints per joint of the description...
JOINT_STATE_NAMES_PER_JOINT = 10
#: ... plus this many: room for other robots and grippers sharing the topic.
JOINT_STATE_NAME_MARGIN = 100
#: The bound while no robot description has been loaded.
MAX_JOINT_STATE_NAMES_WITHOUT_MODEL = 1000


class JointReadings(NamedTuple):
    """One read of the store: what every later step of a request sees."""

    #: rad or m, by joint name.
    positions: Dict[str, float]
    #: rad/s or m/s, of the joints whose messages gave one.
    velocities: Dict[str, float]
    #: s since each asked joint's position arrived; joints never received are left out.
    ages: Dict[str, float]
    #: s on the store's clock when read.
    read_at: float


def max_joint_state_names(description_joints: Optional[int]) -> int:
    """
    Largest number of names a joint_states message may carry.

    :param description_joints: Number of joints (fixed ones included) of the robot
        description, or ``None`` while there is none.
    :returns: ``JOINT_STATE_NAMES_PER_JOINT * description_joints + JOINT_STATE_NAME_MARGIN``,
        or :data:`MAX_JOINT_STATE_NAMES_WITHOUT_MODEL` without a description.
    """
    if description_joints is None:
        return MAX_JOINT_STATE_NAMES_WITHOUT_MODEL
    return JOINT_STATE_NAMES_PER_JOINT * description_joints + JOINT_STATE_NAME_MARGIN


class JointStateStore:
    """Thread-safe: the latest finite position of each joint and its arrival time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """
        Create an empty store that accepts any joint name.

        :param clock: Seconds on a monotonic clock; tests pass a fake one.
        """
        self._clock = clock
        self._lock = threading.Lock()
        self._positions: Dict[str, float] = {}
        self._arrived: Dict[str, float] = {}
        # The velocity a message gave with the position (rad/s or m/s); left out when not.
        self._velocities: Dict[str, float] = {}
        self._known: Optional[frozenset] = None

    @property
    def max_names(self) -> int:
        """Return the largest accepted number of names in one message."""
        with self._lock:
            return max_joint_state_names(None if self._known is None else len(self._known))

    def __bool__(self) -> bool:
        """Tell whether any position was stored."""
        with self._lock:
            return bool(self._positions)

    def restrict_to(self, joint_names: Collection[str]) -> None:
        """
        Keep only these joints from now on (the joints of a newly adopted description).

        :param joint_names: Every joint of the robot description.
        """
        with self._lock:
            self._known = frozenset(joint_names)
            for name in [name for name in self._positions if name not in self._known]:
                del self._positions[name]
                del self._arrived[name]
                self._velocities.pop(name, None)

    def update(self, names: Sequence[str], positions: Sequence[float],
               velocities: Sequence[float] = ()) -> List[str]:
        """
        Merge one joint_states message: every named joint with a finite position takes it.

        :param names: Joint names of the message.
        :param positions: Positions in rad or m, one per name.
        :param velocities: rad/s or m/s, one per name, or empty (the message gives none); a
            joint updated without a finite velocity has none until a message gives one.
        :returns: The names whose position was NaN or infinite; they keep their old position
            and arrival time.
        :raises InvalidSeedError: If the message names more joints than :attr:`max_names`, the
            names and positions do not pair up, or a name repeats or is empty; nothing is
            merged then.
        """
        limit = self.max_names
        if len(names) > limit or len(positions) > limit:
            raise InvalidSeedError(
                'the message has %d names and %d positions; at most %d are accepted (%s)'
                % (len(names), len(positions), limit, self._bound_reason()))
        mapping, dropped = finite_joint_positions(names, positions)
        speeds: Dict[str, float] = {}
        if len(velocities) == len(names):
            speeds = {name: float(value) for name, value in zip(names, velocities)
                      if name in mapping and math.isfinite(value)}
        now = self._clock()
        with self._lock:
            if self._known is not None:
                mapping = {name: value for name, value in mapping.items()
                           if name in self._known}
            elif len(self._positions.keys() | mapping.keys()) > limit:
                # Without a description any name is kept, but never more than the bound:
                # messages that keep inventing names start the store afresh.
                self._positions.clear()
                self._arrived.clear()
                self._velocities.clear()
            self._positions.update(mapping)
            self._arrived.update(dict.fromkeys(mapping, now))
            for name in mapping:
                if name in speeds:
                    self._velocities[name] = speeds[name]
                else:
                    self._velocities.pop(name, None)
        return dropped

    def _bound_reason(self) -> str:
        with self._lock:
            if self._known is None:
                return 'no robot description yet'
            return '%d per joint of the robot description\'s %d, plus %d' % (
                JOINT_STATE_NAMES_PER_JOINT, len(self._known), JOINT_STATE_NAME_MARGIN)

    def positions(self) -> Dict[str, float]:
        """Return a copy of the stored positions, rad or m, by joint name."""
        with self._lock:
            return dict(self._positions)

    def velocities(self) -> Dict[str, float]:
        """Return a copy of the stored velocities, rad/s or m/s, of the joints that have one."""
        with self._lock:
            return dict(self._velocities)

    def readings(self, joint_names: Sequence[str]) -> 'JointReadings':
        """
        Read the positions, the velocities and some joints' ages at once.

        :param joint_names: The joints whose ages are wanted.
        :returns: Copies of every stored position (rad or m) and velocity (rad/s or m/s), the
            age in s of each named joint received, and the clock's time of the read.
        """
        now = self._clock()
        with self._lock:
            return JointReadings(
                dict(self._positions), dict(self._velocities),
                {name: now - self._arrived[name] for name in joint_names
                 if name in self._arrived}, now)

    def ages(self, joint_names: Sequence[str]) -> Dict[str, float]:
        """
        Age of the stored position of each of some joints.

        :param joint_names: The joints to look at.
        :returns: Seconds since each one's position arrived, by name; joints never received
            are left out.
        """
        now = self._clock()
        with self._lock:
            return {name: now - self._arrived[name] for name in joint_names
                    if name in self._arrived}
