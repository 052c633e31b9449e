# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Preferences among the solutions of one pose, one class per file, chosen by name.

:data:`PREFERENCES` lists the names; :func:`preference` builds one.
"""

from typing import Dict, Optional, Type

import numpy as np

from ..exceptions import InvalidSolverOptionError
from .preference import Preference
from .clearance import Clearance
from .limit_margin import LimitMargin
from .nearest import Nearest
from .rest_posture import RestPosture
from .tip_manipulability import Manipulability

__all__ = ['PREFERENCES', 'Preference', 'make_preference', 'preference_class']

_REGISTRY: Dict[str, Type[Preference]] = {
    cls.name: cls for cls in (Nearest, RestPosture, LimitMargin, Manipulability, Clearance)}
#: The names a preference is chosen by; the first is the default.
PREFERENCES = tuple(_REGISTRY)


def preference_class(name: str) -> Type[Preference]:
    """
    Return the preference class registered as ``name``.

    :raises InvalidSolverOptionError: no preference has that name.
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise InvalidSolverOptionError('unknown preference %r; known: %s'
                                       % (name, ', '.join(PREFERENCES))) from None


def make_preference(name: str, chain, *, seed: Optional[np.ndarray] = None,
                    rest_posture: Optional[np.ndarray] = None,
                    weights: Optional[np.ndarray] = None, collision=None) -> Preference:
    """
    Build the preference ``name`` for ``chain`` (see :class:`Preference` for the options).

    :raises InvalidSolverOptionError: unknown name, or options the preference refuses.
    """
    return preference_class(name)(chain, seed=seed, rest_posture=rest_posture,
                                  weights=weights, collision=collision)
