# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A configuration the collision model calls free is free by an independent exact check.

Most configurations are declared free by the compiled bounding boxes alone, without coal; the
boxes must contain the meshes, or a contact would pass unseen. Random configurations rarely
come close to a contact, so configurations on the border between free and colliding (found by
bisection between a free and a colliding one) are judged too: there the boxes overlap and the
meshes nearly touch. There a verdict is judged by the exact distance, with a micrometre for
coal's own rounding at a grazing contact (whether shapes that touch at one point collide).
"""

from pathlib import Path

from collision_oracle import clearance, contacts
import numpy as np
import pytest

from ik_solvers import RobotModel
from ik_solvers.reach.named_robots import load_robot, vendor_robot_names
from ik_solvers.collision import CollisionModel, load_robot_geometry, parse_srdf

# m: two verdicts of coal on shapes this close to grazing may differ by rounding alone.
GRAZING = 1e-6
VENDOR_ARMS = [('vendor_ur5', 'ur_description/srdf/ur5.srdf'),
               ('vendor_panda', 'panda_description/srdf/panda.srdf')]


def _vendor_model(name, srdf, padding):
    description = load_robot(name)
    robots_folder = Path(description.source).parents[2]
    robot = RobotModel.from_urdf(description.urdf_xml)
    chain = robot.chain(description.base_link, description.tip_link)
    geometry = load_robot_geometry(description.urdf_xml,
                                   search_roots=[str(robots_folder.parents[1])])
    disabled = parse_srdf((robots_folder / srdf).read_text(encoding='utf-8'))
    model = CollisionModel(robot, chain, geometry, disabled=disabled, padding=padding)
    return robot, chain, geometry, model


def _border(model, chain, free, colliding, steps=14):
    """Bisect between a free and a colliding configuration; return both ends, close."""
    for _ in range(steps):
        middle = (free + colliding) / 2.0
        if model.check(middle, stop_at_first=True).colliding:
            colliding = middle
        else:
            free = middle
    return free, colliding


@pytest.mark.skipif('vendor_ur5' not in vendor_robot_names(),
                    reason='example-robot-data is not installed')
@pytest.mark.parametrize('padding', [0.0, 0.01])
@pytest.mark.parametrize('name, srdf', VENDOR_ARMS)
def test_no_configuration_declared_free_collides(name, srdf, padding):
    robot, chain, geometry, model = _vendor_model(name, srdf, padding)
    pairs = model.checked_pairs

    def truth(q):
        return bool(contacts(robot, chain, geometry, q, pairs, padding=padding))

    rng = np.random.default_rng(2100)
    free, colliding = [], []
    for _ in range(150):
        q = chain.random_configuration(rng)
        verdict = model.check(q, stop_at_first=True).colliding
        assert verdict == truth(q), q
        (colliding if verdict else free).append(q)
    assert free and colliding  # both verdicts were exercised
    near_contact = 0
    for start, end in zip(free[:20], colliding[:20]):
        outside, inside = _border(model, chain, start, end)
        # Declared free: no checked pair is closer than the padding.
        assert clearance(robot, chain, geometry, outside, pairs) >= padding - GRAZING, outside
        assert clearance(robot, chain, geometry, inside, pairs) <= padding + GRAZING, inside
        near_contact += np.max(np.abs(inside - outside)) < 1e-3
    assert near_contact == min(len(free), len(colliding), 20)
