# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Servoing: velocity commands of a teleoperation device, one controller point per cycle.

:class:`ServoLoop` integrates the latest :class:`TwistCommand` or :class:`JointJogCommand` over
one period and steps toward it with a heuristic, within speed, acceleration and braking limits,
moving along the achievable part of the command near singularities (docs/servo.md). No ROS
here: the node's timer and topics are in :mod:`ik_solvers.ros.servo_input`.
"""

from .servo_command import JointJogCommand, LIMITERS, ServoSettings, ServoStep, TwistCommand
from .servo_limits import velocity_box, VelocityBox
from .servo_loop import ServoLoop

__all__ = ['JointJogCommand', 'LIMITERS', 'ServoLoop', 'ServoSettings', 'ServoStep',
           'TwistCommand', 'VelocityBox', 'velocity_box']
