# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Heuristic inverse kinematics for serial chains described by a URDF.

The core (kinematics and solvers) needs only numpy, numba and transforms3d (it runs without
numba, much slower; URDFs are read with the standard library's XML parser); the ROS 2 glue
lives in :mod:`ik_solvers.ros` and is imported only by the node.
"""

from .exceptions import (
    CollisionGeometryError,
    IKError,
    InvalidObstacleError,
    InvalidSeedError,
    InvalidSolverOptionError,
    InvalidTargetError,
    RobotModelError,
    SrdfError,
    UnknownSolverError,
)
from .kinematics import Chain, RobotModel
from .solvers import (approach, BatchResult, Goal, IKResult, PreparedSolver, SearchOptions,
                      SearchTuning, solve, solve_batch, SOLVERS, Status, warm_up)
from .solvers.solutions import Solutions, solve_many

# The library's whole face: a chain, one request (Goal, SearchOptions, and for advanced use
# SearchTuning), one answer (IKResult, Status), the entry points, and the errors. Everything
# else is reached through its subpackage.
__all__ = [
    'BatchResult',
    'Chain',
    'CollisionGeometryError',
    'Goal',
    'IKError',
    'IKResult',
    'InvalidObstacleError',
    'InvalidSeedError',
    'InvalidSolverOptionError',
    'InvalidTargetError',
    'PreparedSolver',
    'RobotModel',
    'RobotModelError',
    'SOLVERS',
    'SearchOptions',
    'SearchTuning',
    'Solutions',
    'SrdfError',
    'Status',
    'UnknownSolverError',
    'approach',
    'solve',
    'solve_batch',
    'solve_many',
    'warm_up',
]
