# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The demo's two-armed segment: both hands of ``dual_arm_waist.urdf`` follow figure-eights.

The goals are streamed through the node's own logic without ROS (:class:`IKEngine` and its
:meth:`~IKEngine.handle_tree`, as the node's ``target_pose/<tip>`` topics do): each request
carries the latest target of both hands, is seeded at the last command, held to
``max_joint_jump``, checked for collisions and only then commanded. The executor is ideal: a
command is reached before the next goal. First both hands trace their own figure-eight; then
the left hand holds its pose while the right one traces it again. Every command is checked
here apart from the node: each hand's pose by the description's forward kinematics, and
each arm's chain (waist included, the other arm posed where it is) by an exact collision
model built from the description, as the chain segments check theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Sequence, Tuple

import numpy as np
from transforms3d.quaternions import mat2quat

from ..collision import load_robot_geometry, TreeCollisionCheck
from ..engine.outcome import IKRequest, TipTarget
from ..engine.pipeline import IKEngine
from ..engine.settings import NodeSettings
from ..exceptions import IKError
from ..kinematics import RobotModel
from ..kinematics.tree import KinematicTree

__all__ = ['TwoArmOptions', 'TwoArmRun', 'TwoArmSummary', 'format_two_arm_table',
           'run_two_arms', 'two_arm_home']

BASE_LINK = 'base_link'
TIPS = ('left_tool', 'right_tool')
#: Where both arms start: elbows bent, clear of the torso and each other (rad, by joint name).
_HOME = {'left_joint2': 0.6, 'left_joint4': -1.6, 'left_joint6': 1.6,
         'right_joint2': 0.6, 'right_joint4': -1.6, 'right_joint6': 1.6}


@dataclass(frozen=True)
class TwoArmOptions:
    """What the two-armed segment streams and with which solvers."""

    solvers: Sequence[str]
    #: Goals per figure-eight (each sub-segment traces one).
    path_length: int = 60
    #: Half-width and half-height of each figure-eight, m.
    width: float = 0.06
    height: float = 0.04
    #: The tolerances of every hand, m and rad.
    position_tolerance: float = 1e-5
    orientation_tolerance: float = 1e-5
    #: The node's parameters otherwise (timeout, max_joint_jump, collisions) are its defaults.
    timeout: float = 0.05

    def __post_init__(self) -> None:
        if self.path_length < 2 or not (self.width > 0.0 and self.height > 0.0):
            raise IKError('the two-armed segment needs at least 2 goals and a positive size')


@dataclass(frozen=True)
class TwoArmSummary:
    """One solver's figures over both sub-segments."""

    solver: str
    goals: int
    #: Goals commanded with every hand within its tolerance (checked by FK here).
    exact: int
    #: Largest change of one joint between consecutive commands (or from the start), rad.
    max_joint_jump: float
    #: Largest error of the held hand at any command of the holding sub-segment, m and rad.
    held_position_error: float
    held_orientation_error: float
    colliding_commands: int
    solve_ms_median: float


@dataclass(frozen=True)
class TwoArmRun:
    """A solver's summary and what the picture needs: goals and commanded configurations."""

    summary: TwoArmSummary
    tree: KinematicTree
    #: (goals, 2, 3): the targets of both hands, m in the base frame.
    targets: np.ndarray
    #: The configuration after each goal (the last command), (goals, N); the start first.
    configurations: np.ndarray
    #: Goals of the holding sub-segment start here.
    hold_from: int
    home: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))


def two_arm_home(tree: KinematicTree) -> np.ndarray:
    """Return the start configuration of the segment, (N,), within the limits."""
    q = tree.mid_configuration()
    for name, value in _HOME.items():
        q[tree.joint_names.index(name)] = value
    return tree.clip_into_limits(q)


def _figure_eight(start: np.ndarray, count: int, width: float, height: float,
                  mirror: float) -> np.ndarray:
    """Poses along a figure-eight through the start pose, in the base x-z plane, (count, 4, 4)."""
    phase = np.linspace(0.0, 2.0 * np.pi, count + 1)[1:]
    poses = np.repeat(start[None], count, axis=0)
    poses[:, 0, 3] += mirror * width * np.sin(phase)
    poses[:, 2, 3] += height * np.sin(2.0 * phase)
    return poses


def _target(tip: str, pose: np.ndarray) -> TipTarget:
    w, x, y, z = mat2quat(pose[:3, :3])
    return TipTarget(tip=tip, position=tuple(pose[:3, 3]), orientation=(x, y, z, w),
                     frame_id=BASE_LINK)


def _pose_error(reached: np.ndarray, goal: np.ndarray) -> Tuple[float, float]:
    relative = goal[:3, :3].T @ reached[:3, :3]
    angle = np.arccos(np.clip((np.trace(relative) - 1.0) / 2.0, -1.0, 1.0))
    return float(np.linalg.norm(reached[:3, 3] - goal[:3, 3])), float(angle)


class _CommandCheck:
    """The demo's own checks of a command: each hand by FK, each arm's chain for collisions."""

    def __init__(self, model: RobotModel, urdf_xml: str, tree: KinematicTree) -> None:
        self._model, self._tree = model, tree
        self._collisions = TreeCollisionCheck(model, tree, load_robot_geometry(urdf_xml))

    def poses(self, q: np.ndarray) -> np.ndarray:
        named = dict(zip(self._tree.joint_names, q.tolist()))
        return np.array([self._model.transform(BASE_LINK, tip, named) for tip in TIPS])

    def collides(self, q: np.ndarray) -> bool:
        return self._collisions.colliding(q)


