# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What servoing is asked for and what one cycle answers: typed values, no ROS.

A teleoperation device sends velocities: a :class:`TwistCommand` for the tip, or a
:class:`JointJogCommand` for named joints. :class:`ServoLoop <.servo_loop.ServoLoop>` turns the
latest of them into one :class:`ServoStep` per cycle, within the limits of
:class:`ServoSettings`.
"""

from dataclasses import dataclass, field
import math
from typing import Mapping, Tuple

import numpy as np

from ..exceptions import InvalidParameterError

__all__ = ['JointJogCommand', 'LIMITERS', 'ServoSettings', 'ServoStep', 'TwistCommand',
           'TWIST_FRAMES']

#: What can hold a cycle back from the whole command, in :attr:`ServoStep.limiter`:
#: nothing; a singular configuration (the command has a part no joint velocity within the
#: limits achieves); a joint braking to stop at a position limit; an obstacle (or another
#: link) within the slow-down distance; the joints' velocity or acceleration limits.
LIMITERS = ('none', 'singularity', 'joint_limit', 'obstacle', 'velocity_limit')
#: The frames a twist may be expressed in: the chain's base link or its tip link.
TWIST_FRAMES = ('base', 'tip')


def _finite_triple(value, name: str) -> Tuple[float, float, float]:
    array = np.asarray(value, dtype=float).reshape(-1)
    if array.shape != (3,) or not np.all(np.isfinite(array)):
        raise InvalidParameterError('%s must be three finite numbers, got %r' % (name, value))
    return tuple(float(x) for x in array)


@dataclass(frozen=True)
class TwistCommand:
    """
    A velocity of the tip, held until a newer command or ``incoming_command_timeout``.

    :ivar linear: velocity of the tip's origin, m/s, in ``frame``.
    :ivar angular: angular velocity of the tip, rad/s, in ``frame``.
    :ivar frame: ``'base'`` (the chain's base link) or ``'tip'`` (the tip link as it is at
        each cycle).
    :ivar received: when it arrived, s on the clock the loop is stepped with.
    :raises InvalidParameterError: a value is not finite, or the frame is unknown.
    """

    linear: Tuple[float, float, float]
    angular: Tuple[float, float, float]
    frame: str = 'base'
    received: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, 'linear', _finite_triple(self.linear, 'linear'))
        object.__setattr__(self, 'angular', _finite_triple(self.angular, 'angular'))
        if self.frame not in TWIST_FRAMES:
            raise InvalidParameterError('a twist is given in one of %s, got %r'
                                        % (', '.join(TWIST_FRAMES), self.frame))
        if not math.isfinite(self.received):
            raise InvalidParameterError('received must be finite, got %r' % (self.received,))


@dataclass(frozen=True)
class JointJogCommand:
    """
    Velocities of named joints, rad/s or m/s; the joints not named stay still.

    :ivar velocities: joint name to velocity.
    :ivar received: when it arrived, s on the loop's clock.
    :raises InvalidParameterError: a velocity is not finite.
    """

    velocities: Mapping[str, float] = field(default_factory=dict)
    received: float = 0.0

    def __post_init__(self) -> None:
        bad = [name for name, value in self.velocities.items() if not math.isfinite(value)]
        if bad:
            raise InvalidParameterError('joint velocities must be finite; %s is not'
                                        % ', '.join(sorted(bad)))


@dataclass(frozen=True)
class ServoSettings:
    """
    How servoing moves the arm.

    :ivar rate: cycles per second, Hz, 1 to 500.
    :ivar incoming_command_timeout: a command holds this long, s; then the arm decelerates to
        rest within its limits.
    :ivar velocity_scale: fraction of each joint's URDF velocity limit a cycle may use.
    :ivar acceleration_limit: largest joint acceleration, rad/s^2 or m/s^2.
    :ivar slow_down_distance: below this clearance to an obstacle (beyond the padding), m, the
        command is scaled down linearly, to 0 at the padding.
    :ivar solve_timeout: budget of the heuristic's exact step in one cycle, s.
    :ivar singular_ratio: a configuration whose Jacobian's smallest singular value is below
        this fraction of its largest counts as near a singularity (for the status and for how
        a held-back step is chosen); the Jacobian's angular rows are weighed by the
        orientation weight, m per rad, as the solvers weigh orientation errors.
    :raises InvalidParameterError: a value is out of range.
    """

    rate: float = 100.0
    incoming_command_timeout: float = 0.1
    velocity_scale: float = 0.5
    acceleration_limit: float = 5.0
    slow_down_distance: float = 0.1
    solve_timeout: float = 0.0005
    singular_ratio: float = 0.05

    def __post_init__(self) -> None:
        if not (1.0 <= self.rate <= 500.0):
            raise InvalidParameterError('servo_rate must be within 1 and 500 Hz, got %r'
                                        % (self.rate,))
        for name in ('incoming_command_timeout', 'acceleration_limit', 'slow_down_distance',
                     'solve_timeout', 'singular_ratio'):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0.0 < value < math.inf):
                raise InvalidParameterError('%s must be a finite positive number, got %r'
                                            % (name, value))
        if not (0.0 < self.velocity_scale <= 1.0):
            raise InvalidParameterError('velocity_scale must be within (0, 1], got %r'
                                        % (self.velocity_scale,))

    @property
    def period(self) -> float:
        """One cycle, s."""
        return 1.0 / self.rate


@dataclass(frozen=True)
class ServoStep:
    """
    One cycle's answer: the next point for the controller and what held it back.

    :ivar positions: (N,) the commanded joint positions, rad or m.
    :ivar velocities: (N,) the joint velocities at that point, rad/s or m/s; the controller's
        cubic from the previous point has constant acceleration (``velocities`` minus the
        previous ones, over one period).
    :ivar fraction: the achieved share of the commanded tip velocity along its direction, 0 to
        1 (1 with no command).
    :ivar limiter: one of :data:`LIMITERS`.
    :ivar moving: whether any joint moves; a loop at rest with no command sends nothing.
    """

    positions: np.ndarray
    velocities: np.ndarray
    fraction: float
    limiter: str
    moving: bool
