# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The per-iteration kernels give bit for bit what the array-based code before them gave.

The goal residual, the weighted rows, the bounds and the polish's linear solve were rewritten
without temporary arrays and compiled without reference counts (``compiled(leaf=True)``): the
search must take the very same iterates. Each test runs the earlier arithmetic, kept here as
plain Python over numpy arrays, on random poses and settings, and compares every bit; an
independent reference (scipy's rotation vectors, numpy's least squares, the chain's own FK)
checks that both are right.
"""

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from ik_solvers.solvers._core.polish import damped_rows, damped_step
from ik_solvers.solvers._core.goal_kernels import (
    assess,
    effective_goal,
    goal_residual,
    weighted_system,
)
from ik_solvers.solvers._core.layout import (
    MODE_AXIS,
    MODE_FULL,
    MODE_NONE,
    ORIENTATION_MODE,
    ORIENTATION_WEIGHT,
    POSITION_BOUNDED,
    POSITION_BOUNDS,
    ROTATION_BOUNDED,
    ROTATION_BOUNDS,
    SETTINGS_SIZE,
    TIP_AXIS,
)
from ik_solvers.solvers.pose_error import rotation_vector_into

MODES = (MODE_FULL, MODE_AXIS, MODE_NONE)


def _pose(rng: np.random.Generator, near: np.ndarray = None, angle: float = None) -> np.ndarray:
    """Return a random pose, or one turned by ``angle`` (rad) about a random axis from ``near``."""
    pose = np.eye(4)
    if near is None:
        pose[:3, :3] = Rotation.random(random_state=rng).as_matrix()
        pose[:3, 3] = rng.uniform(-1.0, 1.0, 3)
        return pose
    axis = rng.normal(size=3)
    turn = Rotation.from_rotvec(angle * axis / np.linalg.norm(axis)).as_matrix()
    pose[:3, :3] = turn @ near[:3, :3]
    pose[:3, 3] = near[:3, 3] + rng.uniform(-1e-3, 1e-3, 3)
    return pose


def _settings(rng: np.random.Generator, mode: float, bounded: bool) -> np.ndarray:
    settings = np.zeros(SETTINGS_SIZE)
    settings[ORIENTATION_MODE] = mode
    settings[ORIENTATION_WEIGHT] = rng.uniform(0.1, 1.0)
    axis = rng.normal(size=3)
    settings[TIP_AXIS:TIP_AXIS + 3] = axis / np.linalg.norm(axis)
    settings[:2] = 1e-5
    settings[5:7] = 1e-2
    if bounded:
        settings[POSITION_BOUNDED] = settings[ROTATION_BOUNDED] = 1.0
        settings[POSITION_BOUNDS:POSITION_BOUNDS + 3] = rng.choice([1e-3, 0.3, np.inf], 3)
        settings[ROTATION_BOUNDS:ROTATION_BOUNDS + 3] = rng.choice([1e-3, 0.3, np.inf], 3)
    return settings


def _cases(count: int, seed: int):
    """Yield (target, tip, settings): tips far, near (1e-7 rad) and about a half turn away."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        target = _pose(rng)
        angle = (None, 1e-7, math.pi - 1e-3 * rng.random(), rng.uniform(0.0, math.pi))[k % 4]
        tip = _pose(rng) if angle is None else _pose(rng, target, angle)
        yield target, tip, _settings(rng, MODES[k % 3], bounded=k % 5 == 0)


# The earlier arithmetic, as it was, run here as plain Python.

def _counts(value, settings, bounded, axis):
    return settings[bounded] == 0.0 or abs(value) > settings[bounded + 1 + axis]


def _aimed_axis(pose, settings):
    return np.array([pose[i, 0] * settings[TIP_AXIS] + pose[i, 1] * settings[TIP_AXIS + 1]
                     + pose[i, 2] * settings[TIP_AXIS + 2] for i in range(3)])


def _unit_perpendicular(axis):
    k = 0
    if abs(axis[1]) < abs(axis[k]):
        k = 1
    if abs(axis[2]) < abs(axis[k]):
        k = 2
    other = np.zeros(3)
    other[k] = 1.0
    perpendicular = np.array([axis[1] * other[2] - axis[2] * other[1],
                              axis[2] * other[0] - axis[0] * other[2],
                              axis[0] * other[1] - axis[1] * other[0]])
    return perpendicular / math.sqrt(perpendicular[0] ** 2 + perpendicular[1] ** 2
                                     + perpendicular[2] ** 2)


def _previous_residual(target, tip, settings, error):
    for i in range(3):
        error[i] = target[i, 3] - tip[i, 3]
    position_error = math.sqrt(error[0] * error[0] + error[1] * error[1] + error[2] * error[2])
    mode = settings[ORIENTATION_MODE]
    if mode == MODE_NONE:
        error[3:] = 0.0
        return position_error, 0.0
    if mode == MODE_AXIS:
        reached, wanted = _aimed_axis(tip, settings), _aimed_axis(target, settings)
        cx = reached[1] * wanted[2] - reached[2] * wanted[1]
        cy = reached[2] * wanted[0] - reached[0] * wanted[2]
        cz = reached[0] * wanted[1] - reached[1] * wanted[0]
        sine = math.sqrt(cx * cx + cy * cy + cz * cz)
        cosine = reached[0] * wanted[0] + reached[1] * wanted[1] + reached[2] * wanted[2]
        angle = math.atan2(sine, cosine)
        if sine > 1e-12:
            scale = angle / sine
            error[3], error[4], error[5] = cx * scale, cy * scale, cz * scale
        elif cosine > 0.0:
            error[3:] = 0.0
            angle = 0.0
        else:
            turn = _unit_perpendicular(reached)
            error[3], error[4], error[5] = turn[0] * angle, turn[1] * angle, turn[2] * angle
        return position_error, angle
    difference = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            difference[i, j] = (target[i, 0] * tip[j, 0] + target[i, 1] * tip[j, 1]
                                + target[i, 2] * tip[j, 2])
    return position_error, rotation_vector_into(difference, error[3:])


def _previous_system(target, tip, settings, error, jacobian, rows_out, residual_out):
    rows = 0
    for i in range(3):
        if not _counts(error[i], settings, POSITION_BOUNDED, i):
            continue
        rows_out[rows, :] = jacobian[i, :]
        residual_out[rows] = error[i]
        rows += 1
    mode = settings[ORIENTATION_MODE]
    if mode == MODE_NONE:
        return rows
    weight = settings[ORIENTATION_WEIGHT]
    directions = np.zeros((3, 3))
    used = 3
    if mode == MODE_AXIS:
        axis = _aimed_axis(tip, settings)
        first = _unit_perpendicular(axis)
        directions[0] = first
        directions[1] = [axis[1] * first[2] - axis[2] * first[1],
                         axis[2] * first[0] - axis[0] * first[2],
                         axis[0] * first[1] - axis[1] * first[0]]
        used = 2
    else:
        directions[:, :] = target[:3, :3].T
    for d in range(used):
        component = (directions[d, 0] * error[3] + directions[d, 1] * error[4]
                     + directions[d, 2] * error[5])
        if mode == MODE_FULL and not _counts(component, settings, ROTATION_BOUNDED, d):
            continue
        for c in range(jacobian.shape[1]):
            rows_out[rows, c] = weight * (directions[d, 0] * jacobian[3, c]
                                          + directions[d, 1] * jacobian[4, c]
                                          + directions[d, 2] * jacobian[5, c])
        residual_out[rows] = weight * component
        rows += 1
    return rows


def _previous_solve(matrix, vector):
    size = vector.shape[0]
    for j in range(size):
        diagonal = matrix[j, j]
        for k in range(j):
            diagonal -= matrix[j, k] * matrix[j, k]
        diagonal = math.sqrt(max(diagonal, 1e-300))
        matrix[j, j] = diagonal
        for i in range(j + 1, size):
            total = matrix[i, j]
            for k in range(j):
                total -= matrix[i, k] * matrix[j, k]
            matrix[i, j] = total / diagonal
    for i in range(size):
        total = vector[i]
        for k in range(i):
            total -= matrix[i, k] * vector[k]
        vector[i] = total / matrix[i, i]
    for i in range(size - 1, -1, -1):
        total = vector[i]
        for k in range(i + 1, size):
            total -= matrix[k, i] * vector[k]
        vector[i] = total / matrix[i, i]


def _previous_least_squares(jacobian, residual, regularisation, step):
    rows, columns = jacobian.shape
    if columns >= rows:
        normal = np.empty((rows, rows))
        for i in range(rows):
            for j in range(i + 1):
                total = 0.0
                for k in range(columns):
                    total += jacobian[i, k] * jacobian[j, k]
                normal[i, j] = normal[j, i] = total
            normal[i, i] += regularisation
        multipliers = residual.copy()
        _previous_solve(normal, multipliers)
        for k in range(columns):
            total = 0.0
            for i in range(rows):
                total += jacobian[i, k] * multipliers[i]
            step[k] = total
    else:
        normal = np.empty((columns, columns))
        for i in range(columns):
            for j in range(i + 1):
                total = 0.0
                for k in range(rows):
                    total += jacobian[k, i] * jacobian[k, j]
                normal[i, j] = normal[j, i] = total
            normal[i, i] += regularisation
            total = 0.0
            for k in range(rows):
                total += jacobian[k, i] * residual[k]
            step[i] = total
        _previous_solve(normal, step)


def _previous_damped_step(jacobian, residual, damping, q, lower, upper, step):
    squared = 0.0
    for i in range(residual.shape[0]):
        squared += residual[i] * residual[i]
    regularisation = damping * squared + 1e-12
    _previous_least_squares(jacobian, residual, regularisation, step)
    frozen = False
    for i in range(q.shape[0]):
        if (q[i] <= lower[i] and step[i] < 0.0) or (q[i] >= upper[i] and step[i] > 0.0):
            jacobian[:, i] = 0.0
            frozen = True
    if frozen:
        _previous_least_squares(jacobian, residual, regularisation, step)
        for i in range(q.shape[0]):
            if not np.any(jacobian[:, i]):
                step[i] = 0.0


def test_goal_residual_is_the_earlier_arithmetic_and_right():
    for target, tip, settings in _cases(600, seed=1):
        error, previous = np.empty(6), np.empty(6)
        position, angle = goal_residual(target, tip, settings, error)
        assert (position, angle) == _previous_residual(target, tip, settings, previous)
        assert error.tobytes() == previous.tobytes()
        if settings[ORIENTATION_MODE] == MODE_FULL:
            expected = Rotation.from_matrix(target[:3, :3] @ tip[:3, :3].T).as_rotvec()
            assert error[3:] == pytest.approx(expected, abs=1e-7)


def test_assess_and_effective_goal_with_bounds_are_the_earlier_arithmetic():
    for target, tip, settings in _cases(300, seed=2):
        error = np.empty(6)
        position, angle = goal_residual(target, tip, settings, error)
        cost, solved, near = assess(target, settings, position, angle, error)
        # Earlier: the bounded norms through arrays.
        if settings[POSITION_BOUNDED] == 0.0:
            expected_cost = position + settings[ORIENTATION_WEIGHT] * angle
        else:
            counted = [error[i] for i in range(3)
                       if _counts(error[i], settings, POSITION_BOUNDED, i)]
            position_cost = math.sqrt(sum(value * value for value in counted))
            orientation_cost = angle
            if settings[ORIENTATION_MODE] == MODE_FULL:
                rotation = [target[0, i] * error[3] + target[1, i] * error[4]
                            + target[2, i] * error[5] for i in range(3)]
                counted = [value for i, value in enumerate(rotation)
                           if _counts(value, settings, ROTATION_BOUNDED, i)]
                orientation_cost = math.sqrt(sum(value * value for value in counted))
            expected_cost = position_cost + settings[ORIENTATION_WEIGHT] * orientation_cost
        assert cost == expected_cost
        goal = np.full((4, 4), np.nan)
        effective_goal(target, tip, settings, error, goal)
        assert np.isfinite(goal).all()
        if settings[ORIENTATION_MODE] != MODE_AXIS and settings[POSITION_BOUNDED] == 0.0:
            assert goal.tobytes() == target.tobytes()


def test_weighted_rows_are_the_earlier_arithmetic():
    rng = np.random.default_rng(3)
    for target, tip, settings in _cases(600, seed=3):
        joints = int(rng.integers(2, 9))
        jacobian = rng.normal(size=(6, joints))
        error = np.empty(6)
        goal_residual(target, tip, settings, error)
        rows_out, residual_out = np.zeros((6, joints)), np.zeros(6)
        previous_rows, previous_residual = np.zeros((6, joints)), np.zeros(6)
        rows = weighted_system(target, tip, settings, error, jacobian, rows_out, residual_out)
        assert rows == _previous_system(target, tip, settings, error, jacobian, previous_rows,
                                        previous_residual)
        assert rows_out.tobytes() == previous_rows.tobytes()
        assert residual_out.tobytes() == previous_residual.tobytes()


def test_damped_rows_is_the_earlier_step_on_the_first_rows_and_solves_the_system():
    rng = np.random.default_rng(4)
    for case in range(400):
        joints = int(rng.integers(2, 9))
        rows = int(rng.integers(1, 7))
        system = rng.normal(size=(6, joints))
        residual = rng.normal(size=6) * 10.0 ** rng.uniform(-6, 0)
        lower, upper = -np.ones(joints), np.ones(joints)
        q = rng.uniform(-1.0, 1.0, joints)
        if case % 2:  # some joints resting on a limit, so that the active set freezes them
            resting = rng.choice(joints, 2, replace=False)
            q[resting] = np.where(rng.random(2) < 0.5, -1.0, 1.0)
        original = system[:rows].copy()
        previous_jacobian = system[:rows].copy()
        previous = np.empty(joints)
        _previous_damped_step(previous_jacobian, residual[:rows].copy(), 0.1, q, lower, upper,
                              previous)
        size = max(6, joints)
        step = np.empty(joints)
        damped_rows(system, residual, rows, 0.1, q, lower, upper, step, np.empty((size, size)),
                    np.empty(size))
        assert step.tobytes() == previous.tobytes()
        assert system[:rows].tobytes() == previous_jacobian.tobytes()
        allocating = np.empty(joints)
        damped_step(original.copy(), residual[:rows].copy(), 0.1, q, lower, upper, allocating)
        assert allocating.tobytes() == previous.tobytes()
        # Where nothing is frozen, the step is the damped least-squares solution itself.
        if not case % 2:
            jacobian = original
            damping = 0.1 * float(residual[:rows] @ residual[:rows]) + 1e-12
            expected = jacobian.T @ np.linalg.solve(jacobian @ jacobian.T
                                                    + damping * np.eye(rows), residual[:rows])
            assert step == pytest.approx(expected, rel=1e-6, abs=1e-9)


def test_leaf_kinematics_match_the_urdf_read_joint_by_joint(ur5, panda, ur5_oracle,
                                                            panda_oracle):
    # FK and the Jacobian, compiled without reference counts, against a reference read from
    # the URDF text, and against finite differences of it.
    rng = np.random.default_rng(5)
    for chain, oracle in ((ur5, ur5_oracle), (panda, panda_oracle)):
        configurations = np.array([chain.random_configuration(rng) for _ in range(40)])
        for q, pose in zip(configurations, chain.fk_batch(configurations)):
            assert np.allclose(pose, oracle.fk(q), atol=1e-12)
            assert np.allclose(chain.fk(q), pose, atol=0.0)
            jacobian = chain.jacobian(q)
            for i in range(chain.num_joints):
                delta = np.zeros(chain.num_joints)
                delta[i] = 1e-6
                ahead, behind = oracle.fk(q + delta), oracle.fk(q - delta)
                linear = (ahead[:3, 3] - behind[:3, 3]) / 2e-6
                turn = Rotation.from_matrix(ahead[:3, :3] @ behind[:3, :3].T).as_rotvec() / 2e-6
                assert np.allclose(jacobian[:, i], np.concatenate([linear, turn]), atol=1e-7)
