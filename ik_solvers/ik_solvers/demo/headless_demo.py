# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The headless demo, ``ik_solvers_demo``: the RViz goal-dragging pipeline without a display.

It starts the installed ``ik_node`` and ``sim_executor``, publishes the bundled 7-DOF arm on
``robot_description`` as robot_state_publisher would, and drags a goal along a smooth
figure-eight plus a few far-out goals, once per solver; then it drags the hand into the table
and into the arm's own base, and checks every command of that segment for collisions. Last,
both hands of a two-armed robot on a waist trace figure-eights (:mod:`.two_arms`), and the servo
loop takes a UR-type arm through its wrist singularity and along the edge of its workspace
(:mod:`.teleoperation`). It prints a table as it goes and writes PNGs of the paths tracked, of
the two-armed robot and of the teleoperation.
Run it with ``bash tools/demo.sh`` from the repository.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
import sys
import threading
import time
from typing import Optional, Sequence, TextIO

from ament_index_python.packages import get_package_share_directory
import numpy as np
import rclpy
from rclpy.executors import SingleThreadedExecutor

from ..exceptions import IKError
from ..kinematics import Chain, RobotModel
from ..ros.names import command_topic_for, DEFAULT_CONTROLLER_NAME
from ..solvers import check_solver_names, ORIENTATION_MODES, SOLVERS
from .collision_segment import (
    collision_drag,
    CollisionSummary,
    format_collision_summary,
    summarise_collisions,
)
from .drag_driver import DemoError, DragDriver
from .metrics import DragRecording, summarise, SolverSummary
from .obstacle_segment import format_obstacle_summary, goal_across_obstacle, \
    ObstacleSummary, played_collisions
from .played_limits import CommandLog, format_limits, node_limits, PlayedLimits, \
    replay_limits
from .plot import plot_drags
from .processes import ProcessGroup
from .demo_table import format_header, format_row, ProgressLine
from .scripted_drag import moved_toward_base, scripted_drag, start_configuration
from .two_arm_plot import plot_two_arms
from .two_arms import format_two_arm_table, run_two_arms, TwoArmOptions, TwoArmRun
from .teleoperation import format_teleop_table, run_teleoperation, TeleopOptions, TeleopRun
from .teleoperation_plot import plot_teleoperation
from .straight_lines import (
    deviations_from_polyline,
    LineRecording,
    plot_square,
    square_in_vertical_plane,
    StraightLineRun,
)

__all__ = ['DemoOptions', 'DemoResult', 'reach_bound', 'run_demo', 'say']

PACKAGE_NAME = 'ik_solvers'
DEFAULT_SOLVERS = tuple(SOLVERS)
DEFAULT_DESCRIPTION = 'panda_like.urdf'
DEFAULT_BASE_LINK = 'panda_link0'
DEFAULT_TIP_LINK = 'panda_hand_tcp'
COMMAND_TOPIC = command_topic_for('', DEFAULT_CONTROLLER_NAME)


@dataclass(frozen=True)
class DemoOptions:
    """What to drag, how fast, with which solvers, and where the plot goes."""

    output: Path
    solvers: Sequence[str] = DEFAULT_SOLVERS
    path_length: int = 300
    rate: float = 50.0
    unreachable: int = 5
    description: Optional[Path] = None
    base_link: str = DEFAULT_BASE_LINK
    tip_link: str = DEFAULT_TIP_LINK
    #: Where the arm starts each drag: 'mid' (the middle of the limits, where the simulated
    #: executor starts, as a real user gets it), 'zero', or comma-separated joint values.
    start: str = 'mid'
    #: Metres: the figure-eight's centre moves this far from the start tip toward the base
    #: (0.15 puts every goal of it within reach of the arms of about a metre).
    path_offset: float = 0.0
    #: The node's orientation_mode: 'full', 'axis' (the tip z axis aimed, spin free: a 5-DOF
    #: arm's goals) or 'none'; the table's orientation errors are then the mode's.
    orientation_mode: str = 'full'
    #: Longest wait for the nodes to start and for their first answers, seconds.
    startup_timeout: float = 30.0
    #: Longest wait for the node's answer to the last path goal and to each far goal, and for
    #: the arm's return home before each solver, seconds; a loaded machine needs more.
    answer_timeout: float = 2.0
    #: Drag the hand into the table and the base after the solvers' drags (the first solver).
    collision_segment: bool = True
    #: Publish one goal across a box once after the collision segment (the first solver).
    obstacle_segment: bool = True
    #: Side of the square of straight lines run through ~/cartesian_path after the drags, m;
    #: 0 skips it.
    square: float = 0.1
    #: Goals per figure-eight of the two-armed segment (dual_arm_waist.urdf, streamed through
    #: the node's tree logic without ROS); 0 skips it.
    two_arms: int = 60
    #: Step the servo loop through the scripted teleoperation of ur5_like.urdf, without ROS.
    teleoperation: bool = True


