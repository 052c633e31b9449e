# Copyright 2026 The ik_solvers Authors
# SPDX-License-Identifier: Apache-2.0
"""
Which goal markers the goal marker node shows: one per tip of the IK node.

An IK node with one chain (``tip_link``) takes its goal on ``target_pose``; one with several
tips (``tip_links``, two or more) takes each tip's goal on ``target_pose/<tip>``
(:func:`ik_solvers.ros.names.tip_target_topic`). The goal marker node is given the same
parameters and shows one draggable marker per tip, each sending on its tip's topic. Plain
Python: no rclpy here.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence, Tuple

from ..ros.names import TARGET_POSE_TOPIC, tip_target_topic
from .goal_marker_shape import GOAL_MARKER_NAME

__all__ = ['GoalSpec', 'goal_specs', 'split_tip_links']


class GoalSpec(NamedTuple):
    """One goal marker: the tip it moves, the topic its goals go to and the marker's name."""

    tip: str
    target_topic: str
    marker_name: str


def goal_specs(tip_link: str, tip_links: Sequence[str] = ()) -> Tuple[GoalSpec, ...]:
    """
    Return the goal markers for the IK node's tips, in the order of ``tip_links``.

    :param tip_link: The IK node's ``tip_link``: the one marker, on ``target_pose``, named
        ``ik_goal``, while ``tip_links`` has fewer than two tips.
    :param tip_links: The IK node's ``tip_links``. With two or more, one marker per tip, on
        ``target_pose/<tip>``, named ``ik_goal/<tip>``; ``tip_link`` is then ignored, as the
        IK node ignores it. With one, that tip is the chain's tip on ``target_pose``.
    :returns: One spec per marker.
    :raises ValueError: No tip at all, an empty name, or a tip listed twice.
    """
    tips = tuple(tip_links)
    if any(not isinstance(tip, str) or not tip.strip('/') for tip in tips):
        raise ValueError('tip_links must be non-empty link names; got %r' % (tips,))
    twice = sorted({tip for tip in tips if tips.count(tip) > 1})
    if twice:
        raise ValueError('tip_links names %s twice' % ', '.join(twice))
    if len(tips) >= 2:
        return tuple(GoalSpec(tip, tip_target_topic(tip),
                              '%s/%s' % (GOAL_MARKER_NAME, tip.strip('/'))) for tip in tips)
    tip = tips[0] if tips else tip_link
    if not tip:
        raise ValueError('tip_link or tip_links must name the link whose pose the goal '
                         'controls')
    return (GoalSpec(tip, TARGET_POSE_TOPIC, GOAL_MARKER_NAME),)


def split_tip_links(text: str) -> Tuple[str, ...]:
    """
    Read the launch file's ``tip_links`` argument: link names separated by commas or spaces.

    :param text: For example ``'left_tool,right_tool'``; empty (or ``[]``) gives no tips.
    :returns: The names in order, stripped.
    :raises ValueError: A name listed twice.
    """
    names = tuple(name for name in text.strip().strip('[]').replace(',', ' ').split()
                  if name.strip('\'"'))
    names = tuple(name.strip('\'"') for name in names)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError('tip_links names %s twice' % ', '.join(twice))
    return names
