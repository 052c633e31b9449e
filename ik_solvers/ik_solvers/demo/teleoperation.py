# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's teleoperation segment: scripted twists through a wrist singularity and along the edge.

The servo loop (:class:`ik_solvers.servo.servo_loop.ServoLoop`, what the node's
``~/delta_twist_cmds`` feeds) is stepped here directly, without ROS, on the bundled
``ur5_like.urdf`` at the node's default rate and limits, once per solver. The script is what a
hand on a spacemouse might send, each command easing into the next over ``blend`` seconds:

1. ``wrist``: the tool turns at a constant twist from its pose with the wrist joint
   (``wrist_2_joint``) at ``+wrist_angle`` to its pose at ``-wrist_angle``; at 0 the first and
   last wrist axes are aligned (the wrist singularity);
2. ``stretch``: the tip moves straight away from the shoulder, reaches the edge of the
   workspace (the elbow straight) and pushes on outward;
3. ``slide``: still pushing outward as hard, the tip is also sent sideways, so that it slides
   along the edge.

Every cycle is measured here, apart from the loop: the tip's velocity (by forward kinematics of
consecutive points) against the command, the part of the command the Jacobian's range holds,
and the points against the loop's velocity and acceleration limits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from typing import List, Sequence, Tuple

import numpy as np
from transforms3d.axangles import mat2axangle
from transforms3d.quaternions import mat2quat

from ..exceptions import IKError
from ..kinematics import Chain, RobotModel
from ..servo import ServoLoop, ServoSettings, TwistCommand
from ..solvers import check_solver_names
from ..solvers.request import ORIENTATION_WEIGHT_PER_LENGTH

__all__ = ['TeleopOptions', 'TeleopRun', 'TeleopSummary', 'format_teleop_table',
           'run_teleoperation']

BASE_LINK = 'base_link'
TIP_LINK = 'tool0'
WRIST_JOINT = 'wrist_2_joint'
ELBOW_JOINT = 'elbow_joint'
PHASES = ('wrist', 'stretch', 'slide')
#: Where the arm starts, at rest (rad, the chain's order); the wrist joint is set to
#: ``+wrist_angle``. The elbow is bent, the tip about 0.8 m from the shoulder (0.93 m at the edge).
_START = (0.3, -1.2, 1.2, -1.5, 0.0, 0.3)
#: A cycle stands still when every joint is slower than this, rad/s.
_STILL = 1e-6
#: A part of the command counts as achievable above this share of it.
_ACHIEVABLE = 0.05
#: Singular values below this share of the largest span no achievable direction.
_RANGE_CUT = 1e-3
#: Tracking targets: achieved share of the command and direction, away from singularities.
_TRACKED_FRACTION = 0.95
_TRACKED_DEGREES = 2.0
#: The tip is at the edge of the workspace while the elbow is within this of straight, rad.
_STRAIGHT = 0.1


@dataclass(frozen=True)
class TeleopOptions:
    """The script's speeds and lengths, the solvers and the loop's settings."""

    solvers: Sequence[str]
    #: Tip speed of the stretch, and of each of the slide's two parts (outward, sideways), m/s.
    linear_speed: float = 0.1
    #: Turn rate through the wrist singularity, rad/s.
    angular_speed: float = 0.5
    #: The wrist joint turns from +wrist_angle to -wrist_angle, rad.
    wrist_angle: float = 0.8
    #: How long the tip stretches outward (reaching the edge, then pushing on), s.
    stretch: float = 2.5
    #: How long it slides along the edge, s.
    slide: float = 2.0
    #: Each command eases into the next over this long (from rest too), s.
    blend: float = 0.5
    #: The loop's settings: the node's defaults (100 Hz).
    settings: ServoSettings = field(default_factory=ServoSettings)

    def __post_init__(self) -> None:
        values = (self.linear_speed, self.angular_speed, self.wrist_angle, self.stretch,
                  self.slide, self.blend)
        if not all(math.isfinite(value) and value > 0.0 for value in values):
            raise IKError('the teleoperation script needs positive speeds, angle and lengths')