@dataclass(frozen=True)
class DemoResult:
    """The recordings and table rows of a demo run, and the PNG written."""

    recordings: Sequence[DragRecording]
    summaries: Sequence[SolverSummary]
    plot: Path
    elapsed: float
    #: The collision segment's figures, when it ran.
    collisions: Optional[CollisionSummary] = None
    #: The square of straight lines, and its picture (None when skipped).
    lines: Optional[LineRecording] = None
    lines_plot: Optional[Path] = None
    #: The goal across an obstacle, when it ran and a box layout fitted the arm.
    obstacle: Optional[ObstacleSummary] = None
    #: Joint states played during the collision segment in collision, sampled every 1 ms.
    played_in_collision: int = 0
    #: The node's commands replayed as the controller plays them: the worst against the limits.
    limits: Optional[PlayedLimits] = None
    #: The two-armed segment's runs, one per solver, and its picture (empty/None when skipped).
    two_arms: Sequence[TwoArmRun] = ()
    two_arms_plot: Optional[Path] = None
    #: The teleoperation segment's runs, one per solver, and its picture.
    teleoperation: Sequence[TeleopRun] = ()
    teleoperation_plot: Optional[Path] = None


def reach_bound(chain: Chain) -> float:
    """
    Bound the chain's reach from above, in metres.

    The sum of the distances between the base, consecutive joint origins and the tip is a
    length no configuration can exceed. :attr:`Chain.length_scale` leaves out the first of
    these distances (base to first joint), so it is no bound on the reach.
    """
    frames, tip = chain.joint_frames(chain.mid_configuration())
    points = np.vstack([np.zeros(3), frames[:, :3, 3], tip[:3, 3]])
    return float(np.sum(np.linalg.norm(np.diff(points, axis=0), axis=1)))


def _send_home(driver: DragDriver, chain: Chain, home: np.ndarray, *, timeout: float) -> None:
    """
    Send the arm home past the node, once the node has stopped driving its last goal.

    The node drives a goal on until it is reached (the end of a drag, far goals included); a
    command through the node, of where the arm is, replaces that goal. Only then is the arm
    sent home directly, or the node's next step would take it away again.
    """
    here = driver.joint_positions()
    if here is not None:
        try:
            driver.start_from(here, chain.fk(here), timeout=timeout)
        except DemoError:
            pass  # refused (a contact within the padding, say): the quiet wait bounds the rest
    driver.wait_until_quiet(quiet=0.5, timeout=30.0)
    driver.move_to(home, duration=0.3, timeout=timeout)


def _share_file(*parts: str) -> Path:
    return Path(get_package_share_directory(PACKAGE_NAME)).joinpath(*parts)


def say(stream: TextIO, text: str = '') -> None:
    """Write one line of the demo's report and flush it, so progress shows as it happens."""
    stream.write(text + '\n')
    stream.flush()


