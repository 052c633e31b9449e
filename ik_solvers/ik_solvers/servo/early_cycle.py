# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A changed command taken up at once, between two ticks of the loop's timer.

At a fixed rate a command that arrives just after a tick waits almost a whole period before
its first point. A changed command can instead start a cycle when it arrives, from where the
controller is along the point it is playing: each cycle's motion is a linear ramp of the
velocity from the last point's to the new one's (the controller's cubic between two points
whose distance is the ramp's reduces to exactly that), so the state part-way through it is
known. The new point is then one period from there, and the timer counts on from the arrival.

Only a command that asks for other velocities than the one followed does so, and only after a
cycle of the timer: cycles never come more than twice as often as ``servo_rate``, whatever
the rate of the device.
"""

from typing import Tuple, Union

import numpy as np

from .servo_command import JointJogCommand, TwistCommand

__all__ = ['asks_for_other_velocities', 'state_within_cycle']

# Relative change of a command below which it is the same command (a device's noise).
_SAME_COMMAND = 1e-3


def state_within_cycle(start: np.ndarray, start_velocity: np.ndarray, end_velocity: np.ndarray,
                       period: float, elapsed: float) -> Tuple[np.ndarray, np.ndarray]:
    """
    Return the position and velocity ``elapsed`` seconds into a cycle.

    :param start: (N,) the cycle's start (the point before the last one), rad or m.
    :param start_velocity: (N,) the velocity there, rad/s or m/s.
    :param end_velocity: (N,) the velocity at the last point, reached after ``period``.
    :param period: the cycle's length, s (> 0).
    :param elapsed: s into the cycle, within ``[0, period]``.
    :returns: ``(positions, velocities)``, (N,) each.
    :raises ValueError: ``period`` is not positive or ``elapsed`` is outside the cycle.
    """
    if not (period > 0.0 and 0.0 <= elapsed <= period):
        raise ValueError('elapsed must lie within the cycle [0, %r] s, got %r'
                         % (period, elapsed))
    ramp = (np.asarray(end_velocity, dtype=float) - start_velocity) / period
    positions = start + start_velocity * elapsed + 0.5 * ramp * elapsed ** 2
    return positions, start_velocity + ramp * elapsed


def asks_for_other_velocities(followed: Union[TwistCommand, JointJogCommand, None],
                              command: Union[TwistCommand, JointJogCommand]) -> bool:
    """
    Tell whether ``command`` asks for other velocities than ``followed`` does.

    :param followed: the command the loop follows, or None.
    :param command: the one that arrived.
    :returns: True when the kind, the frame or any velocity differs by more than a thousandth
        of the larger command's size.
    """
    if followed is None or type(followed) is not type(command):
        return True
    if isinstance(command, TwistCommand):
        if command.frame != followed.frame:
            return True
        old = np.r_[followed.linear, followed.angular]
        new = np.r_[command.linear, command.angular]
    else:
        names = sorted(set(followed.velocities) | set(command.velocities))
        old = np.array([followed.velocities.get(name, 0.0) for name in names])
        new = np.array([command.velocities.get(name, 0.0) for name in names])
    size = max(float(np.linalg.norm(old)), float(np.linalg.norm(new)))
    return float(np.linalg.norm(new - old)) > _SAME_COMMAND * size if size > 0.0 else False
