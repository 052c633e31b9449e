# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""How a solve ended: one enum for every entry point, the engine and the batch arrays."""

import enum
from typing import Any

__all__ = ['Status']


class Status(enum.IntEnum):
    """
    The outcome of a solve; the integers are those of the compiled search and the batch arrays.

    A member compares equal to its lower-case name (``Status.SUCCESS == 'success'``) and prints
    as it, so code written against the string statuses keeps working.
    """

    #: The forward kinematics of ``q`` meets every tolerance of the goal.
    SUCCESS = 0
    #: The search ended before the deadline without meeting the goal (the target is beyond
    #: reach, the best error stopped improving, or ``max_attempts`` ran out).
    NO_SOLUTION = 1
    #: The deadline came while the search still improved.
    TIMED_OUT = 2
    #: With a collision check: every solution found collided. Never a success.
    IN_COLLISION = 3
    #: With the orientation fallback: the position is met, the orientation as close as the
    #: search got. Never a success.
    CLOSEST_ORIENTATION = 4
    #: From :func:`ik_solvers.approach`: the closest configuration near a start. Never a success.
    APPROXIMATE = 5

    @property
    def label(self) -> str:
        """Return the lower-case name, as the node's messages and logs carry it."""
        return self.name.lower()

    def __str__(self) -> str:
        """Return :attr:`label`."""
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        """Format :attr:`label`."""
        return format(self.name.lower(), spec)

    def __eq__(self, other: Any) -> bool:
        """Compare with another status, an integer, or a lower-case name."""
        if isinstance(other, str):
            return self.name.lower() == other
        return int.__eq__(self, other)

    def __ne__(self, other: Any) -> bool:
        """Negate :meth:`__eq__`."""
        return not self.__eq__(other)

    __hash__ = int.__hash__
