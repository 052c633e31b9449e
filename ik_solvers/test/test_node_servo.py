# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Servoing through the node: twists and joint commands in, points and status out."""

from geometry_msgs.msg import TwistStamped
from ik_solvers_interfaces.msg import ServoStatus
import numpy as np
from rclpy.qos import QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from test_node_support import (Collector, start_ur5_node, UR5, UR5_CHAIN, UR5_HOME,
                               wait_until)


def _servo_probe(probe):
    statuses = Collector()
    probe.node.create_subscription(ServoStatus, 'ik_node/servo_status', statuses, 100)
    twists = probe.node.create_publisher(TwistStamped, 'ik_node/delta_twist_cmds', 10)
    joints = probe.node.create_publisher(JointState, 'ik_node/delta_joint_cmds', 10)
    assert wait_until(lambda: twists.get_subscription_count() > 0
                      and joints.get_subscription_count() > 0)
    return statuses, twists, joints


def _twist(frame: str, linear) -> TwistStamped:
    message = TwistStamped()
    message.header.frame_id = frame
    message.twist.linear.x, message.twist.linear.y, message.twist.linear.z = linear
    return message


def test_a_twist_moves_the_tip_its_way_and_stops_when_it_ends(ros):
    node, probe = start_ur5_node(ros)
    statuses, twists, _ = _servo_probe(probe)
    start = probe.commands.count()
    for _ in range(30):  # 0.6 s of commands at 50 Hz, like a gamepad
        twists.publish(_twist('base_link', (0.0, 0.0, 0.05)))
        wait_until(lambda: False, timeout=0.02)
    assert wait_until(lambda: probe.commands.count() > start + 10)
    commands = probe.commands.messages[start:]
    first, last = commands[0].points[0].positions, commands[-1].points[0].positions
    moved = UR5_CHAIN.fk(last)[:3, 3] - UR5_CHAIN.fk(first)[:3, 3]
    assert moved[2] > 0.01  # up, as commanded
    assert np.linalg.norm(moved[:2]) < 0.1 * moved[2]
    assert list(commands[-1].joint_names) == list(UR5_CHAIN.joint_names)
    # The command timed out: the arm decelerated and the loop reports rest.
    statuses.wait_for(lambda s: not s.moving)
    assert any(s.moving and s.fraction > 0.9 for s in statuses.messages)


def test_joint_commands_move_only_their_joint_and_bad_ones_move_nothing(ros):
    node, probe = start_ur5_node(ros, servo_output='position_array',
                                 servo_position_topic='positions')
    positions = Collector()
    probe.node.create_subscription(Float64MultiArray, 'positions', positions, QoSProfile(
        depth=100, reliability=ReliabilityPolicy.RELIABLE))
    _, _, joints = _servo_probe(probe)
    bad = JointState(name=['no_such_joint'], velocity=[0.3])
    joints.publish(bad)
    assert not wait_until(lambda: positions.count() > 0, timeout=0.5)
    for _ in range(20):
        joints.publish(JointState(name=[UR5_CHAIN.joint_names[0]], velocity=[0.3]))
        wait_until(lambda: False, timeout=0.02)
    assert wait_until(lambda: positions.count() > 5)
    last = np.array(positions.messages[-1].data)
    assert last[0] > UR5_HOME[0] + 0.01
    assert np.allclose(last[1:], UR5_HOME[1:], atol=1e-9)


def test_the_servo_takes_the_node_s_remapped_topic_names(ros):
    # The servo's topics live on a node of their own; they must still be the ik_node's names,
    # remappings included, or a launch file's remapping of ~/delta_twist_cmds would be lost.
    node, probe = ros.start(cli_args=['--ros-args', '-r', '~/delta_twist_cmds:=teleop/twist'])
    probe.stream_joint_states(UR5_CHAIN.joint_names, UR5_HOME)
    probe.publish_description(UR5)
    probe.wait_for_model()
    statuses = Collector()
    probe.node.create_subscription(ServoStatus, 'ik_node/servo_status', statuses, 100)
    remapped = probe.node.create_publisher(TwistStamped, 'teleop/twist', 10)
    unmapped = probe.node.create_publisher(TwistStamped, 'ik_node/delta_twist_cmds', 10)
    assert wait_until(lambda: remapped.get_subscription_count() > 0)
    assert unmapped.get_subscription_count() == 0
    for _ in range(10):
        remapped.publish(_twist('base_link', (0.0, 0.0, 0.05)))
        wait_until(lambda: False, timeout=0.02)
    statuses.wait_for(lambda status: status.moving and status.fraction > 0.5)
    names = [name for name, _ in node.get_node_names_and_namespaces()]
    assert node.get_name() + '_servo' in names
