# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Finding and loading the mesh files a URDF names: STL, Collada (DAE) and OBJ, through trimesh.

``package://pkg/path`` resolves through the ament index, then through the caller's search
roots (folders holding package folders, like an install's ``share/``); ``file://`` URIs and
absolute paths are used as they are. A mesh of more than ``max_triangles`` triangles is
replaced by a convex hull of bounded size (see :func:`convex_hull_mesh`): a check against
it stays fast, and the hull contains the mesh, so nothing that touches the mesh is missed.
Loading is a plain function: the caller decides which thread it runs on.
"""

import os
from pathlib import Path
from typing import Optional, Sequence
from urllib.parse import unquote, urlparse

import numpy as np

from ..exceptions import MeshLoadError
from .shapes import MeshFile, TriangleMesh

__all__ = ['DEFAULT_MAX_TRIANGLES', 'MAX_MESH_FILE_BYTES', 'MeshLoadError', 'load_mesh',
           'resolve_mesh_path']

# More triangles than this and a mesh is replaced by its convex hull. Collision meshes of
# arms have a few thousand; visual meshes used for collision, tens of thousands.
DEFAULT_MAX_TRIANGLES = 50_000
# A mesh file larger than this is not read at all (a binary STL of 2 million triangles is
# 100 MB): reading it would take longer than anyone waits for a description.
MAX_MESH_FILE_BYTES = 300 * 1024 * 1024


# A reduced mesh is the hull of a grid of this many cells along its longest side: at most
# 1/64 of its size larger than the mesh (1.6 cm on a 1 m link).
HULL_GRID_CELLS = 64
_CELL_CORNERS = np.array([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)],
                         dtype=np.int64)


def _package_directory(package: str, search_roots: Sequence[str]) -> Optional[Path]:
    try:
        from ament_index_python.packages import get_package_share_directory
        return Path(get_package_share_directory(package))
    except Exception:  # noqa: B902 - no ament index, or the package is not in it
        pass
    for root in search_roots:
        candidate = Path(root) / package
        if candidate.is_dir():
            return candidate
    return None


def resolve_mesh_path(filename: str, search_roots: Sequence[str] = ()) -> Path:
    """
    Turn a URDF mesh filename into a path on this machine.

    :param filename: ``package://pkg/relative``, ``file:///absolute`` or a path (a relative
        path counts from the current folder, as urdfdom's users read it).
    :param search_roots: folders to look for ``pkg`` in when the ament index does not know it.
    :returns: The path; it may not exist (:func:`load_mesh` says so).
    :raises MeshLoadError: a ``package://`` URI names a package found nowhere, or the scheme is
        not one of package, file or none.
    """
    parsed = urlparse(filename)
    if parsed.scheme == 'package':
        package = parsed.netloc
        directory = _package_directory(package, search_roots)
        if directory is None:
            raise MeshLoadError("package '%s' is neither in the ament index nor under %s"
                                % (package, ', '.join(map(str, search_roots)) or 'any root'))
        return directory / unquote(parsed.path).lstrip('/')
    if parsed.scheme == 'file':
        return Path(unquote(parsed.netloc + parsed.path))
    if parsed.scheme == '' or len(parsed.scheme) == 1:  # '' or a Windows drive letter
        return Path(filename)
    raise MeshLoadError("unsupported URI scheme '%s://' (expected package://, file:// or a "
                        'path)' % parsed.scheme)


def load_mesh(mesh: MeshFile, *, search_roots: Sequence[str] = (),
              max_triangles: int = DEFAULT_MAX_TRIANGLES) -> TriangleMesh:
    """
    Load, scale and, if huge, reduce a mesh a URDF names.

    :param mesh: the filename and scale from the URDF.
    :param search_roots: see :func:`resolve_mesh_path`.
    :param max_triangles: meshes with more triangles become their convex hull.
    :returns: The mesh in the link's collision frame, m.
    :raises MeshLoadError: the file is missing, not a regular file, too large, unreadable, of
        an unknown format, or holds no triangles.
    """
    path = resolve_mesh_path(mesh.filename, search_roots)
    try:
        size = os.path.getsize(path)
    except OSError as error:
        raise MeshLoadError('cannot read %s: %s' % (path, error.strerror or error)) from None
    # A device or a pipe (file:///dev/zero) would be read for ever.
    if not os.path.isfile(path):
        raise MeshLoadError('%s is not a regular file' % path)
    if size > MAX_MESH_FILE_BYTES:
        raise MeshLoadError('%s is %d MB, more than the %d MB read for collision geometry'
                            % (path, size // 2**20, MAX_MESH_FILE_BYTES // 2**20))
    import trimesh  # a second or so to import; only needed when a description has meshes
    try:
        # process=False: merging duplicate vertices of a big STL takes longer than the load.
        loaded = trimesh.load(str(path), force='mesh', process=False)
    except Exception as error:  # noqa: B902 - trimesh and its readers raise anything
        raise MeshLoadError('cannot read %s: %s' % (path, str(error).strip()[:200]
                                                    or type(error).__name__)) from None
    vertices = np.asarray(getattr(loaded, 'vertices', np.empty((0, 3))), dtype=float)
    faces = np.asarray(getattr(loaded, 'faces', np.empty((0, 3))), dtype=np.int64)
    if len(faces) == 0 or vertices.ndim != 2 or vertices.shape[1] != 3 or not np.isfinite(
            vertices).all():
        raise MeshLoadError('%s holds no usable triangles' % path)
    scale = np.asarray(mesh.scale, dtype=float)
    vertices = vertices * scale
    if np.prod(scale) < 0.0:
        # A mirror image turns every triangle inside out: reverse the winding so that the
        # normals point outward again, as urdfdom's loaders do.
        faces = faces[:, ::-1]
    if len(faces) <= max_triangles:
        return TriangleMesh(vertices=np.ascontiguousarray(vertices),
                            faces=np.ascontiguousarray(faces), source=str(path))
    return convex_hull_mesh(vertices, source=str(path))


def convex_hull_mesh(vertices: np.ndarray, *, source: str = '') -> TriangleMesh:
    """
    Return a convex mesh that contains every point, of bounded size, in bounded time.

    The points are binned on a grid of :data:`HULL_GRID_CELLS` cells along the longest side of
    their bounding box; the hull of the corners of the occupied cells contains every point and
    is at most one cell's diagonal larger than their exact hull, whatever their number (a
    sphere of millions of vertices has a hull of millions of faces; this one has a few
    thousand). Binning is linear in the points; qhull then sees at most a few ten thousand.

    :raises MeshLoadError: the points span no volume (all on a plane or a line).
    """
    from scipy.spatial import ConvexHull, QhullError
    low = vertices.min(axis=0)
    cell = max(float(np.max(vertices.max(axis=0) - low)), 1e-9) / HULL_GRID_CELLS
    size = HULL_GRID_CELLS + 2
    bins = np.floor((vertices - low) / cell).astype(np.int64)
    codes = np.unique((bins[:, 0] * size + bins[:, 1]) * size + bins[:, 2])
    occupied = np.column_stack((codes // (size * size), (codes // size) % size, codes % size))
    corners = (occupied[:, None, :] + _CELL_CORNERS[None, :, :]).reshape(-1, 3)
    corners = np.unique(corners, axis=0)
    try:
        hull = ConvexHull(low + corners * cell)
    except (QhullError, ValueError) as error:
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise MeshLoadError('%s spans no volume: %s' % (source or 'the mesh', first_line)) \
            from None
    used = np.unique(hull.simplices)
    index = np.full(len(hull.points), -1, dtype=np.int64)
    index[used] = np.arange(len(used))
    return TriangleMesh(vertices=np.ascontiguousarray(hull.points[used]),
                        faces=np.ascontiguousarray(index[hull.simplices]), convex=True,
                        source=source)
