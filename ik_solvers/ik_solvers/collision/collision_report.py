# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The outcome of one collision check."""

from dataclasses import dataclass
from typing import Optional, Tuple

__all__ = ['CollisionReport']


@dataclass(frozen=True)
class CollisionReport:
    """
    Which pairs touch at one configuration.

    :ivar colliding: whether any checked pair is in contact (closer than the padding).
    :ivar pairs: the pairs in contact, each ``(name, name)`` sorted, the names being links of
        the URDF or obstacle ids; with ``stop_at_first`` only the first found.
    :ivar unchecked_links: links whose collision geometry could not be loaded (never checked).
    """

    colliding: bool
    pairs: Tuple[Tuple[str, str], ...] = ()
    unchecked_links: Tuple[str, ...] = ()

    @property
    def first_pair(self) -> Optional[Tuple[str, str]]:
        """Return the first pair in contact, or None."""
        return self.pairs[0] if self.pairs else None

    def describe(self) -> str:
        """Say in words what collides, e.g. for a log or a status message."""
        if not self.colliding:
            return 'no collision'
        return 'collision between ' + ', '.join("'%s' and '%s'" % pair for pair in self.pairs)
