# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Cartesian paths: time per path, fraction, deviation from the line, joint jumps.

Run ``python -m ik_solvers_benchmarks.cartesian_bench``. For each arm a straight line of the tool
(30 cm straight down at 1 mm steps by default: 301 points) is followed from the arm's home
pose and timed within the URDF velocity limits (scaled) and one acceleration limit. Reported
per arm, over ``--repeats`` runs after one warm-up run:

* wall time per path, the time parametrization included (median and 95th percentile), and the
  process's CPU time (median), which a loaded machine disturbs less;
* the fraction achieved and the number of points;
* the largest pose error of the points by forward kinematics;
* the largest deviation of the tool from the ideal line between the points: forward kinematics
  at three intermediate times between every two points of the timed trajectory;
* the largest joint change between consecutive points;
* the trajectory's duration and, on the spline a joint_trajectory_controller runs through its
  points (:mod:`ik_solvers.paths.controller_spline`) sampled every 1 ms, its largest velocity
  and acceleration as shares of the limits and its largest excursion past a URDF position
  limit.

A second table times the same short line (9 cm down, ``--dense-length``) cut into 100, 1,000
and 9,000 points with the node's default tolerances: the duration should not depend on the cut.
"""

import argparse
import time
from typing import Dict, List, Optional, Sequence

import numpy as np

from ik_solvers.reach.named_robots import bundled_robot_names, load_robot, vendor_robot_names
from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.exceptions import IKError
from ik_solvers.paths import cartesian_path, pose_errors, trajectory_limits, TimedTrajectory
from ik_solvers.paths.controller_spline import ControllerSpline, limit_excess

__all__ = ['HOME_POSES', 'line_deviation', 'main', 'measure_arm']

#: Home configurations by arm family (rad): the UR's upright elbow-up pose with the tool down,
#: the Panda's "ready" pose.
HOME_POSES: Dict[str, Sequence[float]] = {
    'ur5': (0.0, -1.57, 1.57, -1.57, -1.57, 0.0),
    'panda': (0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785),
}
_DEFAULT_ARMS = ('vendor_ur5', 'vendor_panda', 'ur5_like', 'panda_like')
# Intermediate samples per interval between path points for the deviation from the line.
_SAMPLES_BETWEEN_POINTS = 3
_RESAMPLING_PERIOD = 0.001


def _home(name: str, chain: Chain) -> np.ndarray:
    for family, pose in HOME_POSES.items():
        if family in name and len(pose) == chain.num_joints:
            return np.array(pose)
    return chain.mid_configuration()


def line_deviation(trajectory: TimedTrajectory, chain: Chain, start: np.ndarray,
                   end: np.ndarray) -> float:
    """
    Largest distance of the tool from the segment start -> end between the trajectory's points.

    :param trajectory: A timed trajectory of ``chain``.
    :param chain: The chain, for forward kinematics.
    :param start: (3,) first point of the ideal line, m.
    :param end: (3,) last point, m.
    :returns: m; 0 for a trajectory of one point.
    """
    times = trajectory.times
    if times.size < 2:
        return 0.0
    shares = np.arange(1, _SAMPLES_BETWEEN_POINTS + 1) / (_SAMPLES_BETWEEN_POINTS + 1.0)
    between = (times[:-1, None] + shares[None, :] * np.diff(times)[:, None]).ravel()
    positions, _, _ = trajectory.sample(between)
    tips = chain.fk_batch(positions)[:, :3, 3]
    direction = end - start
    along = np.clip((tips - start) @ direction / max(float(direction @ direction), 1e-300),
                    0.0, 1.0)
    return float(np.max(np.linalg.norm(tips - (start + along[:, None] * direction), axis=1)))


def controller_limit_shares(trajectory: TimedTrajectory, limits, chain: Chain) -> List[float]:
    """
    Peak velocity and acceleration shares and position excursion of what the controller runs.

    :param trajectory: A timed trajectory, sent as it is (positions, velocities and
        accelerations: quintic segments).
    :param limits: The :class:`ik_solvers.paths.path_limits.TrajectoryLimits` it was timed with.
    :param chain: The chain, for the URDF position limits.
    :returns: ``[max |v| / limit, max |a| / limit, max excursion past a position limit (rad
        or m)]`` over a 1 ms sampling of the controller's spline.
    """
    if trajectory.duration <= 0.0:
        return [0.0, 0.0, 0.0]
    spline = ControllerSpline(trajectory.times, trajectory.positions, trajectory.velocities,
                              trajectory.accelerations)
    excess = limit_excess(spline.sample_every(_RESAMPLING_PERIOD),
                          max_velocity=limits.max_velocity,
                          max_acceleration=limits.max_acceleration, lower=chain.lower,
                          upper=chain.upper)
    return [excess.velocity_ratio, excess.acceleration_ratio, excess.position_excess]


def measure_arm(name: str, *, length: float, step: float, repeats: int,
                velocity_scale: float, acceleration: float, jump_threshold: float,
                solver: str) -> Optional[dict]:
    """
    Follow and time the benchmark line on one arm.

    :param name: A robot name of :func:`load_robot`.
    :param length: Length of the line straight down, m.
    :param step: ``max_step``, m.
    :param repeats: Timed runs after one warm-up run.
    :param velocity_scale: Share of the URDF velocity limits.
    :param acceleration: One acceleration limit for every joint, rad/s^2.
    :param jump_threshold: Largest joint change between points, rad.
    :param solver: The solver's name.
    :returns: The figures of the arm, or None when it cannot be loaded.
    """
    robot = load_robot(name)
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    home = _home(name, chain)
    start_pose = chain.fk(home)
    goal = start_pose.copy()
    goal[2, 3] -= length
    limits = trajectory_limits(chain, default_acceleration=acceleration,
                               velocity_scale=velocity_scale)

    def run():
        return cartesian_path(chain, [goal], seed=home, max_step=step,
                              jump_threshold=jump_threshold, solver=solver, limits=limits)

    result = run()  # warm-up: toppra's import, first calls
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    position_errors, orientation_errors = pose_errors(chain.fk_batch(result.positions),
                                                      result.targets)
    velocity_share, acceleration_share, excursion = controller_limit_shares(
        result.trajectory, limits, chain)
    return {
        'arm': name, 'points': result.positions.shape[0], 'of': result.num_points,
        'fraction': result.fraction, 'reason': result.reason,
        'median_ms': 1e3 * float(np.median(walls)),
        'p95_ms': 1e3 * float(np.percentile(walls, 95)),
        'cpu_ms': 1e3 * float(np.median(cpus)),
        'position_error': float(position_errors.max()),
        'orientation_error': float(orientation_errors.max()),
        'deviation_mm': 1e3 * line_deviation(result.trajectory, chain, start_pose[:3, 3],
                                             goal[:3, 3]),
        'jump': result.max_joint_step, 'duration': result.trajectory.duration,
        'velocity_share': velocity_share, 'acceleration_share': acceleration_share,
        'excursion': excursion,
    }


def dense_durations(name: str, *, length: float, counts: Sequence[int],
                    velocity_scale: float, acceleration: float) -> List[Optional[float]]:
    """
    Duration of the same line down cut into each number of points, node tolerances.

    :returns: One duration (s) per count; None where the path was refused or not timed.
    """
    robot = load_robot(name)
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    home = _home(name, chain)
    goal = chain.fk(home)
    goal[2, 3] -= length
    limits = trajectory_limits(chain, default_acceleration=acceleration,
                               velocity_scale=velocity_scale, max_path_duration=60.0)
    durations: List[Optional[float]] = []
    for count in counts:
        try:
            result = cartesian_path(chain, [goal], seed=home,
                                    max_step=length / (count - 1.0001), jump_threshold=0.5,
                                    position_tolerance=1e-4, orientation_tolerance=1e-3,
                                    max_points=max(count, 10000), limits=limits)
        except IKError:
            durations.append(None)
            continue
        complete = result.reason == 'complete' and result.trajectory is not None
        durations.append(result.trajectory.duration if complete else None)
    return durations


def main(argv: Sequence[str] = None) -> None:
    """Print the table of the Cartesian path benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--robots', nargs='+', default=list(_DEFAULT_ARMS))
    parser.add_argument('--length', type=float, default=0.3, help='m, straight down')
    parser.add_argument('--step', type=float, default=0.001, help='max_step, m')
    parser.add_argument('--repeats', type=int, default=21)
    parser.add_argument('--velocity-scale', type=float, default=0.5)
    parser.add_argument('--acceleration', type=float, default=5.0, help='rad/s^2, every joint')
    parser.add_argument('--jump-threshold', type=float, default=0.1, help='rad')
    parser.add_argument('--solver', default='jacobian_transpose')
    parser.add_argument('--dense-length', type=float, default=0.09,
                        help='m, the line of the timing-against-cut table')
    arguments = parser.parse_args(argv)
    available = set(bundled_robot_names()) | set(vendor_robot_names())
    print('%.0f cm line straight down at %.1f mm steps; velocity_scale %.2f, acceleration '
          '%.1f rad/s^2, jump_threshold %.2f rad, %s; %d runs after a warm-up'
          % (100 * arguments.length, 1e3 * arguments.step, arguments.velocity_scale,
             arguments.acceleration, arguments.jump_threshold, arguments.solver,
             arguments.repeats))
    print('| arm | points | fraction | median ms | p95 ms | CPU ms | max pose error (m / rad) '
          '| max deviation from line (mm) | max joint jump (rad) | duration (s) '
          '| max velocity / limit | max acceleration / limit | max past URDF limit (rad) |')
    print('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|')
    for name in arguments.robots:
        if name not in available:
            print('| %s | not installed |' % name)
            continue
        row = measure_arm(name, length=arguments.length, step=arguments.step,
                          repeats=arguments.repeats, velocity_scale=arguments.velocity_scale,
                          acceleration=arguments.acceleration,
                          jump_threshold=arguments.jump_threshold, solver=arguments.solver)
        print('| %s | %d/%d | %.3f (%s) | %.2f | %.2f | %.2f | %.1e / %.1e | %.3f | %.4f '
              '| %.3f | %.4f | %.4f | %.1e |'
              % (row['arm'], row['points'], row['of'], row['fraction'], row['reason'],
                 row['median_ms'], row['p95_ms'], row['cpu_ms'], row['position_error'],
                 row['orientation_error'], row['deviation_mm'], row['jump'], row['duration'],
                 row['velocity_share'], row['acceleration_share'], row['excursion']))
    counts = (100, 1000, 9000)
    print('\n%.0f cm line down cut into %s points (tolerances 1e-4 m, 1e-3 rad): duration (s)'
          % (100 * arguments.dense_length, ', '.join('{:,}'.format(c) for c in counts)))
    print('| arm | %s | max / min |' % ' | '.join('{:,} points'.format(c) for c in counts))
    print('|---|%s--:|' % ('--:|' * len(counts)))
    for name in arguments.robots:
        if name not in available:
            continue
        durations = dense_durations(name, length=arguments.dense_length, counts=counts,
                                    velocity_scale=arguments.velocity_scale,
                                    acceleration=arguments.acceleration)
        timed = [value for value in durations if value is not None]
        spread = max(timed) / min(timed) if len(timed) == len(counts) else float('nan')
        print('| %s | %s | %.3f |' % (name, ' | '.join(
            'refused' if value is None else '%.3f' % value for value in durations), spread))


if __name__ == '__main__':
    main()
