# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The exact collision check of a chain against itself, the rest of the robot and obstacles.

A :class:`CollisionModel` is built once from the robot model, the chain, the loaded geometry
(:func:`load_robot_geometry`), the SRDF's disabled pairs and the obstacles; :meth:`check`
then answers for one configuration in one compiled call (every shape placed, the pairs whose
bounding boxes overlap selected, see :mod:`.broad_phase`) and one exact coal test per selected
pair. Which pairs are checked:

- every pair of shapes on different links of which at least one moves with the chain, and
  every moving shape against every obstacle;
- minus parent-child links (links without geometry skipped over), which touch by design;
- minus the SRDF's ``<disable_collisions>`` pairs; pairs naming unknown links are ignored
  with one warning;
- without an SRDF only, minus the pairs still in contact at the zero configuration after
  those (:attr:`CollisionModel.zero_contacts` lists them, and a warning names them), unless
  ``allow_zero_contacts=False``. With an SRDF every pair it does not disable is checked, as
  MoveIt checks them: pairs it leaves in contact at the zero configuration are named in a
  warning, and checked.

A model never changes; :meth:`with_obstacles`, :meth:`with_padding` and
:meth:`with_joint_positions` return new ones cheaply (the meshes are shared), so that a reader
is never disturbed by an update.
"""

import copy
import math
import threading
from typing import FrozenSet, List, Mapping, Optional, Set, Tuple

import coal
import numpy as np

from .broad_phase import first_overlap_on_line, place_and_select
from .coal_shapes import coal_geometry, coal_hull
from .link_placement import adjacent_pairs, FIXED, LinkAnchors
from .obstacles import ObstacleSet
from .collision_report import CollisionReport
from .robot_geometry import RobotGeometry
from .shape_layout import lay_out, place, placed_poses
from .srdf import DisabledPairs, link_pair
from ..exceptions import CollisionGeometryError, InvalidObstacleError, InvalidSeedError
from ..kinematics.jit import specialised

__all__ = ['CollisionModel']

# m added around the hulls of a pair before they may certify it free.
_HULL_MARGIN = 1e-6


class CollisionModel:
    """
    Collision checking of one chain's configurations.

    :param robot_model: the :class:`ik_solvers.RobotModel`.
    :param chain: a chain cut from it.
    :param geometry: the robot's loaded collision geometry.
    :param disabled: the SRDF's pairs (:func:`parse_srdf`); None when there is no SRDF.
    :param obstacles: runtime obstacles, posed in the chain's base frame.
    :param padding: m added around every shape (contacts closer than it count), >= 0.
    :param joint_positions: rad or m of the joints off the chain (a gripper, a torso, another
        arm), which pose the links that do not move with the chain.
    :param allow_zero_contacts: without an SRDF, leave unchecked the pairs in contact at the
        zero configuration (a URDF alone does not say which touching links are meant to);
        False checks them too. Ignored with an SRDF, whose pairs decide.
    :raises CollisionGeometryError: a negative or non-finite padding.
    :raises InvalidObstacleError: an obstacle id equals a link name.
    :raises RobotModelError: the chain is not from this robot model.
    """

    def __init__(self, robot_model, chain, geometry: RobotGeometry, *,
                 disabled: Optional[DisabledPairs] = None,
                 obstacles: Optional[ObstacleSet] = None, padding: float = 0.0,
                 joint_positions: Optional[Mapping[str, float]] = None,
                 allow_zero_contacts: bool = True):
        """Build the model (coal geometries of every mesh: milliseconds per mesh)."""
        self._robot_model = robot_model
        self._chain = chain
        self._geometry = geometry
        self._padding = _checked_padding(padding)
        self._obstacles = obstacles if obstacles is not None else ObstacleSet()
        self._joint_positions = dict(joint_positions or {})
        self._shapes = [coal_geometry(element.shape) for element in geometry.elements]
        self._hulls = [coal_hull(element.shape) for element in geometry.elements]
        self._links = geometry.links
        self._warnings: List[str] = list(geometry.warnings)
        allowed = adjacent_pairs(robot_model, self._links)
        self._zero_contacts: Tuple[Tuple[str, str], ...] = ()
        if disabled is not None:
            unknown = disabled.unknown(robot_model.link_names)
            if unknown:
                self._warnings.append(
                    'the SRDF disables %d pairs naming links this robot does not have; they '
                    'are ignored: %s' % (len(unknown), ', '.join('%s-%s' % pair
                                                                 for pair in unknown)))
            allowed |= set(disabled.pairs)
        self._allowed: Set[FrozenSet[str]] = allowed
        self._disabled = disabled
        self._lock = threading.Lock()
        self._anchors = LinkAnchors(robot_model, chain, self._links)
        self._assemble()
        contacts = self.check(np.zeros(chain.num_joints)).pairs
        named = ', '.join('%s-%s' % pair for pair in contacts)
        if contacts and disabled is not None:
            # The SRDF decides, as in MoveIt: a pair it keeps is checked even if it touches.
            self._warnings.append(
                'the SRDF does not disable %d pairs in contact at the zero configuration; '
                'they are checked, so configurations near zero collide: %s'
                % (len(contacts), named))
        elif contacts and allow_zero_contacts:
            # A URDF alone does not say which touching links are meant to touch.
            self._zero_contacts = contacts
            self._allowed = allowed | {link_pair(*pair) for pair in contacts}
            self._warnings.append(
                'no SRDF: %d pairs in contact at the zero configuration are not checked (turn '
                'this off with allow_zero_contacts=False): %s' % (len(contacts), named))
            self._assemble()
        elif contacts:
            self._warnings.append(
                'no SRDF: %d pairs in contact at the zero configuration are checked '
                '(allow_zero_contacts=False): %s' % (len(contacts), named))

    # --- derived models -------------------------------------------------------------------

    def with_obstacles(self, obstacles: ObstacleSet) -> 'CollisionModel':
        """Return this model with another set of obstacles (see :class:`ObstacleSet`)."""
        return self._derived(_obstacles=obstacles)

    def with_padding(self, padding: float) -> 'CollisionModel':
        """Return this model with another padding, m."""
        return self._derived(_padding=_checked_padding(padding))

    def with_joint_positions(self, joint_positions: Mapping[str, float]) -> 'CollisionModel':
        """Return this model with the joints off the chain at other positions (rad or m)."""
        # The same shapes and pairs, placed anew (a tree checks each branch at every position
        # of the others). The new model shares this one's coal tests, and the lock that keeps
        # their calls apart: a test keeps its solver's state between calls.
        model = copy.copy(self)
        model._joint_positions = dict(joint_positions)
        model._place()
        return model

    def _derived(self, **changes) -> 'CollisionModel':
        model = copy.copy(self)
        model.__dict__.update(changes)
        model._lock = threading.Lock()
        model._assemble()
        return model

    # --- properties -----------------------------------------------------------------------

    @property
    def chain(self):
        """Return the chain whose configurations are checked."""
        return self._chain

    @property
    def padding(self) -> float:
        """Margin around every shape, m."""
        return self._padding

    @property
    def obstacles(self) -> ObstacleSet:
        """Return the obstacles in place."""
        return self._obstacles

    @property
    def unchecked_links(self) -> Tuple[str, ...]:
        """Links whose collision geometry could not be loaded."""
        return self._geometry.unchecked_links

    @property
    def zero_contacts(self) -> Tuple[Tuple[str, str], ...]:
        """Return the pairs left unchecked as touching at the zero configuration (no SRDF)."""
        return self._zero_contacts

    @property
    def warnings(self) -> Tuple[str, ...]:
        """Messages for the log: unusable geometry, ignored SRDF pairs, zero contacts."""
        return tuple(self._warnings)

    @property
    def checked_pairs(self) -> Tuple[Tuple[str, str], ...]:
        """Every pair of names (links, obstacle ids) that a check tests, sorted."""
        return tuple(sorted(set(self._pair_names)))

    @property
    def moving_spheres(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """
        Bound every robot shape that moves with the chain by a sphere fixed in its frame.

        :returns: ``(rows, centres, radii)``: the row of the chain's forward frames each shape
            follows (G,), the sphere's centre in that frame (G, 3), m, and its radius (G,), m
            (the shape's bounding box, grown by the padding).
        """
        return self._spheres

    @property
    def has_geometry(self) -> bool:
        """Whether any link has usable collision geometry."""
        return bool(self._links)

    # --- the check ------------------------------------------------------------------------

    def check(self, q, stop_at_first: bool = False) -> CollisionReport:
        """
        Check one configuration of the chain.

        :param q: (N,) joint positions of the chain, rad or m.
        :param stop_at_first: return after the first pair in contact (what a solver needs);
            otherwise every pair in contact is listed.
        :returns: The report.
        :raises InvalidSeedError: ``q`` has the wrong length or non-finite values.
        """
        # Contiguous floats: any other layout would make numba compile another version.
        configuration = np.ascontiguousarray(q, dtype=float)
        if configuration.shape != self._configuration_shape:
            raise InvalidSeedError('a collision check needs %d finite joint positions, got %r'
                                   % (self._chain.num_joints, q))
        if not configuration.flags.writeable:  # the one layout the direct call takes
            configuration = configuration.copy()
        contacts = []
        with self._lock:
            count = self._place_and_select(
                self._segments, self._segment_motion, self._segment_variable, configuration,
                self._table, self._pairs, self._placed, self._padding, self._selected)
            if count > 0:
                self._exact_tests(count, stop_at_first, contacts)
        if count < 0:
            raise InvalidSeedError('a collision check needs %d finite joint positions, got %r'
                                   % (self._chain.num_joints, q))
        if not contacts:
            return self._free
        pairs = tuple(sorted(set(contacts)))
        return CollisionReport(colliding=True, pairs=pairs,
                               unchecked_links=self._geometry.unchecked_links)

    def first_colliding_sample(self, start, end, count: int, last: int) -> int:
        """
        Check samples of a straight line, coarse to fine, as :meth:`check` checks each one.

        Sample ``i`` is ``start + (end - start) * (i / count)``; samples ``1..last`` are
        checked, every 64th first, then the ones halfway, down to every one. One compiled call
        runs the broad phase of :meth:`check` over the samples until one keeps a pair; only
        then coal tests those pairs (as in :meth:`check`), and the compiled call goes on from
        there when none touches. Same samples, same order, same verdicts as calling
        :meth:`check` on each, without a Python call per sample.

        :param start: (N,) the line's start, rad or m.
        :param end: (N,) its end.
        :param count: > 0, the line's samples: sample ``count`` is ``end``.
        :param last: the last sample checked (at most ``count``).
        :returns: The first colliding sample in that order, or 0 when every one is free.
        :raises InvalidSeedError: ``start`` or ``end`` of the wrong length, or a sample that is
            not finite.
        """
        ends = [np.array(value, dtype=float) for value in (start, end)]  # contiguous copies
        if any(value.shape != self._configuration_shape for value in ends):
            raise InvalidSeedError('a collision check needs %d finite joint positions, got %r '
                                   'and %r' % (self._chain.num_joints, start, end))
        resume = np.array([64, 64], dtype=np.int64)
        sample = np.empty(self._configuration_shape)
        while True:
            contacts: List = []
            with self._lock:
                kept = self._first_overlap_on_line(
                    self._segments, self._segment_motion, self._segment_variable, ends[0],
                    ends[1], int(count), int(last), resume, self._table, self._pairs,
                    self._placed, self._padding, self._selected, sample)
                if kept > 0:
                    self._exact_tests(kept, True, contacts)
            if kept < 0:
                raise InvalidSeedError('a collision check needs %d finite joint positions, '
                                       'got %r' % (self._chain.num_joints, sample))
            if kept == 0 or contacts:
                return int(resume[1])
            resume[1] += resume[0]  # the boxes overlapped, the shapes do not: go on

    def obstacle_distance(self, q) -> float:
        """
        Return the clearance between the chain's links and the obstacles at ``q``.

        Servoing slows down with it. Links against links are not measured here (:meth:`check`
        covers them); the padding is not subtracted.

        :param q: (N,) joint positions of the chain, rad or m.
        :returns: The smallest distance between a link's shape and an obstacle, m (negative
            in penetration, as coal reports it); inf without obstacles.
        :raises InvalidSeedError: ``q`` has the wrong length or non-finite values.
        """
        configuration = np.array(q, dtype=float)
        if configuration.shape != self._configuration_shape \
                or not np.all(np.isfinite(configuration)):
            raise InvalidSeedError('a distance query needs %d finite joint positions, got %r'
                                   % (self._chain.num_joints, q))
        nearest = math.inf
        with self._lock:
            self._place_and_select(
                self._segments, self._segment_motion, self._segment_variable, configuration,
                self._table, self._pairs, self._placed, self._padding, self._selected)
            for index in self._obstacle_pairs:
                first, second = self._pairs[index]
                self._transforms[first].setTransform(self._rotation_views[first],
                                                     self._translation_views[first])
                self._distance_result.clear()
                nearest = min(nearest, self._distances[index](
                    self._transforms[first], self._transforms[second], self._distance_request,
                    self._distance_result))
        return float(nearest)

    def _exact_tests(self, count: int, stop_at_first: bool, contacts: List) -> None:
        """Run coal on the first ``count`` selected pairs (under the lock)."""
        placed = set()
        rotations, translations = self._rotation_views, self._translation_views
        transforms, rows = self._transforms, self._rows
        request, result, pairs = self._request, self._result, self._pairs
        for k in range(count):
            index = self._selected[k]
            first, second = pairs[index]
            for shape in (first, second):
                if shape not in placed and rows[shape] != FIXED:
                    transforms[shape].setTransform(rotations[shape], translations[shape])
                    placed.add(shape)
            hull_test = self._hull_tests[index]
            if hull_test is not None:
                result.clear()
                if not hull_test(transforms[first], transforms[second], self._hull_request,
                                 result):
                    continue  # the hulls are apart, so are the meshes inside them
            result.clear()
            if self._tests[index](transforms[first], transforms[second], request, result):
                contacts.append(self._pair_names[index])
                if stop_at_first:
                    return

    # --- assembly -------------------------------------------------------------------------

    def _assemble(self) -> None:
        """Lay out the shapes and pairs to check, place them, and make their coal objects."""
        link_names = set(self._robot_model.link_names)
        clashes = [name for name in self._obstacles.ids if name in link_names]
        if clashes:
            raise InvalidObstacleError('obstacle ids must differ from link names; %s'
                                       % ', '.join("'%s'" % name for name in clashes))
        self._layout = lay_out(self._geometry, self._shapes, self._hulls, self._anchors,
                               self._obstacles, self._allowed)
        self._rows, self._pairs = self._layout.rows, self._layout.pairs
        arrays = self._chain.arrays
        self._segments = arrays.segments
        self._segment_motion = arrays.segment_motion
        self._segment_variable = arrays.segment_variable
        self._configuration_shape = (self._chain.num_joints,)
        self._place()
        # Called without numba's type dispatch, which costs more than the placement itself:
        # every argument but the configuration is this model's own, of fixed types. A model
        # derived from another (other joint positions, obstacles or padding) has arguments of
        # the same types: it keeps the other's machine code rather than typing them again.
        if getattr(self, '_place_and_select', None) is None:
            self._place_and_select = specialised(
                place_and_select, self._segments, self._segment_motion, self._segment_variable,
                np.zeros(self._chain.num_joints), self._table, self._pairs, self._placed,
                self._padding, self._selected)
            configuration = np.zeros(self._chain.num_joints)
            self._first_overlap_on_line = specialised(
                first_overlap_on_line, self._segments, self._segment_motion,
                self._segment_variable, configuration, configuration, 1, 1,
                np.zeros(2, dtype=np.int64), self._table, self._pairs, self._placed,
                self._padding, self._selected, configuration)
        self._assemble_coal()

    def _place(self) -> None:
        """Pose the shapes at this model's joint positions, in arrays of its own."""
        placement = place(self._layout, self._geometry, self._anchors.at(self._joint_positions),
                          self._padding)
        self._table, self._spheres = placement.table, placement.spheres
        # Fixed shapes keep these poses; the compiled call overwrites the moving ones.
        self._placed = placed_poses(placement.offsets)
        # Views of each placed rotation (3, 3) and translation (3,), contiguous, for coal.
        count = len(self._rows)
        self._rotation_views = [self._placed[g, :9].reshape(3, 3) for g in range(count)]
        self._translation_views = [self._placed[g, 9:] for g in range(count)]
        self._selected = np.empty(len(self._pairs), dtype=np.int64)
        self._transforms = []
        for row, offset in zip(self._rows, placement.offsets):
            transform = coal.Transform3s()
            if row == FIXED:
                transform.setTransform(offset[:3, :3], offset[:3, 3])
            self._transforms.append(transform)

    def _assemble_coal(self) -> None:
        """Make the coal tests of the pairs (shared with models placed anew, see above)."""
        shapes, hulls, pairs = self._layout.shapes, self._layout.hulls, self._layout.pairs
        names, robot_count = self._layout.names, self._layout.robot_count
        # The tests hold bare pointers to the geometries: the model must keep them alive.
        self._geometries = [shape[0] for shape in shapes]
        self._tests = [coal.ComputeCollision(shapes[a][0], shapes[b][0]) for a, b in pairs]
        # A pair with a non-convex mesh is first tested on hulls (a convex shape is its own).
        self._hull_tests = [
            None if hulls[a] is None and hulls[b] is None else coal.ComputeCollision(
                shapes[a][0] if hulls[a] is None else hulls[a],
                shapes[b][0] if hulls[b] is None else hulls[b])
            for a, b in pairs]
        self._pair_names = [tuple(sorted((names[a], names[b]))) for a, b in pairs]
        # Obstacles come after the links: a pair whose second shape is one is a clearance.
        self._obstacle_pairs = [k for k, (a, b) in enumerate(pairs) if b >= robot_count]
        self._distances = {k: coal.ComputeDistance(shapes[pairs[k][0]][0], shapes[pairs[k][1]][0])
                           for k in self._obstacle_pairs}
        self._distance_request = coal.DistanceRequest()
        self._distance_result = coal.DistanceResult()
        # Whether shapes touch, not where: contact points on meshes cost many times more.
        self._request = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, 1)
        self._request.security_margin = self._padding
        # A micrometre more for the hulls: a grazing contact that GJK's tolerance might call
        # free goes on to the exact test of the meshes.
        self._hull_request = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, 1)
        self._hull_request.security_margin = self._padding + _HULL_MARGIN
        self._free = CollisionReport(colliding=False,
                                     unchecked_links=self._geometry.unchecked_links)
        self._result = coal.CollisionResult()

    def __repr__(self) -> str:
        """Summarise the model."""
        return ('CollisionModel(%s -> %s, %d links with geometry, %d pairs checked, %d '
                'obstacles, padding %g m)' % (self._chain.base_link, self._chain.tip_link,
                                              len(self._links), len(self._pairs),
                                              len(self._obstacles), self._padding))


def _checked_padding(padding: float) -> float:
    try:
        value = float(padding)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or value < 0.0:
        raise CollisionGeometryError('collision padding must be a finite number of metres >= '
                                     '0, got %r' % (padding,))
    return value
