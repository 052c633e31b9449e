# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Timing of the kinematics core: median microseconds per call of FK, Jacobian, joint frames.

Run ``python -m ik_solvers_benchmarks.kinematics_timing``. Each figure is the median, over
blocks of calls, of the block's time divided by its number of calls; configurations are
drawn uniformly within the limits from a fixed seed.
"""

import argparse
import statistics
import time
from typing import Callable, List, Optional, Sequence

import numpy as np

from ik_solvers.reach.named_robots import bundled_urdf_directory
from ik_solvers.kinematics import Chain, RobotModel

__all__ = ['ROBOTS', 'main', 'median_microseconds']

#: Bundled robots timed: (URDF file name, base link, tip link).
ROBOTS = (
    ('panda_like.urdf', 'panda_link0', 'panda_hand_tcp'),
    ('ur5_like.urdf', 'base_link', 'tool0'),
    ('planar_3link.urdf', 'base_link', 'tip'),
    ('snake_20.urdf', 'base_link', 'tip'),
    ('snake_100.urdf', 'base_link', 'tip'),
)


def median_microseconds(call: Callable[[np.ndarray], object], configurations: np.ndarray,
                        *, blocks: int) -> float:
    """
    Median over ``blocks`` runs of the time per call, in µs, of ``call`` on each row.

    One block calls ``call`` once on every row of ``configurations``.
    """
    per_call: List[float] = []
    rows = list(configurations)
    for _ in range(blocks):
        start = time.perf_counter()
        for q in rows:
            call(q)
        per_call.append((time.perf_counter() - start) / len(rows) * 1e6)
    return statistics.median(per_call)


def _time_chain(chain: Chain, *, calls: int, blocks: int, batch: int) -> List[float]:
    rng = np.random.default_rng(0)
    configurations = np.array([chain.random_configuration(rng) for _ in range(calls)])
    batched = np.array([chain.random_configuration(rng) for _ in range(batch)])
    batch_block = batched[np.newaxis]
    return [
        median_microseconds(chain.fk, configurations, blocks=blocks),
        median_microseconds(chain.jacobian, configurations, blocks=blocks),
        median_microseconds(chain.joint_frames, configurations, blocks=blocks),
        median_microseconds(chain.fk_batch, batch_block, blocks=blocks) / batch,
    ]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print one line of timings per bundled robot; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--calls', type=int, default=2000,
                        help='calls per block and per function (default 2000)')
    parser.add_argument('--blocks', type=int, default=7,
                        help='blocks whose median is reported (default 7)')
    parser.add_argument('--batch', type=int, default=1000,
                        help='configurations per fk_batch call (default 1000)')
    arguments = parser.parse_args(argv)
    if min(arguments.calls, arguments.blocks, arguments.batch) < 1:
        parser.error('--calls, --blocks and --batch must be positive')
    directory = bundled_urdf_directory()
    if directory is None:
        print('the bundled URDFs were not found (neither installed nor in the source tree)')
        return 1
    print('median us per call over %d blocks of %d calls (fk_batch: per configuration, '
          '%d per call)' % (arguments.blocks, arguments.calls, arguments.batch))
    print('%-18s %6s %9s %9s %13s %9s' % (
        'robot', 'joints', 'fk', 'jacobian', 'joint_frames', 'fk_batch'))
    for file_name, base_link, tip_link in ROBOTS:
        model = RobotModel.from_urdf((directory / file_name).read_text())
        chain = model.chain(base_link, tip_link)
        timings = _time_chain(chain, calls=arguments.calls, blocks=arguments.blocks,
                              batch=arguments.batch)
        print('%-18s %6d %9.2f %9.2f %13.2f %9.2f' % (
            file_name[:-len('.urdf')], chain.num_joints, *timings))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
