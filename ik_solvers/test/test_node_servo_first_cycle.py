# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Servoing from rest: the first cycle runs when the command arrives, not a period later."""

from geometry_msgs.msg import TwistStamped
from ik_solvers.servo.servo_loop import ServoLoop
from test_node_support import start_ur5_node, UR5_CHAIN, UR5_HOME, wait_until


def test_a_twist_that_ends_within_one_period_still_moves_the_arm_from_rest(ros):
    # At 1 Hz the twist (held incoming_command_timeout, 0.1 s) has expired before the next
    # tick: only a cycle run on its arrival sends a point for it.
    node, probe = start_ur5_node(ros, servo_rate=1.0)
    twists = probe.node.create_publisher(TwistStamped, 'ik_node/delta_twist_cmds', 10)
    assert wait_until(lambda: twists.get_subscription_count() > 0)
    start = probe.commands.count()
    twist = TwistStamped()
    twist.header.frame_id = 'base_link'
    twist.twist.linear.z = 0.05
    twists.publish(twist)
    assert wait_until(lambda: probe.commands.count() > start, timeout=3.0)
    first = probe.commands.messages[start].points[0].positions
    moved = UR5_CHAIN.fk(first)[:3, 3] - UR5_CHAIN.fk(UR5_HOME)[:3, 3]
    assert moved[2] > 0.0  # up, as commanded


def test_the_timer_s_cycles_are_not_taken_for_early_ones(ros, monkeypatch):
    # rclpy's events executor hands a timer callback that takes a parameter a TimerInfo; read
    # as ``early``, it made regular cycles early ones, and a changed command then waited for
    # the next tick instead of starting a cycle at once.
    asked = []
    step = ServoLoop.step

    def recording_step(self, now, *, early=False):
        asked.append(early)
        return step(self, now, early=early)

    monkeypatch.setattr(ServoLoop, 'step', recording_step)
    node, probe = start_ur5_node(ros, servo_rate=50.0)
    twists = probe.node.create_publisher(TwistStamped, 'ik_node/delta_twist_cmds', 10)
    assert wait_until(lambda: twists.get_subscription_count() > 0)
    twist = TwistStamped()
    twist.header.frame_id = 'base_link'
    twist.twist.linear.z = 0.05
    for _ in range(10):
        twists.publish(twist)
        wait_until(lambda: False, timeout=0.02)
    assert wait_until(lambda: asked.count(False) >= 5)
    assert all(type(each) is bool for each in asked)
