# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Advanced: the search's own tuning, shared by every heuristic (:class:`SearchTuning`).

The defaults (None everywhere) take each heuristic's class defaults, chosen by measurement
(docs/DECISIONS.md); most users never set these. Until the previous release they were solver
options beside the heuristics' own; given there, they still work for one release, with a
:class:`DeprecationWarning` naming this form (:func:`split_tuning`).
"""

from dataclasses import dataclass, fields
from typing import Any, Dict, Mapping, Optional, Tuple
import warnings

from ..exceptions import InvalidSolverOptionError
from .base import boolean, non_negative_integer, positive_float, unit_fraction

__all__ = ['SearchTuning', 'TUNING_KEYWORDS', 'split_tuning']


@dataclass(frozen=True)
class SearchTuning:
    """
    How the shared search loop drives a heuristic; each None takes the heuristic's own default.

    :ivar handoff_ratio: with polish on, the heuristic hands over to it once one iteration
        leaves more than this fraction of the cost it started from, in (0, 1] (0.95 for all
        four heuristics; 0.5 trades a little success for throughput, see docs/batch.md).
    :ivar trust_region: a joint moves at most this multiple of the start's error over the
        chain's length, rad, per heuristic iteration (CCD 0.5, the others 1.0).
    :ivar extrapolation: alone (polish off), after each iteration also try the configuration
        2, 4, ... 64 times as far along the motion of the last two iterations and go on from
        the best; True always, False never, None where the orientation counts for the
        heuristics that default to it (CCD, FABRIK, length relaxation).
    :ivar secant_memory: extrapolating, also try the fixed point that the last
        ``secant_memory + 1`` iterations predict (Anderson mixing), 0 for none (5 for CCD,
        FABRIK and length relaxation, 0 for Jacobian transpose).
    :raises InvalidSolverOptionError: a value is out of range or of the wrong type.
    """

    handoff_ratio: Optional[float] = None
    trust_region: Optional[float] = None
    extrapolation: Optional[bool] = None
    secant_memory: Optional[int] = None

    def __post_init__(self) -> None:
        checks = (('handoff_ratio', unit_fraction), ('trust_region', positive_float),
                  ('extrapolation', boolean), ('secant_memory', non_negative_integer))
        for name, check in checks:
            value = getattr(self, name)
            if value is not None:  # normalised once: equal tunings compare and hash equal
                object.__setattr__(self, name, check(name, value))


#: The solver options of the previous release that :class:`SearchTuning` now holds.
TUNING_KEYWORDS = frozenset(field.name for field in fields(SearchTuning))


def split_tuning(options: Mapping[str, Any], tuning: Optional[SearchTuning] = None, *,
                 form: str = 'options=SearchOptions(tuning=SearchTuning(%s))',
                 stacklevel: int = 2) -> Tuple[Dict[str, Any], Optional[SearchTuning]]:
    """
    Take the tuning out of solver options of the previous release, warning with its new form.

    :param options: solver options, possibly holding :data:`TUNING_KEYWORDS`.
    :param tuning: the tuning given whole beside them, or None.
    :param form: the new form named by the warning; ``%s`` stands for the tuning's fields.
    :param stacklevel: as :func:`warnings.warn`'s, counted from the caller of this function.
    :returns: ``(the other options, the tuning)``; the tuning is ``tuning`` unchanged when
        ``options`` hold none of its fields.
    :raises InvalidSolverOptionError: a field is given both ways, or is out of range.
    """
    given = {name: value for name, value in options.items() if name in TUNING_KEYWORDS}
    if not given:
        return dict(options), tuning
    if tuning is not None:
        raise InvalidSolverOptionError('tuning= replaces the solver option(s) %s; give them '
                                       'in SearchTuning' % ', '.join(sorted(given)))
    arguments = ', '.join('%s=%r' % item for item in sorted(given.items()))
    warnings.warn('solver option%s %s %s deprecated; give %s'
                  % ('s' if len(given) > 1 else '', ', '.join(sorted(given)),
                     'are' if len(given) > 1 else 'is', form % arguments),
                  DeprecationWarning, stacklevel=stacklevel + 1)
    rest = {name: value for name, value in options.items() if name not in TUNING_KEYWORDS}
    return rest, SearchTuning(**given)
