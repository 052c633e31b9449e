# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The goal's options as ``solve()`` takes them: orientation mode, tip axis, tolerances, bounds.

They are checked once here and packed into the per-call entries of the search settings (see
:mod:`.layout`); the compiled kernels of :mod:`.goal` read them from there.
"""

from dataclasses import dataclass
import math
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ..exceptions import InvalidTargetError
from .layout import (
    DEADLINE,
    HANDOFF_ORIENTATION,
    HANDOFF_POSITION,
    MODE_AXIS,
    MODE_FULL,
    MODE_NONE,
    ORIENTATION_WEIGHT,
    PER_CALL_SETTINGS,
)

__all__ = ['GoalOptions', 'ORIENTATION_MODES', 'goal_options', 'is_positive_number']

#: The orientation modes by name.
ORIENTATION_MODES = {'full': MODE_FULL, 'axis': MODE_AXIS, 'none': MODE_NONE}

_DEFAULT_TIP_AXIS = (0.0, 0.0, 1.0)
# Checked goals by their arguments: most callers repeat the same few, and checking costs more
# than the rest of solve()'s overhead.
_CHECKED: Dict[tuple, 'GoalOptions'] = {}
_CHECKED_CAPACITY = 256


@dataclass(frozen=True, eq=False)  # compared by identity: a cheap key for solve()'s caches
class GoalOptions:
    """
    A checked goal definition.

    :ivar mode: the orientation mode's name, ``'full'``, ``'axis'`` or ``'none'``.
    :ivar tip_axis: unit axis of the tip frame aimed in ``'axis'`` mode.
    :ivar position_tolerance: largest position error norm, m (inf when bounds replace it).
    :ivar orientation_tolerance: largest orientation error, rad (inf when bounds replace it).
    :ivar position_bounds: largest error per base-frame axis, m (inf: free), or None.
    :ivar rotation_bounds: largest rotation per target-frame axis, rad (inf: free), or None.
    :ivar orientation_fallback: return the closest orientation when the pose has no solution.
    """

    mode: str
    tip_axis: Tuple[float, float, float]
    position_tolerance: float
    orientation_tolerance: float
    position_bounds: Optional[Tuple[float, float, float]]
    rotation_bounds: Optional[Tuple[float, float, float]]
    orientation_fallback: bool

    def pack(self, settings: np.ndarray, orientation_weight: float, deadline: float,
             handoff_position: float, handoff_orientation: float) -> None:
        """
        Write the per-call entries of the search settings (see :mod:`.layout`).

        :param settings: (SETTINGS_SIZE,) the array to fill.
        :param orientation_weight: m per rad.
        :param deadline: s, on the ``time.perf_counter`` clock.
        :param handoff_position: the heuristic's hand-over error, m (``handoff_orientation``:
            rad); a looser tolerance raises it.
        """
        settings[:PER_CALL_SETTINGS] = self._packed
        settings[ORIENTATION_WEIGHT] = orientation_weight
        settings[DEADLINE] = deadline
        settings[HANDOFF_POSITION] = max(self._finite_position_tolerance, handoff_position)
        settings[HANDOFF_ORIENTATION] = max(self._finite_orientation_tolerance,
                                            handoff_orientation)

    def __post_init__(self) -> None:
        # Packed once: solve() calls pack() on every call.
        packed = np.array((self.position_tolerance, self.orientation_tolerance, 0.0,
                           ORIENTATION_MODES[self.mode], 0.0, 0.0, 0.0) + self.tip_axis
                          + _bounds_entries(self.position_bounds)
                          + _bounds_entries(self.rotation_bounds))
        object.__setattr__(self, '_packed', packed)
        for name, tolerance in (('_finite_position_tolerance', self.position_tolerance),
                                ('_finite_orientation_tolerance', self.orientation_tolerance)):
            object.__setattr__(self, name, tolerance if math.isfinite(tolerance) else 0.0)


def _bounds_entries(bounds: Optional[Tuple[float, float, float]]) -> tuple:
    # A flag, then the bounds; without bounds the axis is judged by the tolerance instead.
    return (0.0, 0.0, 0.0, 0.0) if bounds is None else (1.0,) + bounds


def goal_options(*, orientation_mode: str = 'full', tip_axis: Any = _DEFAULT_TIP_AXIS,
                 position_only: bool = False, position_tolerance: Any = 1e-5,
                 orientation_tolerance: Any = 1e-5, position_bounds: Any = None,
                 rotation_bounds: Any = None,
                 orientation_fallback: bool = False) -> GoalOptions:
    """
    Check and return a goal definition; see :func:`ik_solvers.solve` for the meanings.

    :raises InvalidTargetError: a value is out of range, or two options contradict each other.
    """
    arguments = (orientation_mode, tip_axis, position_only, position_tolerance,
                 orientation_tolerance, position_bounds, rotation_bounds, orientation_fallback)
    # Equal values of other types (False and 0, 1 and True) are checked differently.
    key = arguments + (type(position_only), type(position_tolerance),
                       type(orientation_tolerance), type(orientation_fallback))
    try:
        checked = _CHECKED.get(key)
    except TypeError:  # an argument is not hashable (a list, an array): check it every time
        return _checked_goal(*arguments)
    if checked is None:
        checked = _checked_goal(*arguments)
        if len(_CHECKED) >= _CHECKED_CAPACITY:
            _CHECKED.clear()
        _CHECKED[key] = checked
    return checked


def _checked_goal(orientation_mode: Any, tip_axis: Any, position_only: Any,
                  position_tolerance: Any, orientation_tolerance: Any, position_bounds: Any,
                  rotation_bounds: Any, orientation_fallback: Any) -> GoalOptions:
    for name, tolerance in (('position_tolerance', position_tolerance),
                            ('orientation_tolerance', orientation_tolerance)):
        if not is_positive_number(tolerance):
            raise InvalidTargetError('%s must be a finite positive number, got %r'
                                     % (name, tolerance))
    if orientation_mode not in ORIENTATION_MODES:
        raise InvalidTargetError("orientation_mode must be 'full', 'axis' or 'none', got %r"
                                 % (orientation_mode,))
    if position_only is True:
        if orientation_mode == 'axis':
            raise InvalidTargetError("position_only contradicts orientation_mode='axis'")
        orientation_mode = 'none'
    elif position_only is not False:
        raise InvalidTargetError('position_only must be True or False, got %r'
                                 % (position_only,))
    axis = _DEFAULT_TIP_AXIS if tip_axis is _DEFAULT_TIP_AXIS else _unit_axis(tip_axis)
    positions = _bounds('position_bounds', position_bounds)
    rotations = _bounds('rotation_bounds', rotation_bounds)
    if rotations is not None and orientation_mode != 'full':
        raise InvalidTargetError("rotation_bounds apply to orientation_mode='full' only")
    if orientation_fallback not in (True, False):
        raise InvalidTargetError('orientation_fallback must be True or False, got %r'
                                 % (orientation_fallback,))
    if orientation_fallback and (orientation_mode != 'full' or positions is not None
                                 or rotations is not None):
        raise InvalidTargetError("orientation_fallback applies to orientation_mode='full' "
                                 'without per-axis bounds')
    return GoalOptions(
        mode=orientation_mode, tip_axis=axis,
        position_tolerance=math.inf if positions is not None else float(position_tolerance),
        orientation_tolerance=(math.inf if rotations is not None
                               else float(orientation_tolerance)),
        position_bounds=positions, rotation_bounds=rotations,
        orientation_fallback=bool(orientation_fallback))


def is_positive_number(value: Any) -> bool:
    """Whether ``value`` is a finite positive number (a bool is not)."""
    if type(value) is float:  # the common case, without the conversions below
        return 0.0 < value < math.inf
    if isinstance(value, bool):
        return False
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    return math.isfinite(number) and number > 0.0


def _unit_axis(value: Any) -> Tuple[float, float, float]:
    try:
        axis = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidTargetError('tip_axis must be 3 numbers, got %r' % (value,)) from None
    if axis.shape != (3,) or not np.all(np.isfinite(axis)):
        raise InvalidTargetError('tip_axis must be 3 finite numbers, got %r' % (value,))
    norm = float(np.linalg.norm(axis))
    if norm < 1e-9:
        raise InvalidTargetError('tip_axis must not be zero, got %r' % (value,))
    return tuple(float(component) / norm for component in axis)


def _bounds(name: str, value: Any) -> Optional[Tuple[float, float, float]]:
    if value is None:
        return None
    try:
        bounds = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidTargetError('%s must be 3 numbers, got %r' % (name, value)) from None
    if bounds.shape != (3,) or np.any(np.isnan(bounds)) or np.any(bounds <= 0.0):
        raise InvalidTargetError('%s must be 3 positive numbers (inf leaves an axis free), '
                                 'got %r' % (name, value))
    if np.all(np.isinf(bounds)) and name == 'position_bounds':
        raise InvalidTargetError('position_bounds must bound at least one axis, got %r'
                                 % (value,))
    return tuple(float(bound) for bound in bounds)
