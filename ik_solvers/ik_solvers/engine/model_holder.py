# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The robot model the ik_node solves with, and how a new description or new links replace it.

Parsing a description and building its chain take no lock a solve needs: the old model keeps
serving until the new one is ready, and then model and chain are swapped together.
"""

import sys
import threading
from typing import Callable, Dict, Optional, Tuple

from ..exceptions import ChainRefusedError, RobotModelError
from ..kinematics import Chain, RobotModel

__all__ = ['ModelHolder', 'build_chain']

#: Called with the newly adopted model and its chain, under no lock of the holder.
AdoptionListener = Callable[[RobotModel, Chain], None]


def build_chain(model: RobotModel, base_link: str, tip_link: str) -> Chain:
    """
    Cut the configured chain out of a model.

    :param model: The parsed description.
    :param base_link: Chain base; empty means the description's root link.
    :param tip_link: Chain tip.
    :returns: The chain.
    :raises RobotModelError: If ``tip_link`` is empty, or the model lacks that chain.
    """
    if not tip_link:
        raise RobotModelError('the tip_link parameter is empty')
    return model.chain(base_link or model.root_link, tip_link)


def _refused(model: RobotModel, base_link: str, tip_link: str, error: Exception) -> str:
    # The base as the chain would have used it: empty means the root link.
    return 'robot_description received, but chain %s\u2192%s refused: %s' % (
        base_link or model.root_link, tip_link or '(empty tip_link)', error)


class ModelHolder:
    """Thread-safe holder of the current model, its chains, and a refused candidate."""

    def __init__(self, on_adopt: Optional[AdoptionListener] = None) -> None:
        """
        Create a holder without a model.

        :param on_adopt: Told of every model adopted, before it serves any solve.
        """
        self._lock = threading.Lock()
        # Held while a new model is checked against the links and adopted, so that a change
        # of the links cannot slip in between the check and the adoption.
        self._adoption_lock = threading.Lock()
        self._on_adopt = on_adopt
        self._model: Optional[RobotModel] = None
        # The newest description that parsed but lacked the configured links; adopted when the
        # links are changed to ones it has.
        self._candidate: Optional[RobotModel] = None
        # Why the candidate was refused, for the answers given while there is no model.
        self._refusal = ''
        self._chains: Dict[Tuple[str, str], Chain] = {}

    @property
    def has_model(self) -> bool:
        """Tell whether a valid robot description was adopted."""
        with self._lock:
            return self._model is not None

    def current_model(self) -> Optional[RobotModel]:
        """Return the description in use, or ``None`` before the first."""
        with self._lock:
            return self._model

    def load(self, urdf_xml: str, current_links: Callable[[], Tuple[str, str]],
             prepare: Optional[Callable[[RobotModel], object]] = None) -> Chain:
        """
        Parse a description and adopt it for the links configured once it is parsed.

        :param urdf_xml: The URDF text.
        :param current_links: Returns ``(base_link, tip_link)`` as configured now; called
            after parsing, so that a change of the links during a long parse is followed.
        :param prepare: Called with the parsed model before it is adopted (the collision
            geometry is loaded there), while the current model still serves.
        :returns: The new chain.
        :raises RobotModelError: If the XML is not a usable URDF or lacks the links; the
            current model stays.
        """
        model = RobotModel.from_urdf(urdf_xml)
        if prepare is not None:
            prepare(model)
        with self._adoption_lock:
            base_link, tip_link = current_links()
            try:
                chain = build_chain(model, base_link, tip_link)
            except RobotModelError as error:
                with self._lock:
                    self._candidate = model
                    self._refusal = _refused(model, base_link, tip_link, error)
                raise
            self._adopt(model, base_link, tip_link, chain)
        return chain

    def _adopt(self, model: RobotModel, base_link: str, tip_link: str, chain: Chain) -> None:
        if self._on_adopt is not None:
            self._on_adopt(model, chain)
        with self._lock:
            retired = self._model
            self._model = model
            self._candidate = None
            self._refusal = ''
            self._chains = {(base_link, tip_link): chain}
        # Two references: ``retired`` and getrefcount's argument. More means a solve still
        # uses the old model; it is then freed at once when that solve ends.
        if retired is not None and sys.getrefcount(retired) == 2:
            retired.discard()

    def check_links(self, base_link: str, tip_link: str) -> None:
        """
        Check that new base and tip links give a chain, before the parameters change.

        Passes when no description was received yet. Changes nothing.

        :param base_link: Proposed base link; empty means the root link.
        :param tip_link: Proposed tip link.
        :raises RobotModelError: If no received description gives that chain.
        """
        with self._lock:
            options = [option for option in (self._candidate, self._model) if option is not None]
        errors = []
        for option in options:
            try:
                build_chain(option, base_link, tip_link)
            except RobotModelError as error:
                errors.append(str(error))
                continue
            return
        if errors:
            raise RobotModelError('; '.join(errors))

    def adopt_links(self, base_link: str, tip_link: str) -> None:
        """
        Follow base and tip links that were changed, after :meth:`check_links` passed.

        A description that was refused for lacking the old links is adopted when it has the
        new ones; otherwise the current model stays.

        :param base_link: New base link; empty means the root link.
        :param tip_link: New tip link.
        """
        with self._adoption_lock:
            with self._lock:
                candidate = self._candidate
            if candidate is None:
                return
            try:
                chain = build_chain(candidate, base_link, tip_link)
            except RobotModelError:
                return
            self._adopt(candidate, base_link, tip_link, chain)

    def model(self) -> RobotModel:
        """
        Return the description in use.

        :raises ChainRefusedError: If the only description received lacks the chain.
        :raises RobotModelError: If there is none.
        """
        with self._lock:
            model, refusal = self._model, self._refusal
        if model is None:
            if refusal:
                raise ChainRefusedError(refusal)
            raise RobotModelError('no valid robot_description received yet')
        return model

    def chain_and_model(self, base_link: str, tip_link: str) -> Tuple[Chain, RobotModel]:
        """
        Return the chain between two links and the model it was cut from, as one snapshot.

        The chain is built once per pair of links and cached until the model changes.

        :param base_link: Chain base; empty means the root link.
        :param tip_link: Chain tip.
        :returns: ``(chain, model)``.
        :raises ChainRefusedError: If the only description received lacks the chain.
        :raises RobotModelError: If there is no model, or it lacks the links.
        """
        with self._lock:
            model, chains, refusal = self._model, self._chains, self._refusal
        if model is None:
            if refusal:
                raise ChainRefusedError(refusal)
            raise RobotModelError('no valid robot_description received yet')
        key = (base_link, tip_link)
        chain = chains.get(key)
        if chain is None:
            chain = build_chain(model, base_link, tip_link)
            with self._lock:
                # Cached only if the model did not change while the chain was built.
                if self._model is model:
                    self._chains[key] = chain
        return chain, model
