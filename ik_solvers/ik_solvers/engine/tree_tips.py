# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
The tips of the node's tree and of a request for several end effectors, checked before a solve.

The node's tips are its ``tip_links`` parameter, or ``tip_link`` alone while that is empty. A
request names some of them, each once; the others hold their pose. The tree is cut once per
description and set of tips (:class:`TreeCache`). Every refusal is an
:class:`~ik_solvers.exceptions.InvalidTipsError` (error code ``INVALID_TIPS``) naming the
tip and why.
"""

import threading
from typing import Optional, Sequence, Tuple

from .settings import NodeSettings
from ..exceptions import InvalidTipsError, RobotModelError
from ..kinematics import RobotModel
from ..kinematics.tree import KinematicTree

__all__ = ['TreeCache', 'check_request_tips', 'configured_tips']


def configured_tips(settings: NodeSettings) -> Tuple[str, ...]:
    """
    Return the node's tips: ``tip_links``, or ``(tip_link,)`` while it is empty.

    :raises InvalidTipsError: If neither names a link.
    """
    tips = tuple(settings.tip_links) or ((settings.tip_link,) if settings.tip_link else ())
    if not tips:
        raise InvalidTipsError('the node has no tip: tip_links and tip_link are empty')
    return tips


def check_request_tips(model: RobotModel, requested: Sequence[str],
                       configured: Sequence[str]) -> None:
    """
    Refuse a request's tips unless each is one of the node's tips, named once.

    :param model: The description in use.
    :param requested: The tips the request gives targets for.
    :param configured: The node's tips.
    :raises InvalidTipsError: A tip that is not a link of the description, a tip named twice,
        or a link that is not one of the node's tips.
    """
    links = set(model.link_names)
    seen = set()
    for tip in requested:
        if tip not in links:
            raise InvalidTipsError('tip %r of the request is not a link of the robot '
                                   'description' % _short(tip))
        if tip in seen:
            raise InvalidTipsError('tip %r is listed twice in the request' % tip)
        seen.add(tip)
        if tip not in configured:
            raise InvalidTipsError('%r is a link, but not one of the node\'s tips (%s): set '
                                   'tip_links to include it' % (tip, ', '.join(configured)))


def _short(name: str) -> str:
    return name if len(name) <= 80 else name[:80] + '...'


class TreeCache:
    """The tree of the node's tips, cut once per description, base and tips; thread-safe."""

    def __init__(self) -> None:
        """Start empty."""
        self._lock = threading.Lock()
        self._key: Optional[Tuple[RobotModel, str, Tuple[str, ...]]] = None
        self._tree: Optional[KinematicTree] = None

    def tree(self, model: RobotModel, base_link: str, tips: Sequence[str]) -> KinematicTree:
        """
        Return the tree ``base_link -> tips`` of ``model``.

        :param model: The description in use.
        :param base_link: The base; empty means the description's root link.
        :param tips: The node's tips.
        :raises InvalidTipsError: A tip that is not a link, a tip named twice, or tips that
            share no path to the base (a tip not below it, or without a moving joint).
        """
        base_link = base_link or model.root_link
        tips = tuple(tips)
        with self._lock:
            key, tree = self._key, self._tree
        if key is not None and key[0] is model and key[1:] == (base_link, tips):
            return tree
        links = set(model.link_names)
        for tip in tips:
            if tip not in links:
                raise InvalidTipsError('tip %r of the node\'s tip_links is not a link of the '
                                       'robot description' % _short(tip))
        twice = sorted({tip for tip in tips if tips.count(tip) > 1})
        if twice:
            raise InvalidTipsError('tip_links names %s twice' % ', '.join(twice))
        try:
            tree = KinematicTree(model, base_link, tips)
        except RobotModelError as error:
            raise InvalidTipsError('the tips %s share no path to base_link %r: %s'
                                   % (', '.join(tips), base_link, error)) from None
        with self._lock:
            self._key, self._tree = (model, base_link, tips), tree
        return tree
