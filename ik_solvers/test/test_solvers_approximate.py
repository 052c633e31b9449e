# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The approximate step: bounded, within the limits, never worse, and honest about success."""

import math
from pathlib import Path
import xml.etree.ElementTree as ElementTree

from conftest import bundled_oracle
import numpy as np
import pytest
import transforms3d

from ik_solvers import approach, Goal, RobotModel
from ik_solvers_benchmarks.drag import drag
from ik_solvers.demo.scripted_drag import figure_eight, moved_toward_base, out_of_reach
from ik_solvers.exceptions import InvalidSeedError, InvalidSolverOptionError, InvalidTargetError

URDF = Path(__file__).resolve().parents[1] / 'urdf' / 'ur5_like.urdf'
# Where a UR arm starts: all zeros (stretched flat, the middle of its limits) and where its
# ros2_control description puts it (pointing straight up); both are singular.
STARTS = {
    'zero': np.zeros(6),
    'upright': np.array([0.0, -1.57, 0.0, -1.57, 0.0, 0.0]),
}
BOUND = math.radians(5.0)
POSITION_TOLERANCE = 1e-4
ORIENTATION_TOLERANCE = 1e-3
# Rounding allowance on the bound and the limits, rad.
ROUNDING = 1e-12
#: The tests' own FK and URDF limits of the arm (see conftest.py).
ORACLE = bundled_oracle('ur5_like.urdf', 'base_link', 'tool0')


def independent_fk(q: np.ndarray) -> np.ndarray:
    """Return the tool pose of ur5_like from its URDF joints by transforms3d, not the kernels."""
    joints = {joint.find('child').get('link'): joint
              for joint in ElementTree.parse(URDF).getroot().iter('joint')}
    chain = []
    link = 'tool0'
    while link in joints:
        chain.append(joints[link])
        link = joints[link].find('parent').get('link')
        if link == 'base_link':
            break
    pose = np.eye(4)
    index = 0
    for joint in reversed(chain):
        origin = joint.find('origin')
        xyz = [float(v) for v in origin.get('xyz', '0 0 0').split()] if origin is not None \
            else [0.0, 0.0, 0.0]
        rpy = [float(v) for v in origin.get('rpy', '0 0 0').split()] if origin is not None \
            else [0.0, 0.0, 0.0]
        step = np.eye(4)
        step[:3, :3] = transforms3d.euler.euler2mat(*rpy, 'sxyz')
        step[:3, 3] = xyz
        pose = pose @ step
        if joint.get('type') in ('revolute', 'continuous'):
            axis = [float(v) for v in joint.find('axis').get('xyz').split()]
            turn = np.eye(4)
            turn[:3, :3] = transforms3d.axangles.axangle2mat(axis, q[index])
            pose = pose @ turn
            index += 1
    assert index == 6
    return pose


def errors(chain, q: np.ndarray, goal: np.ndarray) -> tuple:
    """Return the position error (m), rotation angle (rad) and weighted error (m) of q by FK."""
    pose = independent_fk(q)
    position = float(np.linalg.norm(goal[:3, 3] - pose[:3, 3]))
    cosine = (np.trace(goal[:3, :3] @ pose[:3, :3].T) - 1.0) / 2.0
    angle = float(math.acos(min(1.0, max(-1.0, cosine))))
    weight = 0.2 * chain.length_scale
    return position, angle, math.hypot(position, weight * angle)


@pytest.fixture(scope='module')
def ur5_like():
    return RobotModel.from_urdf(URDF.read_text(encoding='utf-8')).chain('base_link', 'tool0')


def test_the_independent_fk_agrees_with_the_chain(ur5_like):
    q = np.array([0.3, -1.1, 0.7, -0.4, 1.2, -0.5])
    assert np.allclose(independent_fk(q), ur5_like.fk(q), atol=1e-9)


def check_step(chain, start, result, goal):
    """Check that one approximate step keeps every promise, by the independent FK."""
    assert np.max(np.abs(result.q - start)) <= BOUND + ROUNDING
    # The limits as the URDF text gives them (the oracle of conftest.py), not the chain's.
    assert ORACLE.limit_violations(result.q, slack=ROUNDING) == []
    position, angle, weighted = errors(chain, result.q, goal)
    assert weighted <= errors(chain, start, goal)[2] + 1e-12
    assert position == pytest.approx(result.position_error, abs=1e-9)
    assert angle == pytest.approx(result.orientation_error, abs=1e-7)
    met = position <= POSITION_TOLERANCE and angle <= ORIENTATION_TOLERANCE
    assert result.success == met
    assert result.status == ('success' if met else 'approximate')
    if met:
        ORACLE.check(result.q, goal, position_tolerance=POSITION_TOLERANCE,
                     orientation_tolerance=ORIENTATION_TOLERANCE)


