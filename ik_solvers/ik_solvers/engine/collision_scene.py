# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What the ik_node checks collisions against: the robot's geometry, the SRDF and the obstacles.

The slow part, reading the collision geometry of a description (meshes may take seconds), runs
on the description loader's thread before the description is adopted (:meth:`load_geometry`):
the model in use keeps serving meanwhile, and a description is adopted together with its
geometry, so no solve ever meets a robot whose geometry is still loading. The SRDF is read on
a thread of its own; obstacles are plain-data updates. Each of them replaces an immutable
input, and :meth:`CollisionScene.model_for` hands every solve a
:class:`~ik_solvers.collision.CollisionModel` of the inputs as they are now: the models are
built once per change and cached, never changed in place, so a solve in flight keeps the
model it started with.
"""

import hashlib
import threading
from typing import Dict, Mapping, Optional, Tuple
import weakref

from .loading_apart import APART_MESH_BYTES, load_geometry_apart, parse_srdf_apart
from ..collision import (
    CollisionModel,
    DisabledPairs,
    Obstacle,
    ObstacleSet,
    REMOVE,
    RobotGeometry,
)
from ..exceptions import IKError, InvalidObstacleError, SrdfError
from ..kinematics import Chain, RobotModel

__all__ = ['APART_MESH_BYTES', 'CollisionScene', 'OFF_CHAIN_RESOLUTION', 'load_geometry_apart']

#: rad or m: joints off the chain (fingers, a torso) that moved less than this since the model
#: was built do not rebuild it; a millimetre is far below any padding worth setting.
OFF_CHAIN_RESOLUTION = 1e-3

# Derived models kept: each branch of a tree, with and without its joints off the chain.
_DERIVED_KEPT = 8


class CollisionScene:
    """Thread-safe holder of the collision inputs and of the models built from them."""

    def __init__(self) -> None:
        """Start without geometry, SRDF or obstacles."""
        self._lock = threading.Lock()
        #: Held while an obstacle changes and while a command is checked and sent
        #: (:mod:`.command_gate`): a command never misses an obstacle in place before it left.
        self.publication = threading.RLock()
        # Geometry of each parsed description, until the model is dropped.
        self._geometry: 'weakref.WeakKeyDictionary[RobotModel, RobotGeometry]' = (
            weakref.WeakKeyDictionary())
        # One-entry cache: the same description published again loads no mesh again.
        self._last_geometry: Tuple[str, Optional[RobotGeometry]] = ('', None)
        self._geometry_problems: Dict[int, str] = {}
        self._disabled: Optional[DisabledPairs] = None
        self._allow_zero_contacts = True
        self._srdf_origin = ''
        self._obstacles = ObstacleSet()
        self._last_refusal = ''
        self._lost_obstacles = 0
        self._handled_obstacles = 0
        # (chain, geometry, disabled) -> model without obstacles, padding or joints off the chain.
        self._base_models: Dict[Tuple[int, int, int], Tuple[Chain, CollisionModel]] = {}
        # Models handed out lately, by what they were derived from, with their base model.
        self._derived: Dict[tuple, Tuple[tuple, CollisionModel]] = {}

    # Inputs ----------------------------------------------------------------------------------

    def load_geometry(self, robot_model: RobotModel, urdf_xml: str) -> RobotGeometry:
        """
        Read and keep the collision geometry of a parsed description (slow: a worker thread).

        A ``<collision>`` urdfdom cannot read ends its link's geometry (a warning says so); a
        missing mesh leaves its link unchecked; a failure of the whole reading leaves the
        description without geometry, with the reason in :meth:`summary`.

        :param robot_model: The description, parsed.
        :param urdf_xml: Its text.
        :returns: The geometry.
        """
        digest = hashlib.sha256(urdf_xml.encode('utf-8', errors='replace')).hexdigest()
        with self._lock:
            cached_digest, geometry = self._last_geometry
        problem = ''
        if geometry is None or cached_digest != digest:
            try:
                geometry = load_geometry_apart(robot_model, urdf_xml)
            except IKError as error:
                geometry, problem = RobotGeometry(), str(error)
        with self._lock:
            self._last_geometry = (digest, geometry)
            self._geometry[robot_model] = geometry
            if problem:
                self._geometry_problems[id(geometry)] = problem
        return geometry

    def set_srdf(self, srdf_xml: str, origin: str) -> DisabledPairs:
        """
        Replace the semantic description's disabled pairs.

        :param srdf_xml: The SRDF text.
        :param origin: Where it came from, for :meth:`summary`.
        :returns: The pairs.
        :raises SrdfError: If it is malformed; the previous SRDF stays, and the refusal is
            remembered for :meth:`summary`.
        """
        try:
            disabled = parse_srdf_apart(srdf_xml)  # a large one in a child process
        except SrdfError as error:
            self.refused('SRDF from %s: %s' % (origin, error))
            raise
        with self._lock:
            self._disabled, self._srdf_origin = disabled, origin
            # Models of the previous SRDF are of no more use: let their memory go.
            self._base_models, self._derived = {}, {}
        return disabled

    def set_zero_contact_rule(self, allowed: bool) -> None:
        """
        Say whether, without an SRDF, pairs in contact at the zero configuration go unchecked.

        :param allowed: True (the default) leaves them unchecked, named in the warnings;
            False checks them. See :class:`~ik_solvers.collision.CollisionModel`.
        """
        with self._lock:
            if self._allow_zero_contacts != bool(allowed):
                self._allow_zero_contacts = bool(allowed)
                self._base_models, self._derived = {}, {}

    def apply_obstacle(self, obstacle: Obstacle, link_names) -> ObstacleSet:
        """
        Add, move or remove an obstacle already posed in the description's root frame.

        :param obstacle: The obstacle (see :class:`~ik_solvers.collision.ObstacleSet`).
        :param link_names: The description's links: an obstacle may not take a link's name.
        :returns: The obstacles in place afterwards.
        :raises InvalidObstacleError: If it is refused; every obstacle in place stays.
        """
        if obstacle.id in set(link_names):
            raise InvalidObstacleError("obstacle '%s' has the name of a link of the robot"
                                       % obstacle.id)
        with self.publication, self._lock:
            obstacles = self._obstacles.apply(obstacle)
            self._obstacles = obstacles
        return obstacles

    def refused(self, reason: str) -> None:
        """Remember the latest refused SRDF or obstacle, for :meth:`summary`."""
        with self._lock:
            self._last_refusal = reason

    def handled_obstacle(self) -> None:
        """Count one obstacle message applied or refused (with its reason on the log)."""
        with self._lock:
            self._handled_obstacles += 1

    def lost_obstacles(self, count: int, reason: str) -> int:
        """Count obstacle messages lost before they reached the scene; return the total."""
        with self._lock:
            self._lost_obstacles += count
            self._last_refusal = reason
            return self._lost_obstacles

    def forget_other_robots(self, robot_model: RobotModel) -> None:
        """
        Drop the models built for any other description, once ``robot_model`` is adopted.

        Obstacles named like a link of the new description are removed (a model cannot tell
        them apart), and the summary says so.
        """
        links = set(robot_model.link_names)
        with self._lock:
            geometry = self._geometry.get(robot_model)
            self._base_models = {key: value for key, value in self._base_models.items()
                                 if geometry is not None and key[1] == id(geometry)}
            self._derived = {}
            clashes = [name for name in self._obstacles.ids if name in links]
            for name in clashes:
                self._obstacles = self._obstacles.apply(Obstacle(name, operation=REMOVE))
            if clashes:
                self._last_refusal = ('obstacles removed, the robot description has links of '
                                      'their names: %s' % ', '.join(clashes))

    # Models ----------------------------------------------------------------------------------

    def has_geometry(self, robot_model: RobotModel) -> bool:
        """Tell whether the description has any usable collision geometry."""
        with self._lock:
            geometry = self._geometry.get(robot_model)
        return geometry is not None and bool(geometry.elements)

    def model_for(self, robot_model: RobotModel, chain: Chain,
                  joint_positions: Mapping[str, float], padding: float
                  ) -> Optional[CollisionModel]:
        """
        Give the collision model of the scene as it is now, for one chain.

        :param robot_model: The description the chain was cut from.
        :param chain: The chain solved.
        :param joint_positions: Current positions by joint name (rad or m); those of joints
            off the chain pose the links that do not move with it.
        :param padding: m added around every shape, >= 0.
        :returns: The model, or ``None`` when the description has no collision geometry.
        :raises CollisionGeometryError: If ``padding`` is negative or not finite (from the
            collision model).
        """
        with self._lock:
            geometry = self._geometry.get(robot_model)
            disabled, obstacles, derived = self._disabled, self._obstacles, self._derived
        if geometry is None or not geometry.elements:
            return None
        base = self._base_model(robot_model, chain, geometry, disabled)
        chain_joints = set(chain.joint_names)
        off_chain = tuple(sorted(
            (name, round(float(value) / OFF_CHAIN_RESOLUTION))
            for name, value in joint_positions.items() if name not in chain_joints))
        key = ('placed', id(base), id(obstacles), float(padding), off_chain)
        found = derived.get(key)
        # Kept with what they came from: an id is only unique while its object lives.
        if found is not None and found[0][0] is base and found[0][1] is obstacles:
            return found[1]
        sources = (base, obstacles)
        positions = {name: steps * OFF_CHAIN_RESOLUTION for name, steps in off_chain}
        # Obstacles are kept in the root frame: posed in a base below the root by the joints.
        obstacle_count = len(obstacles)
        posed = obstacle_count > 0 and robot_model.root_link != chain.base_link
        scene_key = ('scene', id(base), id(obstacles), float(padding)) + (
            (off_chain,) if posed else ())
        found = derived.get(scene_key)
        scene = (found[1] if found is not None and found[0][0] is base
                 and found[0][1] is obstacles else None)
        if scene is None:
            scene = base
            if obstacle_count:
                if posed:
                    obstacles = obstacles.posed_by(
                        robot_model.transform(chain.base_link, robot_model.root_link, positions))
                scene = scene.with_obstacles(obstacles)
            if padding != scene.padding:
                scene = scene.with_padding(padding)
        # Placing the same shapes at other positions of the joints off the chain is cheap
        # (:meth:`CollisionModel.with_joint_positions`); a new obstacle set or padding is not.
        model = scene.with_joint_positions(positions) if off_chain else scene
        with self._lock:
            if self._derived is derived:  # not dropped meanwhile by a new SRDF or description
                for entry, value in ((scene_key, scene), (key, model)):
                    derived.pop(entry, None)
                    derived[entry] = (sources, value)
                while len(derived) > _DERIVED_KEPT:
                    derived.pop(next(iter(derived)))
        return model

    def placed(self, robot_model: RobotModel, chain: Chain,
               joint_positions: Mapping[str, float], padding: float, *, check: bool
               ) -> Tuple[Optional[CollisionModel], str]:
        """
        Give one request's collision model (see :meth:`model_for`) and the scene's summary.

        :param check: Whether the request checks collisions; the model is None when not.
        :returns: ``(model or None, summary)`` (see :meth:`summary`).
        :raises CollisionGeometryError: As :meth:`model_for`.
        """
        summary = self.summary(robot_model)
        if not check:
            return None, summary
        return self.model_for(robot_model, chain, joint_positions, padding), summary

    def prepare(self, robot_model: RobotModel, chain: Chain) -> Optional[CollisionModel]:
        """
        Build the model of a chain ahead of the first solve (on a worker thread).

        :returns: The model without obstacles, or ``None`` without geometry.
        """
        with self._lock:
            geometry = self._geometry.get(robot_model)
            disabled = self._disabled
        if geometry is None or not geometry.elements:
            return None
        return self._base_model(robot_model, chain, geometry, disabled)

    def _base_model(self, robot_model: RobotModel, chain: Chain, geometry: RobotGeometry,
                    disabled: Optional[DisabledPairs]) -> CollisionModel:
        key = (id(chain), id(geometry), id(disabled))
        with self._lock:
            found = self._base_models.get(key)
        if found is not None and found[0] is chain:
            return found[1]
        with self._lock:
            allow_zero_contacts = self._allow_zero_contacts
        model = CollisionModel(robot_model, chain, geometry, disabled=disabled,
                               allow_zero_contacts=allow_zero_contacts)
        with self._lock:
            # A new chain or SRDF makes the older models useless: keep the newest few.
            if len(self._base_models) >= 4:
                self._base_models.pop(next(iter(self._base_models)))
            self._base_models[key] = (chain, model)
        return model

    # Reports ---------------------------------------------------------------------------------

    def warnings(self, robot_model: RobotModel, chain: Chain) -> Tuple[str, ...]:
        """Give the messages worth logging about the geometry and the SRDF of a chain."""
        with self._lock:
            geometry = self._geometry.get(robot_model)
            problem = self._geometry_problems.get(id(geometry), '') if geometry else ''
        notes = ('collision geometry unusable, collisions are not checked: %s' % problem,
                 ) if problem else ()
        model = self.prepare(robot_model, chain)
        return notes + (model.warnings if model is not None else ())

    def summary(self, robot_model: Optional[RobotModel]) -> str:
        """
        Say in one line what collisions are checked against, and the latest refusal.

        :param robot_model: The description in use, or ``None`` before any.
        :returns: E.g. ``"11 links with geometry, 2 unchecked (a, b); SRDF from the topic
            (20 pairs); obstacles: box; refused: ..."``.
        """
        with self._lock:
            geometry = self._geometry.get(robot_model) if robot_model is not None else None
            problem = self._geometry_problems.get(id(geometry), '') if geometry else ''
            disabled, origin = self._disabled, self._srdf_origin
            obstacles, refusal = self._obstacles, self._last_refusal
            lost, handled = self._lost_obstacles, self._handled_obstacles
        parts = []
        if geometry is None:
            parts.append('no robot description')
        elif problem:
            parts.append('collision geometry unusable: %s' % problem)
        else:
            parts.append('%d links with collision geometry' % len(geometry.links))
            if geometry.unchecked_links:
                parts.append('unchecked: %s' % ', '.join(geometry.unchecked_links))
        parts.append('SRDF from %s (%d pairs disabled)' % (origin, len(disabled.pairs))
                     if disabled is not None else 'no SRDF')
        ids = obstacles.ids
        listed = ', '.join(ids[:8]) + (' and %d more' % (len(ids) - 8) if len(ids) > 8 else '')
        parts.append('obstacles: %s' % (listed or 'none'))
        parts.append('obstacle messages: %d handled, %d lost' % (handled, lost))
        if refusal:
            parts.append('last refused: %s' % refusal)
        return '; '.join(parts)
