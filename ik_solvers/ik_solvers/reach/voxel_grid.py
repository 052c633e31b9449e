# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""The voxel grid of a reachability map: a cube of cells around the chain's reach."""

from dataclasses import dataclass
import math
from typing import Tuple

import numpy as np

from ..exceptions import InvalidTargetError

__all__ = ['VoxelGrid']


@dataclass(frozen=True)
class VoxelGrid:
    """
    A regular grid of cubic voxels, by their centres, in the chain's base frame.

    :ivar origin: (3,) centre of voxel (0, 0, 0), m.
    :ivar resolution: edge of a voxel, m.
    :ivar shape: voxels along x, y and z.
    """

    origin: np.ndarray
    resolution: float
    shape: Tuple[int, int, int]

    @classmethod
    def around(cls, centre: np.ndarray, radius: float, resolution: float) -> 'VoxelGrid':
        """
        Return the grid of cubes covering a ball, one voxel centred on the ball's centre.

        :param centre: (3,) m.
        :param radius: m.
        :param resolution: voxel edge, m, finite and positive.
        :raises InvalidTargetError: ``resolution`` is not a finite positive number.
        """
        if isinstance(resolution, bool) or not isinstance(resolution, (int, float)) or not (
                0.0 < resolution < math.inf):
            raise InvalidTargetError('resolution must be a finite positive number of metres, '
                                     'got %r' % (resolution,))
        half = int(math.ceil(radius / resolution))
        side = 2 * half + 1
        origin = np.asarray(centre, dtype=float) - half * resolution
        return cls(origin=origin, resolution=float(resolution), shape=(side, side, side))

    @property
    def size(self) -> int:
        """Return the number of voxels."""
        return int(np.prod(self.shape))

    def centres(self, flat: np.ndarray) -> np.ndarray:
        """Return the voxel centres, (V, 3), m, of the flat (C-order) indices given."""
        cells = np.stack(np.unravel_index(np.asarray(flat), self.shape), axis=1)
        return self.origin + cells * self.resolution

    def within(self, centre: np.ndarray, radius: float) -> np.ndarray:
        """
        Return the flat indices, ascending, of the voxels that reach into a ball.

        A voxel counts when its centre lies within ``radius`` plus half its diagonal of
        ``centre``: no point of a voxel left out is within the ball.
        """
        axes = [self.origin[i] + np.arange(self.shape[i]) * self.resolution for i in range(3)]
        x, y, z = np.meshgrid(*axes, indexing='ij', sparse=True)
        distance = np.sqrt((x - centre[0]) ** 2 + (y - centre[1]) ** 2 + (z - centre[2]) ** 2)
        reach = radius + 0.5 * math.sqrt(3.0) * self.resolution
        return np.flatnonzero((distance <= reach).ravel())
