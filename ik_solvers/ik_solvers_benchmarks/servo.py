# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The servo benchmark: scripted teleoperation through singularities, per solver, against DLS.

Run ``python -m ik_solvers_benchmarks.servo`` (``--robots``, ``--solvers``, ``--rate``). For
each arm, each sequence of :mod:`.servo_sequences` and each solver it steps
:class:`ik_solvers.servo.servo_loop.ServoLoop` cycle by cycle and reports:

- ``stops``: cycles where the arm stood still (every joint below 1e-6 rad/s) while part of the
  command was achievable (its projection on the Jacobian's range above 5 % of it);
- ``tracked``: of the cycles away from singularities (smallest singular value above 5 % of
  the largest), past the first 0.3 s (the acceleration ramp) and not braking at a position
  limit, the share whose achieved tip velocity is at least 95 % of the command within 2 deg;
- ``beyond limits``: of those cycles missed, how many no servo could have tracked from the
  arm's state at the cycle's start within the velocity, acceleration and position limits (a
  linear program over every motion the limits allow, :mod:`.servo_feasibility`);
- ``median``: the median achieved fraction over every cycle;
- ``v/lim``, ``a/lim``: the largest joint velocity and acceleration of the points as
  the controller's cubic plays them, as shares of the limits; ``past``: the largest excursion
  past a position limit, rad;
- ``p99 ms``: one cycle's computation.

The same table follows for a textbook damped-least-squares servo with the same limits. A last
table puts a box in the way of the ``stretch`` sequence and reports the clearance left.
"""

import argparse
import math
import time
from typing import Dict, List, Optional, Sequence

import numpy as np

from .servo_feasibility import beyond_limits, displacement_bounds
from .servo_sequences import arm_sequences, DampedLeastSquaresServo, ScriptedTwist
from ik_solvers.collision import (Box, CollisionModel, load_robot_geometry, Obstacle,
                                  ObstacleSet, Primitive)
from ik_solvers.servo.servo_command import ServoSettings, TwistCommand
from ik_solvers.servo.servo_loop import ServoLoop
from ik_solvers.kinematics import RobotModel
from ik_solvers.reach.named_robots import load_robot
from ik_solvers.solvers import SOLVERS, warm_up
from ik_solvers.solvers.pose_error import rotation_vector
from ik_solvers.solvers.request import ORIENTATION_WEIGHT_PER_LENGTH

__all__ = ['main', 'run_sequence']

_RAMP = 0.3  # s excluded from tracking at the start of a sequence


def _base_twist(chain, q: np.ndarray, twist: TwistCommand) -> np.ndarray:
    linear, angular = np.array(twist.linear), np.array(twist.angular)
    if twist.frame == 'tip':
        rotation = chain.fk(q)[:3, :3]
        linear, angular = rotation @ linear, rotation @ angular
    return np.concatenate([linear, angular])


def run_sequence(chain, sequence: ScriptedTwist, *, solver: Optional[str],
                 settings: ServoSettings, collision: Optional[CollisionModel] = None) -> Dict:
    """
    Step one sequence; ``solver`` None runs the damped-least-squares reference.

    :returns: The row's figures (see the module's docstring) and ``positions`` (cycles, N).
    """
    period = settings.period
    cycles = int(round(sequence.duration / period))
    weight = np.r_[np.ones(3), np.full(3, ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale)]
    if solver is None:
        loop = DampedLeastSquaresServo(chain, rate=settings.rate,
                                       velocity_scale=settings.velocity_scale,
                                       acceleration=settings.acceleration_limit)
    else:
        loop = ServoLoop(chain, settings, solver=solver, collision_model=collision)
    loop.start(sequence.start)
    q, v = sequence.start.astype(float), np.zeros(chain.num_joints)
    rows = dict(stops=0, tracked=0, tracked_of=0, beyond=0, fractions=[], durations=[],
                worst_dir=0.0)
    speeds = chain.velocity_limits * settings.velocity_scale
    positions, velocities = [q], [v]
    for cycle in range(cycles):
        wanted = _base_twist(chain, q, sequence.twist)
        jacobian = chain.jacobian(q)
        values = np.linalg.svd(weight[:, None] * jacobian, compute_uv=False)
        started = time.perf_counter()
        if solver is None:
            following = loop.step(wanted)
            velocity = loop.v
        else:
            loop.command(TwistCommand(sequence.twist.linear, sequence.twist.angular,
                                      sequence.twist.frame, received=cycle * period))
            step = loop.step(cycle * period)
            following, velocity = step.positions, step.velocities
        rows['durations'].append(time.perf_counter() - started)
        before, after = chain.fk(q), chain.fk(following)
        achieved = np.concatenate([(after[:3, 3] - before[:3, 3]) / period,
                                   _rotation_vector(after[:3, :3] @ before[:3, :3].T) / period])
        wanted_w, achieved_w = weight * wanted, weight * achieved
        size = float(np.linalg.norm(wanted_w))
        fraction = float(achieved_w @ wanted_w) / size ** 2
        rows['fractions'].append(fraction)
        # The part of the command the Jacobian's range holds (pseudo-inverse cut at 1e-3).
        u, s, _ = np.linalg.svd(weight[:, None] * jacobian)
        kept = u[:, :len(s)][:, s > 1e-3 * s[0]]
        achievable = float(np.linalg.norm(kept.T @ wanted_w)) / size
        if cycle > 0 and np.max(np.abs(velocity)) < 1e-6 and achievable > 0.05:
            rows['stops'] += 1
        room = np.maximum(np.array([q - chain.lower, chain.upper - q]), 0.0)
        braking = np.any((following <= chain.lower + 1e-3) | (following >= chain.upper - 1e-3))
        if values[-1] > 0.05 * values[0] and cycle * period >= _RAMP and not braking:
            rows['tracked_of'] += 1
            cosine = float(achieved_w @ wanted_w) / max(size * np.linalg.norm(achieved_w), 1e-300)
            direction = math.degrees(math.acos(max(-1.0, min(1.0, cosine))))
            rows['worst_dir'] = max(rows['worst_dir'], direction)
            if fraction >= 0.95 and direction <= 2.0:
                rows['tracked'] += 1
            elif beyond_limits(jacobian, weight, wanted,
                               displacement_bounds(v, speeds, settings.acceleration_limit,
                                                   period, room), period):
                rows['beyond'] += 1
        q, v = following, velocity
        positions.append(q)
        velocities.append(v)
    positions, velocities = np.array(positions), np.array(velocities)
    accelerations = np.abs(np.diff(velocities, axis=0)) / period
    past = np.maximum(positions - chain.upper, chain.lower - positions)
    return dict(stops=rows['stops'], cycles=cycles,
                tracked=rows['tracked'] / max(rows['tracked_of'], 1),
                tracked_of=rows['tracked_of'], beyond=rows['beyond'],
                worst_dir=rows['worst_dir'],
                median=float(np.median(rows['fractions'])),
                v_ratio=float(np.max(np.abs(velocities) / speeds)),
                a_ratio=float(np.max(accelerations) / settings.acceleration_limit),
                past=float(max(0.0, np.max(past))),
                p99_ms=1e3 * float(np.percentile(rows['durations'], 99)),
                positions=positions)


def _rotation_vector(rotation: np.ndarray) -> np.ndarray:
    # The solvers' log map: transforms3d's mat2axangle, accurate for large turns, can be far
    # off for the turn of one cycle (below about 1e-5 rad).
    return rotation_vector(rotation)


def _table(title: str, rows: List[Sequence[str]], header: Sequence[str]) -> str:
    lines = ['### ' + title, '', '| ' + ' | '.join(header) + ' |',
             '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(row) + ' |' for row in rows]
    return '\n'.join(lines) + '\n'


def _row(arm: str, name: str, solver: str, figures: Dict) -> List[str]:
    return [arm, name, solver, str(figures['cycles']), str(figures['stops']),
            '%.1f %% of %d' % (100 * figures['tracked'], figures['tracked_of']),
            str(figures['beyond']),
            '%.2f' % figures['worst_dir'], '%.3f' % figures['median'],
            '%.3f' % figures['v_ratio'], '%.3f' % figures['a_ratio'], '%.1e' % figures['past'],
            '%.3f' % figures['p99_ms']]


def _obstacle_row(arm: str, model, chain, solver: str, settings: ServoSettings) -> List[str]:
    """Put a 0.3 m box 0.15 m ahead of the stretch sequence's tip and step into it."""
    sequence = [s for s in arm_sequences(chain) if s.name == 'stretch'][0]
    direction = np.array(sequence.twist.linear) / np.linalg.norm(sequence.twist.linear)
    centre = chain.fk(sequence.start)[:3, 3] + direction * (0.15 + 0.15)
    pose = np.eye(4)
    pose[:3, 3] = centre
    padding = 0.01
    collision = CollisionModel(model, chain, load_robot_geometry(model), padding=padding,
                               obstacles=ObstacleSet().apply(Obstacle(
                                   'box', pose, (Primitive(Box((0.3, 0.3, 0.3))),))))
    figures = run_sequence(chain, sequence, solver=solver, settings=settings,
                           collision=collision)
    bare = collision.with_padding(0.0)
    samples = _played_samples(figures['positions'], settings.period)
    colliding = sum(bare.check(q, True).colliding for q in samples)
    clearance = bare.obstacle_distance(figures['positions'][-1])
    return [arm, solver, str(colliding), str(len(samples)), '%.4f' % clearance,
            '%.4f' % (padding + 0.01), str(figures['stops'])]


