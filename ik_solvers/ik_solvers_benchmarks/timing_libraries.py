# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
toppra against ruckig for timing a Cartesian path: the measurement behind the choice.

Run ``python -m ik_solvers_benchmarks.timing_libraries`` (ruckig is optional: its rows are left
out when it is not installed). The joint path is the benchmark line of
:mod:`ik_solvers.paths.cartesian` (301 points); both libraries get the same velocity and acceleration limits.

* ``toppra``: :func:`ik_solvers.paths.time_parametrize`, TOPP-RA along the spline through the
  points (what the library uses).
* ``ruckig, rest at each point``: one time-optimal ruckig trajectory from each point to the
  next, at rest at both ends; ruckig's Community Version computes no trajectory through
  intermediate waypoints on the machine (its own documentation sends those to a cloud
  service), so this is how it follows a path point by point.
* ``ruckig, start to end``: one ruckig trajectory from the first point to the last, for its
  time; it leaves the line, which the deviation column shows.

Columns: median time to compute (ms), the trajectory's duration (s), the largest velocity and
acceleration by finite differences of a 1 ms resampling as shares of the limits, and the
largest distance of the tool from the line (mm, forward kinematics).
"""

import argparse
import time
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from .cartesian_bench import HOME_POSES
from ik_solvers.reach.named_robots import load_robot
from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.paths import cartesian_path, time_parametrize, trajectory_limits

__all__ = ['main']

_PERIOD = 0.001


def _ruckig_segments(positions: np.ndarray, velocity: np.ndarray, acceleration: np.ndarray,
                     jerk: float) -> List:
    import ruckig
    count = positions.shape[1]
    generator = ruckig.Ruckig(count)
    segments = []
    for first, second in zip(positions[:-1], positions[1:]):
        request = ruckig.InputParameter(count)
        request.current_position = first
        request.target_position = second
        request.max_velocity = velocity
        request.max_acceleration = acceleration
        request.max_jerk = np.full(count, jerk)
        trajectory = ruckig.Trajectory(count)
        generator.calculate(request, trajectory)
        segments.append(trajectory)
    return segments


def _sample_segments(segments: List) -> np.ndarray:
    samples = []
    for trajectory in segments:
        for moment in np.arange(0.0, trajectory.duration, _PERIOD):
            samples.append(trajectory.at_time(moment)[0])
    samples.append(segments[-1].at_time(segments[-1].duration)[0])
    return np.array(samples)


def _shares(positions: np.ndarray, velocity: np.ndarray,
            acceleration: np.ndarray) -> Tuple[float, float]:
    velocities = np.diff(positions, axis=0) / _PERIOD
    accelerations = np.diff(velocities, axis=0) / _PERIOD
    return (float(np.max(np.abs(velocities) / velocity)),
            float(np.max(np.abs(accelerations) / acceleration)))


def _deviation(chain: Chain, positions: np.ndarray, start: np.ndarray, end: np.ndarray) -> float:
    tips = chain.fk_batch(positions)[:, :3, 3]
    direction = end - start
    along = np.clip((tips - start) @ direction / float(direction @ direction), 0.0, 1.0)
    return float(np.max(np.linalg.norm(tips - (start + along[:, None] * direction), axis=1)))


def _median_ms(call: Callable[[], object], repeats: int) -> float:
    call()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return 1e3 * float(np.median(times))


def _rows(name: str, repeats: int, jerk: float) -> List[Tuple[str, float, float, float, float,
                                                              float]]:
    robot = load_robot(name)
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    home = np.array(next(pose for family, pose in HOME_POSES.items() if family in name))
    start = chain.fk(home)
    goal = start.copy()
    goal[2, 3] -= 0.3
    path = cartesian_path(chain, [goal], seed=home, max_step=0.001).positions
    limits = trajectory_limits(chain, default_acceleration=5.0, velocity_scale=0.5)
    velocity, acceleration = limits.max_velocity, limits.max_acceleration
    rows = []
    timed = time_parametrize(path, limits)
    samples = timed.sample(np.arange(0.0, timed.duration + _PERIOD, _PERIOD))[0]
    rows.append(('toppra', _median_ms(lambda: time_parametrize(path, limits), repeats),
                 timed.duration) + _shares(samples, velocity, acceleration)
                + (1e3 * _deviation(chain, samples, start[:3, 3], goal[:3, 3]),))
    ruckig = _ruckig_available()
    if ruckig is None:
        return rows
    segments = _ruckig_segments(path, velocity, acceleration, jerk)
    samples = _sample_segments(segments)
    rows.append(('ruckig, rest at each point',
                 _median_ms(lambda: _ruckig_segments(path, velocity, acceleration, jerk),
                            max(1, repeats // 4)),
                 sum(segment.duration for segment in segments))
                + _shares(samples, velocity, acceleration)
                + (1e3 * _deviation(chain, samples, start[:3, 3], goal[:3, 3]),))
    ends = path[[0, -1]]
    single = _ruckig_segments(ends, velocity, acceleration, jerk)
    samples = _sample_segments(single)
    rows.append(('ruckig, start to end',
                 _median_ms(lambda: _ruckig_segments(ends, velocity, acceleration, jerk),
                            repeats), single[0].duration)
                + _shares(samples, velocity, acceleration)
                + (1e3 * _deviation(chain, samples, start[:3, 3], goal[:3, 3]),))
    return rows


def _ruckig_available() -> Optional[object]:
    try:
        import ruckig
    except ImportError:
        return None
    return ruckig


def main(argv: Sequence[str] = None) -> None:
    """Print the comparison table."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--robots', nargs='+', default=['vendor_ur5', 'vendor_panda'])
    parser.add_argument('--repeats', type=int, default=21)
    parser.add_argument('--jerk', type=float, default=1000.0, help='ruckig jerk limit')
    arguments = parser.parse_args(argv)
    print('| arm | library | median ms | duration s | peak velocity / limit '
          '| peak acceleration / limit | max deviation from line mm |')
    print('|---|---|--:|--:|--:|--:|--:|')
    for name in arguments.robots:
        for row in _rows(name, arguments.repeats, arguments.jerk):
            print('| %s | %s | %.2f | %.3f | %.3f | %.3f | %.3f |' % ((name,) + row))


if __name__ == '__main__':
    main()
