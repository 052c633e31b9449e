# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The library's collision check against Pinocchio + coal on the pairs an SRDF keeps.

Run ``python -m ik_solvers_benchmarks.srdf_pairs_oracle [--configurations 2000]``. For each
vendor arm with an SRDF (example-robot-data's UR5 and Panda), Pinocchio builds the robot and its
collision meshes from the same URDF, adds every pair of collision objects and removes the SRDF's
``<disable_collisions>`` pairs, as MoveIt's setup does; coal tests them at random
configurations of the chain (the joints off the chain at zero). Each configuration's contacts
are compared with :meth:`CollisionModel.check` (every pair listed):

- ``missed``: pairs Pinocchio finds in contact among the library's checked pairs that the
  library does not report (the target is 0);
- ``extra``: pairs the library reports that Pinocchio does not find;
- ``unchecked``: contacts Pinocchio finds on pairs the library never checks (parent-child
  links, or two links that do not move with the chain), counted apart.
"""

import argparse
from pathlib import Path
import sys
from typing import Dict, List, Optional, Sequence

import numpy as np

from .arm_collisions import arm_collision_check
from .collision_free_bench import SRDF_FILES
from ik_solvers.collision import CollisionModel
from ik_solvers.kinematics import Chain

__all__ = ['compare_robot', 'main']


def _pinocchio_contacts(urdf_path: Path, package_root: Path, srdf_xml: str, chain: Chain):
    """Return ``contacts(q) -> set of link pairs`` from Pinocchio + coal (its own model)."""
    import pinocchio
    model = pinocchio.buildModelFromUrdf(str(urdf_path))
    geometry = pinocchio.buildGeomFromUrdf(model, str(urdf_path),
                                           pinocchio.GeometryType.COLLISION,
                                           package_dirs=[str(package_root)])
    geometry.addAllCollisionPairs()
    pinocchio.removeCollisionPairsFromXML(model, geometry, srdf_xml, False)
    data, geometry_data = model.createData(), pinocchio.GeometryData(geometry)
    links = [model.frames[item.parentFrame].name for item in geometry.geometryObjects]
    joints = [model.joints[model.getJointId(name)] for name in chain.joint_names]

    def contacts(q: np.ndarray) -> set:
        configuration = pinocchio.neutral(model)
        for joint, value in zip(joints, q):
            if joint.nq == 2:  # a continuous joint: (cos, sin)
                configuration[joint.idx_q:joint.idx_q + 2] = (np.cos(value), np.sin(value))
            else:
                configuration[joint.idx_q] = value
        pinocchio.computeCollisions(model, data, geometry, geometry_data, configuration, False)
        found = set()
        for index, pair in enumerate(geometry.collisionPairs):
            if geometry_data.collisionResults[index].isCollision():
                first, second = links[pair.first], links[pair.second]
                if first != second:
                    found.add(tuple(sorted((first, second))))
        return found
    return contacts


def compare_robot(name: str, configurations: int, seed: int) -> Dict[str, object]:
    """
    Compare the library with Pinocchio + coal on ``configurations`` random configurations.

    :param name: A vendor arm of :data:`SRDF_FILES`.
    :returns: Counts: configurations, colliding (per Pinocchio, on checked pairs), missed,
        extra, unchecked, and up to three examples of misses.
    :raises RobotModelError: The arm cannot be loaded (example-robot-data missing).
    """
    robot, chain, model, srdf_xml = arm_collision_check(name)
    assert isinstance(model, CollisionModel) and srdf_xml is not None
    source = Path(robot.source)
    oracle = _pinocchio_contacts(source, source.parents[4], srdf_xml, chain)
    checked = set(model.checked_pairs)
    rng = np.random.default_rng(seed)
    counts = dict(robot=name, configurations=configurations, checked_pairs=len(checked),
                  colliding=0, missed=0, extra=0, unchecked=0, examples=[])
    for _ in range(configurations):
        q = chain.random_configuration(rng)
        truth = oracle(q)
        found = set(model.check(q).pairs)
        kept = truth & checked
        counts['colliding'] += bool(kept)
        missed = kept - found
        counts['missed'] += bool(missed)
        counts['extra'] += bool(found - truth)
        counts['unchecked'] += bool(truth - checked)
        if missed and len(counts['examples']) < 3:
            counts['examples'].append((np.round(q, 4).tolist(), sorted(missed)))
    return counts


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print one line per arm; exit 1 when any collision Pinocchio finds was missed."""
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('--configurations', type=int, default=2000)
    parser.add_argument('--seed', type=int, default=44)
    parser.add_argument('--robots', nargs='*', default=sorted(SRDF_FILES))
    arguments = parser.parse_args(argv)
    rows: List[Dict[str, object]] = [compare_robot(name, arguments.configurations,
                                                   arguments.seed)
                                     for name in arguments.robots]
    print('robot           configs  checked pairs  colliding  missed  extra  '
          'unchecked-pair contacts')
    for row in rows:
        print('%-15s %7d  %13d  %9d  %6d  %5d  %9d' % (
            row['robot'], row['configurations'], row['checked_pairs'], row['colliding'],
            row['missed'], row['extra'], row['unchecked']))
        for example in row['examples']:
            print('  missed at q=%s: %s' % example)
    return 1 if any(row['missed'] for row in rows) else 0


if __name__ == '__main__':
    sys.exit(main())
