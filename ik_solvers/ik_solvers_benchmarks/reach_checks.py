# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
``ik_solvers_reach_bench``: the reachability map's targets, measured.

1. The map (default: ur5_like, 5 cm voxels, 32 orientations) computed locally on every core:
   wall and CPU time, poses per second.
2. The same map through a Dask cluster of two one-thread workers that this command starts
   and stops on the loopback interface: its time, and whether every value is identical.
3. Brute force at random voxels: per orientation, ``solve()`` with 400 starts and a 2 s
   deadline; the largest difference of the index (20 voxels drawn among those solved for, and
   20 among those the map found reachable).
4. Peak resident memory of a finer map (default 2 cm) run as a child process
   (``ik_solvers_reach``), read from /proc every half second; ``--rss-time-limit`` stops it
   early and reports the peak so far and how far it got (memory is bounded by the chunk).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import List, Optional

import numpy as np

from ik_solvers.reach.named_robots import load_robot
from ik_solvers.kinematics import RobotModel
from ik_solvers.reach import reachability_map
from ik_solvers.solvers import SearchOptions, solve

__all__ = ['main']


def _peak_rss(command: List[str], time_limit: Optional[float]) -> str:
    """Run ``command``; return its peak RSS and how it ended, as one line."""
    started = time.perf_counter()
    with tempfile.TemporaryFile('w+') as errors:
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
        peak = 0
        while child.poll() is None:
            try:
                with open('/proc/%d/status' % child.pid) as status:
                    for line in status:
                        if line.startswith('VmHWM:'):
                            peak = max(peak, int(line.split()[1]))
            except OSError:
                pass
            if time_limit is not None and time.perf_counter() - started > time_limit:
                child.terminate()
                child.wait()
                break
            time.sleep(0.5)
        errors.seek(0)
        progress = errors.read().replace('\r', '\n').strip().splitlines()
    ended = 'finished' if child.returncode == 0 else 'stopped at the time limit'
    return 'peak RSS %.0f MB (%s after %.0f s; last progress: %s)' % (
        peak / 1024.0, ended, time.perf_counter() - started, progress[-1] if progress else '-')


def main(argv: Optional[List[str]] = None) -> int:
    """Run the checks and print what was measured."""
    arguments = argparse.ArgumentParser(prog='ik_solvers_reach_bench', description=__doc__,
                                        formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument('--robot', default='ur5_like')
    arguments.add_argument('--resolution', type=float, default=0.05)
    arguments.add_argument('--orientations', type=int, default=32)
    arguments.add_argument('--max-attempts', type=int, default=4)
    arguments.add_argument('--skip-cluster', action='store_true')
    arguments.add_argument('--voxels', type=int, default=20, help='brute-force voxels per set')
    arguments.add_argument('--rss-resolution', type=float, default=0.02)
    arguments.add_argument('--rss-time-limit', type=float, help='s; default: until done')
    arguments.add_argument('--skip-rss', action='store_true')
    options = arguments.parse_args(argv)
    robot = load_robot(options.robot)
    chain = RobotModel.from_urdf(robot.urdf_xml).chain(robot.base_link, robot.tip_link)
    settings = dict(resolution=options.resolution, orientations=options.orientations,
                    max_attempts=options.max_attempts)
    reachability_map(chain, resolution=1.0, orientations=2)  # compile or load the kernels

    local = reachability_map(chain, **settings)
    info = local.metadata
    print('local map: %s, %.3f m voxels, %d orientations: %d voxels, %d poses in %.1f s wall, '
          '%.1f s CPU (%.0f poses/s wall), mean index %.4f' % (
              options.robot, options.resolution, options.orientations,
              info['voxels_evaluated'], info['problems'], info['wall_time_s'],
              info['cpu_time_s'], info['problems'] / info['wall_time_s'],
              float(local.index[local.evaluated].mean())), flush=True)

    if not options.skip_cluster:
        from distributed import LocalCluster
        started = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, host='127.0.0.1',
                          dashboard_address=None) as cluster:
            up = time.perf_counter() - started
            remote = reachability_map(chain, address=cluster.scheduler_address, **settings)
        same = all(np.array_equal(getattr(local, name), getattr(remote, name))
                   for name in ('solved', 'index', 'manipulability', 'evaluated'))
        print('Dask cluster (2 workers x 1 thread, loopback): start %.1f s, map %.1f s wall; '
              'identical to the local map: %s' % (up, remote.metadata['wall_time_s'], same),
              flush=True)

    generator = np.random.default_rng(20)
    centres = local.centres().reshape(-1, 3)
    index = local.index.ravel()
    brute_force = SearchOptions(max_attempts=400, timeout=2.0)
    for label, pool in (('voxels solved for', np.flatnonzero(local.evaluated.ravel())),
                        ('voxels with index > 0', np.flatnonzero(index > 0.0))):
        picked = generator.choice(pool, min(options.voxels, pool.size), replace=False)
        differences = []
        for voxel in picked:
            reached = 0
            for rotation in local.rotations:
                target = np.eye(4)
                target[:3, :3] = rotation
                target[:3, 3] = centres[voxel]
                reached += solve(chain, target, chain.random_configuration(generator),
                                 options=brute_force).success
            differences.append(abs(reached / local.rotations.shape[0] - index[voxel]))
        print('brute force at %d random %s: largest |index - brute force| %.4f, mean %.4f'
              % (len(picked), label, max(differences), float(np.mean(differences))),
              flush=True)

    if not options.skip_rss:
        with tempfile.TemporaryDirectory() as folder:
            command = [sys.executable, '-m', 'ik_solvers.reach.cli', '--robot', options.robot,
                       '--resolution', str(options.rss_resolution), '--orientations',
                       str(options.orientations), '--max-attempts', str(options.max_attempts),
                       '--output', os.path.join(folder, 'map.npz')]
            print('%.3f m map: %s' % (options.rss_resolution,
                                      _peak_rss(command, options.rss_time_limit)), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
