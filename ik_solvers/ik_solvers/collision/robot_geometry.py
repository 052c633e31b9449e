# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The collision geometry of a whole URDF, meshes loaded: what a collision model is built from.

Loading reads mesh files and may take seconds for huge ones: call :func:`load_robot_geometry`
on a worker thread, never on a ROS executor's. A mesh that cannot be loaded never stops the
rest: its link is listed in :attr:`RobotGeometry.unchecked_links` and a warning names the link
and the file.
"""

from dataclasses import dataclass
from functools import cached_property
import logging
from typing import List, Sequence, Tuple, Union

import numpy as np

from .mesh_files import DEFAULT_MAX_TRIANGLES, load_mesh, MeshLoadError
from .shapes import describe_shape, MeshFile, Shape, size_problem
from ..kinematics import RobotModel

__all__ = ['CollisionElement', 'RobotGeometry', 'load_robot_geometry']

_LOGGER = logging.getLogger('ik_solvers')


@dataclass(frozen=True, eq=False)
class CollisionElement:
    """
    One usable ``<collision>`` of a link.

    :ivar link: the link's name.
    :ivar origin: (4, 4) pose of the shape in the link's frame, m.
    :ivar shape: the shape; a mesh is a loaded :class:`TriangleMesh`.
    :ivar index: the element's position among the link's ``<collision>`` elements (0 first).
    """

    link: str
    origin: np.ndarray
    shape: Shape
    index: int = 0


@dataclass(frozen=True)
class RobotGeometry:
    """
    Every usable ``<collision>`` of a URDF, meshes loaded.

    :ivar elements: the elements; each mesh is a :class:`TriangleMesh` (scaled, maybe reduced
        to its hull).
    :ivar unchecked_links: links with a ``<collision>`` that could not be used, sorted.
    :ivar warnings: one message per such element, naming the link and the file or size; and
        one per mesh reduced to its hull.
    """

    elements: Tuple[CollisionElement, ...] = ()
    unchecked_links: Tuple[str, ...] = ()
    warnings: Tuple[str, ...] = ()

    @cached_property  # the status names them for every request
    def links(self) -> Tuple[str, ...]:
        """Links with usable collision geometry, in the order of the URDF."""
        return tuple(dict.fromkeys(element.link for element in self.elements))


def load_robot_geometry(description: Union[RobotModel, str], *, search_roots: Sequence[str] = (),
                        max_triangles: int = DEFAULT_MAX_TRIANGLES) -> RobotGeometry:
    """
    Take every link's ``<collision>`` elements from the robot model and load their meshes.

    The robot model reads them as urdfdom does: a ``<collision>`` urdfdom cannot read ends the
    reading of its link (the link keeps the ones before it), and the model's message about it
    is repeated in :attr:`RobotGeometry.warnings`.

    :param description: the :class:`ik_solvers.RobotModel`, or the URDF text to build it from.
    :param search_roots: folders holding package folders, searched for ``package://`` meshes
        the ament index does not know (e.g. an install's ``share/``).
    :param max_triangles: meshes with more triangles are reduced to their convex hull.
    :returns: The geometry; warnings are also logged on the ``ik_solvers`` logger.
    :raises RobotModelError: the URDF text is refused (only when text is given); a missing or
        unreadable mesh is a warning instead.
    """
    robot_model = description if isinstance(description, RobotModel) else \
        RobotModel.from_urdf(description)
    elements: List[CollisionElement] = []
    unchecked: List[str] = []
    warnings: List[str] = [message for message in robot_model.parser_messages
                           if 'collisions from there on are ignored' in message]
    cache = {}
    urdf_elements = [CollisionElement(link, collision.origin, collision.geometry, index)
                     for link in robot_model.link_names
                     for index, collision in enumerate(robot_model.collisions(link))]
    for element in urdf_elements:
        shape = element.shape
        problem = size_problem(shape)
        if problem:
            unchecked.append(element.link)
            warnings.append("link '%s': collision %s is not checked: %s"
                            % (element.link, describe_shape(shape), problem))
            continue
        if isinstance(shape, MeshFile):
            key = (shape.filename, tuple(shape.scale))
            try:
                if key not in cache:
                    cache[key] = load_mesh(shape, search_roots=search_roots,
                                           max_triangles=max_triangles)
                shape = cache[key]
            except MeshLoadError as error:
                unchecked.append(element.link)
                warnings.append("link '%s': collision mesh '%s' is not checked: %s"
                                % (element.link, element.shape.filename, error))
                continue
            if shape.convex:
                warnings.append("link '%s': collision mesh '%s' has more than %d triangles; "
                                'its convex hull (%d triangles) is checked instead'
                                % (element.link, element.shape.filename, max_triangles,
                                   len(shape.faces)))
        elements.append(CollisionElement(element.link, element.origin, shape, element.index))
    for warning in warnings:
        _LOGGER.warning('%s', warning)
    return RobotGeometry(elements=tuple(elements),
                         unchecked_links=tuple(sorted(set(unchecked))),
                         warnings=tuple(warnings))
