# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Where the robot is when a request is handled: one read of the robot state, frozen.

:meth:`.robot_state.RobotState.placement` reads the model, the joint states, the last command
and the collision scene once, under their own locks, and gives a :class:`Placement`. The
stages after it (aim, solve, judge, command) use these values and do not ask the robot state
again: a request is solved and judged against one consistent picture. Only the command's
timing and the last check as it is sent read the joint states and the scene anew, since those
must see the arm as it is when the command leaves.
"""

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

import numpy as np

from ..collision import CollisionModel
from ..kinematics import Chain, RobotModel

__all__ = ['OPEN_LOOP_NOTE', 'Placement', 'start_and_notes']

#: Said of a request handled before any joint state arrived: the node cannot see the arm, so a
#: command starts from the node's own model of it (the last command, else the middle of the
#: limits). An answer that commands says it, so that a caller can wait for the joint states.
OPEN_LOOP_NOTE = ('no joint_states received yet: open loop, the command starts from the last '
                  'command (or the middle of the limits), not from where the arm is')


@dataclass(frozen=True)
class Placement:
    """Stage 1, where the robot is: the chain, its model, the joint states, the start."""

    chain: Chain
    model: RobotModel
    #: Latest joint positions by name, rad or m (every joint of the description received).
    joints: Dict[str, float]
    #: Seconds since each chain joint's latest state arrived, as of ``read_at``.
    ages: Mapping[str, float]
    #: s on the engine's clock when the joint states were read.
    read_at: float
    #: The collision model a solve and the judges use, or None (no geometry, or not asked).
    collision: Optional[CollisionModel]
    #: Why collisions are not checked, when ``collision`` is None; else empty.
    unchecked: str
    #: One line on what collisions are checked against, for the status.
    collision_summary: str
    #: (N,) where a command would move from.
    start: np.ndarray
    #: The last command of this chain while the arm is still near it (the reference of a
    #: dragged goal), else None.
    drag_reference: Optional[np.ndarray]
    notes: Tuple[str, ...]


def start_and_notes(chain: Chain, joint_positions: Mapping[str, float],
                    last_command: Optional[np.ndarray]) -> Tuple[np.ndarray, List[str]]:
    """
    Give where ``chain`` is, as best known, and a note on the joints the joint states lack.

    Per joint: the joint position given; else the last command; else the middle of the
    limits. The result is clipped into the limits, since encoders may read slightly outside.

    :param chain: The chain.
    :param joint_positions: Latest joint positions by name, rad or m.
    :param last_command: (N,) the last command of this chain, or None.
    :returns: The (N,) configuration, rad or m, and the notes.
    """
    q = (np.array(chain.mid_configuration(), dtype=float) if last_command is None
         else np.array(last_command, dtype=float))
    notes = []
    if joint_positions:
        missing = []
        for index, name in enumerate(chain.joint_names):
            if name in joint_positions:
                q[index] = joint_positions[name]
            else:
                missing.append(name)
        if missing:
            notes.append('joint_states lack chain joints %s; using the last command or '
                         'the middle of their limits' % ', '.join(missing))
    return np.asarray(chain.clip(q), dtype=float), notes
