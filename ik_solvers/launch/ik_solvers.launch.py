# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
r"""
Drag a goal in RViz and watch an arm follow it through the ik_node.

Starts robot_state_publisher with the robot description, the ik_node with
``config/ik_solvers.yaml``, the goal marker, the simulated executor (unless a real controller
takes the commands: ``sim_execution:=false``) and RViz with ``config/ik_solvers.rviz``.

Examples::

    ros2 launch ik_solvers ik_solvers.launch.py
    ros2 launch ik_solvers ik_solvers.launch.py solver:=ccd use_rviz:=false
    ros2 launch ik_solvers ik_solvers.launch.py description_file:=/path/to/robot.urdf.xacro
    ros2 launch ik_solvers ik_solvers.launch.py sim_execution:=false controller_name:=arm_ctrl
    ros2 launch ik_solvers ik_solvers.launch.py orientation_mode:=axis

With another robot, also give ``base_link:=...`` and ``tip_link:=...``. With several end
effectors, ``tip_links:=left_tool,right_tool`` (one goal marker per tip), for example::

    ros2 launch ik_solvers ik_solvers.launch.py base_link:=base_link tip_link:=left_tool \\
        tip_links:=left_tool,right_tool description_file:=<share>/urdf/trees/dual_arm_waist.urdf

where ``<share>`` is ``$(ros2 pkg prefix ik_solvers)/share/ik_solvers``.

The goal marker listens to the ik_node's status on ``/ik_node/status``; every name comes from
:mod:`ik_solvers.ros.names`, so renaming the ik_node there changes both ends.
"""

from pathlib import Path

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import IfCondition
from launch.substitutions import (Command, FindExecutable, LaunchConfiguration,
                                  PathJoinSubstitution)
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from ik_solvers.ros.names import DEFAULT_CONTROLLER_NAME, NODE_NAME, of_node, STATUS_TOPIC
from ik_solvers.visualization.goal_marker_tips import split_tip_links
from launch_ros.substitutions import FindPackageShare

PACKAGE = 'ik_solvers'


def _robot_state_publisher(context):
    """Start robot_state_publisher with the description file's URDF (xacro expanded)."""
    description_file = LaunchConfiguration('description_file').perform(context)
    if not Path(description_file).is_file():
        raise RuntimeError('description_file %r does not exist' % description_file)
    if description_file.endswith('.xacro'):
        urdf = Command([FindExecutable(name='xacro'), ' ', description_file])
    else:
        # A plain URDF needs no xacro: read it here, so that xacro stays optional.
        urdf = Path(description_file).read_text(encoding='utf-8')
    # value_type=str keeps launch from parsing the XML text as YAML.
    return [Node(
        package='robot_state_publisher',
        executable='robot_state_publisher',
        output='screen',
        parameters=[{'robot_description': ParameterValue(urdf, value_type=str)}],
    )]


def _text(argument: str) -> ParameterValue:
    """Pass a launch argument as a string: launch_ros would read ``on`` or ``1`` as YAML."""
    return ParameterValue(LaunchConfiguration(argument), value_type=str)


def _ik_node_and_goal_marker(context):
    """Start the ik_node and the goal marker; both get ``tip_links`` when it names tips."""
    tips = split_tip_links(LaunchConfiguration('tip_links').perform(context))
    # An empty list has no parameter type: with no tips, the parameter is left out.
    tip_links = {'tip_links': list(tips)} if tips else {}
    ik_node = Node(
        package=PACKAGE,
        executable='ik_node',
        name=NODE_NAME,
        output='screen',
        parameters=[
            PathJoinSubstitution([FindPackageShare(PACKAGE), 'config', 'ik_solvers.yaml']),
            # A node that does not declare orientation_mode ignores it.
            {'base_link': _text('base_link'), 'tip_link': _text('tip_link'),
             'solver': _text('solver'), 'controller_name': _text('controller_name'),
             'orientation_mode': _text('orientation_mode'), **tip_links},
        ],
    )
    goal_marker = Node(
        package=PACKAGE,
        executable='goal_marker',
        name='goal_marker',
        output='screen',
        parameters=[{'base_link': _text('base_link'), 'tip_link': _text('tip_link'),
                     'status_topic': of_node(STATUS_TOPIC),
                     'orientation_mode': _text('orientation_mode'), **tip_links}],
    )
    return [ik_node, goal_marker]


def generate_launch_description() -> LaunchDescription:
    """Declare the arguments and the nodes of the RViz goal-dragging setup."""
    arguments = [
        DeclareLaunchArgument(
            'description_file',
            default_value=PathJoinSubstitution([FindPackageShare(PACKAGE), 'urdf',
                                                'panda_like.urdf']),
            description='Robot description: a URDF, or a .xacro file where xacro is installed.'),
        DeclareLaunchArgument(
            'base_link', default_value='panda_link0',
            description='Link the chain starts at; also the frame of the goal and of RViz.'),
        DeclareLaunchArgument(
            'tip_link', default_value='panda_hand_tcp',
            description='Link whose pose follows the goal.'),
        DeclareLaunchArgument(
            'solver', default_value='jacobian_transpose',
            description='ccd, fabrik, jacobian_transpose or length_relaxation.'),
        DeclareLaunchArgument(
            'use_rviz', default_value='true', description='Start RViz.'),
        DeclareLaunchArgument(
            'sim_execution', default_value='true',
            description='Play the commands into joint_states with the simulated executor. '
                        'Set false when a joint_trajectory_controller receives them.'),
        DeclareLaunchArgument(
            'controller_name', default_value=DEFAULT_CONTROLLER_NAME,
            description='The commands go to /<controller_name>/joint_trajectory.'),
        DeclareLaunchArgument(
            'orientation_mode', default_value='full',
            description='What the goal orientation means: full (the pose), axis (the tip z '
                        'axis along the goal z axis, spin free) or none (position only).'),
        DeclareLaunchArgument(
            'tip_links', default_value='',
            description='Several end effectors: tips separated by commas (left_tool,right_tool); '
                        'the ik_node solves them together and the goal marker shows one '
                        'marker per tip. Empty: the one chain to tip_link.'),
    ]
    sim_executor = Node(
        package=PACKAGE,
        executable='sim_executor',
        name='sim_executor',
        output='screen',
        parameters=[{'controller_name': _text('controller_name')}],
        condition=IfCondition(LaunchConfiguration('sim_execution')),
    )
    rviz = Node(
        package='rviz2',
        executable='rviz2',
        name='rviz2',
        output='log',
        arguments=['-d', PathJoinSubstitution([FindPackageShare(PACKAGE), 'config',
                                               'ik_solvers.rviz']),
                   '-f', LaunchConfiguration('base_link')],
        condition=IfCondition(LaunchConfiguration('use_rviz')),
    )
    return LaunchDescription(arguments + [
        OpaqueFunction(function=_robot_state_publisher),
        OpaqueFunction(function=_ik_node_and_goal_marker),
        sim_executor,
        rviz,
    ])
