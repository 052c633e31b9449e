# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""What a request asks of the tip: its orientation mode, axis, bounds and fallback."""

from typing import Any, Dict

from .outcome import IKRequest
from .settings import NodeSettings

__all__ = ['goal_arguments']


def goal_arguments(request: IKRequest, settings: NodeSettings) -> Dict[str, Any]:
    """
    Return the goal arguments of ``solve()`` a request asks for, the parameters filling in.

    :param request: The request; empty fields mean the node's parameters.
    :param settings: The node's parameters.
    :returns: ``orientation_mode``, ``position_only``, ``tip_axis``, ``position_bounds``,
        ``rotation_bounds`` and ``orientation_fallback``, unchecked (``solve()`` checks them).
    """
    position_only = (settings.position_only if request.position_only is None
                     else request.position_only)
    mode = request.orientation_mode
    if not mode:
        mode, position_only = ('none' if position_only else settings.orientation_mode), False
    position_bounds = tuple(request.position_bounds) or None
    rotation_bounds = tuple(request.rotation_bounds) or None
    fallback = request.orientation_fallback
    if fallback is None:  # the parameter applies where it can
        fallback = (settings.orientation_fallback and mode == 'full' and position_bounds is None
                    and rotation_bounds is None)
    return {'orientation_mode': mode, 'position_only': position_only,
            'tip_axis': tuple(request.tip_axis) or settings.tip_axis,
            'position_bounds': position_bounds, 'rotation_bounds': rotation_bounds,
            'orientation_fallback': fallback}