@pytest.mark.parametrize('start_name', sorted(STARTS))
@pytest.mark.parametrize('offset', [0.0, 0.15])
def test_a_drag_of_approximate_steps_is_bounded_and_never_worse(ur5_like, start_name, offset):
    # The demo's figure-eight through the start tip, and moved 15 cm toward the base, followed
    # by the approximate step alone: each command from the last one.
    q = ur5_like.clip(STARTS[start_name])
    path = figure_eight(moved_toward_base(ur5_like, q, offset), count=300)[:80]
    statuses = set()
    for goal in path:
        result = approach(ur5_like, goal, start=q, max_joint_step=BOUND,
                          position_tolerance=POSITION_TOLERANCE,
                          orientation_tolerance=ORIENTATION_TOLERANCE, timeout=1.0)
        check_step(ur5_like, q, result, goal)
        statuses.add(str(result.status))
        q = result.q
    assert 'approximate' in statuses


@pytest.mark.parametrize('start_name', sorted(STARTS))
def test_an_out_of_reach_goal_is_stretched_toward_and_held(ur5_like, start_name):
    q = ur5_like.clip(STARTS[start_name])
    goal = out_of_reach(ur5_like.fk(q), count=1, reach=ur5_like.arrays.reach)[0]
    first_error = errors(ur5_like, q, goal)[0]
    steps = []
    for _ in range(60):
        result = approach(ur5_like, goal, start=q, max_joint_step=BOUND,
                          position_tolerance=POSITION_TOLERANCE,
                          orientation_tolerance=ORIENTATION_TOLERANCE, timeout=1.0)
        check_step(ur5_like, q, result, goal)
        assert not result.success
        steps.append(float(np.max(np.abs(result.q - q))))
        q = result.q
    # Stretched toward it: the tip is nearer the goal than it started, and within 0.3 m of the
    # least distance the reach bound allows (the bound overestimates the UR5's reach by about
    # 0.2 m; the held orientation takes the rest) ...
    final_error = errors(ur5_like, q, goal)[0]
    least = (np.linalg.norm(goal[:3, 3] - ur5_like.arrays.segments[0][:3, 3])
             - ur5_like.arrays.reach)
    assert final_error < first_error - 0.1
    assert final_error < least + 0.3
    # ... and held there: the last commands hardly move (a hundredth of the bound).
    assert max(steps[-5:]) <= 0.01 * BOUND


@pytest.mark.parametrize('start_name', sorted(STARTS))
def test_a_goal_within_the_box_is_reached_and_verified(ur5_like, start_name):
    start = ur5_like.clip(STARTS[start_name])
    solution = start + np.array([0.02, -0.03, 0.04, 0.02, -0.03, 0.02])
    goal = independent_fk(solution)
    result = approach(ur5_like, goal, start=start, max_joint_step=BOUND,
                      position_tolerance=POSITION_TOLERANCE,
                      orientation_tolerance=ORIENTATION_TOLERANCE, timeout=1.0)
    assert result.success and result.status == 'success'
    position, angle, _ = errors(ur5_like, result.q, goal)
    assert position <= POSITION_TOLERANCE and angle <= ORIENTATION_TOLERANCE
    ORACLE.check(result.q, goal, position_tolerance=POSITION_TOLERANCE,
                 orientation_tolerance=ORIENTATION_TOLERANCE)


def test_a_whole_goal_asks_for_what_its_keywords_ask_for(ur5_like):
    start = ur5_like.clip(STARTS['upright'])
    goal = independent_fk(start + np.array([0.04, -0.03, 0.02, 0.03, -0.02, 0.04]))
    keywords = approach(ur5_like, goal, start=start, max_joint_step=BOUND,
                        orientation_mode='axis', position_tolerance=POSITION_TOLERANCE,
                        timeout=1.0)
    for whole in (Goal(mode='axis', position_tolerance=POSITION_TOLERANCE),
                  Goal.of(orientation_mode='axis', position_tolerance=POSITION_TOLERANCE)):
        typed = approach(ur5_like, goal, start=start, max_joint_step=BOUND, goal=whole,
                         timeout=1.0)
        np.testing.assert_array_equal(typed.q, keywords.q)
        assert typed.status == keywords.status
    # The fallback is the search's own: a goal with it asks the same of the approach.
    full = approach(ur5_like, goal, start=start, max_joint_step=BOUND, timeout=1.0)
    with_fallback = approach(ur5_like, goal, start=start, max_joint_step=BOUND, timeout=1.0,
                             goal=Goal(orientation_fallback=True))
    np.testing.assert_array_equal(with_fallback.q, full.q)
    with pytest.raises(InvalidTargetError, match='goal= replaces'):
        approach(ur5_like, goal, start=start, max_joint_step=BOUND, goal=Goal(),
                 orientation_mode='none')
    with pytest.raises(InvalidTargetError, match='must be a Goal'):
        approach(ur5_like, goal, start=start, max_joint_step=BOUND, goal={'mode': 'none'})


