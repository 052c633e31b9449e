# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Kinematics of serial chains described by a URDF: parsing, FK, Jacobian, joint frames.

Pure numpy; importable without ROS.
"""

from .chain import Chain
from .urdf_model import RobotModel

__all__ = ['Chain', 'RobotModel']
