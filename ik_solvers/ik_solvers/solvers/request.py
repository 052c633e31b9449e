# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What one solve is asked for: a :class:`Goal` and the :class:`SearchOptions` of the search.

Both are frozen and checked once, in their constructors, raising the package's errors; from
there they travel unchanged from the node's engine to the prepared solver, which packs them
once for the compiled kernels.
"""

from dataclasses import dataclass, field
import math
from typing import Any, Mapping, Optional, Tuple
import warnings

import numpy as np

from ..exceptions import InvalidSolverOptionError, InvalidTargetError
from .base import Solver
from .registry import solver_class
from .tuning import SearchTuning, split_tuning, TUNING_KEYWORDS

__all__ = ['Goal', 'GOAL_KEYWORDS', 'ORIENTATION_MODES', 'SEARCH_KEYWORDS', 'SearchOptions',
           'SearchTuning', 'TUNING_KEYWORDS', 'from_keywords', 'is_positive_number']

#: The orientation modes: the whole pose, one tip axis aimed (spin free), position only.
ORIENTATION_MODES = ('full', 'axis', 'none')
#: An orientation error of 1 rad weighs as much as this fraction of the chain's length.
ORIENTATION_WEIGHT_PER_LENGTH = 0.2

_DEFAULT_TIP_AXIS = (0.0, 0.0, 1.0)

Triple = Tuple[float, float, float]


@dataclass(frozen=True)
class Goal:
    """
    What of a target counts and how closely: checked once, here.

    :ivar mode: ``'full'`` (the whole pose), ``'axis'`` (``tip_axis`` aims along the same axis
        of the target frame, the spin about it free) or ``'none'`` (position only).
    :ivar tip_axis: the aimed axis in ``'axis'`` mode, in the tip frame (normalised here).
    :ivar position_tolerance: largest position error norm, m; inf when ``position_bounds``
        replace it.
    :ivar orientation_tolerance: largest orientation error, rad (the rotation angle in
        ``'full'`` mode, the angle between the axes in ``'axis'`` mode); inf when
        ``rotation_bounds`` replace it.
    :ivar position_bounds: largest error per axis of the base frame, m (inf: free), or None.
    :ivar rotation_bounds: largest rotation per axis of the target frame, rad (inf: free), or
        None; ``'full'`` mode only.
    :ivar orientation_fallback: ``'full'`` mode without bounds only: when no configuration
        meets the pose, return the one meeting the position with the closest orientation.
    :raises InvalidTargetError: a value is out of range, or two of them contradict each other.
    """

    mode: str = 'full'
    tip_axis: Triple = _DEFAULT_TIP_AXIS
    position_tolerance: float = 1e-5
    orientation_tolerance: float = 1e-5
    position_bounds: Optional[Triple] = None
    rotation_bounds: Optional[Triple] = None
    orientation_fallback: bool = False

    def __post_init__(self) -> None:
        for name, bounds in (('position_tolerance', self.position_bounds),
                             ('orientation_tolerance', self.rotation_bounds)):
            value = getattr(self, name)
            # inf only as the normalised value of a goal with bounds (dataclasses.replace).
            if not is_positive_number(value) and not (bounds is not None and value == math.inf
                                                      and not isinstance(value, bool)):
                raise InvalidTargetError('%s must be a finite positive number, got %r'
                                         % (name, value))
        if not isinstance(self.mode, str) or self.mode not in ORIENTATION_MODES:
            raise InvalidTargetError("orientation_mode must be 'full', 'axis' or 'none', got %r"
                                     % (self.mode,))
        positions = _bounds('position_bounds', self.position_bounds)
        rotations = _bounds('rotation_bounds', self.rotation_bounds)
        if rotations is not None and self.mode != 'full':
            raise InvalidTargetError("rotation_bounds apply to orientation_mode='full' only")
        fallback = self.orientation_fallback
        if fallback is not True and fallback is not False:
            raise InvalidTargetError('orientation_fallback must be True or False, got %r'
                                     % (fallback,))
        if fallback and (self.mode != 'full' or positions is not None or rotations is not None):
            raise InvalidTargetError("orientation_fallback applies to orientation_mode='full' "
                                     'without per-axis bounds')
        axis = (_DEFAULT_TIP_AXIS if self.tip_axis is _DEFAULT_TIP_AXIS
                else _unit_axis(self.tip_axis))
        fields = dict(tip_axis=axis, position_bounds=positions, rotation_bounds=rotations,
                      position_tolerance=(math.inf if positions is not None
                                          else float(self.position_tolerance)),
                      orientation_tolerance=(math.inf if rotations is not None
                                             else float(self.orientation_tolerance)))
        for name, value in fields.items():  # normalised values, set once
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, *, orientation_mode: str = 'full', tip_axis: Any = _DEFAULT_TIP_AXIS,
           position_only: bool = False, position_tolerance: Any = 1e-5,
           orientation_tolerance: Any = 1e-5, position_bounds: Any = None,
           rotation_bounds: Any = None, orientation_fallback: bool = False) -> 'Goal':
        """
        Build a goal from :func:`ik_solvers.solve`'s keyword arguments.

        ``position_only=True`` is an alias of ``orientation_mode='none'``.

        :raises InvalidTargetError: as the constructor, or ``position_only`` is not a bool or
            contradicts ``orientation_mode='axis'``.
        """
        if position_only is True:
            if orientation_mode == 'axis':
                raise InvalidTargetError("position_only contradicts orientation_mode='axis'")
            orientation_mode = 'none'
        elif position_only is not False:
            raise InvalidTargetError('position_only must be True or False, got %r'
                                     % (position_only,))
        return cls(mode=orientation_mode, tip_axis=tip_axis,
                   position_tolerance=position_tolerance,
                   orientation_tolerance=orientation_tolerance, position_bounds=position_bounds,
                   rotation_bounds=rotation_bounds, orientation_fallback=orientation_fallback)


@dataclass(frozen=True)
class SearchOptions:
    """
    How to search: the heuristic, its time, the polish, the starts: checked once, here.

    :ivar solver: one of :data:`ik_solvers.SOLVERS`.
    :ivar timeout: hard deadline of one solve, s, from its call.
    :ivar polish: run the polish (damped least squares) after the heuristic in every start;
        None takes the solver's default (on for all four).
    :ivar polish_iterations: cap on polish steps per start, a positive integer.
    :ivar max_attempts: cap on the starts of one solve, a positive integer, or None (until the
        deadline).
    :ivar solver_options: the solver's own options (see its ``option_schema()``) plus
        ``orientation_weight`` (m per rad), as a mapping; kept as sorted ``(name, value)``
        pairs. The fields of :class:`SearchTuning` given here (the previous release's form)
        move to ``tuning``, with a :class:`DeprecationWarning`.
    :ivar tuning: advanced: the search loop's own tuning, a :class:`SearchTuning`; None takes
        the heuristic's defaults.
    :raises UnknownSolverError: ``solver`` is not registered.
    :raises InvalidSolverOptionError: a count, the timeout or an option is out of range or
        unknown, ``tuning`` is not a :class:`SearchTuning`, or a tuning field is given both
        in ``tuning`` and in ``solver_options``.
    """

    solver: str = 'jacobian_transpose'
    timeout: float = 0.005
    polish: Optional[bool] = None
    polish_iterations: int = 20
    max_attempts: Optional[int] = None
    solver_options: Any = ()
    tuning: Optional[SearchTuning] = None
    heuristic: Solver = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        implementation = solver_class(self.solver)
        if not is_positive_number(self.timeout):
            raise InvalidSolverOptionError('timeout must be a finite positive number of '
                                           'seconds, got %r' % (self.timeout,))
        if not _is_count(self.polish_iterations):
            raise InvalidSolverOptionError('polish_iterations must be a positive integer, got '
                                           '%r' % (self.polish_iterations,))
        if self.max_attempts is not None and not _is_count(self.max_attempts):
            raise InvalidSolverOptionError('max_attempts must be None or a positive integer, '
                                           'got %r' % (self.max_attempts,))
        if self.polish is not None and not isinstance(self.polish, (bool, np.bool_)):
            raise InvalidSolverOptionError('polish must be None, True or False, got %r'
                                           % (self.polish,))
        if self.tuning is not None and not isinstance(self.tuning, SearchTuning):
            raise InvalidSolverOptionError('tuning must be None or a SearchTuning, got %s'
                                           % type(self.tuning).__name__)
        # stacklevel 3: the warning names the caller of SearchOptions().
        options, tuning = split_tuning(dict(self.solver_options), self.tuning, stacklevel=3)
        object.__setattr__(self, 'tuning', tuning)
        weight = options.get('orientation_weight')
        if weight is not None and not is_positive_number(weight):
            raise InvalidSolverOptionError('orientation_weight must be a finite positive '
                                           'number, got %r' % (weight,))
        object.__setattr__(self, 'solver_options', tuple(sorted(options.items())))
        options.pop('orientation_weight', None)
        object.__setattr__(self, 'heuristic', implementation(**options))

    @property
    def runs_polish(self) -> bool:
        """Whether the polish runs (``polish``, or the solver's default when None)."""
        if self.polish is None:
            return type(self.heuristic).polish_by_default
        return bool(self.polish)

    @property
    def finisher(self) -> bool:
        """Return :attr:`runs_polish`, warning: the previous name, kept for one release."""
        warnings.warn('SearchOptions.finisher is deprecated; read SearchOptions.runs_polish',
                      DeprecationWarning, stacklevel=2)
        return self.runs_polish

    def orientation_weight(self, chain) -> float:
        """
        Return the orientation weight for ``chain``, m per rad.

        The ``orientation_weight`` option when given, else
        :data:`ORIENTATION_WEIGHT_PER_LENGTH` times the chain's length scale.
        """
        for name, value in self.solver_options:
            if name == 'orientation_weight' and value is not None:
                return float(value)
        return ORIENTATION_WEIGHT_PER_LENGTH * chain.length_scale


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


def _is_count(value: Any) -> bool:
    return (not isinstance(value, bool) and isinstance(value, (int, np.integer))
            and value >= 1)


def _unit_axis(value: Any) -> Triple:
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


def _bounds(name: str, value: Any) -> Optional[Triple]:
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


#: The keywords :func:`from_keywords` gives to :meth:`Goal.of`.
GOAL_KEYWORDS = frozenset(('orientation_mode', 'tip_axis', 'position_only', 'position_tolerance',
                           'orientation_tolerance', 'position_bounds', 'rotation_bounds',
                           'orientation_fallback'))
#: The keywords :func:`from_keywords` gives to :class:`SearchOptions` itself.
SEARCH_KEYWORDS = frozenset(('solver', 'timeout', 'polish', 'polish_iterations',
                             'max_attempts'))


def from_keywords(keywords: Mapping[str, Any], *, goal: Optional[Goal] = None,
                  options: Optional[SearchOptions] = None) -> Tuple[Goal, SearchOptions]:
    """
    Build the goal and the search options from :func:`ik_solvers.solve`'s keyword arguments.

    Goal keywords go to :meth:`Goal.of`, ``solver``, ``timeout``, ``polish``,
    ``polish_iterations`` and ``max_attempts`` to :class:`SearchOptions`, the fields of
    :class:`SearchTuning` (:data:`TUNING_KEYWORDS`) to its ``tuning``, any other to its
    ``solver_options``.

    :param keywords: the keyword arguments given (defaults left out).
    :param goal: a goal given whole; then no goal keyword may be given.
    :param options: search options given whole; then no search keyword may be given.
    :raises InvalidTargetError: a goal keyword beside ``goal``, or as :class:`Goal`.
    :raises InvalidSolverOptionError: a search keyword beside ``options``, or as
        :class:`SearchOptions`.
    :raises UnknownSolverError: as :class:`SearchOptions`.
    """
    goal_keywords = {name: value for name, value in keywords.items() if name in GOAL_KEYWORDS}
    search_keywords = {name: value for name, value in keywords.items()
                       if name not in GOAL_KEYWORDS}
    if options is None:
        solver_options = {name: value for name, value in search_keywords.items()
                          if name not in SEARCH_KEYWORDS and name not in TUNING_KEYWORDS}
        tuning = {name: value for name, value in search_keywords.items()
                  if name in TUNING_KEYWORDS}
        search = {name: value for name, value in search_keywords.items()
                  if name in SEARCH_KEYWORDS}
        options = SearchOptions(solver_options=solver_options,
                                tuning=SearchTuning(**tuning) if tuning else None, **search)
    elif search_keywords:
        raise InvalidSolverOptionError('options= replaces %s; give them in SearchOptions'
                                       % ', '.join(sorted(search_keywords)))
    if goal is None:
        goal = Goal.of(**goal_keywords)
    elif goal_keywords:
        raise InvalidTargetError('goal= replaces %s; give them in Goal'
                                 % ', '.join(sorted(goal_keywords)))
    elif not isinstance(goal, Goal):
        raise InvalidTargetError('goal must be a Goal, got %s' % type(goal).__name__)
    if not isinstance(options, SearchOptions):
        raise InvalidSolverOptionError('options must be a SearchOptions, got %s'
                                       % type(options).__name__)
    return goal, options
