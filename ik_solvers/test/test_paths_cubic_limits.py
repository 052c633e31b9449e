# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The compiled command timing gives the duration the sampled controller spline gives."""

import numpy as np
import pytest

from ik_solvers.engine.controller_motion import command_duration
from ik_solvers.paths.controller_spline import ControllerSpline, limit_excess

GROWTH, TRIES, PER_SEGMENT = 1.1, 60, 16


def _reference(start, goal, velocity, vmax, amax, lower, upper, also_from):
    """Try durations as the spline states them: build each cubic, sample it, check its limits."""
    states = [(start, velocity)] + list(also_from)
    positions = [position for position, _ in states]
    low = np.minimum.reduce([lower] + positions)
    high = np.maximum.reduce([upper] + positions)
    distance = np.max([np.abs(goal - position) for position in positions], axis=0)
    duration = max(0.1, max(float(np.max(1.5 * distance / vmax)),
                            float(np.max(np.sqrt(6.0 * distance / amax)))) * (1.0 + 1e-9))
    for _ in range(TRIES):
        if all(limit_excess(ControllerSpline([duration], goal[None], np.zeros((1, goal.size)),
                                             start_positions=position,
                                             start_velocities=moving).sample_every(
                                                 per_segment=PER_SEGMENT),
                            max_velocity=vmax, max_acceleration=amax, lower=low,
                            upper=high).within(slack=0.0)
               for position, moving in states):
            return duration
        duration *= GROWTH
    return None


@pytest.mark.parametrize('seed', range(4))
def test_every_duration_equals_the_sampled_splines(seed):
    generator = np.random.default_rng(seed)
    width = 6
    moving_starts = 0
    for _ in range(150):
        start = generator.uniform(-2.0, 2.0, width)
        goal = start + generator.normal(0.0, generator.choice([0.001, 0.05, 0.5]), width)
        vmax = generator.uniform(0.5, 3.0, width)
        amax = generator.uniform(1.0, 10.0, width)
        # Often moving, sometimes fast toward a nearby position limit.
        velocity = generator.normal(0.0, generator.choice([0.0, 0.3, 1.5]), width)
        lower, upper = np.minimum(start, goal) - generator.uniform(0.0, 0.3, width), \
            np.maximum(start, goal) + generator.uniform(0.0, 0.3, width)
        also = [(start + 0.01 * velocity, velocity * 0.9)]
        expected = _reference(start, goal, velocity, vmax, amax, lower, upper, also)
        if expected is None:
            with pytest.raises(ValueError):
                command_duration(start, goal, max_velocity=vmax, max_acceleration=amax,
                                 lower=lower, upper=upper, start_velocity=velocity,
                                 also_from=also)
            continue
        moving_starts += bool(np.any(velocity))
        assert command_duration(start, goal, max_velocity=vmax, max_acceleration=amax,
                                lower=lower, upper=upper, start_velocity=velocity,
                                also_from=also) == expected
    assert moving_starts > 20


def test_a_joint_without_limits_does_not_bound_the_duration():
    start, goal = np.zeros(2), np.array([0.5, 5.0])
    limited = command_duration(start, goal, max_velocity=[1.0, np.inf],
                               max_acceleration=[2.0, 0.0])
    only_first = command_duration(start[:1], goal[:1], max_velocity=[1.0],
                                  max_acceleration=[2.0])
    assert limited == only_first


def test_a_single_point_spline_to_rest_is_the_one_the_general_constructor_builds():
    rng = np.random.default_rng(8)
    for _ in range(300):
        width = int(rng.integers(1, 8))
        start, velocity, goal = (rng.uniform(-2.0, 2.0, width) for _ in range(3))
        duration = float(rng.uniform(0.01, 3.0))
        general = ControllerSpline([duration], goal[None], np.zeros((1, width)),
                                   start_positions=start, start_velocities=velocity)
        quick = ControllerSpline.to_rest(start, velocity, goal, duration)
        for name in ('times', 'positions', 'velocities', '_coefficients'):
            assert np.array_equal(getattr(quick, name), getattr(general, name)), name
        assert quick.accelerations is None and general.accelerations is None
        times = rng.uniform(-0.1, 1.1 * duration, 20)
        for array in ('positions', 'velocities', 'accelerations'):
            assert np.array_equal(getattr(quick.sample(times), array),
                                  getattr(general.sample(times), array))
