# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""Reachability maps: brute force agrees, threads and a local Dask cluster agree, files, CLI."""

import os

import numpy as np
import pytest

from ik_solvers import IKError, solve
from ik_solvers.reach import load_map, reachability_map
from ik_solvers.reach.cli import main as reach_main

# Eight orientations leave the second pass (seeds from the nearest solved orientation) far
# neighbours: a larger budget per pose than the default's for 32 does the same work.
_TINY = dict(resolution=0.3, orientations=8, seed=3, chunk_voxels=32, max_attempts=12)


@pytest.fixture(scope='module')
def tiny_map(ur5):
    return reachability_map(ur5, threads=1, **_TINY)


def test_voxel_indices_match_a_brute_force_count(ur5, tiny_map):
    centres = tiny_map.centres()
    # The voxels where the map finds some but not all orientations: the hard ones.
    partial = np.argwhere((tiny_map.index > 0.0) & (tiny_map.index < 1.0))
    assert len(partial) >= 3
    generator = np.random.default_rng(0)
    for cell in partial[generator.choice(len(partial), 3, replace=False)]:
        reached = 0
        for rotation in tiny_map.rotations:
            target = np.eye(4)
            target[:3, :3] = rotation
            target[:3, 3] = centres[tuple(cell)]
            reached += solve(ur5, target, max_attempts=300, timeout=5.0).success
        brute = reached / len(tiny_map.rotations)
        assert abs(brute - tiny_map.index[tuple(cell)]) <= 1.0 / 8 + 1e-9, (cell, brute)


def test_an_empty_voxel_far_away_and_a_full_one_near_the_wrist(tiny_map):
    assert tiny_map.index[0, 0, 0] == 0.0 and not tiny_map.evaluated[0, 0, 0]
    assert tiny_map.index.max() == 1.0
    reached = tiny_map.solved > 0
    assert np.all(tiny_map.manipulability[reached] > 0.0)
    assert np.all(tiny_map.manipulability[~reached] == 0.0)


def test_two_threads_and_a_local_dask_cluster_give_the_same_map(ur5, tiny_map):
    distributed = pytest.importorskip('distributed', reason='Dask distributed is not installed')
    on_two = reachability_map(ur5, threads=2, **_TINY)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host='127.0.0.1',
                                  dashboard_address=None, processes=True) as cluster:
        on_cluster = reachability_map(ur5, address=cluster.scheduler_address, **_TINY)
    for other in (on_two, on_cluster):
        assert np.array_equal(other.solved, tiny_map.solved)
        assert np.array_equal(other.index, tiny_map.index)
        assert np.array_equal(other.manipulability, tiny_map.manipulability)
    assert on_cluster.metadata['engine'] == 'dask'


def test_the_file_keeps_every_layer_and_refuses_other_files(tiny_map, tmp_path):
    path = str(tmp_path / 'map.npz')
    tiny_map.save(path)
    loaded = load_map(path)
    for name in ('origin', 'index', 'manipulability', 'solved', 'evaluated', 'rotations'):
        assert np.array_equal(getattr(loaded, name), getattr(tiny_map, name)), name
    assert loaded.metadata['tip_link'] == 'tool0'
    np.savez(str(tmp_path / 'other.npz'), index=np.zeros(3))
    with pytest.raises(IKError):
        load_map(str(tmp_path / 'other.npz'))


def test_the_command_writes_the_map_and_its_pictures(tmp_path, capsys):
    output = str(tmp_path / 'cli.npz')
    prefix = str(tmp_path / 'cli')
    assert reach_main(['--robot', 'ur5_like', '--resolution', '0.4', '--orientations', '4',
                       '--threads', '2', '--output', output, '--png', prefix]) == 0
    assert load_map(output).rotations.shape == (4, 3, 3)
    for suffix in ('_index.png', '_manipulability.png', '_3d.png'):
        assert os.path.getsize(prefix + suffix) > 1000
    assert reach_main(['--robot', 'no_such_robot', '--output', output]) == 2
    assert 'ik_solvers_reach:' in capsys.readouterr().err


def test_adjacent_voxels_seed_the_poses_a_voxel_missed(ur5):
    from ik_solvers.reach.job import MapJob, solve_chunk
    from ik_solvers.reach.orientations import super_fibonacci_rotations
    # A 3 x 3 x 3 block of 5 cm voxels near the edge of the reach, 16 orientations each, with
    # a small budget per pose so that the first two passes leave poses out.
    edge = np.array([0.0, -0.75, 0.45])
    offsets = np.stack(np.meshgrid(*[np.arange(-1, 2)] * 3, indexing='ij'), -1).reshape(-1, 3)
    centres = edge + 0.05 * offsets
    options = dict(solver='jacobian_transpose', orientation_mode='full',
                   tip_axis=(0.0, 0.0, 1.0), position_tolerance=1e-5,
                   orientation_tolerance=1e-5, max_attempts=2)
    rotations = super_fibonacci_rotations(16)
    without = MapJob(chain=ur5, rotations=rotations, options=options, seed=1,
                     adjacent_rounds=0, passes=1)
    alone, _ = solve_chunk(without, 0, centres, threads=1)
    solved, manipulability = solve_chunk(without._replace(adjacent_rounds=3, passes=3), 0,
                                         centres, threads=1)
    # The same first passes, then more: never fewer solutions, and some more here.
    assert np.all(solved >= alone)
    assert solved.sum() > alone.sum()
    assert np.all(manipulability[solved > 0] > 0.0)