def run_demo(options: DemoOptions, *, stream: TextIO = sys.stdout) -> DemoResult:
    """
    Run the whole demo and print its progress and table on ``stream``.

    :raises IKError: bad options (unknown solver, link or file), or a node that did not start
        or answer; every child process is stopped before it propagates.
    """
    started = time.monotonic()
    if not options.solvers:
        raise IKError('no solver given; available: %s' % ', '.join(SOLVERS))
    check_solver_names(options.solvers)
    if options.orientation_mode not in ORIENTATION_MODES:
        raise IKError('--orientation-mode must be one of %s, got %r'
                      % (', '.join(ORIENTATION_MODES), options.orientation_mode))
    if options.path_length < 2 or options.rate <= 0.0 or options.unreachable < 0:
        raise IKError('need at least 2 path goals, a positive rate and >= 0 far goals')
    if not (options.answer_timeout > 0.0 and options.startup_timeout > 0.0):
        raise IKError('timeouts must be positive numbers of seconds')
    description = options.description or _share_file('urdf', DEFAULT_DESCRIPTION)
    try:
        urdf_xml = Path(description).read_text(encoding='utf-8')
    except OSError as error:
        raise IKError('cannot read the robot description %s: %s' % (description, error))
    chain = RobotModel.from_urdf(urdf_xml).chain(options.base_link, options.tip_link)
    logs = options.output / 'logs'
    say(stream, 'ik_solvers headless demo: %s, chain %s -> %s (%d joints)' % (
        Path(description).name, chain.base_link, chain.tip_link, chain.num_joints))
    say(stream, 'Each solver follows %d goals streamed at %.0f Hz, then %d goals out of reach '
        '(orientation mode %s).' % (options.path_length, options.rate, options.unreachable,
                                    options.orientation_mode))
    say(stream, 'Starting ik_node and sim_executor (logs in %s) ...' % logs)

    params_file = _share_file('config', 'ik_solvers.yaml')
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = SingleThreadedExecutor(context=context)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    try:
        with ProcessGroup() as group:
            group.start('sim_executor', log_path=logs / 'sim_executor.log',
                        parameters={'command_topic': COMMAND_TOPIC})
            group.start('ik_node', log_path=logs / 'ik_node.log',
                        params_files=[params_file] if params_file.is_file() else [],
                        parameters={'base_link': chain.base_link, 'tip_link': chain.tip_link,
                                    'solver': options.solvers[0],
                                    'orientation_mode': options.orientation_mode,
                                    'command_topic': COMMAND_TOPIC})
            driver = DragDriver(urdf_xml=urdf_xml, base_link=chain.base_link,
                                joint_names=chain.joint_names, command_topic=COMMAND_TOPIC,
                                context=context)
            lines = StraightLineRun(driver, chain.joint_names)
            command_log = CommandLog(driver, COMMAND_TOPIC)
            executor.add_node(driver)
            spinner.start()
            try:
                driver.wait_for_joint_states(timeout=options.startup_timeout)
                home = start_configuration(chain, options.start)
                driver.move_to(home, duration=0.3, timeout=max(5.0, options.answer_timeout))
                start_pose = chain.fk(home)
                driver.wait_for_model(start_pose, timeout=options.startup_timeout)
            except IKError:
                group.check_alive()  # a crashed child explains more than a timeout
                raise
            goals = scripted_drag(moved_toward_base(chain, home, options.path_offset),
                                  path_length=options.path_length,
                                  unreachable=options.unreachable, reach=reach_bound(chain))
            say(stream, 'Ready: the tip starts at %s m in %s.\n' % (
                np.round(start_pose[:3, 3], 3).tolist(), chain.base_link))
            say(stream, format_header())

            recordings, summaries = [], []
            for solver in options.solvers:
                group.check_alive()
                driver.set_solver(solver)
                # A goal published last is driven on by the node until it settles.
                _send_home(driver, chain, home, timeout=max(5.0, options.answer_timeout))
                driver.start_from(home, start_pose, timeout=max(5.0, options.answer_timeout))
                line = ProgressLine(solver, stream=stream)
                recording = driver.drag(solver, goals, rate=options.rate,
                                        answer_timeout=options.answer_timeout,
                                        progress=line.update)
                summary = summarise(recording)
                line.finish(format_row(summary))
                recordings.append(recording)
                summaries.append(summary)
            collisions = None
            played_in_collision = 0
            if options.collision_segment:
                driver.set_solver(options.solvers[0])
                _send_home(driver, chain, home, timeout=max(5.0, options.answer_timeout))
                driver.record_states()
                segment = driver.drag(options.solvers[0], collision_drag(start_pose),
                                      rate=options.rate, answer_timeout=options.answer_timeout)
                driver.wait_until_quiet(quiet=0.5, timeout=30.0)
                collisions = summarise_collisions(segment, urdf_xml, chain)
                say(stream, '\n' + format_collision_summary(collisions))
                states = driver.recorded_states()
                swept = played_collisions(urdf_xml, chain, states)
                say(stream, 'played states %d, swept samples (1 ms) %d, in collision %d%s' % (
                    len(states), swept[0], swept[1], '' if not swept[2] else ': ' + swept[2]))
                played_in_collision += swept[1]
            obstacle = None
            if options.obstacle_segment:
                _send_home(driver, chain, home, timeout=max(5.0, options.answer_timeout))
                driver.start_from(home, start_pose, timeout=max(5.0, options.answer_timeout))
                obstacle = goal_across_obstacle(driver, urdf_xml, chain, home)
                say(stream, '\n' + format_obstacle_summary(obstacle, options.solvers[0]))
            line_recording = None
            if options.square > 0.0:
                driver.set_solver(options.solvers[0])
                _send_home(driver, chain, home, timeout=max(5.0, options.answer_timeout))
                corners = square_in_vertical_plane(start_pose, options.square)
                line_recording = lines.run(corners, max_step=0.002,
                                           timeout=max(10.0, 5.0 * options.answer_timeout))
                say(stream, _lines_summary(line_recording, chain, start_pose, corners,
                                           options.square))
            group.check_alive()
            velocity_scale, acceleration = node_limits(params_file)
            start_states, commands = command_log.recorded()
            limits = replay_limits(chain, start_states, commands, velocity_scale=velocity_scale,
                                   acceleration=acceleration)
            say(stream, '\n' + format_limits(limits))
            at_arrival = replay_limits(chain, start_states, commands,
                                       velocity_scale=velocity_scale, acceleration=acceleration,
                                       arrivals=command_log.arrival_states())
            say(stream, format_limits(at_arrival, "the arm's measured state at arrival"))
    finally:
        executor.shutdown()
        if spinner.is_alive():
            spinner.join(timeout=5.0)
        rclpy.try_shutdown(context=context)

    plot = plot_drags(recordings, options.output / 'ik_solvers_demo.png',
                      title='%s -> %s on %s: goal dragged at %.0f Hz' % (
                          chain.base_link, chain.tip_link, Path(description).name,
                          options.rate))
    lines_plot = None
    if line_recording is not None:
        lines_plot = plot_square(
            line_recording, chain, _corner_points(start_pose, corners),
            options.output / 'ik_solvers_demo_lines.png',
            title='Straight lines through ~/cartesian_path: a %.0f cm square in the base y-z '
                  'plane, played by the simulated executor' % (100 * options.square))
    two_arms, two_arms_plot = (), None
    if options.two_arms > 0:
        two_arm_options = TwoArmOptions(solvers=tuple(options.solvers),
                                        path_length=options.two_arms)
        two_arm_urdf = _share_file('urdf', 'trees', 'dual_arm_waist.urdf')
        two_arms = run_two_arms(two_arm_options, two_arm_urdf.read_text(encoding='utf-8'))
        say(stream, '\n' + format_two_arm_table(two_arms, two_arm_options))
        two_arms_plot = plot_two_arms(two_arms, options.output / 'ik_solvers_demo_two_arms.png')
    teleoperation, teleoperation_plot = (), None
    if options.teleoperation:
        teleop_options = TeleopOptions(solvers=tuple(options.solvers))
        ur5 = _share_file('urdf', 'ur5_like.urdf').read_text(encoding='utf-8')
        teleoperation = run_teleoperation(teleop_options, ur5)
        say(stream, '\n' + format_teleop_table(teleoperation, teleop_options))
        teleoperation_plot = plot_teleoperation(
            teleoperation, options.output / 'ik_solvers_demo_teleoperation.png')
    return DemoResult(recordings, summaries, plot, time.monotonic() - started,
                      collisions=collisions, lines=line_recording, lines_plot=lines_plot,
                      obstacle=obstacle, played_in_collision=played_in_collision,
                      limits=limits, two_arms=two_arms, two_arms_plot=two_arms_plot,
                      teleoperation=teleoperation, teleoperation_plot=teleoperation_plot)


def _corner_points(start_pose: np.ndarray, corners: Sequence[np.ndarray]) -> np.ndarray:
    return np.vstack([start_pose[:3, 3]] + [corner[:3, 3] for corner in corners])


def _lines_summary(recording: LineRecording, chain: Chain, start_pose: np.ndarray,
                   corners: Sequence[np.ndarray], side: float) -> str:
    played = ''
    if recording.positions:
        tips = chain.fk_batch(np.array(recording.positions))[:, :3, 3]
        deviation = deviations_from_polyline(tips, _corner_points(start_pose, corners))
        played = '; the played tool path stays within %.3f mm of the lines' % (
            1e3 * float(deviation.max()))
    return ('\nStraight lines: a %.0f cm square through ~/cartesian_path (code %d): fraction '
            '%.3f, %d points, %.2f s long%s.' % (100 * side, recording.error_code,
                                                 recording.fraction, recording.points,
                                                 recording.duration, played))
