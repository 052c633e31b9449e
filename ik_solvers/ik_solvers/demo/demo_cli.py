# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The command line of ``ik_solvers_demo``: options in, exit code out.

The demo itself is :func:`ik_solvers.demo.headless_demo.run_demo`; this module reads the
options and turns the demo's findings into the process exit code (1 when a command of the
collision segment collides, a played state collides, a solver solved nothing, or the
teleoperation segment stood still while part of its command was achievable or went past the
servo loop's velocity or acceleration limits).
"""

import argparse
from pathlib import Path
import sys
from typing import Optional, Sequence

from ..exceptions import IKError
from ..solvers import ORIENTATION_MODES
from .headless_demo import (
    DEFAULT_BASE_LINK,
    DEFAULT_SOLVERS,
    DEFAULT_TIP_LINK,
    DemoOptions,
    run_demo,
    say,
)
from .demo_table import LEGEND

__all__ = ['main']


def _parse(argv: Optional[Sequence[str]]) -> DemoOptions:
    parser = argparse.ArgumentParser(
        prog='ik_solvers_demo',
        description='Drag an IK goal along a scripted path through the real ik_node and a '
                    'simulated executor, once per solver, without a display.')
    parser.add_argument('--output', type=Path, default=Path('output'),
                        help='folder for the PNG and the node logs (default: ./output)')
    parser.add_argument('--solvers', default=','.join(DEFAULT_SOLVERS),
                        help='comma-separated solvers (default: all four)')
    parser.add_argument('--poses', type=int, default=300,
                        help='goals along the path (default: 300)')
    parser.add_argument('--rate', type=float, default=50.0,
                        help='goals per second on the path, Hz (default: 50)')
    parser.add_argument('--unreachable', type=int, default=5,
                        help='goals out of reach after the path (default: 5)')
    parser.add_argument('--description', type=Path, default=None,
                        help='URDF file (default: the bundled panda_like.urdf)')
    parser.add_argument('--base-link', default=DEFAULT_BASE_LINK)
    parser.add_argument('--tip-link', default=DEFAULT_TIP_LINK)
    parser.add_argument('--start', default='mid',
                        help="where the arm starts each drag: 'mid' (middle of the limits, the "
                             "default), 'zero', or comma-separated joint values (rad or m)")
    parser.add_argument('--path-offset', type=float, default=0.0,
                        help="m: move the figure-eight's centre this far from the start tip "
                             'toward the base (0.15 puts every goal within reach; default 0)')
    parser.add_argument('--no-obstacle-segment', action='store_true',
                        help='skip the goal across an obstacle')
    parser.add_argument('--no-collision-segment', action='store_true',
                        help='skip dragging the hand into the table and the base')
    parser.add_argument('--square', type=float, default=0.1,
                        help='side of the square of straight lines run through '
                             '~/cartesian_path after the drags, m (default: 0.1; 0 skips it)')
    parser.add_argument('--two-arms', type=int, default=60,
                        help='goals per figure-eight of the two-armed segment on '
                             'dual_arm_waist.urdf (default: 60; 0 skips it)')
    parser.add_argument('--no-teleoperation-segment', action='store_true',
                        help='skip servoing ur5_like through its wrist singularity and along '
                             'the edge of its workspace')
    parser.add_argument('--orientation-mode', default='full', choices=list(ORIENTATION_MODES),
                        help="what of the goal orientation counts: 'full' (default), 'axis' "
                             "(the tip z axis aimed, spin free) or 'none'")
    arguments = parser.parse_args(argv)
    return DemoOptions(
        output=arguments.output.resolve(),
        solvers=tuple(name.strip() for name in arguments.solvers.split(',') if name.strip()),
        path_length=arguments.poses, rate=arguments.rate, unreachable=arguments.unreachable,
        description=arguments.description, base_link=arguments.base_link,
        tip_link=arguments.tip_link, start=arguments.start,
        path_offset=arguments.path_offset, orientation_mode=arguments.orientation_mode,
        square=arguments.square, two_arms=arguments.two_arms,
        collision_segment=not arguments.no_collision_segment,
        obstacle_segment=not arguments.no_obstacle_segment,
        teleoperation=not arguments.no_teleoperation_segment)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``ik_solvers_demo``; returns the process exit code."""
    options = _parse(sys.argv[1:] if argv is None else argv)
    try:
        result = run_demo(options)
    except KeyboardInterrupt:
        say(sys.stderr, 'interrupted; the nodes were stopped')
        return 130
    except IKError as error:
        say(sys.stderr, 'ik_solvers_demo: %s' % error)
        return 1
    say(sys.stdout, '\n' + LEGEND)
    say(sys.stdout, '\nDone in %.0f s. Plot of the paths tracked: %s' % (
        result.elapsed, result.plot))
    if result.lines_plot is not None:
        say(sys.stdout, 'Plot of the straight lines: %s' % result.lines_plot)
    if result.two_arms_plot is not None:
        say(sys.stdout, 'Plot of the two-armed robot: %s' % result.two_arms_plot)
    if result.teleoperation_plot is not None:
        say(sys.stdout, 'Plot of the teleoperation: %s' % result.teleoperation_plot)
    say(sys.stdout, 'Node logs: %s' % (options.output / 'logs'))
    if result.collisions is not None and result.collisions.colliding_commands:
        say(sys.stderr, '%d commands of the collision segment collide: see %s' % (
            result.collisions.colliding_commands, options.output / 'logs' / 'ik_node.log'))
        return 1
    if result.played_in_collision:
        say(sys.stderr, '%d played states of the collision segment collide'
            % result.played_in_collision)
        return 1
    if result.obstacle is not None and result.obstacle.colliding_samples:
        say(sys.stderr, '%d played states of the goal across an obstacle collide: %s' % (
            result.obstacle.colliding_samples, result.obstacle.first_contact))
        return 1
    two_arm_colliding = sum(run.summary.colliding_commands for run in result.two_arms)
    if two_arm_colliding:
        say(sys.stderr, '%d commands of the two-armed segment collide' % two_arm_colliding)
        return 1
    servo = [run.summary for run in result.teleoperation]
    if any(s.stops or s.velocity_ratio > 1.0 + 1e-9 or s.acceleration_ratio > 1.0 + 1e-9
           for s in servo):
        say(sys.stderr, 'the teleoperation segment stopped short or went past its limits')
        return 1
    silent = [s.solver for s in result.summaries if s.path_solved == 0]
    if silent:
        say(sys.stderr, 'no goal was solved with %s: see %s' % (
            ', '.join(silent), options.output / 'logs' / 'ik_node.log'))
        return 1
    return 0
