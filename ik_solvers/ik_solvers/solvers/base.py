# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The interface every heuristic implements: a compiled step and a schema of its options.

The loop itself (starts, restarts, hand-over to the polish, trust region, deadline, best so
far) lives once in :mod:`._core.search`. A heuristic module holds:

* ``step(chain, target, settings, options, q, frames, error, radius, memory)``, a compiled
  function
  that improves ``q`` in place by one iteration (see :func:`._core.search.run_search`);
* a compiled ``search`` that binds the step to the loop (a three-line function);
* a :class:`Solver` subclass naming it, declaring its own options and packing them into the
  float array its step reads.

Adding a heuristic is that module plus one line in :mod:`.registry`.
"""

from dataclasses import dataclass
import math
from typing import Any, Callable, ClassVar, Dict, Mapping, Optional, TYPE_CHECKING
import warnings

import numpy as np

from ..exceptions import InvalidSolverOptionError
from ..kinematics import Chain

if TYPE_CHECKING:  # the tuning's checks are defined here
    from .tuning import SearchTuning

__all__ = [
    'boolean',
    'COMMON_OPTIONS',
    'Option',
    'Solver',
    'non_negative_float',
    'non_negative_integer',
    'over_relaxation',
    'positive_float',
    'positive_integer',
    'unit_fraction',
]


def positive_integer(name: str, value: Any) -> int:
    """
    Return ``value`` as an int, checking that it is a positive integer.

    :raises InvalidSolverOptionError: it is not.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidSolverOptionError('%s must be a positive integer, got %r' % (name, value))
    return int(value)


def _finite_float(name: str, value: Any, *, allow_zero: bool) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidSolverOptionError('%s must be a number, got %r' % (name, value)) from None
    if isinstance(value, bool) or not math.isfinite(number) or number < 0.0 or (
            number == 0.0 and not allow_zero):
        raise InvalidSolverOptionError('%s must be a finite %s number, got %r'
                                       % (name, 'non-negative' if allow_zero else 'positive',
                                          value))
    return number


def non_negative_integer(name: str, value: Any) -> int:
    """
    Return ``value`` as an int, checking that it is an integer of at least 0.

    :raises InvalidSolverOptionError: it is not.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise InvalidSolverOptionError('%s must be a non-negative integer, got %r'
                                       % (name, value))
    return int(value)


def positive_float(name: str, value: Any) -> float:
    """
    Return ``value`` as a float, checking that it is finite and positive.

    :raises InvalidSolverOptionError: it is not.
    """
    return _finite_float(name, value, allow_zero=False)


def non_negative_float(name: str, value: Any) -> float:
    """
    Return ``value`` as a float, checking that it is finite and not negative.

    :raises InvalidSolverOptionError: it is not.
    """
    return _finite_float(name, value, allow_zero=True)


def boolean(name: str, value: Any) -> bool:
    """
    Return ``value``, checking that it is a bool.

    :raises InvalidSolverOptionError: it is not.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidSolverOptionError('%s must be True or False, got %r' % (name, value))
    return bool(value)


def unit_fraction(name: str, value: Any) -> float:
    """
    Return ``value`` as a float, checking that it is in (0, 1].

    :raises InvalidSolverOptionError: it is not.
    """
    number = positive_float(name, value)
    if number > 1.0:
        raise InvalidSolverOptionError('%s must be in (0, 1], got %r' % (name, value))
    return number


def over_relaxation(name: str, value: Any) -> float:
    """
    Return ``value`` as a float, checking that it is in (0, 2), where relaxation converges.

    :raises InvalidSolverOptionError: it is not.
    """
    number = positive_float(name, value)
    if number >= 2.0:
        raise InvalidSolverOptionError('%s must be in (0, 2), got %r' % (name, value))
    return number


@dataclass(frozen=True)
class Option:
    """
    One keyword option of a solver.

    :ivar default: the value taken when the option is not given.
    :ivar check: ``check(name, value)`` returns the value to use or raises
        :class:`InvalidSolverOptionError`.
    :ivar meaning: what it does, with its unit.
    """

    default: Any
    check: Callable[[str, Any], Any]
    meaning: str


#: Options every heuristic takes; the shared search loop reads them. (The loop's own tuning,
#: shared by every heuristic, is :class:`ik_solvers.solvers.tuning.SearchTuning`.)
COMMON_OPTIONS: Dict[str, Option] = {
    'max_iterations': Option(
        None, lambda name, value: None if value is None else positive_integer(name, value),
        'heuristic iterations per start; None takes the solver\'s own cap (smaller when the '
        'polish follows)'),
    'stall_iterations': Option(
        None, lambda name, value: None if value is None else positive_integer(name, value),
        'iterations without a 5 % lower error after which a start is given up; None takes '
        'the solver\'s own'),
}