def _played_samples(positions: np.ndarray, period: float) -> np.ndarray:
    """Every 1 ms of the straight segments between points (enough for a clearance check)."""
    count = max(1, int(round(period / 0.001)))
    steps = np.linspace(0.0, 1.0, count, endpoint=False)
    return np.concatenate([a + steps[:, None] * (b - a)
                           for a, b in zip(positions[:-1], positions[1:])])


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print the servo tables."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--robots', nargs='+', default=['ur5_like', 'panda_like'])
    parser.add_argument('--solvers', nargs='+', default=list(SOLVERS))
    parser.add_argument('--rate', type=float, default=100.0, help='Hz (default 100)')
    arguments = parser.parse_args(argv)
    warm_up(arguments.solvers)
    settings = ServoSettings(rate=arguments.rate)
    header = ['arm', 'sequence', 'servo', 'cycles', 'stops', 'tracked', 'beyond limits',
              'worst dir deg',
              'median', 'v/lim', 'a/lim', 'past rad', 'p99 ms']
    rows, obstacle_rows = [], []
    for name in arguments.robots:
        robot = load_robot(name)
        model = RobotModel.from_urdf(robot.urdf_xml)
        chain = model.chain(robot.base_link, robot.tip_link)
        for sequence in arm_sequences(chain):
            for solver in arguments.solvers + [None]:
                figures = run_sequence(chain, sequence, solver=solver, settings=settings)
                rows.append(_row(name, sequence.name, solver or 'DLS reference', figures))
        for solver in arguments.solvers:
            obstacle_rows.append(_obstacle_row(name, model, chain, solver, settings))
    print(_table('Scripted teleoperation at %g Hz' % arguments.rate, rows, header))
    print(_table('A box in the way of the stretch', obstacle_rows,
                 ['arm', 'solver', 'colliding samples', 'samples', 'clearance at end m',
                  'padding + 1 cm', 'stops']))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
