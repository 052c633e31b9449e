# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The joint limits a timed path keeps: velocity from the URDF, acceleration from the user.

Acceleration limits come as MoveIt users write them in ``joint_limits.yaml``::

    joint_limits:
      shoulder_pan_joint:
        has_acceleration_limits: true
        max_acceleration: 5.0

(the ``joint_limits`` level may be left out), or as one value for every joint. An entry's
``max_velocity`` (with ``has_velocity_limits: true``) can only lower the URDF's limit. Entries
for joints outside the chain are ignored, since such a file lists the whole robot; jerk,
deceleration, position and effort entries are read past (the parametrization here bounds
velocity and acceleration only).
"""

from dataclasses import dataclass
import math
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..exceptions import InvalidLimitsError

__all__ = ['JointLimit', 'TrajectoryLimits', 'parse_joint_limits', 'trajectory_limits']

_KNOWN_KEYS = frozenset((
    'has_velocity_limits', 'max_velocity', 'has_acceleration_limits', 'max_acceleration',
    'has_deceleration_limits', 'max_deceleration', 'has_jerk_limits', 'max_jerk',
    'has_position_limits', 'min_position', 'max_position', 'has_effort_limits', 'max_effort',
    'angle_wraparound'))
# Top-level keys of a MoveIt joint_limits.yaml besides the joints.
_FILE_KEYS = frozenset(('default_velocity_scaling_factor',
                        'default_acceleration_scaling_factor'))


@dataclass(frozen=True)
class JointLimit:
    """
    One joint's entry of a joint_limits.yaml, as plain numbers.

    :ivar max_velocity: rad/s or m/s, or None when the entry sets no velocity limit.
    :ivar max_acceleration: rad/s^2 or m/s^2, or None when it sets no acceleration limit.
    """

    max_velocity: Optional[float] = None
    max_acceleration: Optional[float] = None


@dataclass(frozen=True)
class TrajectoryLimits:
    """
    The limits a time parametrization keeps, one value per joint of the chain, scales applied.

    :ivar joint_names: The chain's N joint names, base to tip.
    :ivar max_velocity: (N,) largest speed of each joint, rad/s or m/s, finite and positive.
    :ivar max_acceleration: (N,) largest acceleration, rad/s^2 or m/s^2, finite and positive.
    :ivar max_path_duration: Longest accepted duration of a whole path, s (inf: no limit).
    :ivar lower: (N,) lower position limits, rad or m (-inf: none), or None for none.
    :ivar upper: (N,) upper position limits, or None for none.
    """

    joint_names: Tuple[str, ...]
    max_velocity: np.ndarray
    max_acceleration: np.ndarray
    max_path_duration: float = math.inf
    lower: Optional[np.ndarray] = None
    upper: Optional[np.ndarray] = None


def _positive(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise InvalidLimitsError('%s must be a number, got %r' % (what, value))
    number = float(value)
    if not (math.isfinite(number) and number > 0.0):
        raise InvalidLimitsError('%s must be a finite positive number, got %r' % (what, value))
    return number


def _flag(entry: Mapping[str, Any], key: str, joint: str) -> bool:
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise InvalidLimitsError('joint_limits.%s.%s must be true or false, got %r'
                                 % (joint, key, value))
    return value


def parse_joint_limits(data: Mapping[str, Any]) -> Dict[str, JointLimit]:
    """
    Read the velocity and acceleration limits out of a joint_limits.yaml mapping.

    :param data: The loaded YAML: ``{'joint_limits': {joint: {...}}}`` or just the inner
        ``{joint: {...}}``.
    :returns: joint name -> :class:`JointLimit`; a limit whose ``has_*_limits`` flag is false
        or missing is None.
    :raises InvalidLimitsError: The mapping has another shape, an unknown key, a flag that is
        not a boolean, or a limit that is flagged but not a finite positive number.
    """
    if not isinstance(data, Mapping):
        raise InvalidLimitsError('joint limits must be a mapping, got %s' % type(data).__name__)
    if 'joint_limits' in data:
        unknown = set(data) - {'joint_limits'} - _FILE_KEYS
        if unknown:
            raise InvalidLimitsError('unknown keys beside joint_limits: %s'
                                     % ', '.join(sorted(map(str, unknown))))
        joints = data['joint_limits']
    else:
        joints = {key: value for key, value in data.items() if key not in _FILE_KEYS}
    if not isinstance(joints, Mapping):
        raise InvalidLimitsError('joint_limits must map joint names to their limits')
    parsed: Dict[str, JointLimit] = {}
    for joint, entry in joints.items():
        if not isinstance(entry, Mapping):
            raise InvalidLimitsError('joint_limits.%s must be a mapping of limits' % (joint,))
        unknown = set(entry) - _KNOWN_KEYS
        if unknown:
            raise InvalidLimitsError('joint_limits.%s has unknown keys: %s'
                                     % (joint, ', '.join(sorted(map(str, unknown)))))
        velocity = acceleration = None
        if _flag(entry, 'has_velocity_limits', joint):
            velocity = _positive(entry.get('max_velocity'),
                                 'joint_limits.%s.max_velocity' % (joint,))
        if _flag(entry, 'has_acceleration_limits', joint):
            acceleration = _positive(entry.get('max_acceleration'),
                                     'joint_limits.%s.max_acceleration' % (joint,))
        parsed[str(joint)] = JointLimit(max_velocity=velocity, max_acceleration=acceleration)
    return parsed


def _scale(value: Any, name: str) -> float:
    number = _positive(value, name)
    if number > 1.0:
        raise InvalidLimitsError('%s must be in (0, 1], got %r' % (name, value))
    return number


def trajectory_limits(chain, *, joint_limits: Optional[Mapping[str, Any]] = None,
                      default_acceleration: Optional[float] = None,
                      velocity_scale: float = 1.0, acceleration_scale: float = 1.0,
                      max_path_duration: float = math.inf) -> TrajectoryLimits:
    """
    Gather the limits of the chain's joints for :func:`time_parametrize`.

    Each joint's velocity limit is the URDF's, lowered by a joint_limits entry where it sets a
    smaller one, times ``velocity_scale``; its acceleration limit is its entry's
    ``max_acceleration``, else ``default_acceleration``, times ``acceleration_scale``. The
    position limits are the chain's.

    :param chain: A :class:`ik_solvers.Chain`; its ``velocity_limits`` are the URDF's.
    :param joint_limits: A joint_limits.yaml mapping (see :func:`parse_joint_limits`), or the
        already parsed ``{joint: JointLimit}``; None for none.
    :param default_acceleration: rad/s^2 (m/s^2) for every joint without its own entry.
    :param velocity_scale: Share of the velocity limits to use, in (0, 1].
    :param acceleration_scale: Share of the acceleration limits to use, in (0, 1].
    :param max_path_duration: Longest accepted duration, s, > 0 (inf: none).
    :returns: The :class:`TrajectoryLimits`.
    :raises InvalidLimitsError: A scale is outside (0, 1], a limit is not a finite positive
        number, the mapping is malformed, a joint has no acceleration limit, or a joint has
        neither a URDF nor a joint_limits velocity limit.
    """
    velocity_factor = _scale(velocity_scale, 'velocity_scale')
    acceleration_factor = _scale(acceleration_scale, 'acceleration_scale')
    if isinstance(max_path_duration, bool) or not isinstance(
            max_path_duration, (int, float, np.number)) or not max_path_duration > 0.0:
        raise InvalidLimitsError('max_path_duration must be a positive number of seconds '
                                 '(inf for none), got %r' % (max_path_duration,))
    default = None if default_acceleration is None else _positive(
        default_acceleration, 'default_acceleration')
    entries = _entries(joint_limits)
    names: Sequence[str] = tuple(chain.joint_names)
    velocity = np.empty(len(names))
    acceleration = np.empty(len(names))
    missing = []
    for index, name in enumerate(names):
        entry = entries.get(name, JointLimit())
        urdf = float(chain.velocity_limits[index])
        candidates = [value for value in (urdf, entry.max_velocity)
                      if value is not None and math.isfinite(value) and value > 0.0]
        if not candidates:
            raise InvalidLimitsError('joint %s has no velocity limit in the URDF nor in '
                                     'joint_limits' % name)
        velocity[index] = min(candidates) * velocity_factor
        chosen = entry.max_acceleration if entry.max_acceleration is not None else default
        if chosen is None:
            missing.append(name)
        else:
            acceleration[index] = chosen * acceleration_factor
    if missing:
        raise InvalidLimitsError('no acceleration limit for %s: give joint_limits entries with '
                                 'has_acceleration_limits: true, or default_acceleration'
                                 % ', '.join(missing))
    return TrajectoryLimits(joint_names=tuple(names), max_velocity=velocity,
                            max_acceleration=acceleration,
                            max_path_duration=float(max_path_duration),
                            lower=np.array(chain.lower, dtype=float),
                            upper=np.array(chain.upper, dtype=float))


def _entries(joint_limits: Optional[Mapping[str, Any]]) -> Mapping[str, JointLimit]:
    if joint_limits is None:
        return {}
    if isinstance(joint_limits, Mapping) and joint_limits and all(
            isinstance(value, JointLimit) for value in joint_limits.values()):
        return joint_limits
    return parse_joint_limits(joint_limits)
