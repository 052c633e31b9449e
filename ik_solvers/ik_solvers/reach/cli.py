# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
``ik_solvers_reach``: compute a reachability map, save it, draw it.

Example::

    ik_solvers_reach --robot ur5_like --output ur5_map.npz --png ur5_map

(5 cm voxels, 32 orientations each) writes ``ur5_map.npz`` (schema in docs/REACHABILITY.md),
``ur5_map_index.png``, ``ur5_map_manipulability.png`` and ``ur5_map_3d.png``.
``--address tcp://host:8786`` runs the chunks on a Dask cluster, ``--local-cluster N`` on a
Dask cluster of N local workers that the command starts and stops (loopback only).
"""

import argparse
import sys
import time
from typing import List, Optional

from .named_robots import load_robot
from ..exceptions import IKError
from ..kinematics import RobotModel
from .compute import reachability_map
from .map_pictures import save_slices, save_view

__all__ = ['main', 'parser']


def parser() -> argparse.ArgumentParser:
    """Return the command line's parser."""
    arguments = argparse.ArgumentParser(
        prog='ik_solvers_reach', description='Compute a reachability map of a chain: per voxel '
        'the share of evenly spread orientations it reaches, and their manipulability.')
    arguments.add_argument('--robot', default='ur5_like',
                           help='bundled robot (ur5_like, panda_like), vendor robot '
                           '(vendor_ur5), or a .urdf path; NAME:BASE:TIP picks the chain')
    arguments.add_argument('--resolution', type=float, default=0.05, help='voxel edge, m')
    arguments.add_argument('--orientations', type=int, default=32,
                           help='orientations per voxel (1 with --mode none)')
    arguments.add_argument('--mode', choices=('full', 'axis', 'none'), default='full',
                           help='whole poses, tool-axis directions, or positions alone')
    arguments.add_argument('--tip-axis', type=float, nargs=3, default=(0.0, 0.0, 1.0),
                           help='tool axis in the tip frame for --mode axis')
    arguments.add_argument('--solver', default='jacobian_transpose')
    arguments.add_argument('--max-attempts', type=int, default=4, help='starts per pose')
    arguments.add_argument('--position-tolerance', type=float, default=1e-5, help='m')
    arguments.add_argument('--orientation-tolerance', type=float, default=1e-5, help='rad')
    arguments.add_argument('--collision', action='store_true',
                           help='count only collision-free solutions (the URDF\'s collision '
                           'geometry; local only)')
    arguments.add_argument('--srdf', help='SRDF file whose disabled pairs the check skips')
    arguments.add_argument('--seed', type=int, default=0)
    arguments.add_argument('--chunk-voxels', type=int, default=128)
    arguments.add_argument('--threads', type=int, help='local threads (default: every core)')
    where = arguments.add_mutually_exclusive_group()
    where.add_argument('--address', help='Dask scheduler address, e.g. tcp://10.0.0.2:8786')
    where.add_argument('--local-cluster', type=int, metavar='WORKERS',
                       help='start a local Dask cluster of this many one-thread workers')
    arguments.add_argument('--output', default='reachability_map.npz', help='.npz file')
    arguments.add_argument('--png', metavar='PREFIX',
                           help='also write PREFIX_index.png, PREFIX_manipulability.png and '
                           'PREFIX_3d.png')
    return arguments


class _Progress:
    """Prints voxels done, rate and time left on one terminal line."""

    def __init__(self, orientations: int) -> None:
        self._orientations = orientations
        self._started = time.perf_counter()
        self._shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self._shown < 0.5 and done < total:
            return
        self._shown = now
        elapsed = now - self._started
        rate = done * self._orientations / max(elapsed, 1e-9)
        left = (total - done) * self._orientations / max(rate, 1e-9)
        sys.stderr.write('\r%d/%d voxels (%.0f %%), %.0f poses/s, %.0f s elapsed, ~%.0f s left '
                         % (done, total, 100.0 * done / max(total, 1), rate, elapsed, left))
        if done >= total:
            sys.stderr.write('\n')
        sys.stderr.flush()


def _collision_model(robot, chain, srdf_path: Optional[str]):
    from ..collision import CollisionModel, load_robot_geometry, parse_srdf
    model = RobotModel.from_urdf(robot.urdf_xml)
    keywords = {}
    if srdf_path:
        with open(srdf_path, encoding='utf-8') as srdf:
            keywords['disabled'] = parse_srdf(srdf.read())
    return CollisionModel(model, chain, load_robot_geometry(model), **keywords)


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command; return its exit status (2 for bad arguments or input)."""
    options = parser().parse_args(argv)
    cluster = None
    try:
        robot = load_robot(options.robot)
        chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
        collision = _collision_model(robot, chain, options.srdf) if options.collision else None
        address = options.address
        if options.local_cluster:
            from distributed import LocalCluster
            cluster = LocalCluster(n_workers=options.local_cluster, threads_per_worker=1,
                                   host='127.0.0.1', dashboard_address=None)
            address = cluster.scheduler_address
        orientations = 1 if options.mode == 'none' else options.orientations
        reach_map = reachability_map(
            chain, resolution=options.resolution, orientations=orientations,
            orientation_mode=options.mode, tip_axis=options.tip_axis, solver=options.solver,
            max_attempts=options.max_attempts, position_tolerance=options.position_tolerance,
            orientation_tolerance=options.orientation_tolerance, collision=collision,
            seed=options.seed, chunk_voxels=options.chunk_voxels, threads=options.threads,
            address=address, progress=_Progress(orientations),
            metadata={'robot': robot.name})
    except (IKError, OSError) as error:
        print('ik_solvers_reach: %s' % error, file=sys.stderr)
        return 2
    finally:
        if cluster is not None:
            cluster.close()
    reach_map.save(options.output)
    info = reach_map.metadata
    print('%s: %d voxels x %d orientations = %d poses in %.1f s (CPU %.1f s), mean index %.3f '
          'over the voxels solved for' % (
              options.output, info['voxels_evaluated'], info['orientations'], info['problems'],
              info['wall_time_s'], info['cpu_time_s'],
              float(reach_map.index[reach_map.evaluated].mean())))
    if options.png:
        save_slices(reach_map, options.png + '_index.png', layer='index')
        save_slices(reach_map, options.png + '_manipulability.png', layer='manipulability')
        save_view(reach_map, options.png + '_3d.png')
        print('pictures: %s_index.png, %s_manipulability.png, %s_3d.png'
              % (options.png, options.png, options.png))
    return 0


if __name__ == '__main__':
    sys.exit(main())
