# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The simulated executor plays a timed Cartesian path point by point, by its timing."""

import numpy as np

from ik_solvers.paths import cartesian_path, trajectory_limits
from ik_solvers.visualization import TrajectoryPlayer

PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])


def test_a_timed_line_is_played_along_the_line_and_on_time(panda):
    start = panda.fk(PANDA_HOME)
    goal = start.copy()
    goal[1, 3] += 0.1
    result = cartesian_path(panda, [goal], seed=PANDA_HOME, max_step=0.002, point_timeout=1.0,
                            limits=trajectory_limits(panda, default_acceleration=5.0,
                                                     velocity_scale=0.5))
    trajectory = result.trajectory
    player = TrajectoryPlayer(panda.joint_names, PANDA_HOME)
    player.play(panda.joint_names, trajectory.times, trajectory.positions, start_time=100.0)
    # At each point's time the simulated arm is at that point ...
    for moment, q in zip(trajectory.times, trajectory.positions):
        assert np.allclose(player.sample(100.0 + moment)[0], q, atol=1e-9)
    # ... half-way through the motion it is half-way along the line ...
    middle = player.sample(100.0 + 0.5 * trajectory.duration)[0]
    tip = panda.fk(middle)[:3, 3]
    assert abs(tip[1] - start[1, 3]) < 0.1 and abs(tip[1] - start[1, 3] - 0.05) < 0.02
    assert np.linalg.norm(tip[[0, 2]] - start[[0, 2], 3]) < 1e-4
    # ... and it rests at the end afterwards.
    positions, velocities = player.sample(100.0 + trajectory.duration + 1.0)
    assert np.allclose(positions, trajectory.positions[-1]) and not velocities.any()
