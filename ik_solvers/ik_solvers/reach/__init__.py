# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Reachability maps: per voxel of a grid, the share of M orientations a chain reaches.

:func:`reachability_map` computes one (locally on every core, or on a Dask cluster),
:func:`load_map` reads one back; ``ik_solvers_reach`` is the command line. The file's schema is
in docs/REACHABILITY.md.
"""

from .compute import reachability_map
from .map_data import load_map, MAP_FORMAT, ReachabilityMap

__all__ = ['MAP_FORMAT', 'ReachabilityMap', 'load_map', 'reachability_map']
