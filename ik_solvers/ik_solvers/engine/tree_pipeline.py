# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A request of several end effectors, from its tips to the command: :func:`handle_tree`.

The same stages as a chain's (:mod:`.pipeline`), on the tree ``base_link -> tips``:

1. inputs: the names and overrides as for a chain (:mod:`.request_checks`), then the tips
   (:mod:`.tree_tips`: each a link, once, one of the node's tips, with a path to the base);
   each target in the base frame; every tip without a target holds its pose where the tree is;
2. solve: :func:`~ik_solvers.solvers.tree_solve.solve_tree`, restarted from random
   configurations while the answer collides (for a one-shot command, also while the straight
   motion to it does) and time is left;
3. judge: every tip checked by the description's own forward kinematics (not the tree's
   kernels) against its tolerances, the joint limits, collisions of each tip's branch with the
   rest of the robot (posed at the answer) and the obstacles;
4. command (``execute``, or streamed): fresh joint states, ``max_joint_jump`` for streamed
   targets (from the last command while the robot follows it, :mod:`.tree_motion`), the
   straight motion checked for collisions at samples no joint moves more than
   :data:`MOTION_STEP` apart, timed within the velocity and acceleration limits from every
   state the robot may be in when the command arrives.

Never raises; every exception becomes an error code through :func:`.refusal.refusal_for`.
"""

import dataclasses
import time
import traceback
from typing import Dict, List, Optional, Tuple

import numpy as np

from .controller_map import controller_map, uncontrolled
from .error_codes import ErrorCode
from .frames import frame_to_base, UnknownFrameError
from .outcome import CollisionVerdict, Command, IKRequest
from .refusal import refusal_for
from .request_checks import InputChecks, MAX_NAME_LENGTH, request_goal
from .robot_state import RobotState
from .settings import NodeSettings
from .tree_motion import streamed_step_refusal, tree_command_duration
from .tree_outcome import TreeOutcome
from .tree_tips import check_request_tips, configured_tips, TreeCache
from ..collision import CollisionReport
from ..exceptions import IKError, InvalidSeedError, InvalidTargetError, InvalidTipsError
from ..kinematics import RobotModel
from ..kinematics.tree import KinematicTree
from ..solvers import Goal, Status
from ..solvers.tree_goals import pack_goals, tip_errors, TipGoal
from ..solvers.tree_solve import solve_tree, TreeOptions

__all__ = ['MOTION_STEP', 'handle_tree']

#: Largest change of one joint between two collision-checked samples of a commanded motion.
MOTION_STEP = 0.02


def handle_tree(robot: RobotState, trees: TreeCache, request: IKRequest,
                settings: NodeSettings, checks: InputChecks) -> TreeOutcome:
    """
    Check, solve, judge and time a request of several tips; never raises, sends nothing.

    :param robot: The robot: model, joint states, collision scene, last command.
    :param trees: The node's tree, cut once per description and tips.
    :param request: ``request.tip_targets`` (or, when empty, ``request``'s own target for the
        node's first tip); zeros mean the node's parameters.
    :param settings: The node's parameters.
    :param checks: The input checks shared with the chain's pipeline.
    :returns: The outcome; ``SUCCESS`` only when every tip is met by forward kinematics,
        within the limits and, when checked, collision-free. A command (every joint of the
        tree) is remembered as the last command.
    """
    try:
        return _handle(robot, trees, request, settings, checks)
    except IKError as error:
        refusal = refusal_for(error)
        return TreeOutcome(refusal.code, refusal.message)
    except Exception as error:  # noqa: B902 - a bug must not take the node down
        return TreeOutcome(ErrorCode.INTERNAL_ERROR, 'internal error: %r\n%s'
                           % (error, traceback.format_exc()))


def _handle(robot: RobotState, trees: TreeCache, request: IKRequest, settings: NodeSettings,
            checks: InputChecks) -> TreeOutcome:
    checks.names(request)
    for target in request.tip_targets:
        if len(target.tip) > MAX_NAME_LENGTH:
            raise InvalidTipsError('a tip name has %d characters, more than %d'
                                   % (len(target.tip), MAX_NAME_LENGTH))
        if len(target.frame_id) > MAX_NAME_LENGTH:
            raise UnknownFrameError('a frame id has %d characters, more than %d'
                                    % (len(target.frame_id), MAX_NAME_LENGTH))
    if request.max_solutions > 1 or request.approximate:
        raise InvalidTargetError('several solutions and approximate answers are not offered '
                                 'for several tips')
    timeout, position_tolerance, orientation_tolerance = checks.overrides(request, settings)
    goal = request_goal(dataclasses.replace(request, orientation_fallback=False), settings,
                        position_tolerance=position_tolerance,
                        orientation_tolerance=orientation_tolerance)
    solver = request.solver or settings.solver
    model = robot.model()
    tips = configured_tips(settings)
    check_request_tips(model, [target.tip for target in request.tip_targets], tips)
    tree = trees.tree(model, settings.base_link, tips)
    joints = robot.joint_states.positions()
    start = tree.clip_into_limits([joints.get(name, 0.0) for name in tree.joint_names])
    seed = _seed(robot, tree, request, start)
    positions = dict(joints)
    positions.update(zip(tree.joint_names, start.tolist()))
    goals = _goals(tree, model, request, goal, positions, robot, settings, checks,
                   Goal.of(orientation_mode='full', position_tolerance=position_tolerance,
                           orientation_tolerance=orientation_tolerance))
    commanding = request.streamed or request.execute
    wanted = request.avoid_collisions
    if wanted is None or (commanding and settings.avoid_collisions):
        wanted = bool(wanted) or settings.avoid_collisions
    started = time.perf_counter()
    # A one-shot command also restarts while the straight motion to the answer collides:
    # another branch's may be free (a stream's next target comes soon enough instead).
    motion_from = start if wanted and request.execute and not request.streamed else None
    q, status, attempts, report = _solve(robot, tree, model, goals, solver, seed, timeout,
                                         wanted, settings, motion_from)
    seconds = time.perf_counter() - started
    # Forward kinematics of the description itself, not of the tree's kernels.
    named = dict(joints)
    named.update(zip(tree.joint_names, q.tolist()))
    reached = np.array([model.transform(tree.base_link, tip, named) for tip in tree.tip_links])
    packed = pack_goals(tree, goals, seed)
    errors = tip_errors(packed, reached)
    met = (errors[:, 0] <= packed.tolerances[:, 0]) & (errors[:, 1] <= packed.tolerances[:, 1])
    verdict = (CollisionVerdict(reason='collisions were not checked') if report is None else
               CollisionVerdict(checked=True, pairs=report.pairs,
                                unchecked_links=report.unchecked_links))
    fields = dict(solver=solver, base_link=tree.base_link, joint_names=tree.joint_names, q=q,
                  tips=tree.tip_links, met=tuple(bool(m) for m in met),
                  position_errors=tuple(float(e) for e in errors[:, 0]),
                  orientation_errors=tuple(float(e) for e in errors[:, 1]),
                  targets=tuple(packed.targets), reached=tuple(reached), attempts=attempts,
                  seconds=seconds, collision=verdict)
    summary = ', '.join('%s %s (%.3g m, %.3g rad)' % (tip, 'met' if m else 'not met', e[0], e[1])
                        for tip, m, e in zip(tree.tip_links, met, errors))
    if not tree.within_limits(q):
        return TreeOutcome(ErrorCode.NO_SOLUTION, 'the answer leaves the joint limits', **fields)
    if not met.all():
        code = ErrorCode.TIMED_OUT if status == Status.TIMED_OUT else ErrorCode.NO_SOLUTION
        return TreeOutcome(code, '%s found no configuration meeting every tip: %s'
                           % (solver, summary), **fields)
    if report is not None and report.colliding:
        return TreeOutcome(ErrorCode.IN_COLLISION, 'every answer found collides: %s; %s'
                           % (report.describe(), summary), **fields)
    message = '%s met every tip: %s' % (solver, summary)
    if not commanding:
        return TreeOutcome(ErrorCode.SUCCESS, message, **fields)
    command, refusal = _command(robot, tree, model, joints, start, q, request, settings,
                                wanted)
    if refusal:
        return TreeOutcome(*refusal, **fields)
    robot.set_last_command(tree.joint_names, q)
    return TreeOutcome(ErrorCode.SUCCESS, message + ('' if request.streamed else '; commanded'),
                       command=command, **fields)


def _seed(robot: RobotState, tree: KinematicTree, request: IKRequest,
          start: np.ndarray) -> np.ndarray:
    if request.streamed:
        # Seeding at the last command keeps consecutive answers of a drag on one branch.
        last = robot.last_command()
        if last is not None and tuple(last[0]) == tree.joint_names:
            return tree.clip_into_limits(last[1])
        return start
    if len(request.seed_names) != len(request.seed_positions):
        raise InvalidSeedError('the seed has %d names and %d positions'
                               % (len(request.seed_names), len(request.seed_positions)))
    seed = start.copy()
    index = {name: i for i, name in enumerate(tree.joint_names)}
    for name, value in zip(request.seed_names, request.seed_positions):
        if name not in index:
            raise InvalidSeedError('seed joint %r is not a joint of the tree' % name[:80])
        if not np.isfinite(value):
            raise InvalidSeedError('seed joint %r is not finite' % name)
        seed[index[name]] = value
    return tree.clip_into_limits(seed)


def _goals(tree: KinematicTree, model: RobotModel, request: IKRequest, goal: Goal,
           positions: Dict[str, float], robot: RobotState, settings: NodeSettings,
           checks: InputChecks, hold: Goal) -> List[TipGoal]:
    targets = [(target.tip, target.position, target.orientation, target.frame_id)
               for target in request.tip_targets]
    if not targets:  # one target, as before: the node's first tip
        targets = [(tree.tip_links[0], request.position, request.orientation, request.frame_id)]
    goals = []
    for tip, position, orientation, frame_id in targets:
        pose = checks.target(position, orientation)
        if not np.all(np.isfinite(pose)):
            raise InvalidTargetError('the target of tip %r is not finite' % tip)
        base_from_frame = frame_to_base(model, tree.base_link, frame_id, positions,
                                        external_lookup=robot.external_lookup,
                                        lookup_timeout=settings.tf_timeout)
        goals.append(TipGoal(tip, base_from_frame @ pose, goal))
    named = {goal.tip for goal in goals}
    # Every other tip holds where it is now.
    now = tree.fk(np.array([positions[name] for name in tree.joint_names]))
    goals.extend(TipGoal(tip, now[t], hold) for t, tip in enumerate(tree.tip_links)
                 if tip not in named)
    return goals


def _collisions(robot: RobotState, tree: KinematicTree, model: RobotModel,
                named: Dict[str, float], settings: NodeSettings) -> Optional[CollisionReport]:
    """Check each tip's branch, the rest of the robot posed at ``named``; None: no geometry."""
    pairs, unchecked, checked = set(), set(), False
    for chain in tree.chains:
        collision = robot.collisions.model_for(model, chain, named, settings.collision_padding)
        if collision is None:
            continue
        checked = True
        report = collision.check(np.array([named[name] for name in chain.joint_names]))
        pairs.update(report.pairs)
        unchecked.update(report.unchecked_links)
    if not checked:
        return None
    return CollisionReport(colliding=bool(pairs), pairs=tuple(sorted(pairs)),
                           unchecked_links=tuple(sorted(unchecked)))


def _solve(robot: RobotState, tree: KinematicTree, model: RobotModel, goals: List[TipGoal],
           solver: str, seed: np.ndarray, timeout: float, wanted: bool,
           settings: NodeSettings, motion_from: Optional[np.ndarray]
           ) -> Tuple[np.ndarray, Status, int, Optional[CollisionReport]]:
    deadline = time.perf_counter() + timeout
    rng = np.random.default_rng()
    first, attempts = seed, 0
    joints = robot.joint_states.positions()
    while True:
        left = max(deadline - time.perf_counter(), 1e-3)
        result = solve_tree(tree, goals, solver, seed=first,
                            options=TreeOptions(timeout=left), rng=rng)
        attempts += result.attempts
        report = None
        if wanted:
            named = dict(joints)
            named.update(zip(tree.joint_names, result.q.tolist()))
            report = _collisions(robot, tree, model, named, settings)
        free = report is None or not report.colliding
        if free and result.success and motion_from is not None:
            free = _motion_collision(robot, tree, model, joints, motion_from, result.q,
                                     settings) is None
        if not result.success or free or time.perf_counter() >= deadline:
            return result.q, result.status, attempts, report
        first = tree.random_configuration(rng)


def _motion_collision(robot: RobotState, tree: KinematicTree, model: RobotModel,
                      joints: Dict[str, float], start: np.ndarray, q: np.ndarray,
                      settings: NodeSettings) -> Optional[CollisionReport]:
    """Return the report of the first colliding sample of the motion ``start -> q``, or None."""
    samples = max(1, int(np.ceil(np.abs(q - start).max() / MOTION_STEP)))
    for s in np.linspace(0.0, 1.0, samples + 1)[1:-1]:
        named = dict(joints)
        named.update(zip(tree.joint_names, (start + s * (q - start)).tolist()))
        report = _collisions(robot, tree, model, named, settings)
        if report is not None and report.colliding:
            return report
    return None


def _command(robot: RobotState, tree: KinematicTree, model: RobotModel,
             joints: Dict[str, float], start: np.ndarray, q: np.ndarray, request: IKRequest,
             settings: NodeSettings, checked: bool
             ) -> Tuple[Optional[Command], Optional[Tuple[ErrorCode, str]]]:
    if settings.joint_state_timeout > 0.0:
        ages = robot.joint_states.ages(tree.joint_names)
        # As for chains, joints never reported are not checked (open loop).
        stale = [name for name in tree.joint_names
                 if name in ages and ages[name] > settings.joint_state_timeout]
        if stale:
            return None, (ErrorCode.EXECUTION_FAILED, 'not commanded: no joint state within '
                          'joint_state_timeout for %s' % ', '.join(stale))
    missing = uncontrolled(tree.joint_names, controller_map(settings.controller_joints))
    if missing:
        return None, (ErrorCode.EXECUTION_FAILED, 'not commanded: joint(s) %s are in no '
                      'controller of controller_joints' % ', '.join(missing))
    if request.streamed:
        too_far = streamed_step_refusal(robot, tree, start, q, settings)
        if too_far:
            return None, (ErrorCode.EXECUTION_FAILED, too_far)
    if checked:
        report = _motion_collision(robot, tree, model, joints, start, q, settings)
        if report is not None:
            return None, (ErrorCode.IN_COLLISION, 'not commanded: the straight motion '
                          'collides on its way: %s' % report.describe())
    try:
        # From every state the robot may be in when the command arrives (a drag moves it).
        duration = tree_command_duration(robot, tree, start, q, settings)
    except ValueError as error:
        return None, (ErrorCode.EXECUTION_FAILED, 'not commanded: %s' % error)
    return Command(tree.joint_names, tuple(float(v) for v in q), duration), None
