# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Dense Cartesian paths: the same line given as 2 to 20,001 waypoints, timed alike.

Run ``python -m ik_solvers_benchmarks.dense_paths``. A toolpath exported from CAD or a traced
contour gives its line as thousands of waypoints micrometres apart. For each arm, a 2 cm and a
20 cm straight line of the tool from its home pose is given as W waypoints evenly spaced from
the start pose to the end (W - 1 gaps: 2 waypoints are the start and the end), followed by
:func:`ik_solvers.paths.cartesian_path` at ``max_step`` 1 mm and timed within the URDF velocity
limits (scaled) and one acceleration limit. The counts are 2, 3, 11, 101, 1,001, 2,001, 5,001
and 10,000, and the counts that space the waypoints 1, 4 and 10 um, 0.1, 1 and 10 mm apart, as
far as ``--most-waypoints`` allows (20,001 by default: 1 um at 2 cm, 10 um at 20 cm).

Each row: the points solved and the knots the timing went through, the duration and its ratio
to the same line given as 2 waypoints (target: within 10 %), the largest pose error of the
points by forward kinematics, the largest distance of the tool from the line between the
trajectory's points (forward kinematics at three instants between every two), and the wall
time of the call. A failure prints its error instead.
"""

import argparse
import time
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ik_solvers.exceptions import IKError
from ik_solvers.kinematics import Chain, RobotModel
from ik_solvers.paths import cartesian_path, trajectory_limits
from ik_solvers.reach.named_robots import load_robot, snake_robot

from .cartesian_bench import HOME_POSES, line_deviation

__all__ = ['ARM_LINES', 'dense_line', 'grid_counts', 'line_waypoints', 'main']

#: Arm -> (home configuration, rad; unit direction of the line in the base frame). The Panda
#: moves its tool straight down from "ready"; a generated 7-joint snake (hinges about z and y
#: in turn, 0.1 m links) moves it towards its base from a bent pose within its limits.
ARM_LINES: Dict[str, Tuple[Sequence[float], Sequence[float]]] = {
    'panda_like': (HOME_POSES['panda'], (0.0, 0.0, -1.0)),
    'snake_7': ((0.2, 0.7, -0.3, 0.8, 0.3, 0.6, -0.2), (-1.0, 0.0, 0.0)),
}
_COUNTS = (2, 3, 11, 101, 1001, 2001, 5001, 10000)
_SPACINGS = (1e-6, 4e-6, 1e-5, 1e-4, 1e-3, 1e-2)


def _chain(name: str) -> Chain:
    robot = snake_robot(7) if name == 'snake_7' else load_robot(name)
    return RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)


def grid_counts(length: float, most: int) -> List[int]:
    """
    Return the waypoint counts of one line: the fixed counts and those of the spacings.

    :param length: m, > 0.
    :param most: Largest count kept.
    :returns: Sorted distinct counts in [2, most].
    """
    spaced = [int(round(length / spacing)) + 1 for spacing in _SPACINGS]
    return sorted({count for count in list(_COUNTS) + spaced if 2 <= count <= most})


def line_waypoints(start: np.ndarray, direction: np.ndarray, length: float,
                   count: int) -> List[np.ndarray]:
    """
    Return ``count`` poses evenly spaced along the line from ``start``, the start included.

    :param start: (4, 4) first pose, m.
    :param direction: (3,) unit direction of the line.
    :param length: m.
    :param count: >= 2 poses; the last is ``length`` from the start, same orientation.
    """
    poses = []
    for share in np.linspace(0.0, 1.0, count):
        pose = start.copy()
        pose[:3, 3] += share * length * np.asarray(direction, dtype=float)
        poses.append(pose)
    return poses


def dense_line(name: str, length: float, count: int, *, max_step: float = 0.001,
               velocity_scale: float = 0.5, acceleration: float = 5.0) -> dict:
    """
    Follow and time one line of an arm of :data:`ARM_LINES` given as ``count`` waypoints.

    :returns: ``{'points', 'knots', 'duration', 'position_error', 'deviation', 'wall',
        'reason'}`` (s and m), or ``{'error': text, 'wall'}`` when the call raised.
    """
    chain = _chain(name)
    home_values, direction = ARM_LINES[name]
    home = np.array(home_values, dtype=float)
    start = chain.fk(home)
    waypoints = line_waypoints(start, np.array(direction), length, count)
    limits = trajectory_limits(chain, default_acceleration=acceleration,
                               velocity_scale=velocity_scale, max_path_duration=3600.0)
    began = time.perf_counter()
    try:
        result = cartesian_path(chain, waypoints, seed=home, max_step=max_step, limits=limits,
                                max_points=max(count + 1, 10000))
    except IKError as error:
        return {'error': '%s: %s' % (type(error).__name__, error),
                'wall': time.perf_counter() - began}
    wall = time.perf_counter() - began
    trajectory = result.trajectory
    return {'points': result.positions.shape[0], 'knots': trajectory.times.size,
            'duration': trajectory.duration, 'position_error': result.max_position_error,
            'deviation': line_deviation(trajectory, chain, start[:3, 3],
                                        waypoints[-1][:3, 3]),
            'wall': wall, 'reason': result.reason}


def _row(name: str, length: float, count: int, figures: dict,
         reference: Optional[float]) -> Tuple[str, Optional[float]]:
    spacing = 1e6 * length / (count - 1)
    head = '%-11s %5.0f %6d %10.1f' % (name, 100 * length, count, spacing)
    if 'error' in figures:
        return '%s  refused after %.2f s: %s' % (head, figures['wall'], figures['error']), None
    ratio = figures['duration'] / reference if reference else None
    return ('%s %6d %6d %9.3f %6s %9.2g %9.3g %7.2f %s' % (
        head, figures['points'], figures['knots'], figures['duration'],
        '%.3f' % ratio if ratio is not None else '-', figures['position_error'],
        1e3 * figures['deviation'], figures['wall'], figures['reason']), ratio)


def main(argv: Sequence[str] = None) -> None:
    """Print the table of dense lines and the worst ratio to the two-waypoint duration."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--robots', nargs='+', default=list(ARM_LINES), choices=list(ARM_LINES))
    parser.add_argument('--lengths', nargs='+', type=float, default=[0.02, 0.2], help='m')
    parser.add_argument('--most-waypoints', type=int, default=20001)
    parser.add_argument('--max-step', type=float, default=0.001, help='m')
    args = parser.parse_args(argv)
    print('%-11s %5s %6s %10s %6s %6s %9s %6s %9s %9s %7s' % (
        'arm', 'cm', 'wayp.', 'spacing um', 'points', 'knots', 'duration', 'ratio',
        'pos.err m', 'dev. mm', 'wall s'))
    ratios: List[float] = []
    failures = 0
    for name in args.robots:
        dense_line(name, 0.02, 2, max_step=args.max_step)  # warm-up: imports, compilation
        for length in args.lengths:
            reference = None
            for count in grid_counts(length, args.most_waypoints):
                figures = dense_line(name, length, count, max_step=args.max_step)
                if count == 2 and 'error' not in figures:
                    reference = figures['duration']
                line, ratio = _row(name, length, count, figures, reference)
                print(line, flush=True)
                if ratio is None:
                    failures += 1
                else:
                    ratios.append(ratio)
    worst = max((abs(ratio - 1.0) for ratio in ratios), default=float('nan'))
    print('%d lines timed, %d refused; worst |duration / two-waypoint duration - 1| = %.3f '
          '(target <= 0.10)' % (len(ratios), failures, worst))


if __name__ == '__main__':
    main()
