# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""PNG pictures of a reachability map: slices at several heights, and a 3-D view (matplotlib)."""

import math
from typing import Optional

import numpy as np

from .map_data import ReachabilityMap

__all__ = ['save_slices', 'save_view']


def _pyplot():
    import matplotlib
    matplotlib.use('Agg')  # files only, no display
    import matplotlib.pyplot as pyplot
    return pyplot


def save_slices(reach_map: ReachabilityMap, path: str, *, layer: str = 'index',
                count: int = 6) -> None:
    """
    Write horizontal slices (constant z) of one layer of the map as one PNG.

    :param reach_map: the map.
    :param path: the PNG file.
    :param layer: ``'index'`` or ``'manipulability'``.
    :param count: slices, evenly spaced over the heights where the map is not empty.
    """
    pyplot = _pyplot()
    values = reach_map.index if layer == 'index' else reach_map.manipulability
    filled = np.flatnonzero(values.max(axis=(0, 1)) > 0.0)
    if filled.size == 0:
        filled = np.arange(values.shape[2])
    heights = np.unique(np.linspace(filled[0], filled[-1], count).round().astype(int))
    columns = min(3, heights.size)
    rows = int(math.ceil(heights.size / columns))
    figure, axes = pyplot.subplots(rows, columns, figsize=(4.0 * columns, 3.6 * rows),
                                   squeeze=False)
    x0, y0 = reach_map.origin[0], reach_map.origin[1]
    extent = (x0 - reach_map.resolution / 2, x0 + reach_map.resolution * (values.shape[0] - .5),
              y0 - reach_map.resolution / 2, y0 + reach_map.resolution * (values.shape[1] - .5))
    top = 1.0 if layer == 'index' else max(float(values.max()), 1e-12)
    image = None
    for axis, height in zip(axes.ravel(), heights):
        image = axis.imshow(values[:, :, height].T, origin='lower', extent=extent,
                            vmin=0.0, vmax=top, cmap='viridis')
        axis.set_title('z = %.3f m' % (reach_map.origin[2] + height * reach_map.resolution))
        axis.set_xlabel('x (m)')
        axis.set_ylabel('y (m)')
    for axis in axes.ravel()[heights.size:]:
        axis.axis('off')
    figure.colorbar(image, ax=axes.ravel().tolist(),
                    label='reachability index' if layer == 'index' else 'manipulability')
    figure.suptitle('%s, %s: %s, %.3f m voxels' % (
        reach_map.metadata.get('tip_link', ''), layer, reach_map.metadata.get(
            'orientation_mode', ''), reach_map.resolution))
    figure.savefig(path, dpi=80)
    pyplot.close(figure)


def save_view(reach_map: ReachabilityMap, path: str, *, min_index: float = 1e-9,
              cut: Optional[str] = 'y') -> None:
    """
    Write a 3-D view of the voxels whose index is at least ``min_index`` as a PNG.

    :param cut: ``'y'`` shows only the half y <= the map's centre, so that the inside shows;
        None shows every voxel.
    """
    pyplot = _pyplot()
    centres = reach_map.centres()
    keep = reach_map.index >= min_index
    if cut == 'y':
        keep &= centres[..., 1] <= reach_map.origin[1] + reach_map.resolution * (
            (reach_map.index.shape[1] - 1) / 2.0)
    points = centres[keep]
    figure = pyplot.figure(figsize=(6.0, 5.0))
    axis = figure.add_subplot(projection='3d')
    drawn = axis.scatter(points[:, 0], points[:, 1], points[:, 2], c=reach_map.index[keep],
                         cmap='viridis', vmin=0.0, vmax=1.0, marker='s',
                         s=max(2.0, 400.0 * reach_map.resolution), depthshade=False)
    figure.colorbar(drawn, ax=axis, shrink=0.7, label='reachability index')
    if cut == 'y':
        axis.view_init(elev=20.0, azim=60.0)  # the camera on the +y side faces the cut
    axis.set_xlabel('x (m)')
    axis.set_ylabel('y (m)')
    axis.set_zlabel('z (m)')
    axis.set_title('%s reachability, %d orientations per voxel' % (
        reach_map.metadata.get('tip_link', ''), reach_map.rotations.shape[0]))
    figure.savefig(path, dpi=80)
    pyplot.close(figure)
