# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Visualization helpers: the goal marker for RViz and the simulated executor.

Only the ROS-free parts are imported here. The nodes live in :mod:`.goal_marker_node` (needs
interactive_markers), :mod:`.goal_marker_core` and :mod:`.sim_executor` (need rclpy).
"""

from .goal_tracker import COLOURS, GoalPose, GoalTracker, Reachability
from .robot_joints import moving_joints, MovingJoint
from .trajectory_player import InvalidTrajectoryError, JointLimits, TrajectoryPlayer

__all__ = [
    'COLOURS',
    'GoalPose',
    'GoalTracker',
    'InvalidTrajectoryError',
    'JointLimits',
    'MovingJoint',
    'Reachability',
    'TrajectoryPlayer',
    'moving_joints',
]
