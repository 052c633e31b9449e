# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
What the ik_node knows of the robot, without ROS: model, collision scene, joint states, commands.

:class:`RobotState` is the half of :class:`~.pipeline.IKEngine` that holds state; the pipeline
half turns requests into outcomes with it. Every method is thread-safe.
"""

import threading
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .collision_check import place_obstacle
from .collision_scene import CollisionScene
from .description_loader import description_size_problem
from .frames import ExternalLookup
from .joint_state_store import JointStateStore
from .judges.continuity import moved_away
from .model_holder import ModelHolder
from .placement import OPEN_LOOP_NOTE, Placement, start_and_notes
from .settings import NodeSettings
from ..collision import CollisionModel, Obstacle, ObstacleSet
from ..exceptions import RobotModelError
from ..kinematics import Chain, RobotModel

# OPEN_LOOP_NOTE is defined in placement.py; it stays importable from here.
__all__ = ['OPEN_LOOP_NOTE', 'RobotState']


class RobotState:
    """Robot model, collision scene, joint states and the last command, shared by threads."""

    def __init__(self, *, external_lookup: Optional[ExternalLookup] = None,
                 clock: Callable[[], float] = time.monotonic,
                 collisions: Optional[CollisionScene] = None) -> None:
        """
        Start without a robot model.

        :param external_lookup: Resolves frames that are not links of the description.
        :param clock: Seconds on a monotonic clock, for the age of joint states.
        :param collisions: The collision inputs (geometry, SRDF, obstacles); a new, empty
            scene when ``None``.
        """
        self._lock = threading.Lock()
        self._external_lookup = external_lookup
        #: The collision inputs: geometry, SRDF, obstacles.
        self.collisions = collisions if collisions is not None else CollisionScene()
        self._models = ModelHolder(on_adopt=self._forget_other_robots)
        #: The joint states: positions, velocities and when each arrived.
        self.joint_states = JointStateStore(clock)
        self._last_command: Optional[Tuple[Tuple[str, ...], np.ndarray]] = None

    # Robot model -----------------------------------------------------------------------------

    @property
    def has_model(self) -> bool:
        """Tell whether a valid robot description was loaded."""
        return self._models.has_model

    def load_description(self, urdf_xml: str, base_link: str, tip_link: str) -> Chain:
        """
        Replace the robot model, keeping the old one unless the new one gives the chain.

        :param urdf_xml: The URDF text.
        :param base_link: Chain base; empty means the description's root link.
        :param tip_link: Chain tip.
        :returns: The new chain.
        :raises RobotModelError: If the XML is too large, not a usable URDF or lacks the links.
        """
        return self.load_description_for(urdf_xml, lambda: (base_link, tip_link))

    def load_description_for(self, urdf_xml: str,
                             current_links: Callable[[], Tuple[str, str]]) -> Chain:
        """
        Parse a description and its collision geometry; adopt both once they are ready.

        The links are those configured once the description is parsed.

        Solves go on with the old model and its geometry while this runs (see
        :class:`.model_holder.ModelHolder`): a mesh that takes seconds to load delays no answer.

        :param urdf_xml: The URDF text.
        :param current_links: Returns ``(base_link, tip_link)`` as configured now.
        :returns: The new chain.
        :raises RobotModelError: If the XML is too large (see
            :data:`.description_loader.MAX_DESCRIPTION_BYTES`), not a usable URDF or lacks the
            links.
        """
        too_large = description_size_problem(urdf_xml)
        if too_large:
            raise RobotModelError(too_large)
        return self._models.load(
            urdf_xml, current_links,
            prepare=lambda model: self.collisions.load_geometry(model, urdf_xml))

    def _forget_other_robots(self, model: RobotModel, chain: Chain) -> None:
        self.collisions.forget_other_robots(model)
        self.joint_states.restrict_to(model.joint_names)
        with self._lock:
            if (self._last_command is not None
                    and self._last_command[0] != tuple(chain.joint_names)):
                self._last_command = None

    def check_links(self, base_link: str, tip_link: str) -> None:
        """
        Check that new base and tip links give a chain, before the parameters change.

        :raises RobotModelError: If no received description gives that chain.
        """
        self._models.check_links(base_link, tip_link)

    def adopt_links(self, base_link: str, tip_link: str) -> None:
        """Follow base and tip links that were changed, after :meth:`check_links` passed."""
        self._models.adopt_links(base_link, tip_link)

    def chain(self, base_link: str, tip_link: str) -> Chain:
        """
        Return the chain between two links of the current model, built once and cached.

        :raises RobotModelError: If there is no model, or it lacks the links.
        """
        return self._models.chain_and_model(base_link, tip_link)[0]

    # What collisions are checked against -------------------------------------------------------

    def collision_warnings(self, base_link: str, tip_link: str) -> Tuple[str, ...]:
        """
        Build the collision model of a chain ahead of its first solve; give its warnings.

        :returns: Messages for the log: unusable geometry, ignored SRDF pairs, pairs in contact
            at the zero configuration.
        :raises RobotModelError: If there is no model, or it lacks the links.
        """
        chain, model = self._models.chain_and_model(base_link, tip_link)
        return self.collisions.warnings(model, chain)

    def collision_model(self, settings: NodeSettings) -> Optional[CollisionModel]:
        """
        Give the collision model of the configured chain as the scene is now (for paths).

        :returns: The model, or ``None`` without a description or collision geometry.
        """
        try:
            chain, model = self._models.chain_and_model(settings.base_link, settings.tip_link)
        except RobotModelError:
            return None
        return self.collisions.model_for(model, chain, self.joint_states.positions(),
                                         settings.collision_padding)

    def collision_summary(self) -> str:
        """Say in one line what collisions are checked against, and the latest refusal."""
        return self.collisions.summary(self._models.current_model())

    def apply_obstacle(self, obstacle: Obstacle, frame_id: str,
                       settings: NodeSettings) -> ObstacleSet:
        """
        Add, move or remove an obstacle posed in a frame.

        :param obstacle: The obstacle, its pose in ``frame_id``.
        :param frame_id: Empty for the chain's base, a link of the description (posed at the
            current joint states) or a frame of the external lookup (not waited for).
        :param settings: The node's parameters (the chain's links).
        :returns: The obstacles in place afterwards.
        :raises InvalidObstacleError: If it is refused (an unknown frame too); every obstacle
            in place stays, and the refusal is remembered for the summary.
        """
        return place_obstacle(self.collisions, obstacle, frame_id,
                              lambda: self._models.chain_and_model(settings.base_link,
                                                                   settings.tip_link),
                              self.joint_states.positions(), self._external_lookup)

    @property
    def external_lookup(self) -> Optional[ExternalLookup]:
        """Return what resolves frames that are not links of the description, or None."""
        return self._external_lookup

    def last_command(self) -> Optional[Tuple[Tuple[str, ...], np.ndarray]]:
        """Return the last command as (joint names, a copy of its (N,) positions), or None."""
        with self._lock:
            if self._last_command is None:
                return None
            return self._last_command[0], self._last_command[1].copy()

    def set_last_command(self, joint_names: Sequence[str], q: np.ndarray) -> None:
        """Remember ``q`` (rad or m, one per name) as the last command."""
        with self._lock:
            self._last_command = (tuple(joint_names), np.array(q, dtype=float))

    def forget_command(self) -> None:
        """Forget the last command (one that was planned and then not sent)."""
        with self._lock:
            self._last_command = None

    # Where the robot is ----------------------------------------------------------------------

    def current_configuration(self, chain: Chain) -> Tuple[np.ndarray, List[str]]:
        """
        Where the chain is now, as best known.

        Per joint: the latest joint state; else the last command; else the middle of the limits.
        The result is clipped into the limits, since encoders may read slightly outside them.

        :returns: The (N,) configuration, and warnings about joints that joint states lack.
        """
        return self.position_and_notes(chain, self.joint_states.positions())

    def chain_and_model(self, settings: NodeSettings) -> Tuple[Chain, RobotModel]:
        """
        Return the chain of the settings' links and the model it came from, together.

        :raises RobotModelError: no description is loaded, or it lacks those links.
        """
        return self._models.chain_and_model(settings.base_link, settings.tip_link)

    def model(self) -> RobotModel:
        """
        Return the description in use (for a tree of several tips).

        :raises RobotModelError: If there is none (``ChainRefusedError`` when the only one
            received lacks the configured chain).
        """
        return self._models.model()

    def where(self, chain: Chain, joint_positions: Dict[str, float]) -> np.ndarray:
        """Return where ``chain`` is given these joint positions (see current_configuration)."""
        return self.position_and_notes(chain, joint_positions)[0]

    def position_and_notes(self, chain: Chain, joint_positions: Dict[str, float]
                           ) -> Tuple[np.ndarray, List[str]]:
        """
        Return where ``chain`` is given these joint positions, and notes on missing joints.

        Per joint: the joint position given; else the last command; else the middle of the
        limits; clipped into the limits.
        """
        return start_and_notes(chain, joint_positions, self._last_command_of(chain))

    def _last_command_of(self, chain: Chain) -> Optional[np.ndarray]:
        with self._lock:
            if self._last_command is None or self._last_command[0] != tuple(chain.joint_names):
                return None
            return self._last_command[1].copy()

    def placement(self, settings: NodeSettings, *, check_collisions: bool,
                  unchecked: str = '') -> Placement:
        """
        Read where the robot is, once, for one request (see :mod:`.placement`).

        :param settings: The node's parameters (the chain's links, the padding, the continuity
            bound).
        :param check_collisions: Whether the request is solved and judged with collisions.
        :param unchecked: Why not, when ``check_collisions`` is false.
        :returns: The placement: chain and model, joint states and their ages, the start (per
            joint: the joint state, else the last command, else the middle of the limits), the
            drag reference, the collision model and the scene's summary.
        :raises RobotModelError: If no description is loaded, or it lacks the links.
        :raises CollisionGeometryError: If the padding is refused by the collision model.
        """
        with self._lock:
            last_command = self._last_command
        chain, model = self._models.chain_and_model(settings.base_link, settings.tip_link)
        readings = self.joint_states.readings(chain.joint_names)
        collision, summary = self.collisions.placed(model, chain, readings.positions,
                                                    settings.collision_padding,
                                                    check=check_collisions)
        if check_collisions and collision is None:
            unchecked = 'the robot description has no usable collision geometry'
        last = None
        if last_command is not None and last_command[0] == tuple(chain.joint_names):
            last = last_command[1].copy()
        start, notes = start_and_notes(chain, readings.positions, last)
        if not readings.positions:
            notes.append(OPEN_LOOP_NOTE)
        # While a goal is dragged the joint states lag behind the commands: the last command
        # is where the drag is. When the joint states are farther from it than an arm lags
        # (see continuity.moved_away), something else moved the robot.
        if last is not None and np.max(np.abs(start - last), initial=0.0) > moved_away(settings):
            last = None
        return Placement(chain=chain, model=model, joints=readings.positions,
                         ages=readings.ages, read_at=readings.read_at, collision=collision,
                         unchecked='' if collision is not None else unchecked,
                         collision_summary=summary, start=start, drag_reference=last,
                         notes=tuple(notes))

    # The pipeline ----------------------------------------------------------------------------