def mode_error(chain, q: np.ndarray, goal: np.ndarray, mode: str) -> float:
    """Return the weighted error of the mode, m; 'axis' aims the tool z axis."""
    pose = independent_fk(q)
    position = float(np.linalg.norm(goal[:3, 3] - pose[:3, 3]))
    if mode == 'none':
        return position
    cosine = float(goal[:3, 2] @ pose[:3, 2])
    angle = math.acos(min(1.0, max(-1.0, cosine)))
    return math.hypot(position, 0.2 * chain.length_scale * angle)


@pytest.mark.parametrize('mode', ['none', 'axis'])
def test_the_error_of_the_goal_mode_never_rises(ur5_like, mode):
    q = ur5_like.clip(STARTS['upright'])
    for goal in figure_eight(moved_toward_base(ur5_like, q, 0.15), count=300)[:40]:
        result = approach(ur5_like, goal, start=q, max_joint_step=BOUND, orientation_mode=mode,
                          timeout=1.0)
        assert np.max(np.abs(result.q - q)) <= BOUND + ROUNDING
        assert ORACLE.limit_violations(result.q, slack=ROUNDING) == []
        assert mode_error(ur5_like, result.q, goal, mode) <= mode_error(
            ur5_like, q, goal, mode) + 1e-12
        if mode == 'none':
            assert result.orientation_error == 0.0
        q = result.q


def test_per_joint_bounds_hold_each_joint(ur5_like):
    start = ur5_like.clip(STARTS['zero'])
    bounds = np.array([0.01, 0.02, 0.03, 0.04, 0.05, 0.06])
    goal = moved_toward_base(ur5_like, start, 0.3)
    result = approach(ur5_like, goal, start=start, max_joint_step=bounds, timeout=1.0)
    assert np.all(np.abs(result.q - start) <= bounds + ROUNDING)
    assert ORACLE.limit_violations(result.q, slack=ROUNDING) == []
    assert not result.success


@pytest.mark.parametrize('bad', [0.0, -0.1, math.inf, math.nan, [0.1, 0.1], 'wide', True])
def test_a_bad_bound_is_refused(ur5_like, bad):
    with pytest.raises(InvalidSolverOptionError, match='max_joint_step'):
        approach(ur5_like, ur5_like.fk(np.zeros(6)), start=np.zeros(6), max_joint_step=bad)


def test_bad_targets_and_starts_are_refused(ur5_like):
    goal = ur5_like.fk(np.zeros(6))
    with pytest.raises(InvalidSeedError):
        approach(ur5_like, goal, start=np.zeros(5), max_joint_step=BOUND)
    with pytest.raises(InvalidSeedError):
        approach(ur5_like, goal, start=np.full(6, np.nan), max_joint_step=BOUND)
    skewed = goal.copy()
    skewed[:3, :3] *= 2.0
    with pytest.raises(InvalidTargetError):
        approach(ur5_like, skewed, start=np.zeros(6), max_joint_step=BOUND)


@pytest.mark.parametrize('start_name', sorted(STARTS))
def test_the_drag_benchmark_commands_every_goal_within_the_bound(ur5_like, start_name):
    # Exact within the bound, else approximate: every goal gets a command, none jumps, and no
    # far goal is called reached.
    figures = drag(ur5_like, STARTS[start_name], 'jacobian_transpose', goals=60,
                   max_joint_jump=BOUND, unreachable=3)
    assert figures.uncommanded == 0
    assert figures.exact + figures.approximate == 60
    assert figures.largest_jump <= BOUND + ROUNDING
    assert figures.far_success == 0 and figures.far_approximate == 3
    assert figures.far_largest_jump <= BOUND + ROUNDING
