# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Collision geometry and SRDFs too large to read on a thread of the node: read in a child process.

Reading a description's meshes of millions of triangles holds the interpreter lock for seconds
(numpy's sorts) and takes hundreds of megabytes: on a thread of the node it would stall every
solve. Small inputs are read here; a child costs seconds to start (it imports the package).
"""

import logging
import os

from .memory import APART_INPUT_BYTES, run_apart
from ..collision import (
    DisabledPairs,
    load_robot_geometry,
    MeshFile,
    MeshLoadError,
    parse_srdf,
    resolve_mesh_path,
    RobotGeometry,
)
from ..collision.srdf import MAX_SRDF_BYTES
from ..kinematics import RobotModel

__all__ = ['APART_MESH_BYTES', 'load_geometry_apart', 'parse_srdf_apart']

_LOGGER = logging.getLogger('ik_solvers')

#: Bytes of mesh files above which a description's geometry is loaded in a child process. The
#: collision meshes of real arms are tens to hundreds of kilobytes (the vendor Panda's: 136 kB)
#: and load in about a second on a thread; 4 MB is some 80,000 triangles of binary STL, whose
#: reduction to a hull holds the interpreter lock for tens of milliseconds at most.
APART_MESH_BYTES = 4 * 1024 * 1024


def _mesh_bytes(robot_model: RobotModel) -> int:
    """Sum the sizes of the mesh files a description names (missing ones count 0)."""
    total = 0
    filenames = {collision.geometry.filename for link in robot_model.link_names
                 for collision in robot_model.collisions(link)
                 if isinstance(collision.geometry, MeshFile)}
    for filename in filenames:
        try:
            total += os.path.getsize(resolve_mesh_path(filename))
        except (MeshLoadError, OSError):
            continue
    return total


def load_geometry_apart(robot_model: RobotModel, urdf_xml: str) -> RobotGeometry:
    """
    Load a description's collision geometry; one with meshes in a process of its own.

    Reading and reducing a mesh of millions of triangles holds the interpreter lock for
    seconds at a time (numpy's sorts do): on a thread of the node it would stall every solve
    meanwhile. A child process costs seconds to start (it imports the package), so
    descriptions whose mesh files total at most :data:`APART_MESH_BYTES` are read here.

    :param robot_model: The description, parsed (its ``<collision>`` elements are read).
    :param urdf_xml: Its text, parsed again by the child process.
    :returns: The geometry (see :func:`~ik_solvers.collision.load_robot_geometry`).
    """
    if _mesh_bytes(robot_model) <= APART_MESH_BYTES:
        return load_robot_geometry(robot_model)
    try:
        return run_apart(load_robot_geometry, urdf_xml)
    except OSError as error:
        _LOGGER.warning('could not load the collision meshes in a process of their own (%s); '
                        'loading them here, which may stall solves meanwhile', error)
        return load_robot_geometry(robot_model)


def parse_srdf_apart(srdf_xml: str) -> DisabledPairs:
    """
    Read an SRDF's disabled pairs; one of more than a megabyte in a process of its own.

    lxml holds the interpreter lock while it parses, and the objects of a parse of megabytes
    make Python's garbage collections long: on a thread of the node, either stalls the solves
    meanwhile (an SRDF of 17.5 MB held a SolveIK for more than a second). A child process
    takes a second or two to start, so SRDFs of at most
    :data:`~.memory.APART_INPUT_BYTES` characters (every real one) are read here.

    :param srdf_xml: The SRDF text.
    :returns: The pairs (see :func:`~ik_solvers.collision.parse_srdf`).
    :raises SrdfError: As :func:`~ik_solvers.collision.parse_srdf`, from the child too.
    """
    if not isinstance(srdf_xml, str) or not (APART_INPUT_BYTES < len(srdf_xml)
                                             <= MAX_SRDF_BYTES):
        return parse_srdf(srdf_xml)  # small, or refused for its size at once
    try:
        return run_apart(parse_srdf, srdf_xml)
    except OSError as error:
        _LOGGER.warning('could not read the SRDF in a process of its own (%s); reading it here, '
                        'which may stall solves meanwhile', error)
        return parse_srdf(srdf_xml)