@dataclass(frozen=True)
class TeleopSummary:
    """One solver's figures over the whole script."""

    solver: str
    cycles: int
    #: Cycles that stood still while an achievable part of the command was above 5 % of it.
    stops: int
    #: Cycles away from singularities, and those of them tracked (>= 95 %, within 2 deg).
    tracked: int
    tracked_of: int
    #: Largest direction error of the cycles away from singularities, deg.
    worst_direction: float
    #: Largest joint speed and acceleration at the points, as shares of the loop's limits.
    velocity_ratio: float
    acceleration_ratio: float
    #: Whether the wrist joint changed sign, and the achieved fraction in that cycle.
    crossed: bool
    wrist_fraction: float
    #: Median achieved fraction at the edge: pushing outward, and sliding along it.
    push_fraction: float
    slide_fraction: float


@dataclass(frozen=True)
class TeleopRun:
    """A solver's summary and what the picture needs, cycle by cycle."""

    summary: TeleopSummary
    chain: Chain = field(repr=False)
    #: (C,) the clock at each cycle, s; (C,) the phase's index in :data:`PHASES`.
    times: np.ndarray = field(repr=False)
    phases: np.ndarray = field(repr=False)
    #: (C, 6) the commanded twist in the base frame, m/s and rad/s.
    commands: np.ndarray = field(repr=False)
    #: (C + 1, N) the points, the start first, rad.
    positions: np.ndarray = field(repr=False)
    #: (C,) the achieved fraction (the loop's own) and the weighted Jacobian's singular ratio.
    fractions: np.ndarray = field(repr=False)
    singular: np.ndarray = field(repr=False)
    #: The cycle that took the wrist joint across 0 (-1: none); (C,) cycles at the edge.
    wrist_cycle: int = -1
    edge: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, dtype=bool))


@dataclass(frozen=True)
class _Phase:
    name: str
    #: (6,) linear m/s then angular rad/s, in the base frame.
    twist: np.ndarray
    duration: float


def teleop_start(chain: Chain, options: TeleopOptions) -> np.ndarray:
    """Return where the arm starts, (N,) rad: elbow bent, the wrist joint at +wrist_angle."""
    q = np.array(_START, dtype=float)
    q[chain.joint_names.index(WRIST_JOINT)] = options.wrist_angle
    return chain.clip(q)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / float(np.linalg.norm(vector))


def _script(chain: Chain, start: np.ndarray, options: TeleopOptions) -> List[_Phase]:
    """Build the three commands from the arm's own kinematics at the start."""
    end = start.copy()
    end[chain.joint_names.index(WRIST_JOINT)] = -options.wrist_angle
    first, last = chain.fk(start), chain.fk(end)
    axis, angle = mat2axangle(last[:3, :3] @ first[:3, :3].T)
    turn = angle / options.angular_speed
    wrist = np.r_[(last[:3, 3] - first[:3, 3]) / turn, options.angular_speed * np.asarray(axis)]
    frames, _ = chain.joint_frames(end)
    outward = _unit(last[:3, 3] - frames[1, :3, 3])  # from the shoulder to the tip
    sideways = _unit(np.cross((0.0, 0.0, 1.0), outward))
    speed = options.linear_speed
    return [_Phase('wrist', wrist, turn + 0.5 * options.blend),  # the ease from rest
            _Phase('stretch', np.r_[speed * outward, np.zeros(3)], options.stretch),
            _Phase('slide', np.r_[speed * (outward + sideways), np.zeros(3)], options.slide)]


def _command_at(script: Sequence[_Phase], now: float, blend: float) -> Tuple[int, np.ndarray]:
    """Return the phase at ``now`` (s) and its twist, eased in from the one before."""
    begin, previous = 0.0, np.zeros(6)
    for index, phase in enumerate(script):
        if now < begin + phase.duration or index == len(script) - 1:
            share = min(1.0, max(0.0, (now - begin) / blend))
            ease = share * share * (3.0 - 2.0 * share)
            return index, previous + ease * (phase.twist - previous)
        begin, previous = begin + phase.duration, phase.twist
    raise IKError('an empty teleoperation script')


def _rotation_vector(rotation: np.ndarray) -> np.ndarray:
    """
    Return the rotation vector of ``rotation``, rad, exact for the tiny turns of one cycle.

    Through the quaternion: an axis taken from the rotation matrix's eigenvectors is arbitrary
    once the turn is below the eigen solver's resolution (a slowly easing command).
    """
    w, x, y, z = mat2quat(rotation)
    vector = np.array([x, y, z]) * (1.0 if w >= 0.0 else -1.0)
    size = float(np.linalg.norm(vector))
    if size <= 0.0:
        return np.zeros(3)
    return vector * (2.0 * math.atan2(size, abs(w)) / size)


