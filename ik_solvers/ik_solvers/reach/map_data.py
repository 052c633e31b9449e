# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
A reachability map as data, and its ``.npz`` file (schema in docs/REACHABILITY.md).

Arrays are indexed ``[i, j, k]`` along the base frame's x, y and z; the voxel ``[i, j, k]`` is
centred at ``origin + resolution * (i, j, k)``.
"""

from dataclasses import dataclass, field
import json
from typing import Any, Dict

import numpy as np

from ..exceptions import IKError

__all__ = ['MAP_FORMAT', 'ReachabilityMap', 'load_map']

#: The value of the file's ``format`` entry; another value is refused.
MAP_FORMAT = 'ik_solvers.reachability_map/1'


@dataclass
class ReachabilityMap:
    """
    Per voxel: how many of M orientations the chain reaches, and how well.

    :ivar origin: (3,) centre of voxel [0, 0, 0], m, base frame.
    :ivar resolution: voxel edge, m.
    :ivar index: (X, Y, Z) float32 reachability index: orientations solved / M (0 where not
        evaluated).
    :ivar manipulability: (X, Y, Z) float32 mean Yoshikawa manipulability of the solutions
        (0 where none).
    :ivar solved: (X, Y, Z) uint16 orientations solved (collision-free with a check).
    :ivar evaluated: (X, Y, Z) bool, the voxel was solved for (the others lie beyond the
        chain's reach and count as 0).
    :ivar rotations: (M, 3, 3) the orientations tested at every voxel, base frame.
    :ivar metadata: what made the map (chain, options, seed, time); JSON-serialisable.
    """

    origin: np.ndarray
    resolution: float
    index: np.ndarray
    manipulability: np.ndarray
    solved: np.ndarray
    evaluated: np.ndarray
    rotations: np.ndarray
    metadata: Dict[str, Any] = field(default_factory=dict)

    def centres(self) -> np.ndarray:
        """Return every voxel's centre, (X, Y, Z, 3), m."""
        axes = [self.origin[i] + np.arange(self.index.shape[i]) * self.resolution
                for i in range(3)]
        return np.stack(np.meshgrid(*axes, indexing='ij'), axis=-1)

    def save(self, path: str) -> None:
        """Write the map to ``path`` (``.npz``, compressed)."""
        np.savez_compressed(
            path, format=np.array(MAP_FORMAT), origin=self.origin,
            resolution=np.array(self.resolution), index=self.index,
            manipulability=self.manipulability, solved=self.solved, evaluated=self.evaluated,
            rotations=self.rotations, metadata=np.array(json.dumps(self.metadata)))


def load_map(path: str) -> ReachabilityMap:
    """
    Read a map written by :meth:`ReachabilityMap.save`.

    :raises IKError: the file is not such a map (another format, a missing array).
    :raises OSError: the file cannot be read.
    """
    with np.load(path, allow_pickle=False) as data:
        try:
            if str(data['format']) != MAP_FORMAT:
                raise IKError('%s is a %s file, not %s' % (path, data['format'], MAP_FORMAT))
            return ReachabilityMap(
                origin=data['origin'], resolution=float(data['resolution']),
                index=data['index'], manipulability=data['manipulability'],
                solved=data['solved'], evaluated=data['evaluated'],
                rotations=data['rotations'], metadata=json.loads(str(data['metadata'])))
        except KeyError as error:
            raise IKError('%s is not a reachability map: %s' % (path, error)) from None
