# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Joint names paired with positions, as joint_states messages and SolveIK seeds carry them."""

import math
from typing import Dict, List, Sequence, Tuple

from ..exceptions import InvalidSeedError

__all__ = ['finite_joint_positions', 'joint_state_to_mapping', 'paired_joint_positions']

# Names quoted in one error message; a hostile message may repeat thousands.
_MAX_NAMES_SHOWN = 10


def joint_state_to_mapping(names: Sequence[str], positions: Sequence[float]) -> Dict[str, float]:
    """
    Pair joint names with positions, checking the pairing.

    :param names: Joint names.
    :param positions: Positions in rad or m, one per name.
    :returns: A mapping from name to position.
    :raises InvalidSeedError: If the lengths differ, a name repeats or is empty, or a position
        is NaN or infinite.
    """
    mapping, not_finite = finite_joint_positions(names, positions)
    if not_finite:
        raise InvalidSeedError(
            'positions of %s are NaN or infinite' % ', '.join(not_finite))
    return mapping


def paired_joint_positions(names: Sequence[str], positions: Sequence[float]) -> Dict[str, float]:
    """
    Pair joint names with positions, checking only the pairing, not the numbers.

    :param names: Joint names.
    :param positions: Positions in rad or m, one per name; NaN and infinities are kept.
    :returns: A mapping from name to position.
    :raises InvalidSeedError: If the lengths differ, or a name repeats or is empty.
    """
    names = list(names)
    positions = list(positions)
    if len(names) != len(positions):
        raise InvalidSeedError(
            '%d joint names but %d positions' % (len(names), len(positions)))
    if any(not name for name in names):
        raise InvalidSeedError('a joint name is empty')
    if len(set(names)) != len(names):
        # One pass with a set: counting each name would take time quadratic in the message.
        seen, repeated = set(), set()
        for name in names:
            (repeated if name in seen else seen).add(name)
        listed = sorted(repeated)
        shown = ', '.join(listed[:_MAX_NAMES_SHOWN])
        if len(listed) > _MAX_NAMES_SHOWN:
            shown += ', ... (%d more)' % (len(listed) - _MAX_NAMES_SHOWN)
        raise InvalidSeedError('joint names repeat: %s' % shown)
    return {name: float(value) for name, value in zip(names, positions)}


def finite_joint_positions(names: Sequence[str], positions: Sequence[float]
                           ) -> Tuple[Dict[str, float], List[str]]:
    """
    Pair joint names with positions, leaving out the positions that are not finite.

    A joint_states message covers every joint of the robot; one NaN on a joint that does not
    matter must not hide the valid positions of the others.

    :param names: Joint names.
    :param positions: Positions in rad or m, one per name.
    :returns: The mapping from name to finite position, and the names left out.
    :raises InvalidSeedError: If the lengths differ, or a name repeats or is empty.
    """
    paired = paired_joint_positions(names, positions)
    dropped = [name for name, value in paired.items() if not math.isfinite(value)]
    kept = {name: value for name, value in paired.items() if math.isfinite(value)}
    return kept, dropped