class _Measure:
    """The demo's own measurements of one cycle, apart from the loop."""

    def __init__(self, chain: Chain) -> None:
        self._chain = chain
        weight = ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale  # m per rad, as the loop
        self.weights = np.r_[np.ones(3), np.full(3, weight)]

    def cycle(self, q: np.ndarray, following: np.ndarray, twist: np.ndarray,
              period: float) -> Tuple[float, float, float, float]:
        """
        Measure one cycle from ``q`` to ``following`` under ``twist`` (base frame).

        :returns: The weighted Jacobian's singular ratio at ``q``, the achieved fraction of
            the command, the direction error (deg) and the command's achievable share; the
            last three NaN when the command is zero.
        """
        jacobian = self.weights[:, None] * self._chain.jacobian(q)
        u, values, _ = np.linalg.svd(jacobian)
        ratio = float(values[-1] / values[0])
        wanted = self.weights * twist
        size = float(np.linalg.norm(wanted))
        if size <= 0.0:
            return ratio, math.nan, math.nan, math.nan
        before, after = self._chain.fk(q), self._chain.fk(following)
        achieved = self.weights * np.r_[
            (after[:3, 3] - before[:3, 3]) / period,
            _rotation_vector(after[:3, :3] @ before[:3, :3].T) / period]
        fraction = float(achieved @ wanted) / size ** 2
        cosine = float(achieved @ wanted) / max(size * float(np.linalg.norm(achieved)), 1e-300)
        direction = math.degrees(math.acos(min(1.0, max(-1.0, cosine))))
        kept = u[:, :values.shape[0]][:, values > _RANGE_CUT * values[0]]
        return ratio, fraction, direction, float(np.linalg.norm(kept.T @ wanted)) / size


def _run_solver(chain: Chain, solver: str, options: TeleopOptions, start: np.ndarray,
                script: Sequence[_Phase]) -> TeleopRun:
    settings = options.settings
    period = settings.period
    loop = ServoLoop(chain, settings, solver=solver)
    loop.start(start)
    measure = _Measure(chain)
    cycles = int(round(sum(phase.duration for phase in script) / period))
    wrist = chain.joint_names.index(WRIST_JOINT)
    q, positions, velocities = start, [start], [np.zeros_like(start)]
    times, phases, commands, figures, stops = [], [], [], [], 0
    for cycle in range(cycles):
        now = cycle * period
        phase, twist = _command_at(script, now, options.blend)
        loop.command(TwistCommand(twist[:3], twist[3:], received=now))
        step = loop.step(now)
        ratio, fraction, direction, achievable = measure.cycle(q, step.positions, twist,
                                                               period)
        if np.max(np.abs(step.velocities)) < _STILL and achievable > _ACHIEVABLE:
            stops += 1
        q = step.positions
        times.append(now)
        phases.append(phase)
        commands.append(twist)
        figures.append((ratio, fraction, direction))
        positions.append(q)
        velocities.append(step.velocities)
    positions, velocities = np.array(positions), np.array(velocities)
    ratio, fraction, direction = np.array(figures).T
    times = np.array(times)
    phases = np.array(phases)
    signs = np.sign(positions[:, wrist])
    crossings = np.flatnonzero(signs[1:] != signs[:-1])
    wrist_cycle = int(crossings[0]) if crossings.size else -1
    elbow = positions[1:, chain.joint_names.index(ELBOW_JOINT)]
    edge = (phases >= PHASES.index('stretch')) & (np.abs(elbow) < _STRAIGHT)
    # Easing in from rest, each point trails the command by half a cycle's change of speed
    # (the point rule: a cycle moves at the mean of two points' velocities), as in any ramp.
    away = (ratio > settings.singular_ratio) & np.isfinite(fraction) & (times >= options.blend)
    tracked = away & (fraction >= _TRACKED_FRACTION) & (direction <= _TRACKED_DEGREES)
    speeds = chain.velocity_limits * settings.velocity_scale
    accelerations = np.abs(np.diff(velocities, axis=0)) / period

    def median(mask: np.ndarray) -> float:
        return float(np.median(fraction[mask])) if np.any(mask) else math.nan

    summary = TeleopSummary(
        solver=solver, cycles=cycles, stops=stops, tracked=int(np.count_nonzero(tracked)),
        tracked_of=int(np.count_nonzero(away)),
        worst_direction=float(np.max(direction[away])) if np.any(away) else math.nan,
        velocity_ratio=float(np.max(np.abs(velocities) / speeds)),
        acceleration_ratio=float(np.max(accelerations)) / settings.acceleration_limit,
        crossed=wrist_cycle >= 0,
        wrist_fraction=float(fraction[wrist_cycle]) if wrist_cycle >= 0 else math.nan,
        push_fraction=median(edge & (phases == PHASES.index('stretch'))),
        slide_fraction=median(edge & (phases == PHASES.index('slide'))))
    return TeleopRun(summary, chain, times, phases, np.array(commands), positions,
                     fraction, ratio, wrist_cycle, edge)


