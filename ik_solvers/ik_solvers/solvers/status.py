# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""How a solve ended: one enum for every entry point, the engine and the batch arrays."""

import enum
from typing import Any
import warnings

__all__ = ['Status']


class Status(enum.IntEnum):
    """
    The outcome of a solve; the integers are those of the compiled search and the batch arrays.

    A member prints as its lower-case name. It compares as an enum member: equal to itself
    only. For one release a comparison with a lower-case name (``Status.SUCCESS == 'success'``)
    or a plain integer still answers as before, with a :class:`DeprecationWarning` naming the
    member to compare with instead.
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
        """Compare with another status; a name or an integer is deprecated (see the class)."""
        return self._compare(other)

    def __ne__(self, other: Any) -> bool:
        """Negate :meth:`__eq__`."""
        equal = self._compare(other)
        return equal if equal is NotImplemented else not equal

    def _compare(self, other: Any) -> bool:
        if isinstance(other, Status):
            return self is other
        if isinstance(other, (str, int)) and not isinstance(other, bool):
            # stacklevel 3: the warning names the line that wrote ``==`` or ``!=``.
            warnings.warn(
                'comparing a Status with %r is deprecated and will be unequal in the next '
                'release; compare with a member, e.g. Status.%s' % (other, self.name),
                DeprecationWarning, stacklevel=3)
            if isinstance(other, str):
                return self.name.lower() == other
            return int.__eq__(self, other)
        return NotImplemented

    __hash__ = int.__hash__
