# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The ik_node's parameters, declared in one place: :data:`PARAMETERS`, one row per parameter.

Each row holds the name, the default, the description, the range or constraints, whether it is
read-only and the check rclpy cannot express (the solver's name, say). Everything else comes
from this table: :class:`ik_solvers.ros.node_parameters.NodeParameters` declares the
parameters with descriptors built from it (``ros2 param describe``) and checks every change
with :func:`check_parameter`, which checks the ranges exactly (rclpy lets values within 1e-6 of
an end through) and each row's own check; :class:`NodeSettings` takes its fields and defaults
from it; SolveIK requests that override a parameter are checked against the same ranges
(:mod:`.request_checks`); and :func:`parameter_table` writes the table of docs/node.md (a test
compares the two). Defaults here match ``config/ik_solvers.yaml``.
"""

from dataclasses import dataclass
import math
from typing import Any, Callable, Iterable, Mapping, Optional, Tuple

from .controller_map import controller_map_problem
from ..exceptions import InvalidTargetError, UnknownSolverError
from ..preferences import PREFERENCES
from ..solvers import Goal, ORIENTATION_MODES, solver_class, SOLVERS

__all__ = [
    'MAX_TIMEOUT',
    'NameList',
    'NodeSettings',
    'PARAMETERS',
    'SPECS',
    'ParameterSpec',
    'check_parameter',
    'coerce_value',
    'parameter_table',
]

#: Longest accepted solve timeout in seconds; a streamed solve holds up the next target and a
#: service call holds up its caller, and IK of one chain needs milliseconds, not minutes.
MAX_TIMEOUT = 10.0


def _solver_problem(value: Any) -> Optional[str]:
    try:
        solver_class(value)
    except UnknownSolverError as error:
        return str(error)
    return None


def _preference_problem(value: Any) -> Optional[str]:
    if value not in PREFERENCES:
        return 'unknown preference %r; known: %s' % (value, ', '.join(PREFERENCES))
    return None


def _rest_posture_problem(value: Any) -> Optional[str]:
    try:
        numbers = [float(item) for item in value]
    except (TypeError, ValueError):
        return 'rest_posture must be a list of numbers; got %r' % (value,)
    if not all(math.isfinite(number) for number in numbers):
        return 'rest_posture must be finite numbers; got %r' % (list(numbers),)
    return None


class NameList(tuple):
    """The default of a parameter that is a list of names (a string array)."""


def _tip_links_problem(value: Any) -> Optional[str]:
    if isinstance(value, str) or not _is_sequence(value):
        return 'tip_links must be a list of link names; got %r' % (value,)
    names = list(value)
    if not all(isinstance(name, str) and name.strip() for name in names):
        return 'tip_links must be non-empty link names; got %r' % (names,)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        return 'tip_links names %s twice' % ', '.join(twice)
    return None


def _goal_problem(name: str) -> Callable[[Any], Optional[str]]:
    def problem(value: Any) -> Optional[str]:
        try:
            Goal.of(**{name: tuple(value) if name == 'tip_axis' else value})
        except (InvalidTargetError, TypeError) as error:
            return str(error)
        return None
    return problem


@dataclass(frozen=True)
class ParameterSpec:
    """One declared parameter: name, default, meaning and allowed values."""

    name: str
    default: Any
    description: str
    #: Inclusive (low, high) for floating-point parameters.
    floating_range: Optional[Tuple[float, float]] = None
    #: Inclusive (low, high) for integer parameters.
    integer_range: Optional[Tuple[int, int]] = None
    #: Free-text constraints shown by ``ros2 param describe``.
    constraints: str = ''
    #: Read once at start-up; changing it needs a restart.
    read_only: bool = False
    #: What the range cannot express: ``check(value)`` returns why a value is refused, or
    #: None.
    check: Optional[Callable[[Any], Optional[str]]] = None


PARAMETERS: Tuple[ParameterSpec, ...] = (
    ParameterSpec(
        'solver', 'jacobian_transpose',
        'Heuristic used for streamed targets and for service calls that name none.',
        constraints='one of: ' + ', '.join(SOLVERS), check=_solver_problem),
    ParameterSpec(
        'base_link', '',
        'Link the chain starts at and in which targets are solved; empty means the root link '
        'of the robot description.'),
    ParameterSpec(
        'tip_link', 'tool0',
        'Link whose pose is controlled (tool0 is the ROS-Industrial name of the flange); the '
        'node does not solve while it is empty. Ignored while tip_links is set.'),
    ParameterSpec(
        'tip_links', NameList(),
        'Several end effectors: the tips of the tree base_link -> tip_links solved together '
        '(shared joints are one variable), each with a target topic target_pose/<tip> and '
        'SolveIK tip_links; the first is also the tip of everything that serves one chain. '
        'Empty means tip_link alone.',
        constraints='link names, each once, or empty', read_only=True,
        check=_tip_links_problem),
    ParameterSpec(
        'position_only', False,
        'Reach the target position and leave the orientation free (orientation_mode none).'),
    ParameterSpec(
        'orientation_mode', 'full',
        'What of a target orientation counts: full (all of it), axis (tip_axis must point along '
        'the same axis of the target frame; the spin about it is free, as a suction cup or a '
        '5-DOF arm needs) or none (position only).',
        constraints='one of: ' + ', '.join(ORIENTATION_MODES),
        check=_goal_problem('orientation_mode')),
    ParameterSpec(
        'tip_axis', (0.0, 0.0, 1.0),
        'The tool axis aimed in axis mode: 3 numbers in the tip link frame, normalised.',
        constraints='3 finite numbers, not all zero', check=_goal_problem('tip_axis')),
    ParameterSpec(
        'orientation_fallback', False,
        'In full mode, when a pose has no solution (an arm with fewer than six joints), solve '
        'for the position with the closest orientation, report it as ORIENTATION_UNREACHABLE '
        '(never success) and command it.'),
    ParameterSpec(
        'position_tolerance', 1e-4,
        'Largest accepted distance between the reached and the requested position, in metres.',
        floating_range=(1e-9, 1.0)),
    ParameterSpec(
        'orientation_tolerance', 1e-3,
        'Largest accepted rotation angle between the reached and the requested orientation, '
        'in radians.',
        floating_range=(1e-9, math.pi)),
    ParameterSpec(
        'timeout', 0.05,
        'Deadline of one solve, in seconds.',
        floating_range=(1e-4, MAX_TIMEOUT)),
    ParameterSpec(
        'velocity_scale', 0.5,
        'Fraction of the URDF joint velocity limits a command may use; sets its duration.',
        floating_range=(0.01, 1.0)),
    ParameterSpec(
        'min_duration', 0.1,
        'Shortest duration of a command, in seconds.',
        floating_range=(0.001, 60.0)),
    ParameterSpec(
        'max_joint_jump', 0.087,
        'Largest change of one joint (rad or m) that a streamed target may command, from the '
        'joint states and from the last command; a larger one is a jump to another '
        'configuration and is not sent (with approximate_tracking, the closest configuration '
        'within it is). SolveIK requests with execute are not bounded. 0 disables the check.',
        floating_range=(0.0, 100.0)),
    ParameterSpec(
        'approximate_tracking', True,
        'For streamed targets: when no exact solution lies within max_joint_jump of the last '
        'command (a singular start, a goal out of reach), command the configuration within '
        'that bound that brings the tip closest to the goal, reported as APPROXIMATE (never '
        'success) with its errors; the exact search then has a budget of about a millisecond '
        'per target. False refuses such targets instead, after a search of the whole timeout.'),
    ParameterSpec(
        'tf_timeout', 0.1,
        'How long to wait for a TF transform of a target frame that is not a link of the robot '
        'description, in seconds (only where tf2_ros is installed).',
        floating_range=(0.0, 5.0)),
    ParameterSpec(
        'joint_state_timeout', 0.5,
        'Joint states older than this, in seconds, are not trusted as the start of a command: '
        'while any chain joint\'s latest joint state is older, nothing is commanded (solving '
        'goes on). 0 disables the check.',
        floating_range=(0.0, 60.0)),
    ParameterSpec(
        'max_pending_requests', 100,
        'SolveIK requests accepted at once (being solved or waiting); a request beyond them is '
        'answered at once with error code BUSY.',
        integer_range=(1, 10000)),
    ParameterSpec(
        'avoid_collisions', True,
        'Check every answer and every command for collisions of the robot with itself and with '
        'the obstacles of ~/obstacles, and let the search avoid them; applies when the robot '
        'description has collision geometry. SolveIK requests may ask otherwise.'),
    ParameterSpec(
        'collision_padding', 0.0,
        'Margin added around every collision shape, in metres: shapes closer than this count '
        'as colliding.',
        floating_range=(0.0, 1.0)),
    ParameterSpec(
        'cartesian_max_step', 0.005,
        'Largest tip motion between two points of a Cartesian path, in metres, when the '
        'request gives none.',
        floating_range=(1e-5, 1.0)),
    ParameterSpec(
        'cartesian_jump_threshold', 0.5,
        'Largest change of one joint (rad or m) between two consecutive points of a Cartesian '
        'path, when the request gives none; a larger one stops the path (JOINT_JUMP).',
        floating_range=(1e-4, 100.0)),
    ParameterSpec(
        'cartesian_max_points', 10000,
        'Most interpolated points a Cartesian path may have; a request needing more is refused '
        '(TOO_MANY_POINTS).',
        integer_range=(2, 1000000)),
    ParameterSpec(
        'cartesian_timeout', 1.0,
        'Deadline of a Cartesian path request (solving and timing), in seconds, when the '
        'request gives none.',
        floating_range=(1e-3, MAX_TIMEOUT)),
    ParameterSpec(
        'acceleration_limit', 5.0,
        'Acceleration limit of every joint that every command keeps at every instant, in '
        'rad/s^2 (m/s^2); a timed Cartesian path uses the joint\'s own where '
        'joint_limits_file gives one.',
        floating_range=(1e-3, 1000.0)),
    ParameterSpec(
        'joint_limits_file', '',
        'A MoveIt joint_limits.yaml (joint_limits: {joint: {has_acceleration_limits: true, '
        'max_acceleration: ...}}): per-joint acceleration limits, and velocity limits that '
        'lower the URDF ones, for Cartesian paths; empty for none.',
        read_only=True),
    ParameterSpec(
        'max_path_duration', 60.0,
        'Longest duration of a timed Cartesian path, in seconds; a slower one is refused '
        '(PATH_TOO_LONG). 0 means no limit.',
        floating_range=(0.0, 3600.0)),
    ParameterSpec(
        'obstacle_queue_depth', 0,
        'History depth of the ~/obstacles subscription; 0 keeps every message (reliable, '
        'keep all: a fast sender is slowed down by the middleware instead of losing '
        'obstacles). Any loss the middleware reports is logged and counted in the status.',
        integer_range=(0, 100000), read_only=True),
    ParameterSpec(
        'command_topic', '',
        'Topic of the JointTrajectory commands; empty means /<controller_name>/joint_trajectory.',
        read_only=True),
    ParameterSpec(
        'controller_name', 'joint_trajectory_controller',
        'ros2_control joint_trajectory_controller that receives the commands when '
        'command_topic is empty.',
        read_only=True),
    ParameterSpec(
        'controller_joints', NameList(),
        'One controller per group of joints (an arm, the torso): entries "<command topic>: '
        '<joint> <joint> ..."; each command is split into one JointTrajectory per controller '
        'with only its joints, all with the same start stamp and duration. A command moving a '
        'joint no entry names is refused (EXECUTION_FAILED). Empty: every command goes to '
        'command_topic.',
        constraints='"<topic>: <joints>" entries, each topic and joint once, or empty',
        read_only=True, check=controller_map_problem),
    ParameterSpec(
        'robot_description', '',
        'URDF used until one arrives on the robot_description topic (for setups without '
        'robot_state_publisher).',
        read_only=True),
    ParameterSpec(
        'robot_description_semantic', '',
        'SRDF whose disable_collisions pairs are not checked, used until one arrives on the '
        'robot_description_semantic topic (as MoveIt has it).',
        read_only=True),
    ParameterSpec(
        'allow_zero_contacts', True,
        'Without an SRDF, leave unchecked the link pairs in contact at the zero configuration '
        '(a URDF alone does not say which touching links are meant to touch); they are named '
        'in the log when the description loads. false checks them too. With an SRDF it does '
        'not apply: every pair the SRDF does not disable is checked, as in MoveIt.',
        read_only=True),
    ParameterSpec(
        'preference', 'nearest',
        'Which solution a request prefers when it has several, and on a redundant arm the '
        'null-space step after the pose is met (docs/solutions.md): nearest (to the seed), '
        'rest_posture (the middle of the limits), limit_margin, manipulability, clearance.',
        constraints='one of: ' + ', '.join(PREFERENCES), check=_preference_problem),
    ParameterSpec(
        'rest_posture', (),
        'The rest configuration of the rest_posture preference, one value per chain joint '
        '(rad or m), base to tip; empty means the middle of the joint limits.',
        constraints='finite numbers, one per chain joint, or empty',
        check=_rest_posture_problem),
    ParameterSpec(
        'servo_rate', 100.0,
        'Cycles per second of servoing (~/delta_twist_cmds, ~/delta_joint_cmds), Hz.',
        floating_range=(1.0, 500.0)),
    ParameterSpec(
        'incoming_command_timeout', 0.1,
        'How long a servo command holds, in seconds; then the arm decelerates to rest.',
        floating_range=(1e-3, 10.0)),
    ParameterSpec(
        'servo_output', 'trajectory',
        'Where servoing sends its points: trajectory (a JointTrajectory on the command topic) '
        'or position_array (a Float64MultiArray on servo_position_topic).',
        constraints='one of: trajectory, position_array',
        check=lambda value: None if value in ('trajectory', 'position_array')
        else 'servo_output is trajectory or position_array, got %r' % (value,)),
    ParameterSpec(
        'servo_position_topic', '/forward_position_controller/commands',
        'Topic of the Float64MultiArray points when servo_output is position_array.',
        read_only=True),
    ParameterSpec(
        'slow_down_distance', 0.1,
        'Clearance beyond collision_padding, in m, below which servoing slows down toward '
        'obstacles, to rest at the padding.',
        floating_range=(1e-3, 10.0)),
)

#: Every parameter's spec by name.
SPECS: Mapping[str, ParameterSpec] = {spec.name: spec for spec in PARAMETERS}
_SPECS = SPECS


def coerce_value(name: str, value: Any) -> Any:
    """
    Turn an integer given for a floating-point parameter into a float.

    rclpy refuses an INTEGER value for a DOUBLE parameter, yet ``-p timeout:=1`` and
    ``max_joint_jump: 3`` in a YAML file are integers; they mean the same number.

    :param name: Parameter name; unknown names pass through.
    :param value: Proposed value.
    :returns: ``float(value)`` for an integer (not a bool) of a floating-point parameter, an
        empty list for an unset value of an array that may be empty, otherwise ``value``
        unchanged.
    """
    spec = _SPECS.get(name)
    if spec is not None and spec.default == () and value is None:
        return []  # an empty list in a YAML file reaches rclpy as NOT_SET: it means empty
    if (spec is not None and isinstance(spec.default, float) and isinstance(value, int)
            and not isinstance(value, bool)):
        return float(value)
    if (spec is not None and isinstance(spec.default, tuple) and not isinstance(value, str)
            and _is_sequence(value) and all(isinstance(item, int) and not isinstance(item, bool)
                                            for item in value)):
        return [float(item) for item in value]  # [0, 0, 1] on a command line is integers
    return value


def _is_sequence(value: Any) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def check_parameter(name: str, value: Any) -> Optional[str]:
    """
    Check a new value: its range exactly as written, and what the descriptor cannot express.

    :param name: Parameter name.
    :param value: Proposed value.
    :returns: ``None`` when acceptable, otherwise the reason for refusing it.
    """
    spec = _SPECS.get(name)
    if spec is not None and value is None:
        # A NOT_SET value would undeclare it, and every later solve would read None.
        return '%s cannot be unset (parameter type NOT_SET)' % name
    if spec is not None and not isinstance(value, bool) and isinstance(value, (int, float)):
        bounds = spec.floating_range or spec.integer_range
        # rclpy admits values within 1e-6 (relative) of a range's ends: the range is checked
        # here exactly as written, so 1.0000009 is no velocity_scale.
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            return '%s must lie in [%r, %r]; got %r' % (name, bounds[0], bounds[1], value)
    if spec is not None and spec.check is not None:
        return spec.check(value)
    return None


@dataclass(frozen=True)
class NodeSettings:
    """A consistent snapshot of the parameters one solve uses."""

    # Defaults come from PARAMETERS, the one place they are written.
    solver: str = _SPECS['solver'].default
    base_link: str = _SPECS['base_link'].default
    tip_link: str = _SPECS['tip_link'].default
    tip_links: Tuple[str, ...] = _SPECS['tip_links'].default
    controller_joints: Tuple[str, ...] = _SPECS['controller_joints'].default
    position_only: bool = _SPECS['position_only'].default
    orientation_mode: str = _SPECS['orientation_mode'].default
    tip_axis: Tuple[float, ...] = _SPECS['tip_axis'].default
    orientation_fallback: bool = _SPECS['orientation_fallback'].default
    position_tolerance: float = _SPECS['position_tolerance'].default
    orientation_tolerance: float = _SPECS['orientation_tolerance'].default
    timeout: float = _SPECS['timeout'].default
    velocity_scale: float = _SPECS['velocity_scale'].default
    min_duration: float = _SPECS['min_duration'].default
    max_joint_jump: float = _SPECS['max_joint_jump'].default
    approximate_tracking: bool = _SPECS['approximate_tracking'].default
    tf_timeout: float = _SPECS['tf_timeout'].default
    joint_state_timeout: float = _SPECS['joint_state_timeout'].default
    max_pending_requests: int = _SPECS['max_pending_requests'].default
    avoid_collisions: bool = _SPECS['avoid_collisions'].default
    collision_padding: float = _SPECS['collision_padding'].default
    cartesian_max_step: float = _SPECS['cartesian_max_step'].default
    cartesian_jump_threshold: float = _SPECS['cartesian_jump_threshold'].default
    cartesian_max_points: int = _SPECS['cartesian_max_points'].default
    cartesian_timeout: float = _SPECS['cartesian_timeout'].default
    acceleration_limit: float = _SPECS['acceleration_limit'].default
    max_path_duration: float = _SPECS['max_path_duration'].default
    preference: str = _SPECS['preference'].default
    rest_posture: Tuple[float, ...] = _SPECS['rest_posture'].default
    servo_rate: float = _SPECS['servo_rate'].default
    incoming_command_timeout: float = _SPECS['incoming_command_timeout'].default
    servo_output: str = _SPECS['servo_output'].default
    servo_position_topic: str = _SPECS['servo_position_topic'].default
    slow_down_distance: float = _SPECS['slow_down_distance'].default

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> 'NodeSettings':
        """
        Pick the fields of a settings snapshot out of parameter values.

        :param values: Parameter name to value; names that are not fields are ignored.
        :returns: The snapshot; missing fields keep their defaults.
        """
        fields: Iterable[str] = cls.__dataclass_fields__
        picked = {name: values[name] for name in fields if name in values}
        if 'tip_axis' in picked:  # rclpy hands arrays back as array.array or lists
            picked['tip_axis'] = tuple(float(item) for item in picked['tip_axis'])
        if picked.get('tip_links'):  # the first tip is the chain's tip
            picked['tip_links'] = tuple(str(name) for name in picked['tip_links'])
            picked['tip_link'] = picked['tip_links'][0]
        elif 'tip_links' in picked:
            picked['tip_links'] = ()
        if 'controller_joints' in picked:
            picked['controller_joints'] = tuple(str(entry) for entry in
                                                (picked['controller_joints'] or ()))
        if 'rest_posture' in picked:  # empty: rclpy's byte array; else array.array or a list
            picked['rest_posture'] = tuple(float(item) for item in picked['rest_posture'])
        return cls(**picked)


_TYPE_NAMES = {bool: 'bool', float: 'double', int: 'integer', str: 'string',
               tuple: 'double array', NameList: 'string array'}


def parameter_table() -> str:
    """
    Write :data:`PARAMETERS` as the Markdown table of docs/node.md.

    :returns: The table, one row per parameter in the order declared, ending with a newline.
    """
    rows = ['| name | type | default | allowed | meaning |', '|---|---|---|---|---|']
    for spec in PARAMETERS:
        default = spec.default
        shown = ('`%s`' % ('true' if default else 'false') if isinstance(default, bool)
                 else '`%r`' % (list(default),) if isinstance(default, tuple)
                 else '`%r`' % default if not isinstance(default, str)
                 else '`%s`' % default if default else '(empty)')
        bounds = spec.floating_range or spec.integer_range
        allowed = ['[%r, %r]' % bounds] if bounds is not None else []
        if spec.constraints:
            allowed.append(spec.constraints)
        if spec.read_only:
            allowed.append('read-only')
        rows.append('| `%s` | %s | %s | %s | %s |' % (
            spec.name, _TYPE_NAMES[type(default)], shown, '; '.join(allowed) or 'any',
            spec.description.replace('|', '\\|')))
    return '\n'.join(rows) + '\n'
