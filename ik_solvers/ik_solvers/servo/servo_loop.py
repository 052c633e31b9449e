# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Servoing: one cycle at a time, the latest velocity command becomes the next controller point.

Each cycle integrates the command over one period into the next tip pose, taken from forward
kinematics of the last point (so that a part of a command the arm cannot follow never piles
up into a jump later), and steps toward it from there:

1. the selected heuristic solves that pose from the last point (one start, a fraction of a
   millisecond); its answer gives the joint velocities the command wants;
2. if those velocities fit the cycle's :class:`~.servo_limits.VelocityBox` (speed,
   acceleration and braking before position limits), they are taken;
3. otherwise :func:`~.achievable_step.bounded_velocity` takes the velocities within the box
   that bring the tip closest to the pose, its direction first where only speed and
   acceleration hold it back: the arm moves along whatever part of the command is achievable,
   and stops only where no part is;
4. :func:`~.achievable_step.fold_limited` brakes before the tip's gain along the command runs
   out at the edge of the workspace, so that the arm never runs through a straight elbow at
   speed and carries the tip back.

Near obstacles the command is scaled by the clearance, to 0 at the collision padding; every
point is checked for collisions before it is returned.
"""

import math
from typing import Optional, Tuple, Union

import numpy as np
from transforms3d.axangles import axangle2mat

from .achievable_step import bounded_velocity, fold_limited
from .early_cycle import asks_for_other_velocities, state_within_cycle
from .servo_command import JointJogCommand, ServoSettings, ServoStep, TwistCommand
from .servo_limits import velocity_box, VelocityBox
from ..collision import CollisionModel
from ..exceptions import IKError, InvalidSeedError
from ..solvers import Goal, PreparedSolver, SearchOptions
from ..solvers.pose_error import rotation_vector
from ..solvers.request import ORIENTATION_WEIGHT_PER_LENGTH

__all__ = ['ServoLoop']

Command = Union[TwistCommand, JointJogCommand]

# The exact step must land on the integrated pose much more closely than one cycle moves
# (0.1 m/s at 500 Hz is 0.2 mm): a looser answer would add its error to the tip's velocity.
_STEP_TOLERANCE = 1e-7
# Where only speed and acceleration limits hold a twist back, a tip motion off the command's
# direction costs this many times more than the same shortfall along it (per unit, squared).
_DIRECTION_PRIORITY = 10.0


def _progress(jacobian: np.ndarray, error: np.ndarray, v: np.ndarray,
              velocity: np.ndarray) -> float:
    """Return the cycle's weighted tip motion along ``error``, to first order (m times m)."""
    return float(error @ (jacobian @ (v + velocity)))


