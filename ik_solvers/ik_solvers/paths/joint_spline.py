# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The geometric path a timed joint path follows: the cubic spline through its points.

The spline is the interpolating cubic with not-a-knot ends, the same curve as toppra's own
``SplineInterpolator`` (scipy's ``CubicSpline``), but built by scipy's ``make_interp_spline``:
one banded solve in compiled code, half the time of ``CubicSpline`` on a path of 300 points,
where building the spline took a fifth of the whole timing. toppra takes it as an abstract
geometric path.
"""

from typing import Any, Optional

import numpy as np

__all__ = ['joint_spline']

_PATH_CLASS: Optional[type] = None


def _path_class() -> type:
    global _PATH_CLASS
    if _PATH_CLASS is None:
        # Imported on first use, as in parametrization.py: toppra's import takes seconds.
        from toppra.interpolator import AbstractGeometricPath

        class JointSpline(AbstractGeometricPath):
            """A scipy B-spline of the joint path, as toppra evaluates a geometric path."""

            def __init__(self, spline: Any, interval: np.ndarray, dof: int) -> None:
                super().__init__()
                self._spline = spline
                self._interval = interval
                self._dof = dof

            def __call__(self, path_positions: Any, order: int = 0) -> np.ndarray:
                """Return the positions (order 0) or a derivative (1, 2) at the parameters."""
                if order > self._spline.k:  # a line or a parabola: that derivative is zero
                    return np.zeros(np.shape(path_positions) + (self._dof,))
                return self._spline(path_positions, order)

            @property
            def dof(self) -> int:
                """Return the number of joints."""
                return self._dof

            @property
            def path_interval(self) -> np.ndarray:
                """Return the first and last path parameter."""
                return self._interval

        _PATH_CLASS = JointSpline
    return _PATH_CLASS


def joint_spline(parameters: np.ndarray, positions: np.ndarray) -> Any:
    """
    Return the cubic spline through ``positions`` at ``parameters`` as a toppra path.

    :param parameters: (K,) strictly increasing path parameter of each point, K >= 2.
    :param positions: (K, N) joint path, rad or m.
    :returns: A ``toppra.interpolator.AbstractGeometricPath``: called with ``(s, order)`` it
        gives the (M, N) positions (order 0, rad or m), or their first (1) or second (2)
        derivatives with respect to s, at the (M,) parameters ``s``.
    :raises ValueError: Fewer than two points, or parameters that do not increase.
    """
    from scipy.interpolate import make_interp_spline

    # Through three points the not-a-knot cubic is the parabola, through two the line.
    spline = make_interp_spline(parameters, positions, k=min(3, parameters.shape[0] - 1))
    return _path_class()(spline, np.array([parameters[0], parameters[-1]]),
                         positions.shape[1])