def run_teleoperation(options: TeleopOptions, urdf_xml: str) -> List[TeleopRun]:
    """
    Step the script once per solver.

    :param options: The script and the solvers.
    :param urdf_xml: A UR-type description with ``base_link``, ``tool0``, ``elbow_joint`` and
        ``wrist_2_joint`` (the bundled ``urdf/ur5_like.urdf``).
    :returns: One run per solver, in the order given.
    :raises IKError: An unknown solver, or a description without those links and joints.
    """
    check_solver_names(options.solvers)
    chain = RobotModel.from_urdf(urdf_xml).chain(BASE_LINK, TIP_LINK)
    missing = {WRIST_JOINT, ELBOW_JOINT} - set(chain.joint_names)
    if missing:
        raise IKError('the teleoperation segment needs a UR-type arm; %s is missing'
                      % ', '.join(sorted(missing)))
    start = teleop_start(chain, options)
    script = _script(chain, start, options)
    return [_run_solver(chain, solver, options, start, script) for solver in options.solvers]


def format_teleop_table(runs: Sequence[TeleopRun], options: TeleopOptions) -> str:
    """Format the segment's table: a title, the header and a row per solver."""
    rate = options.settings.rate
    lines = [
        'Teleoperation (ur5_like, servo loop at %.0f Hz without ROS): the tool turns through the '
        'wrist singularity (wrist_2 from %+.2f to %+.2f rad at %.1f rad/s), the tip stretches '
        'to the edge of the workspace at %.2f m/s and pushes on outward, then slides along it'
        % (rate, options.wrist_angle, -options.wrist_angle, options.angular_speed,
           options.linear_speed),
        '%-19s%-8s%-7s%-18s%-10s%-7s%-7s%-18s%s' % (
            'solver', 'cycles', 'stops', 'tracked', 'worst', 'v/lim', 'a/lim',
            'fraction at the', 'fraction at the edge'),
        '%-19s%-8s%-7s%-18s%-10s%-7s%-7s%-18s%s' % (
            '', '', '', '(away from sing.)', 'dir deg', '', '', 'wrist crossing',
            'pushing  sliding'),
        '-' * 110]
    for run in runs:
        s = run.summary
        lines.append('%-19s%-8d%-7d%-18s%-10.2f%-7.3f%-7.3f%-18s%-9.3f%.3f' % (
            s.solver, s.cycles, s.stops,
            '%.1f %% of %d' % (100.0 * s.tracked / max(s.tracked_of, 1), s.tracked_of),
            s.worst_direction, s.velocity_ratio, s.acceleration_ratio,
            '%.3f' % s.wrist_fraction if s.crossed else 'not crossed',
            s.push_fraction, s.slide_fraction))
    lines.append(
        'stops: cycles standing still while part of the command was achievable (must be 0); '
        'tracked: cycles away from singularities (smallest singular value of the weighted '
        'Jacobian above %.0f %% of the largest) whose tip velocity reached 95 %% of the command '
        'within 2 deg; v/lim, a/lim: largest joint speed and acceleration at the points, as '
        'shares of the loop\'s limits (at most 1); fraction: the achieved share of the command, '
        'where the wrist joint crosses 0 and, with the elbow within %.2f rad of straight, '
        'while pushing outward (the straight elbow gives nothing outward; tilting the wrist a '
        'little) and sliding (half of the command points along the edge)'
        % (100.0 * options.settings.singular_ratio, _STRAIGHT))
    return '\n'.join(lines)