class ServoLoop:
    """
    Turns the latest velocity command into one controller point per cycle.

    :param chain: the :class:`ik_solvers.Chain` servoed.
    :param settings: the :class:`ServoSettings`.
    :param solver: the heuristic's name, one of :data:`ik_solvers.SOLVERS`.
    :param collision_model: checks every point and gives the clearance; None: no checks.
    :raises UnknownSolverError: the solver is not registered.
    """

    def __init__(self, chain, settings: ServoSettings, *, solver: str = 'jacobian_transpose',
                 collision_model: Optional[CollisionModel] = None) -> None:
        self.chain = chain
        self.settings = settings
        self._collision = collision_model
        goal = Goal(position_tolerance=_STEP_TOLERANCE, orientation_tolerance=_STEP_TOLERANCE)
        # Each cycle steps from the last point: a joint at its limit stops there, it is not
        # answered by the same angle a turn away (solvers/_core/full_turns.py).
        self._solver = PreparedSolver(chain, goal, SearchOptions(
            solver=solver, timeout=settings.solve_timeout, max_attempts=1),
            free_whole_turns=False)
        self._speeds = chain.velocity_limits * settings.velocity_scale
        self._continuous = chain.is_continuous
        # Weighs rotation against translation in the achieved fraction, m per rad.
        self._rotation_weight = ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale
        # The Jacobian's rows weighed alike: m for the linear ones, m per rad for the angular.
        self._weights = np.r_[np.ones(3), np.full(3, self._rotation_weight)]
        self._q: Optional[np.ndarray] = None
        self._v: Optional[np.ndarray] = None
        self._command: Optional[Command] = None
        # The last cycle: its start (position, velocity) and when it ran (s, the loop's clock).
        self._cycle_start: Optional[Tuple[np.ndarray, np.ndarray]] = None
        self._stepped_at: Optional[float] = None
        self._early = False

    @property
    def active(self) -> bool:
        """Whether the loop has a last point (it started and has not come to rest)."""
        return self._q is not None

    def start(self, q: np.ndarray) -> None:
        """
        Start from the arm at rest at ``q`` (the joint state).

        :param q: (N,) joint positions, rad or m.
        :raises InvalidSeedError: ``q`` has the wrong length or non-finite values.
        """
        q = np.array(q, dtype=float).reshape(-1)
        if q.shape != (self.chain.num_joints,) or not np.all(np.isfinite(q)):
            raise InvalidSeedError('servoing starts from %d finite joint positions, got %r'
                                   % (self.chain.num_joints, q))
        self._q = self.chain.clip(q)
        self._v = np.zeros_like(q)
        self._cycle_start, self._stepped_at = None, None

    def stop(self) -> None:
        """Forget the last point and the command (another mode took over the arm)."""
        self._q = self._v = None
        self._command = None
        self._cycle_start, self._stepped_at = None, None

    def command(self, command: Command) -> None:
        """
        Take a new command; it holds until a newer one or ``incoming_command_timeout``.

        :raises IKError: a joint of a :class:`JointJogCommand` is not in the chain.
        """
        if isinstance(command, JointJogCommand):
            unknown = set(command.velocities) - set(self.chain.joint_names)
            if unknown:
                raise IKError('joint_cmds name joints the chain does not have: %s'
                              % ', '.join(sorted(unknown)))
        self._command = command

    def takes_up_at_once(self, command: Command, now: float) -> bool:
        """
        Tell whether ``command``, arriving at ``now`` (s), should start a cycle now.

        True while the loop runs, when the command asks for other velocities than the one
        followed and the last cycle was not itself an early one (see :mod:`.early_cycle`).
        """
        return (self._stepped_at is not None and not self._early
                and 0.0 <= now - self._stepped_at < self.settings.period
                and asks_for_other_velocities(self._command, command))

    def step(self, now: float, *, early: bool = False) -> Optional[ServoStep]:
        """
        Compute the next point.

        :param now: the loop's clock, s (the one commands were stamped with on arrival).
        :param early: the cycle runs before the last point's period is over (a changed
            command, see :meth:`takes_up_at_once`): it starts from where the controller is
            along the last point, not from the point.
        :returns: The :class:`ServoStep`, or None when the loop has not started.
        """
        if self._q is None:
            return None
        q, v = self._q, self._v
        elapsed = math.inf if self._stepped_at is None else now - self._stepped_at
        early = early and self._cycle_start is not None and 0.0 <= elapsed < self.settings.period
        if early:
            start, start_velocity = self._cycle_start
            q, v = state_within_cycle(start, start_velocity, v, self.settings.period, elapsed)
        command = self._command
        if command is not None and now - command.received > self.settings.incoming_command_timeout:
            command = self._command = None
        box = velocity_box(q, v, lower=self.chain.lower, upper=self.chain.upper,
                           velocity_limit=self._speeds,
                           acceleration=self.settings.acceleration_limit,
                           period=self.settings.period)
        clearance = self._clearance_scale(q)
        if isinstance(command, TwistCommand):
            velocity, limiter = self._follow_twist(q, v, box, command, clearance)
        else:
            wanted = self._jog_velocities(command) * clearance
            velocity = box.clip(wanted)
            limiter = self._limiter_of(box, velocity, wanted, v, clearance)
        velocity, collided = self._checked(q, v, box, velocity)
        # The braking bound is exact; the clip only removes rounding past a limit.
        positions = np.clip(q + 0.5 * (v + velocity) * self.settings.period, self.chain.lower,
                            self.chain.upper)
        fraction = self._fraction(q, positions, command)
        moving = bool(np.any(np.abs(velocity) > 1e-12) or np.any(np.abs(v) > 1e-12))
        if collided:
            limiter = 'obstacle'
        elif fraction >= 0.99:
            limiter = 'none'
        self._q, self._v = positions, velocity
        self._cycle_start, self._stepped_at, self._early = (q, v), now, early
        return ServoStep(positions=positions.copy(), velocities=velocity.copy(),
                         fraction=fraction, limiter=limiter, moving=moving)

    # --- the twist ------------------------------------------------------------------------

    def _target(self, q: np.ndarray, command: TwistCommand, scale: float) -> np.ndarray:
        pose = self.chain.fk(q)
        linear, angular = self._base_twist(pose, command)
        dt = self.settings.period * scale
        target = pose.copy()
        target[:3, 3] += linear * dt
        angle = float(np.linalg.norm(angular)) * dt
        if angle > 0.0:
            target[:3, :3] = axangle2mat(angular, angle) @ pose[:3, :3]
        return target

    @staticmethod
    def _base_twist(pose: np.ndarray, command: TwistCommand) -> Tuple[np.ndarray, np.ndarray]:
        linear, angular = np.array(command.linear), np.array(command.angular)
        if command.frame == 'tip':
            linear, angular = pose[:3, :3] @ linear, pose[:3, :3] @ angular
        return linear, angular

    def _follow_twist(self, q: np.ndarray, v: np.ndarray, box: VelocityBox,
                      command: TwistCommand, clearance: float) -> Tuple[np.ndarray, str]:
        velocity, limiter = self._toward_target(q, v, box, command, clearance)
        pose = self.chain.fk(q)
        heading = self._weights * np.concatenate(self._base_twist(pose, command))
        size = float(np.linalg.norm(heading))
        if size <= 0.0:
            return velocity, limiter
        velocity, held = fold_limited(self.chain, q, v, velocity, heading=heading / size,
                                      weights=self._weights, box=box,
                                      acceleration=self.settings.acceleration_limit,
                                      period=self.settings.period)
        return velocity, 'singularity' if held else limiter

    def _toward_target(self, q: np.ndarray, v: np.ndarray, box: VelocityBox,
                       command: TwistCommand, clearance: float) -> Tuple[np.ndarray, str]:
        target = self._target(q, command, clearance)
        period = self.settings.period
        answer = self._solver.solve(target, q)
        if answer.success:
            change = answer.q - q
            # A continuous joint's answer may come a turn away: the motion is the short way.
            change[self._continuous] = np.remainder(change[self._continuous] + math.pi,
                                                    2.0 * math.pi) - math.pi
            wanted = change / period
            if box.contains(wanted):
                return wanted, 'obstacle' if clearance < 1.0 else 'none'
        return self._bounded_step(q, v, box, command, clearance)

    def _bounded_step(self, q: np.ndarray, v: np.ndarray, box: VelocityBox,
                      command: TwistCommand, clearance: float) -> Tuple[np.ndarray, str]:
        period = self.settings.period
        # The integrated pose is the last tip moved by the twist over one (scaled) period.
        twist = np.concatenate(self._base_twist(self.chain.fk(q), command))
        error = self._weights * twist * (period * clearance)
        singular = self._near_singular(q)
        # Where every direction is open (no singularity, no joint braking before a limit), only
        # speed and acceleration hold the arm back: then the direction of the command comes
        # first and its speed second. Elsewhere the closest motion is the achievable part.
        priority = 1.0 if singular or np.any(box.braking) else _DIRECTION_PRIORITY
        # The Jacobian halfway along the cycle's motion: the tip's motion is then linear in the
        # joints' to the third order.
        middle = self.chain.clip(q + 0.5 * v * period)
        jacobian = self._weights[:, None] * self.chain.jacobian(middle)
        velocity = bounded_velocity(jacobian, error, v, box, period, direction_priority=priority)
        if priority != 1.0 and _progress(jacobian, error, v, velocity) <= 0.0:
            # Turning at speed, keeping the new direction first can mean shedding the old
            # motion while the tip backs off along the new command for a few cycles; the
            # closest motion starts along it at once.
            velocity = bounded_velocity(jacobian, error, v, box, period)
        if np.any(box.braking & ((velocity >= box.high - 1e-12) | (velocity <= box.low + 1e-12))):
            return velocity, 'joint_limit'
        return velocity, 'singularity' if singular else 'velocity_limit'

    def _near_singular(self, q: np.ndarray) -> bool:
        """Whether the weighted Jacobian's smallest singular value is below the ratio."""
        values = np.linalg.svd(self._weights[:, None] * self.chain.jacobian(q), compute_uv=False)
        return bool(values[-1] < self.settings.singular_ratio * values[0])

    # --- joints, obstacles, status -------------------------------------------------------

    def _jog_velocities(self, command: Optional[JointJogCommand]) -> np.ndarray:
        wanted = np.zeros(self.chain.num_joints)
        if command is not None:
            for index, name in enumerate(self.chain.joint_names):
                wanted[index] = command.velocities.get(name, 0.0)
        return wanted

    @staticmethod
    def _limiter_of(box: VelocityBox, velocity: np.ndarray, wanted: np.ndarray,
                    previous: np.ndarray, clearance: float) -> str:
        if clearance < 1.0:
            return 'obstacle'
        held = np.abs(velocity - wanted) > 1e-9
        if np.any(held & box.braking):
            return 'joint_limit'
        return 'velocity_limit' if np.any(held) else 'none'

    def _clearance_scale(self, q: np.ndarray) -> float:
        if self._collision is None or not len(self._collision.obstacles):
            return 1.0
        clearance = self._collision.obstacle_distance(q) - self._collision.padding
        return float(min(1.0, max(0.0, clearance / self.settings.slow_down_distance)))

    def _checked(self, q: np.ndarray, v: np.ndarray, box: VelocityBox,
                 velocity: np.ndarray) -> Tuple[np.ndarray, bool]:
        """Return the velocity whose point is free: the chosen one, else the hardest braking."""
        if self._collision is None:
            return velocity, False
        period = self.settings.period
        if not self._collision.check(q + 0.5 * (v + velocity) * period, True).colliding:
            return velocity, False
        braking = box.clip(np.zeros_like(v))
        if not self._collision.check(q + 0.5 * (v + braking) * period, True).colliding:
            return braking, True
        return -v, True  # back to where the last point was: that one was checked free

    def _fraction(self, q: np.ndarray, positions: np.ndarray,
                  command: Optional[Command]) -> float:
        period = self.settings.period
        if isinstance(command, TwistCommand):
            before, after = self.chain.fk(q), self.chain.fk(positions)
            linear, angular = self._base_twist(before, command)
            # The log map of the solvers: transforms3d's mat2axangle takes the axis from an
            # eigenvector, which for the turn of one cycle (below about 1e-5 rad) can be far off.
            turned = rotation_vector(after[:3, :3] @ before[:3, :3].T)
            achieved = np.concatenate([(after[:3, 3] - before[:3, 3]) / period,
                                       self._rotation_weight * turned / period])
            wanted = np.concatenate([linear, self._rotation_weight * angular])
        elif isinstance(command, JointJogCommand):
            achieved = (positions - q) / period
            wanted = self._jog_velocities(command)
        else:
            return 1.0
        size = float(wanted @ wanted)
        if size <= 0.0:
            return 1.0
        return float(min(1.0, max(0.0, achieved @ wanted / size)))