class Solver:
    """
    A heuristic: its name, its options, and its compiled search.

    Subclasses set the class attributes below and, if they have options of their own, extend
    :attr:`own_options` and override :meth:`pack_options`.
    """

    name: ClassVar[str] = ''
    #: The heuristic's own options (the common ones come from :data:`COMMON_OPTIONS`).
    own_options: ClassVar[Dict[str, Option]] = {}
    #: Whether the polish follows the heuristic when ``solve`` is not told.
    polish_by_default: ClassVar[bool] = True
    #: Iterations per start when the heuristic runs alone, and at most when the polish
    #: follows (it hands over earlier once its progress slows, see :attr:`handoff_ratio`).
    iterations_alone: ClassVar[int] = 200
    iterations_before_polish: ClassVar[int] = 100
    #: With the polish on, the heuristic hands over once one iteration leaves more than this
    #: fraction of the cost it started from.
    handoff_ratio: ClassVar[float] = 0.95
    #: Iterations without a 5 % lower error that end a start.
    stall_iterations: ClassVar[int] = 8
    #: Default gain of the trust region (see :mod:`._core.search`).
    trust_region: ClassVar[float] = 1.0
    #: Whether the heuristic alone extrapolates its iterations by default (where the
    #: orientation counts; see :mod:`._core.search`).
    extrapolation: ClassVar[bool] = False
    #: Iterations the secant point mixes when the search extrapolates (0: none).
    secant_memory: ClassVar[int] = 0
    #: With the polish on, the heuristic hands over once within these errors (m, rad).
    handoff_position_tolerance: ClassVar[float] = 1e-3
    handoff_orientation_tolerance: ClassVar[float] = 1e-2
    #: The compiled search: ``search(chain, target, settings, options, q, report)``.
    search: ClassVar[Callable[..., None]]

    def __init_subclass__(cls, **keywords: Any) -> None:
        """Take a subclass's ``iterations_before_finisher`` (the previous name) for one release."""
        super().__init_subclass__(**keywords)
        if 'iterations_before_finisher' in vars(cls):
            warnings.warn('%s.iterations_before_finisher is deprecated; name it '
                          'iterations_before_polish' % cls.__name__, DeprecationWarning,
                          stacklevel=2)
            cls.iterations_before_polish = cls.iterations_before_finisher

    def __init__(self, **options: Any) -> None:
        """
        Take the options, each falling back to its default.

        :raises InvalidSolverOptionError: an option is unknown or out of range.
        """
        schema = self.option_schema()
        unknown = sorted(set(options) - set(schema))
        if unknown:
            raise InvalidSolverOptionError(
                'unknown option(s) %s for solver %r; it accepts %s'
                % (', '.join(unknown), self.name, ', '.join(sorted(schema))))
        self.options = {name: option.check(name, options.get(name, option.default))
                        for name, option in schema.items()}
        self._packed: Dict[int, np.ndarray] = {}

    @classmethod
    def option_schema(cls) -> Mapping[str, Option]:
        """Return every option this solver accepts, common ones first."""
        return {**COMMON_OPTIONS, **cls.own_options}

    def heuristic_iterations(self, polish: bool) -> int:
        """Return the cap on heuristic iterations per start."""
        if self.options['max_iterations'] is not None:
            return self.options['max_iterations']
        return self.iterations_before_polish if polish else self.iterations_alone

    def stall_limit(self) -> int:
        """Return the iterations without a 5 % lower error that end a start."""
        given = self.options['stall_iterations']
        return self.stall_iterations if given is None else given

    def handoff(self, tuning: Optional['SearchTuning'] = None) -> float:
        """Return the ratio of successive costs above which the heuristic hands over."""
        given = None if tuning is None else tuning.handoff_ratio
        return self.handoff_ratio if given is None else given

    def trust_gain(self, tuning: Optional['SearchTuning'] = None) -> float:
        """Return the trust region's gain (inf for none)."""
        given = None if tuning is None else tuning.trust_region
        return self.trust_region if given is None else given

    def extrapolation_setting(self, tuning: Optional['SearchTuning'] = None) -> float:
        """Return the extrapolation setting: 0 never, 1 where the orientation counts, 2 always."""
        given = None if tuning is None else tuning.extrapolation
        if given is None:
            return 1.0 if self.extrapolation else 0.0
        return 2.0 if given else 0.0

    def secant_setting(self, tuning: Optional['SearchTuning'] = None) -> float:
        """Return how many iterations the secant point mixes (0: none)."""
        given = None if tuning is None else tuning.secant_memory
        return float(self.secant_memory if given is None else given)

    def packed_options(self, chain: Chain) -> np.ndarray:
        """
        Return :meth:`pack_options` for this chain, packed once per joint count.

        :returns: A writeable C-contiguous float64 array, the one layout the compiled searches
            are called with.
        """
        packed = self._packed.get(chain.num_joints)
        if packed is None:
            packed = np.array(self.pack_options(chain), dtype=np.float64, order='C')
            self._packed[chain.num_joints] = packed
        return packed

    def pack_options(self, chain: Chain) -> np.ndarray:
        """
        Return the heuristic's own options as the float array its compiled step reads.

        :raises InvalidSolverOptionError: an option does not fit the chain.
        """
        return np.zeros(0)