def _settings(solver: str, options: TwoArmOptions) -> NodeSettings:
    return NodeSettings(solver=solver, base_link=BASE_LINK, tip_link=TIPS[0], tip_links=TIPS,
                        position_tolerance=options.position_tolerance,
                        orientation_tolerance=options.orientation_tolerance,
                        timeout=options.timeout, joint_state_timeout=0.0)


def _run_solver(solver: str, options: TwoArmOptions, urdf_xml: str, model: RobotModel,
                tree: KinematicTree, check: _CommandCheck) -> TwoArmRun:
    engine = IKEngine()
    engine.robot.load_description(urdf_xml, BASE_LINK, TIPS[0])
    settings = _settings(solver, options)
    home = two_arm_home(tree)
    engine.robot.joint_states.update(tree.joint_names, home)
    start = tree.fk(home)
    left = _figure_eight(start[0], options.path_length, options.width, options.height, 1.0)
    right = _figure_eight(start[1], options.path_length, options.width, options.height, -1.0)
    goals = list(zip(left, right))
    hold_from = len(goals)
    goals += [(start[0], r) for r in right]  # the left hand holds where it started
    q, configurations = home.copy(), [home.copy()]
    exact, jump, held, colliding, seconds = 0, 0.0, (0.0, 0.0), 0, []
    for index, (left_goal, right_goal) in enumerate(goals):
        request = IKRequest(position=(0.0, 0.0, 0.0), streamed=True,
                            tip_targets=(_target(TIPS[0], left_goal),
                                         _target(TIPS[1], right_goal)))
        outcome = engine.handle_tree(request, settings)
        seconds.append(outcome.seconds)
        if outcome.commanded:
            new = np.array(outcome.command.positions)
            jump = max(jump, float(np.max(np.abs(new - q))))
            q = new
            engine.robot.joint_states.update(tree.joint_names, q)  # the executor reached it
            errors = [_pose_error(p, g) for p, g in zip(check.poses(q), (left_goal, right_goal))]
            if all(e[0] <= options.position_tolerance and e[1] <= options.orientation_tolerance
                   for e in errors):
                exact += 1
            if index >= hold_from:
                held = (max(held[0], errors[0][0]), max(held[1], errors[0][1]))
            colliding += int(check.collides(q))
        configurations.append(q.copy())
    targets = np.array([[pair[0][:3, 3], pair[1][:3, 3]] for pair in goals])
    summary = TwoArmSummary(solver=solver, goals=len(goals), exact=exact, max_joint_jump=jump,
                            held_position_error=held[0], held_orientation_error=held[1],
                            colliding_commands=colliding,
                            solve_ms_median=1e3 * float(np.median(seconds)))
    return TwoArmRun(summary, tree, targets, np.array(configurations), hold_from, home)


def run_two_arms(options: TwoArmOptions, urdf_xml: str) -> List[TwoArmRun]:
    """
    Stream both sub-segments once per solver.

    :param options: The solvers and the figure-eights.
    :param urdf_xml: The two-armed description (``urdf/trees/dual_arm_waist.urdf``).
    :returns: One run per solver, in the order given.
    :raises IKError: A description without the two hands, or an unknown solver.
    """
    model = RobotModel.from_urdf(urdf_xml)
    tree = KinematicTree(model, BASE_LINK, TIPS)
    check = _CommandCheck(model, urdf_xml, tree)
    return [_run_solver(solver, options, urdf_xml, model, tree, check)
            for solver in options.solvers]


def format_two_arm_table(runs: Sequence[TwoArmRun], options: TwoArmOptions) -> str:
    """Format the segment's table: a title, the header and a row per solver."""
    lines = [
        'Two arms (dual_arm_waist, 15 joints): both hands trace a figure-eight (%d goals), then '
        'the left hand holds while the right one traces it again (%d goals); tolerances %.0e m, '
        '%.0e rad' % (options.path_length, options.path_length, options.position_tolerance,
                      options.orientation_tolerance),
        '%-19s%-7s%-9s%-10s%-22s%-11s%s' % ('solver', 'goals', 'exact %', 'max jump',
                                            'held hand max error', 'colliding', 'solve ms'),
        '%-19s%-7s%-9s%-10s%-22s%-11s%s' % ('', '', '', 'deg', 'm        rad', 'commands',
                                            'median'),
        '-' * 86]
    for run in runs:
        s = run.summary
        lines.append('%-19s%-7d%-9.1f%-10.2f%-9.1e%-13.1e%-11d%.2f' % (
            s.solver, s.goals, 100.0 * s.exact / s.goals, np.degrees(s.max_joint_jump),
            s.held_position_error, s.held_orientation_error, s.colliding_commands,
            s.solve_ms_median))
    lines.append('exact: goals commanded with both hands within the tolerances (by FK); held hand '
                 'max error: the left hand\'s, by FK, at any command while it holds (must be '
                 'within the tolerances); colliding commands: by the demo\'s own exact check of '
                 'each arm (must be 0).')
    return '\n'.join(lines)
